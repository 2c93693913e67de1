//! Reading a config from text or a file: YAML → `${VAR}` expansion → validation.

use std::io::Read;
use std::path::Path;

use super::env::{Env, UnsetVariable, expand};
use super::error::{self, ConfigError, ConfigWarning, Problem};
use super::key_count::{KeyCount, is_within};
use super::limits::LimitAuthority;
use super::parse::{LimitRules, parse};
use super::schema::Config;
use super::yaml_size::MAX_CONFIG_BYTES;
use super::{docker_fallback, grants, mcp_registry};
use super::{yaml, yaml_size};

/// A config that parsed and validated. Unset `${VAR}`s are kept apart: running needs them,
/// `--validate` only warns about them.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub config: Config,
    pub warnings: Vec<ConfigWarning>,
    pub unset: Vec<UnsetVariable>,
    /// The config's keys: how many massgen acts on, which it ignores.
    pub keys: KeyCount,
}

impl Loaded {
    /// The config for a run; the first unset variable is an error.
    pub fn into_runnable(self) -> Result<(Config, Vec<ConfigWarning>), ConfigError> {
        if let Some(variable) = self.unset.first() {
            return Err(Problem::at(
                variable.loc,
                format!("environment variable `{}` is not set", variable.name),
            )
            .help(format!(
                "export {0}=… in your shell, or add `{0}=…` to ./.env",
                variable.name
            ))
            .in_source(&self.config.source_name));
        }
        Ok((self.config, self.warnings))
    }

    /// The config with unset variables reported as warnings.
    pub fn into_checked(self) -> (Config, Vec<ConfigWarning>) {
        let source = self.config.source_name.clone();
        let mut warnings = self.warnings;
        warnings.extend(self.unset.into_iter().map(|variable| ConfigWarning {
            source_name: source.clone(),
            loc: Some(variable.loc),
            message: format!(
                "environment variable `{}` is not set (needed to run)",
                variable.name
            ),
        }));
        (self.config, warnings)
    }
}

/// A config from text that is not a file in the user's config directory (a shipped
/// example, `--local`'s, an edited view): it may lower limits, not raise them.
pub fn from_text(text: &str, source_name: &str, env: &Env) -> Result<Loaded, ConfigError> {
    from_text_under(text, source_name, env, LimitAuthority::LowerOnly, None)
}

fn from_text_under(
    text: &str,
    source_name: &str,
    env: &Env,
    authority: LimitAuthority,
    config_dir: Option<&Path>,
) -> Result<Loaded, ConfigError> {
    yaml_size::check(text).map_err(|problem| problem.in_source(source_name))?;
    let document = yaml::parse(text).map_err(|error| {
        Problem::at(error.loc, format!("invalid YAML: {}", error.message))
            .help(error.help)
            .in_source(source_name)
    })?;
    let mut root = match document.root {
        Some(root) => root,
        None => {
            return Err(Problem::nowhere("the config is empty")
                .help("start from a shipped example: massgen --example demo/three_agents")
                .in_source(source_name));
        }
    };
    let unset = expand(&mut root, env, text.len() as u64)
        .map_err(|problem| problem.in_source(source_name))?;
    let rules = LimitRules {
        authority,
        command_line: env.command_line_limits(),
    };
    let (mut config, notes) = parse(&root, source_name, rules).map_err(|problems| {
        error::together(problems, source_name).unwrap_or_else(|| {
            Problem::nowhere("the config could not be read")
                .help("check it with massgen --validate")
                .in_source(source_name)
        })
    })?;
    config.granted_paths = grants::collect(&root, &config);
    let cwd = std::env::current_dir().ok();
    super::custom_tools::resolve_paths(
        config
            .agents
            .iter_mut()
            .flat_map(|agent| agent.backend.tools.custom_tools.iter_mut()),
        cwd.as_deref(),
        config_dir,
    );
    mcp_registry::merge_into(&mut config, env);
    let ignored: Vec<String> = notes
        .iter()
        .filter_map(|note| note.ignored.clone())
        .collect();
    let mut warnings: Vec<ConfigWarning> = notes
        .into_iter()
        .map(|note| ConfigWarning {
            source_name: source_name.to_string(),
            loc: note.loc,
            message: note.message,
        })
        .collect();
    warnings.extend(
        docker_fallback::warnings(&config, env)
            .into_iter()
            .map(|(loc, message)| ConfigWarning {
                source_name: source_name.to_string(),
                loc,
                message,
            }),
    );
    if let Some(loc) = document.duplicate_key {
        warnings.push(ConfigWarning {
            source_name: source_name.to_string(),
            loc: Some(loc),
            message: "this key repeats an earlier one in the same mapping; the last value is used \
                      (as MassGen does)"
                .into(),
        });
    }
    // A variable used only inside an ignored block is not needed to run.
    let (unneeded, unset): (Vec<_>, Vec<_>) = unset
        .into_iter()
        .partition(|variable| ignored.iter().any(|path| is_within(&variable.path, path)));
    let keys = KeyCount::of(&root, &ignored);
    warnings.extend(unneeded.into_iter().map(|variable| ConfigWarning {
        source_name: source_name.to_string(),
        loc: Some(variable.loc),
        message: format!(
            "environment variable `{}` is not set (not needed: `{}` is ignored)",
            variable.name, variable.path
        ),
    }));
    Ok(Loaded {
        config,
        warnings,
        unset,
        keys,
    })
}

pub fn from_file(path: &Path, env: &Env) -> Result<Loaded, ConfigError> {
    let source_name = path.display().to_string();
    let text = read_config(path).map_err(|problem| problem.in_source(&source_name))?;
    from_text_under(
        &text,
        &source_name,
        env,
        LimitAuthority::of_file(path),
        path.parent(),
    )
}

/// The file's text: a regular file of at most [`MAX_CONFIG_BYTES`], in UTF-8.
fn read_config(path: &Path) -> Result<String, Problem> {
    let cannot_read = |error: std::io::Error| {
        Problem::nowhere(format!("cannot read the config: {error}"))
            .help("check the path, or list shipped configs with --list-examples")
    };
    let metadata = std::fs::metadata(path).map_err(cannot_read)?;
    if !metadata.is_file() {
        return Err(Problem::nowhere(format!(
            "is {}, not a config file",
            super::path_rules::describe_kind(&metadata)
        ))
        .help("give the path of a YAML file"));
    }
    let too_big = || {
        Problem::nowhere(format!(
            "the config is larger than {} MiB, the most massgen reads",
            MAX_CONFIG_BYTES / (1024 * 1024)
        ))
        .help("a config is a few kilobytes; keep long prompts and data in files the agents read")
    };
    if metadata.len() > MAX_CONFIG_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    crate::bounded_file::open_regular(path)
        .and_then(|file| file.take(MAX_CONFIG_BYTES + 1).read_to_end(&mut bytes))
        .map_err(cannot_read)?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|error| {
        let offset = error.utf8_error().valid_up_to();
        Problem::nowhere(format!("the config is not valid UTF-8 (at byte {offset})"))
            .help("save the file as UTF-8")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_variables_in_ignored_blocks_only_warn() {
        let yaml = "agents:\n  - id: a\n    backend:\n      type: scripted\n      agent_config:\n        \
                    - {name: s, env: {KEY: \"${UNSET_IN_IGNORED_BLOCK}\"}}\n      api_key: \"${UNSET_USED}\"\n";
        let loaded = from_text(yaml, "t.yaml", &Env::default()).unwrap();
        assert_eq!(loaded.unset.len(), 1);
        assert_eq!(loaded.unset[0].name, "UNSET_USED");
        assert!(
            loaded
                .warnings
                .iter()
                .any(|w| w.message.contains("UNSET_IN_IGNORED_BLOCK")
                    && w.message
                        .contains("agents[0].backend.agent_config[0].env.KEY")),
            "{:?}",
            loaded.warnings
        );
    }

    #[test]
    fn paths_nest_by_key_and_index() {
        assert!(is_within("a.b.c", "a.b"));
        assert!(is_within("a.b[0]", "a.b"));
        assert!(is_within("a.b", "a.b"));
        assert!(!is_within("a.bc", "a.b"));
    }
}

//! Reading a config from text or a file: YAML → `${VAR}` expansion → validation.

use std::path::Path;

use super::env::{Env, UnsetVariable, expand};
use super::error::{ConfigError, ConfigWarning, Problem};
use super::parse::parse;
use super::schema::Config;
use super::yaml;

/// A config that parsed and validated. Unset `${VAR}`s are kept apart: running needs them,
/// `--validate` only warns about them.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub config: Config,
    pub warnings: Vec<ConfigWarning>,
    pub unset: Vec<UnsetVariable>,
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

pub fn from_text(text: &str, source_name: &str, env: &Env) -> Result<Loaded, ConfigError> {
    let mut root = match yaml::parse(text) {
        Ok(Some(root)) => root,
        Ok(None) => {
            return Err(Problem::nowhere("the config is empty")
                .help("start from a shipped example: massgen --example demo/three_agents")
                .in_source(source_name));
        }
        Err(error) => {
            return Err(
                Problem::at(error.loc, format!("invalid YAML: {}", error.message))
                    .help(error.help)
                    .in_source(source_name),
            );
        }
    };
    let unset = expand(&mut root, env).map_err(|problem| problem.in_source(source_name))?;
    let (config, notes) =
        parse(&root, source_name).map_err(|problem| problem.in_source(source_name))?;
    let warnings = notes
        .into_iter()
        .map(|note| ConfigWarning {
            source_name: source_name.to_string(),
            loc: note.loc,
            message: note.message,
        })
        .collect();
    Ok(Loaded {
        config,
        warnings,
        unset,
    })
}

pub fn from_file(path: &Path, env: &Env) -> Result<Loaded, ConfigError> {
    let source_name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| {
        Problem::nowhere(format!("cannot read the config: {error}"))
            .help("check the path, or list shipped configs with --list-examples")
            .in_source(&source_name)
    })?;
    from_text(&text, &source_name, env)
}

//! Environment variables for configs: the process environment, then `.env` files, and
//! `${VAR}` expansion over every string of a config; with them, the `--limit` values every
//! config of the run is read under.
//!
//! `.env` values are read into a map and never written into the process environment.
//! `.env` files are read with a size bound, and expansion counts what it adds: a config
//! never grows past [`MAX_CONFIG_BYTES`] through its variables.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::error::Problem;
use super::limits::CommandLineLimits;
use super::yaml_size::MAX_CONFIG_BYTES;
use crate::config::yaml_node::{Location, Node, Value};

/// The largest `.env` file read: it holds a few keys.
pub const MAX_DOTENV_BYTES: u64 = crate::bounded_file::MIB;

/// Where variables come from, in order of precedence.
#[derive(Clone, Debug, Default)]
pub struct Env {
    process: HashMap<String, String>,
    dotenv: HashMap<String, String>,
    command_line_limits: CommandLineLimits,
    /// Whether a Docker daemon answers, asked only of a config that runs commands in
    /// Docker; unset, none is assumed.
    docker_probe: Option<fn() -> bool>,
}

/// A `${VAR}` whose variable is not set anywhere. It is left in the text as written.
#[derive(Clone, Debug, PartialEq)]
pub struct UnsetVariable {
    pub name: String,
    pub loc: Location,
    /// The dotted key path of the value that uses it (`agents[0].backend.api_key`).
    pub path: String,
}

impl Env {
    /// The process environment plus `.env` files: `./.env`, then `<user config dir>/.env`,
    /// then `~/.massgen/.env`; the first place that sets a variable wins.
    /// Returns warnings for `.env` lines that could not be read.
    pub fn load(cwd: &Path) -> (Self, Vec<String>) {
        let mut env = Self {
            // `vars()` panics on a variable that is not UTF-8 (`PWD` in such a directory);
            // those cannot name keys or settings, so they are left out.
            process: std::env::vars_os()
                .filter_map(|(name, value)| {
                    Some((name.into_string().ok()?, value.into_string().ok()?))
                })
                .collect(),
            dotenv: HashMap::new(),
            command_line_limits: CommandLineLimits::default(),
            docker_probe: None,
        };
        let mut warnings = Vec::new();
        for file in dotenv_files(cwd) {
            if std::fs::symlink_metadata(&file).is_err() {
                continue;
            }
            let text = match crate::bounded_file::read_to_string(&file, MAX_DOTENV_BYTES) {
                Ok(text) => text,
                Err(error) => {
                    warnings.push(format!(
                        "{}: not read: {error}",
                        crate::sanitize::escape_for_terminal(&file.display().to_string())
                    ));
                    continue;
                }
            };
            for (index, line) in dotenvy::from_read_iter(text.as_bytes()).enumerate() {
                match line {
                    Ok((key, value)) => {
                        env.dotenv.entry(key).or_insert(value);
                    }
                    // dotenvy's message quotes the line, which may hold a key.
                    Err(_) => warnings.push(format!(
                        "{}: entry {} cannot be parsed and is skipped (its text is not shown, \
                         as it may hold a secret)",
                        crate::sanitize::escape_for_terminal(&file.display().to_string()),
                        index + 1
                    )),
                }
            }
        }
        (env, warnings)
    }

    /// This environment with the run's `--limit` values, which every config loaded with it
    /// is read under.
    pub fn with_command_line_limits(mut self, limits: CommandLineLimits) -> Self {
        self.command_line_limits = limits;
        self
    }

    pub fn command_line_limits(&self) -> &CommandLineLimits {
        &self.command_line_limits
    }

    /// An environment with exactly these variables (tests, embedding).
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        Self {
            process: pairs
                .into_iter()
                .map(|(key, value)| (key.to_string(), value.to_string()))
                .collect(),
            dotenv: HashMap::new(),
            command_line_limits: CommandLineLimits::default(),
            docker_probe: None,
        }
    }

    /// This environment with a way to ask whether a Docker daemon answers.
    pub fn with_docker_probe(mut self, probe: fn() -> bool) -> Self {
        self.docker_probe = Some(probe);
        self
    }

    /// Whether a Docker daemon answers (false when no probe was given).
    pub fn docker_answers(&self) -> bool {
        self.docker_probe.is_some_and(|probe| probe())
    }

    /// Some `*_API_KEY` variable is set, in the process or a `.env` file.
    pub fn has_any_api_key(&self) -> bool {
        self.process
            .iter()
            .chain(&self.dotenv)
            .any(|(name, value)| name.ends_with("_API_KEY") && !value.trim().is_empty())
    }

    /// Every variable, the process's winning over `.env` files'.
    pub fn variables(&self) -> Vec<(&str, &str)> {
        let mut all: Vec<(&str, &str)> = self
            .process
            .iter()
            .map(|(name, value)| (name.as_str(), value.as_str()))
            .collect();
        all.extend(
            self.dotenv
                .iter()
                .filter(|(name, _)| !self.process.contains_key(*name))
                .map(|(name, value)| (name.as_str(), value.as_str())),
        );
        all
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.process
            .get(name)
            .or_else(|| self.dotenv.get(name))
            .map(String::as_str)
            .filter(|value| !value.is_empty())
    }
}

fn dotenv_files(cwd: &Path) -> Vec<PathBuf> {
    let mut files = vec![cwd.join(".env")];
    if let Some(dir) = super::user_config_dir() {
        files.push(dir.join(".env"));
    }
    if let Some(home) = directories::BaseDirs::new() {
        files.push(home.home_dir().join(".massgen").join(".env"));
    }
    files
}

/// Replaces `${VAR}` in every string value of `node`. Unset variables stay as written and
/// are returned; malformed references are errors. `text_bytes` is the size of the text
/// `node` was read from: with what expansion adds, it may not pass [`MAX_CONFIG_BYTES`].
pub fn expand(node: &mut Node, env: &Env, text_bytes: u64) -> Result<Vec<UnsetVariable>, Problem> {
    let mut expansion = Expansion {
        env,
        unset: Vec::new(),
        room: MAX_CONFIG_BYTES.saturating_sub(text_bytes),
    };
    expansion.node(node, "")?;
    Ok(expansion.unset)
}

struct Expansion<'a> {
    env: &'a Env,
    unset: Vec<UnsetVariable>,
    /// Bytes expansion may still add before the config passes [`MAX_CONFIG_BYTES`].
    room: u64,
}

impl Expansion<'_> {
    /// `path` is the node's dotted key path (`agents[0].backend.api_key`).
    fn node(&mut self, node: &mut Node, path: &str) -> Result<(), Problem> {
        let loc = node.loc;
        match &mut node.value {
            Value::Str(text) if text.contains("${") => {
                let before = self.unset.len();
                *text = self.text(text, loc, path)?;
                for variable in &mut self.unset[before..] {
                    variable.path = path.to_string();
                }
            }
            Value::Seq(items) => {
                for (index, item) in items.iter_mut().enumerate() {
                    self.node(item, &format!("{path}[{index}]"))?;
                }
            }
            Value::Map(entries) => {
                for entry in entries {
                    let child = if path.is_empty() {
                        entry.key.clone()
                    } else {
                        format!("{path}.{}", entry.key)
                    };
                    self.node(&mut entry.value, &child)?;
                }
            }
            Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Str(_) => {}
        }
        Ok(())
    }

    /// The value's text expanded. Errors never quote the text: it may be a key.
    fn text(&mut self, text: &str, loc: Location, path: &str) -> Result<String, Problem> {
        let field = if path.is_empty() {
            "the value".to_string()
        } else {
            format!("`{path}`")
        };
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let character = text[..text.len() - rest.len() + start].chars().count() + 1;
            let after = &rest[start + 2..];
            let Some(end) = after.find('}') else {
                return Err(Problem::at(
                    loc,
                    format!(
                        "{field} has a `${{` with no closing `}}` (character {character} of \
                         the value; the value is not shown, as it may be a key)"
                    ),
                )
                .help(
                    "write environment references as ${NAME}; a literal `${` cannot be written",
                ));
            };
            let name = &after[..end];
            if !is_variable_name(name) {
                return Err(Problem::at(
                    loc,
                    format!(
                        "{field} has a `${{…}}` that is not a valid environment variable \
                         reference (character {character} of the value; the value is not \
                         shown, as it may be a key)"
                    ),
                )
                .help(
                    "names use letters, digits and `_`, and do not start with a digit: \
                     ${OPENAI_API_KEY}",
                ));
            }
            match self.env.get(name) {
                Some(value) => {
                    let added = (value.len() as u64).saturating_sub(name.len() as u64 + 3);
                    if added > self.room {
                        return Err(Problem::at(
                            loc,
                            format!(
                                "{field}: with `${{{name}}}` expanded, the config is larger \
                                 than {} MiB, the most massgen reads",
                                MAX_CONFIG_BYTES / (1024 * 1024)
                            ),
                        )
                        .help(
                            "a config and its variables are a few kilobytes; keep long prompts \
                             and data in files the agents read",
                        ));
                    }
                    self.room -= added;
                    out.push_str(value);
                }
                None => {
                    self.unset.push(UnsetVariable {
                        name: name.to_string(),
                        loc,
                        path: String::new(),
                    });
                    out.push_str(&rest[start..start + 2 + end + 1]);
                }
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }
}

fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(first) if first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::yaml::parse;

    #[test]
    fn expands_set_variables_and_reports_unset_ones() {
        let env = Env::from_pairs([("KEY", "sk-123"), ("HOST", "example.org")]);
        let mut doc = parse("a: ${KEY}\nb: [\"https://${HOST}/v1\"]\nc: ${MISSING}\n")
            .unwrap()
            .root
            .unwrap();
        let unset = expand(&mut doc, &env, 0).unwrap();
        assert_eq!(doc.get("a").unwrap().as_str(), Some("sk-123"));
        assert_eq!(doc.get("b").unwrap().to_json()[0], "https://example.org/v1");
        assert_eq!(doc.get("c").unwrap().as_str(), Some("${MISSING}"));
        assert_eq!(unset.len(), 1);
        assert_eq!(unset[0].name, "MISSING");
        assert_eq!(unset[0].loc.line, 3);
        assert_eq!(unset[0].path, "c");
    }

    #[test]
    fn malformed_references_are_errors_with_a_location() {
        let env = Env::default();
        for text in [
            "a: \"${UNCLOSED\"\n",
            "a: \"${}\"\n",
            "a: \"${1ABC}\"\n",
            "a: \"${A-B}\"\n",
        ] {
            let mut doc = parse(text).unwrap().root.unwrap();
            let problem = expand(&mut doc, &env, 0).unwrap_err();
            assert_eq!(problem.loc.unwrap().line, 1, "{text}");
        }
    }

    #[test]
    fn a_bad_dotenv_line_is_reported_without_its_text() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(".env"),
            "GOOD=1\nOPENAI_API_KEY=sk-proj-SECRET123 extra\nLATER=2\n",
        )
        .unwrap();
        let (env, warnings) = Env::load(dir.path());
        assert_eq!(env.get("GOOD"), Some("1"));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(!warnings[0].contains("SECRET"), "{}", warnings[0]);
        assert!(warnings[0].contains("entry 2"), "{}", warnings[0]);
    }

    #[test]
    fn empty_values_count_as_unset() {
        let env = Env::from_pairs([("EMPTY", "")]);
        assert_eq!(env.get("EMPTY"), None);
    }
}

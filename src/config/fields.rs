//! Typed reading of one YAML mapping, with errors that name the key path and location.

use std::time::Duration;

use super::error::{Problem, did_you_mean};
use crate::config::yaml_node::{Entry, Location, Node, Value};

/// A mapping node being read, and the dotted path that leads to it (`agents[1].backend`).
pub struct Fields<'a> {
    pub path: String,
    pub node: &'a Node,
    pub entries: &'a [Entry],
}

impl<'a> Fields<'a> {
    pub fn of(node: &'a Node, path: impl Into<String>) -> Result<Self, Problem> {
        let path = path.into();
        let Value::Map(entries) = &node.value else {
            return Err(not_a_mapping(node, &path));
        };
        Ok(Self {
            path,
            node,
            entries,
        })
    }

    pub fn loc(&self) -> Location {
        self.node.loc
    }

    pub fn key_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// The value under `key`, unless it is absent or an explicit null.
    pub fn get(&self, key: &str) -> Option<&'a Node> {
        #[cfg(test)]
        reads::record(&self.path, key);
        self.node
            .get(key)
            .filter(|node| !matches!(node.value, Value::Null))
    }

    pub fn string(&self, key: &str) -> Result<Option<String>, Problem> {
        let Some(node) = self.get(key) else {
            return Ok(None);
        };
        match &node.value {
            Value::Str(text) => Ok(Some(text.clone())),
            Value::Int(number) => Ok(Some(number.to_string())),
            Value::Float(number) => Ok(Some(number.to_string())),
            Value::Null | Value::Bool(_) | Value::Seq(_) | Value::Map(_) => {
                Err(self.wrong_type(key, node, "text", &format!("{key}: \"…\"")))
            }
        }
    }

    /// An http(s) URL with a host (`base_url`, an MCP server's `url`). A value still
    /// holding an unset `${VAR}` is left for the environment check to report.
    pub fn http_url(&self, key: &str) -> Result<Option<String>, Problem> {
        let Some(url) = self.string(key)? else {
            return Ok(None);
        };
        if url.trim().is_empty() || url.contains("${") {
            return Ok(Some(url));
        }
        match check_http_url(&url) {
            Ok(()) => Ok(Some(url)),
            Err(reason) => Err(Problem::at(
                self.get(key).map_or(self.loc(), |node| node.loc),
                format!(
                    "`{}` is not a usable URL: \"{}\" ({reason})",
                    self.key_path(key),
                    super::masked_url(&url)
                ),
            )
            .help(URL_HELP)),
        }
    }

    /// A string that must be present and not blank.
    pub fn required_string(&self, key: &str, example: &str) -> Result<String, Problem> {
        match self.string(key)? {
            Some(text) if !text.trim().is_empty() => Ok(text),
            Some(_) => Err(Problem::at(
                self.get(key).map_or(self.loc(), |node| node.loc),
                format!("`{}` is empty", self.key_path(key)),
            )
            .help(format!("set it, for example `{key}: {example}`"))),
            None => Err(self.missing(
                key,
                &format!("`{}` is missing", self.key_path(key)),
                &format!("add `{key}: {example}` here"),
            )),
        }
    }

    /// The problem of a required `key` that is absent: at the key that looks like a
    /// misspelling of it when there is one (`modle:` for `model`), else at the mapping.
    pub fn missing(&self, key: &str, message: &str, help: &str) -> Problem {
        let misspelt = self
            .entries
            .iter()
            .find(|entry| entry.key != key && did_you_mean(&entry.key, [key]).is_some());
        match misspelt {
            Some(entry) => Problem::at(
                entry.key_loc,
                format!(
                    "{message}; `{}` looks like a misspelling of it",
                    self.key_path(&entry.key)
                ),
            )
            .help(format!("rename `{}:` to `{key}:`", entry.key)),
            None => Problem::at(self.loc(), message).help(help),
        }
    }

    pub fn number(&self, key: &str) -> Result<Option<f64>, Problem> {
        let Some(node) = self.get(key) else {
            return Ok(None);
        };
        match &node.value {
            #[allow(clippy::cast_precision_loss)]
            Value::Int(number) => Ok(Some(*number as f64)),
            Value::Float(number) => Ok(Some(*number)),
            Value::Null | Value::Bool(_) | Value::Str(_) | Value::Seq(_) | Value::Map(_) => {
                Err(self.wrong_type(key, node, "a number", &format!("{key}: 0.7")))
            }
        }
    }

    /// A duration in seconds, between 0.1 s and a day; `example` goes in the help.
    pub fn seconds(&self, key: &str, example: u32) -> Result<Option<Duration>, Problem> {
        let Some(seconds) = self.number(key)? else {
            return Ok(None);
        };
        if seconds.is_finite() && (0.1..=86_400.0).contains(&seconds) {
            Ok(Some(Duration::from_secs_f64(seconds)))
        } else {
            Err(Problem::at(
                self.get(key).map_or(self.loc(), |node| node.loc),
                format!(
                    "`{}` is {seconds}; give seconds between 0.1 and 86400",
                    self.key_path(key)
                ),
            )
            .help(format!("e.g. `{key}: {example}`")))
        }
    }

    pub fn unsigned(&self, key: &str) -> Result<Option<u64>, Problem> {
        let Some(node) = self.get(key) else {
            return Ok(None);
        };
        match &node.value {
            Value::Int(number) if *number >= 0 => Ok(u64::try_from(*number).ok()),
            Value::Int(_)
            | Value::Null
            | Value::Bool(_)
            | Value::Float(_)
            | Value::Str(_)
            | Value::Seq(_)
            | Value::Map(_) => {
                Err(self.wrong_type(key, node, "a whole number ≥ 0", &format!("{key}: 3")))
            }
        }
    }

    pub fn bool(&self, key: &str) -> Result<Option<bool>, Problem> {
        let Some(node) = self.get(key) else {
            return Ok(None);
        };
        match &node.value {
            Value::Bool(flag) => Ok(Some(*flag)),
            // YAML 1.1 spellings that Python's PyYAML reads as booleans.
            Value::Str(text) => match text.to_ascii_lowercase().as_str() {
                "yes" | "on" => Ok(Some(true)),
                "no" | "off" => Ok(Some(false)),
                _ => Err(self.wrong_type(key, node, "true or false", &format!("{key}: true"))),
            },
            Value::Null | Value::Int(_) | Value::Float(_) | Value::Seq(_) | Value::Map(_) => {
                Err(self.wrong_type(key, node, "true or false", &format!("{key}: true")))
            }
        }
    }

    /// A list of strings; a single string counts as a one-item list.
    pub fn strings(&self, key: &str) -> Result<Vec<String>, Problem> {
        let Some(node) = self.get(key) else {
            return Ok(Vec::new());
        };
        let expected = || self.wrong_type(key, node, "a list of text", &format!("{key}: [\"…\"]"));
        match &node.value {
            Value::Str(text) => Ok(vec![text.clone()]),
            Value::Seq(items) => items
                .iter()
                .map(|item| item.as_str().map(str::to_string).ok_or_else(expected))
                .collect(),
            Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Map(_) => {
                Err(expected())
            }
        }
    }

    /// One of `names`, case-insensitive.
    pub fn choice<T>(
        &self,
        key: &str,
        names: &[&str],
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<Option<T>, Problem> {
        let Some(text) = self.string(key)? else {
            return Ok(None);
        };
        let loc = self.get(key).map_or(self.loc(), |node| node.loc);
        parse(&text).map(Some).ok_or_else(|| {
            let mut problem = Problem::at(
                loc,
                format!("`{}` cannot be \"{text}\"", self.key_path(key)),
            );
            problem = match did_you_mean(&text, names.iter().copied()) {
                Some(close) => problem.help(format!(
                    "did you mean \"{close}\"? Valid values: {}",
                    names.join(", ")
                )),
                None => problem.help(format!("valid values: {}", names.join(", "))),
            };
            problem
        })
    }

    /// Entries whose key is not in `known`.
    pub fn unknown<'k>(
        &self,
        known: &'k [&'k str],
    ) -> impl Iterator<Item = &'a Entry> + use<'a, 'k> {
        self.entries
            .iter()
            .filter(move |entry| !known.contains(&entry.key.as_str()))
    }

    pub fn wrong_type(&self, key: &str, node: &Node, expected: &str, example: &str) -> Problem {
        let path = self.key_path(key);
        let found = match &node.value {
            Value::Str(text) if may_be_secret(&path, text) => {
                "text (not shown, as it may be a key)".to_string()
            }
            Value::Str(text) => format!("the text \"{}\"", shorten(text)),
            Value::Int(number) => format!("the number {number}"),
            Value::Float(number) => format!("the number {number}"),
            Value::Bool(flag) => format!("`{flag}`"),
            Value::Null | Value::Seq(_) | Value::Map(_) => node.type_name().to_string(),
        };
        Problem::at(
            node.loc,
            format!("`{path}` must be {expected}, found {found}"),
        )
        .help(format!("write it like `{example}`"))
    }
}

/// How to write a URL, for errors about one.
pub const URL_HELP: &str = "write it like `https://api.example.com/v1` or `http://localhost:8000/v1`; \
                            an IPv6 host goes in brackets: `http://[::1]:8000/v1`";

/// Why `url` is not an http(s) URL with a host, if it is not.
pub fn check_http_url(url: &str) -> Result<(), String> {
    let parsed = reqwest::Url::parse(url.trim()).map_err(|error| error.to_string())?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!(
            "the scheme is `{}`, not http or https",
            parsed.scheme()
        ));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err("it names no host".into());
    }
    Ok(())
}

/// Whether quoting `text`, found at the key path `path`, could show a secret: the field is
/// named like one, or the text looks like a key (`sk-…`, or 24 letters and digits in a
/// row).
fn may_be_secret(path: &str, text: &str) -> bool {
    let field = path
        .rsplit(['.', '['])
        .next()
        .unwrap_or(path)
        .to_ascii_lowercase();
    let named_secret = [
        "key",
        "token",
        "secret",
        "password",
        "auth",
        "credential",
        "cookie",
    ]
    .iter()
    .any(|word| field.contains(word));
    let mut longest_run = 0;
    let mut run = 0;
    for ch in text.chars() {
        run = if ch.is_ascii_alphanumeric() {
            run + 1
        } else {
            0
        };
        longest_run = longest_run.max(run);
    }
    named_secret || text.trim_start().starts_with("sk-") || longest_run >= 24
}

fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}…")
    }
}

fn not_a_mapping(node: &Node, path: &str) -> Problem {
    if path.is_empty() {
        Problem::at(
            node.loc,
            format!(
                "a config must be a mapping of `key: value` lines, found {}",
                node.type_name()
            ),
        )
        .help("a config starts with `agents:` (a list of agents) or `agent:` (one agent)")
    } else {
        Problem::at(
            node.loc,
            format!(
                "`{path}` must be a mapping of `key: value` lines, found {}",
                node.type_name()
            ),
        )
    }
}

/// Which keys the parser asks for, by mapping path: the key-table tests compare them with
/// the tables.
#[cfg(test)]
pub mod reads {
    use std::cell::RefCell;

    thread_local! {
        static READ: RefCell<Option<Vec<(String, String)>>> = const { RefCell::new(None) };
    }

    pub(super) fn record(path: &str, key: &str) {
        READ.with(|read| {
            if let Some(read) = read.borrow_mut().as_mut() {
                read.push((path.to_string(), key.to_string()));
            }
        });
    }

    /// Every (path, key) `run` read on this thread.
    pub fn during(run: impl FnOnce()) -> Vec<(String, String)> {
        READ.with(|read| *read.borrow_mut() = Some(Vec::new()));
        run();
        READ.with(|read| read.borrow_mut().take().unwrap_or_default())
    }
}

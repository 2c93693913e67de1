//! Config errors and warnings that say what is wrong, where, and how to fix it. Each is
//! printed on honest lines: text that came from a config (values, keys, file names) has
//! its newlines, controls and bidi overrides shown escaped, never acted on.

use std::fmt;

use crate::sanitize::escape_for_terminal;

pub use super::suggest::did_you_mean;
use crate::config::yaml_node::Location;

/// A problem found while reading a config, before the file name is attached.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub loc: Option<Location>,
    pub message: String,
    pub help: Option<String>,
}

impl Problem {
    pub fn at(loc: Location, message: impl Into<String>) -> Self {
        Self {
            loc: Some(loc),
            message: message.into(),
            help: None,
        }
    }

    pub fn nowhere(message: impl Into<String>) -> Self {
        Self {
            loc: None,
            message: message.into(),
            help: None,
        }
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn in_source(self, source: &str) -> ConfigError {
        ConfigError {
            source_name: source.to_string(),
            loc: self.loc,
            message: self.message,
            help: self.help,
            more: None,
        }
    }
}

/// The most errors one report shows: a config with thousands of mistakes (generated, or
/// hostile) prints a screenful, not thousands of lines.
pub const ERRORS_SHOWN: usize = 20;

/// Every problem found in one reading of a config (the first [`ERRORS_SHOWN`] of them), the
/// first leading; `None` if there are none.
pub fn together(problems: Vec<Problem>, source: &str) -> Option<ConfigError> {
    let total = problems.len();
    let mut problems = problems
        .into_iter()
        .take(ERRORS_SHOWN)
        .map(|problem| problem.in_source(source));
    let mut first = problems.next()?;
    let also: Vec<ConfigError> = problems.collect();
    if total > 1 {
        first.more = Some(Box::new(More { also, total }));
    }
    Some(first)
}

/// A config that cannot be used. Exit code 1.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub struct ConfigError {
    pub source_name: String,
    pub loc: Option<Location>,
    pub message: String,
    pub help: Option<String>,
    /// The other problems found in the same reading, if any.
    more: Option<Box<More>>,
}

/// The problems found with the first in one reading.
#[derive(Clone, Debug, PartialEq)]
struct More {
    /// Shown after the first, each after its own `error: `.
    also: Vec<ConfigError>,
    /// How many problems were found, shown or not.
    total: usize,
}

impl ConfigError {
    /// The other problems shown with this one.
    pub fn others(&self) -> &[ConfigError] {
        self.more.as_ref().map_or(&[], |more| &more.also)
    }

    /// How many problems the reading found, shown or not.
    pub fn total(&self) -> usize {
        self.more.as_ref().map_or(1, |more| more.total)
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_located(f, &self.source_name, self.loc, &self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {}", escape_for_terminal(help))?;
        }
        for other in self.others() {
            write!(f, "\nerror: {other}")?;
        }
        let (shown, source) = (
            self.others().len() + 1,
            escape_for_terminal(&self.source_name),
        );
        if self.total() > shown {
            write!(
                f,
                "\n{} problems in {source}; the first {shown} are shown above: fix them and check \
                 the config again for the rest",
                thousands(self.total())
            )?;
        } else if shown > 1 {
            write!(
                f,
                "\n{shown} problems in {source}, each shown above: fix them all before the next run"
            )?;
        }
        Ok(())
    }
}

/// Something in a config that is ignored or suspicious; the run goes on.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigWarning {
    pub source_name: String,
    pub loc: Option<Location>,
    pub message: String,
}

impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_located(f, &self.source_name, self.loc, &self.message)
    }
}

fn write_located(
    f: &mut fmt::Formatter<'_>,
    source: &str,
    loc: Option<Location>,
    message: &str,
) -> fmt::Result {
    let (source, message) = (escape_for_terminal(source), escape_for_terminal(message));
    match loc {
        Some(loc) => write!(f, "{source}:{loc}: {message}"),
        None => write!(f, "{source}: {message}"),
    }
}

/// `n` with thousands separated by commas: 1,899,980.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_of_many_errors_shows_the_first_and_counts_all() {
        let problems = (1..=25)
            .map(|line| Problem::at(Location { line, column: 1 }, format!("bad {line}")))
            .collect();
        let error = together(problems, "c.yaml").unwrap();
        let shown = error.to_string();
        assert_eq!(shown.matches("c.yaml:").count(), ERRORS_SHOWN, "{shown}");
        assert!(shown.contains("c.yaml:20:1: bad 20") && !shown.contains("bad 21"));
        assert!(shown.ends_with(
            "\n25 problems in c.yaml; the first 20 are shown above: fix them and check the \
             config again for the rest"
        ));
        assert_eq!(together(Vec::new(), "c.yaml"), None);
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(10_000), "10,000");
        assert_eq!(thousands(1_899_980), "1,899,980");
    }

    #[test]
    fn errors_print_file_line_column_and_help() {
        let error = Problem::at(Location { line: 3, column: 9 }, "bad thing")
            .help("do this")
            .in_source("cfg.yaml");
        assert_eq!(
            error.to_string(),
            "cfg.yaml:3:9: bad thing\n  help: do this"
        );
    }

    #[test]
    fn config_text_in_errors_and_warnings_is_shown_escaped() {
        let error = Problem::at(Location { line: 1, column: 2 }, "id `a\nb\0\u{202e}c`")
            .help("rename `x\ry`")
            .in_source("evil\n.yaml");
        assert_eq!(
            error.to_string(),
            "evil\\n.yaml:1:2: id `a\\nb\\u{0}\\u{202e}c`\n  help: rename `x\\ry`"
        );
        let warning = ConfigWarning {
            source_name: "c.yaml".into(),
            loc: None,
            message: "ignored: unknown key `\u{1b}[2Jk`".into(),
        };
        assert_eq!(
            warning.to_string(),
            "c.yaml: ignored: unknown key `\\u{1b}[2Jk`"
        );
    }
}

//! The check of a config's custom tools that `--validate` and the start of a run make
//! before anything runs: the worker's `inspect` mode reads each tool's file with Python's
//! `ast` (it never imports it) and says what would stop the tool from loading.

use serde::Deserialize;

use super::interpreter::{self, Scripts};
use crate::config::{Config, CustomToolConfig};
use crate::sanitize::escape_for_terminal;

/// What the check found: errors stop a run; warnings say what will stop it at start.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inspection {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

impl Inspection {
    fn error(message: String) -> Self {
        Self {
            errors: vec![message],
            warnings: Vec::new(),
        }
    }
}

#[derive(Deserialize)]
struct Report {
    problems: Vec<Problem>,
}

#[derive(Deserialize)]
struct Problem {
    index: Option<usize>,
    level: String,
    message: String,
    help: String,
}

/// One problem of one tool, placed.
#[derive(Debug, PartialEq)]
struct Found {
    agent: String,
    entry: String,
    /// The tool's offered name, when the problem is one tool's.
    tool: Option<String>,
    error: bool,
    message: String,
    help: String,
}

/// The problems in order, those that differ only in the tool they name (the functions of
/// one entry, all importing one missing module) said once: "`a` (and `b`, `c`) imports …".
fn grouped(found: impl Iterator<Item = Found>) -> Vec<Found> {
    let mut said: Vec<(Found, String, Vec<String>)> = Vec::new();
    for found in found {
        let pattern = match &found.tool {
            Some(tool) => found.message.replacen(&format!("`{tool}`"), "`{}`", 1),
            None => found.message.clone(),
        };
        let same = said.iter_mut().find(|(earlier, earlier_pattern, _)| {
            found.tool.is_some()
                && *earlier_pattern == pattern
                && (&earlier.agent, &earlier.entry, earlier.error, &earlier.help)
                    == (&found.agent, &found.entry, found.error, &found.help)
        });
        match (same, found.tool.clone()) {
            (Some((_, _, others)), Some(tool)) => others.push(tool),
            _ => said.push((found, pattern, Vec::new())),
        }
    }
    said.into_iter()
        .map(|(mut found, _, others)| {
            if let (Some(tool), false) = (&found.tool, others.is_empty()) {
                let also = others
                    .iter()
                    .map(|other| format!("`{other}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                found.message = found.message.replacen(
                    &format!("`{tool}`"),
                    &format!("`{tool}` (and {also})"),
                    1,
                );
            }
            found
        })
        .collect()
}

/// Every agent's custom tools, with their agent, in config order.
pub fn tools_of(config: &Config) -> Vec<(&str, &CustomToolConfig)> {
    config
        .agents
        .iter()
        .flat_map(|agent| {
            agent
                .backend
                .tools
                .custom_tools
                .iter()
                .map(move |tool| (agent.id.as_str(), tool))
        })
        .collect()
}

/// Checks `config`'s custom tools; nothing to say when it has none.
pub async fn inspect(config: &Config) -> Inspection {
    let tools = tools_of(config);
    if tools.is_empty() {
        return Inspection::default();
    }
    let scripts = match Scripts::write() {
        Ok(scripts) => scripts,
        Err(message) => return Inspection::error(message),
    };
    let request = serde_json::json!({
        "tools": tools
            .iter()
            .enumerate()
            .map(|(index, (_, tool))| {
                serde_json::json!({
                    "index": index,
                    "offered": tool.offered_name(),
                    "function": tool.function,
                    "path": tool.path.as_ref().map(|path| path.display().to_string()),
                    "written_path": tool.written_path,
                    "preset_args": tool.preset_args.keys().collect::<Vec<_>>(),
                })
            })
            .collect::<Vec<_>>(),
    })
    .to_string();
    let program = interpreter::interpreter_name();
    let output =
        match interpreter::run_quick(program.as_ref(), &scripts, &["inspect", &request]).await {
            Ok(output) => output,
            Err(message) => return Inspection::error(message),
        };
    let report: Report = match serde_json::from_slice(&output) {
        Ok(report) => report,
        Err(error) => {
            return Inspection::error(format!(
                "`{program}` answered massgen's check of the custom tools with something else \
                 than its report ({error})"
            ));
        }
    };
    let mut inspection = Inspection::default();
    let found = report.problems.into_iter().map(|problem| {
        let tool = problem.index.and_then(|index| tools.get(index));
        Found {
            agent: tool.map_or("?".to_string(), |(agent, _)| agent.to_string()),
            entry: tool.map_or_else(String::new, |(_, tool)| format!(" ({})", tool.entry)),
            tool: tool.map(|(_, tool)| tool.offered_name()),
            error: problem.level == "error",
            message: problem.message,
            help: problem.help,
        }
    });
    for found in grouped(found) {
        // The message and help quote Python's words and the config's: each is kept on one
        // line, escaped, and only the line between them is massgen's.
        let line = format!(
            "agent `{}`{}: {}\n  help: {}",
            found.agent,
            found.entry,
            escape_for_terminal(&found.message),
            escape_for_terminal(&found.help)
        );
        if found.error {
            inspection.errors.push(line);
        } else {
            inspection.warnings.push(line);
        }
    }
    inspection
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(tool: &str, message: &str) -> Found {
        Found {
            agent: "a".into(),
            entry: " (custom_tools[0])".into(),
            tool: Some(tool.into()),
            error: false,
            message: message.replace("{}", tool),
            help: "pip install httpx".into(),
        }
    }

    #[test]
    fn the_tools_of_one_entry_missing_one_module_are_named_in_one_warning() {
        let missing = "`{}` imports `httpx`, which python3 cannot find";
        let said = grouped(
            [
                found("custom_tool__md", missing),
                found("custom_tool__html", missing),
                found("custom_tool__pdf", "`{}` is not defined in t.py"),
                found("custom_tool__js", missing),
            ]
            .into_iter(),
        );
        let messages: Vec<&str> = said.iter().map(|found| found.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "`custom_tool__md` (and `custom_tool__html`, `custom_tool__js`) imports `httpx`, \
                 which python3 cannot find",
                "`custom_tool__pdf` is not defined in t.py",
            ]
        );
    }
}

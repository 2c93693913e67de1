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
    for problem in report.problems {
        let agent = problem
            .index
            .and_then(|index| tools.get(index))
            .map_or("?", |(agent, _)| *agent);
        let entry = problem
            .index
            .and_then(|index| tools.get(index))
            .map_or_else(String::new, |(_, tool)| format!(" ({})", tool.entry));
        // The message and help quote Python's words and the config's: each is kept on one
        // line, escaped, and only the line between them is massgen's.
        let line = format!(
            "agent `{agent}`{entry}: {}\n  help: {}",
            escape_for_terminal(&problem.message),
            escape_for_terminal(&problem.help)
        );
        if problem.level == "error" {
            inspection.errors.push(line);
        } else {
            inspection.warnings.push(line);
        }
    }
    inspection
}

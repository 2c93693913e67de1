//! `--list-examples`, `--example NAME` and `--validate FILE`.

use std::fmt::Write as _;
use std::io::IsTerminal as _;
use std::path::Path;

use super::exit::Exit;
use super::stdout;
use crate::backend::{provider, secrets};
use crate::config::{self, Env, examples};
use crate::sanitize::escape_for_terminal;

pub fn list_examples() -> Exit {
    let columns = std::io::stdout()
        .is_terminal()
        .then(|| crossterm::terminal::size().ok())
        .flatten()
        .map(|(columns, _)| usize::from(columns));
    stdout::write(&examples_list(columns));
    Exit::Success
}

/// The shipped configs with their descriptions: one line each; on a terminal of `columns`,
/// each description wrapped beside its name, or under it when the names leave too little
/// room.
fn examples_list(columns: Option<usize>) -> String {
    let mut out = String::from("Shipped configs (use with --config @examples/NAME):\n\n");
    let width = examples::all()
        .map(|example| example.name().len())
        .max()
        .unwrap_or(0);
    for example in examples::all() {
        let summary = example.summary();
        let name = example.name();
        match columns {
            None => {
                let _ = writeln!(out, "  {name:width$}  {summary}");
            }
            Some(columns) if columns >= width + 4 + MIN_DESCRIPTION_WIDTH => {
                let indent = width + 4;
                let lines = crate::text::wrap(&summary, columns - indent - 1);
                for (index, line) in lines.iter().enumerate() {
                    if index == 0 {
                        let _ = writeln!(out, "  {name:width$}  {line}");
                    } else {
                        let _ = writeln!(out, "{:indent$}{line}", "");
                    }
                }
            }
            Some(columns) => {
                let _ = writeln!(out, "  {name}");
                for line in crate::text::wrap(&summary, columns.saturating_sub(7).max(20)) {
                    let _ = writeln!(out, "      {line}");
                }
            }
        }
    }
    out.push_str("\nPrint one with: massgen --example NAME\n");
    out
}

/// Fewer columns than this left for descriptions beside the names puts them under them.
const MIN_DESCRIPTION_WIDTH: usize = 40;

pub fn print_example(name: &str) -> Exit {
    match examples::find(name) {
        Some(example) => {
            stdout::write(example.text);
            Exit::Success
        }
        None => {
            eprintln!(
                "error: no shipped config matches `{name}`\n  help: list them with: massgen --list-examples"
            );
            Exit::Config
        }
    }
}

/// Warnings `--validate` prints before it counts the rest.
const VALIDATE_WARNINGS_SHOWN: usize = 200;

/// Checks the config as a run in `cwd` would — the same loading, the same checks of granted
/// paths and endpoints — and says what a run would refuse. Exit 1 if it would refuse.
pub fn validate(target: &str, cwd: &Path, env: &Env, allow_outside: bool) -> Exit {
    let loaded = config::choose(Some(target), cwd).and_then(|choice| choice.load(env));
    let (config, warnings, keys) = match loaded {
        Ok(loaded) => {
            let keys = loaded.keys.clone();
            let (config, warnings) = loaded.into_checked();
            (config, warnings, keys)
        }
        Err(error) => {
            eprintln!("error: {error}");
            return Exit::Config;
        }
    };
    let redactor = secrets::redactor_for(&config, env);
    super::setup::print_warnings(
        &super::setup::warning_lines(&warnings, &redactor),
        VALIDATE_WARNINGS_SHOWN,
        &format!("--validate shows the first {VALIDATE_WARNINGS_SHOWN}"),
    );
    let refused = config::check_granted_paths(&config, cwd, allow_outside);
    for error in &refused {
        eprintln!("error: {}", redactor.redact(&error.to_string()));
    }
    let mut endpoint_errors = refused.len();
    for agent in &config.agents {
        match crate::backend::agent_cli::build::check(agent, env) {
            Ok(None) => {}
            Ok(Some(note)) => eprintln!(
                "note: agent `{}`: {}; a run stops until it is fixed",
                agent.id,
                escape_for_terminal(&note)
            ),
            Err(problem) => {
                endpoint_errors += 1;
                eprintln!(
                    "error: {}: agent `{}`: {}",
                    escape_for_terminal(&config.source_name),
                    agent.id,
                    escape_for_terminal(&redactor.redact(&problem))
                );
            }
        }
        if provider::provider(agent.backend.kind).is_none() {
            continue;
        }
        // `base_url: ${UNSET}` was reported as an unset variable above; a run stops there
        // first, so its endpoint cannot be checked yet.
        if agent
            .backend
            .base_url
            .as_deref()
            .is_some_and(|url| url.contains("${"))
        {
            continue;
        }
        match provider::resolve(&agent.backend, env) {
            Ok(_) => {}
            Err(problem) if problem.is_environment() => {
                let problem = problem.to_string();
                eprintln!(
                    "note: agent `{}`: {}; a run stops until it is set",
                    agent.id,
                    escape_for_terminal(&redactor.redact(&problem))
                );
            }
            Err(problem) => {
                endpoint_errors += 1;
                let problem = problem.to_string();
                eprintln!(
                    "error: {}: agent `{}`: {}",
                    escape_for_terminal(&config.source_name),
                    agent.id,
                    escape_for_terminal(&redactor.redact(&problem))
                );
            }
        }
    }
    for note in config::attachment_reach::notes(&config) {
        eprintln!("note: {}", escape_for_terminal(&note));
    }
    let inspection = super::setup::inspect_custom_tools(&config);
    // Their quoted parts are escaped where they are written (`tools::custom::inspect`).
    for warning in &inspection.warnings {
        eprintln!("warning: {}", redactor.redact(warning));
    }
    for error in &inspection.errors {
        eprintln!("error: {}", redactor.redact(error));
    }
    if endpoint_errors > 0 || !inspection.errors.is_empty() {
        return Exit::Config;
    }
    let agents: Vec<String> = config
        .agents
        .iter()
        .map(|agent| {
            format!(
                "{} ({}/{})",
                agent.id, agent.backend.kind, agent.backend.model
            )
        })
        .collect();
    stdout::write(&format!(
        "✓ {} is valid: {} agent{}: {}; {}{}\n",
        config.source_name,
        agents.len(),
        if agents.len() == 1 { "" } else { "s" },
        agents.join(", "),
        keys.summary(),
        match warnings.len() + inspection.warnings.len() {
            0 => String::new(),
            count => format!(" ({})", crate::text::plural(count, "warning")),
        }
    ));
    Exit::Success
}

/// `--list-sessions`: the project's sessions, newest first, with their turns.
pub fn list_sessions(cwd: &Path) -> Exit {
    let massgen_dir = cwd.join(".massgen");
    let sessions = match crate::session::list_sessions(&massgen_dir) {
        Ok(sessions) => sessions,
        Err(error) => {
            eprintln!(
                "error: cannot read {}: {error}",
                massgen_dir.join("sessions").display()
            );
            return Exit::Execution;
        }
    };
    if sessions.is_empty() {
        stdout::write(&format!(
            "No sessions in {} yet.\n",
            massgen_dir.join("sessions").display()
        ));
        return Exit::Success;
    }
    let mut out = String::new();
    for session in &sessions {
        let _ = writeln!(
            out,
            "{}  {}  {}",
            session.id,
            crate::text::plural(session.turns.len(), "turn"),
            session.dir.display()
        );
        for turn in &session.turns {
            let winner = turn.winner.as_deref().unwrap_or("-");
            let question: String = turn.question.chars().take(70).collect();
            let _ = writeln!(
                out,
                "  turn {}  {:<10}  winner {winner:<12}  {question}",
                turn.turn, turn.status
            );
        }
    }
    out.push_str(
        "\nGo on with the newest: massgen --continue; or a given one: massgen --session-id ID\n",
    );
    stdout::write(&out);
    Exit::Success
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_wrap_under_themselves_on_a_terminal_and_lose_no_word() {
        let plain = examples_list(None);
        for columns in [60, 80, 100, 140] {
            let wrapped = examples_list(Some(columns));
            for line in wrapped.lines() {
                assert!(
                    crate::text::display_width(line) <= columns,
                    "{columns} columns: {line}"
                );
            }
            let words = |text: &str| {
                text.split_whitespace()
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            };
            assert_eq!(words(&wrapped), words(&plain), "{columns} columns");
        }
        assert!(
            plain
                .lines()
                .any(|line| line.contains("scripted/workspaces")
                    && line.ends_with("browse the files.")),
            "without a terminal, one line per config:\n{plain}"
        );
    }
}

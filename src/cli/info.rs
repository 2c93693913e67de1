//! `--list-examples`, `--example NAME` and `--validate FILE`.

use std::fmt::Write as _;
use std::path::Path;

use super::exit::Exit;
use super::stdout;
use crate::backend::{provider, secrets};
use crate::config::{self, Env, examples};

pub fn list_examples() -> Exit {
    let mut out = String::from("Shipped configs (use with --config @examples/NAME):\n\n");
    let width = examples::all()
        .map(|example| example.name().len())
        .max()
        .unwrap_or(0);
    for example in examples::all() {
        let _ = writeln!(out, "  {:width$}  {}", example.name(), example.summary());
    }
    out.push_str("\nPrint one with: massgen --example NAME\n");
    stdout::write(&out);
    Exit::Success
}

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
    let (config, warnings) = match loaded {
        Ok(loaded) => loaded.into_checked(),
        Err(error) => {
            eprintln!("error: {error}");
            return Exit::Config;
        }
    };
    let redactor = secrets::redactor_for(&config, env);
    super::setup::print_warnings(
        &warnings,
        VALIDATE_WARNINGS_SHOWN,
        &format!("--validate shows the first {VALIDATE_WARNINGS_SHOWN}"),
        &redactor,
    );
    let refused = config::check_granted_paths(&config, cwd, allow_outside);
    for error in &refused {
        eprintln!("error: {}", redactor.redact(&error.to_string()));
    }
    let mut endpoint_errors = refused.len();
    for agent in &config.agents {
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
                    redactor.redact(&problem)
                );
            }
            Err(problem) => {
                endpoint_errors += 1;
                let problem = problem.to_string();
                eprintln!(
                    "error: {}: agent `{}`: {}",
                    config.source_name,
                    agent.id,
                    redactor.redact(&problem)
                );
            }
        }
    }
    if endpoint_errors > 0 {
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
        "✓ {} is valid: {} agent{}: {}{}\n",
        config.source_name,
        agents.len(),
        if agents.len() == 1 { "" } else { "s" },
        agents.join(", "),
        if warnings.is_empty() {
            String::new()
        } else {
            format!(
                " ({} warning{})",
                warnings.len(),
                if warnings.len() == 1 { "" } else { "s" }
            )
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
            "{}  {} turn(s)  {}",
            session.id,
            session.turns.len(),
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

//! Runs the full-screen TUI over a fresh orchestrator (the default on a terminal).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use super::args::Args;
use super::exit::Exit;
use super::setup::Prepared;
use crate::orchestrator::OrchestratorHandle;
use crate::tui::TuiOptions;

pub async fn run(mut prepared: Prepared, args: Args, cwd: PathBuf) -> Exit {
    if !on_a_terminal() {
        super::setup::print_warnings(
            &prepared.warnings,
            prepared.warnings.len(),
            &prepared.warnings_hint,
        );
        return Exit::Config;
    }
    let inbox_dir = match super::steering::open_inbox(&args, &cwd) {
        Ok(dir) => dir,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Config;
        }
    };
    let handle = prepared.spawn_orchestrator(
        &cwd,
        true,
        inbox_dir,
        super::approval_flags::approval_options(
            args.approval_policy,
            args.approval_dir.clone(),
            false,
        ),
    );
    let (mode, turn) = args.turn(prepared.config.orchestrator.coordination.plan_depth);
    let options = TuiOptions {
        question: args.question.clone(),
        config_file: prepared.config_file,
        mode,
        turn,
        allow_outside_project: args.allow_outside_project,
        budget_usd: prepared.config.orchestrator.max_cost_usd,
        notice: prepared.local_hint.clone(),
        warnings: std::mem::take(&mut prepared.warnings),
        context_paths: prepared.config.orchestrator.context_paths.clone(),
        agents: crate::config::draft::drafts_of(&prepared.config),
        quickstart: prepared.quickstart.clone(),
        env: prepared.env.clone(),
        no_mouse: args.no_mouse,
        strategy: Some(prepared.config.orchestrator.strategy),
    };
    show(handle, options, args.output_file.as_deref()).await
}

/// Standard input and output are a terminal; if not, says so.
pub fn on_a_terminal() -> bool {
    let terminal = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
    if !terminal {
        eprintln!(
            "error: the full-screen display needs a terminal\n  help: use --display plain \
             when piping or redirecting"
        );
    }
    terminal
}

/// Runs the TUI over `handle` until the user quits, or a signal ends it (exit 4). Once the
/// terminal is restored, the session's newest final answer goes to `output_file`.
pub async fn show(
    handle: OrchestratorHandle,
    options: TuiOptions,
    output_file: Option<&Path>,
) -> Exit {
    // As in plain: the first turn that did not succeed decides (a cancelled turn exits 4);
    // a signal or a vanished terminal ends the session as an interruption.
    // Shown on the welcome view; if the terminal fails they go where the error goes.
    let warnings = options.warnings.clone();
    match crate::tui::run(handle, options).await {
        Ok(end) => {
            let turns = if end.signalled {
                Exit::Interrupted
            } else {
                end.turns
                    .iter()
                    .map(|&(outcome, presented)| Exit::from_turn(outcome, presented))
                    .fold(Exit::Success, Exit::combine)
            };
            match (output_file, &end.answer) {
                (Some(path), Some(answer)) => {
                    let mut interrupts = super::front_end::Interrupts::new();
                    let saved = super::output_file::save_answer(path, answer, &mut interrupts);
                    turns.combine(saved.await)
                }
                _ => turns,
            }
        }
        Err(error) => {
            for warning in &warnings {
                super::front_end::note(&format!("warning: {warning}"));
            }
            super::front_end::note(&format!("error: the terminal failed: {error}"));
            Exit::Execution
        }
    }
}

//! Runs turns with the plain printer: one question from the command line, or one per line
//! of standard input. Ctrl+C cancels the running turn; a second Ctrl+C quits at once.

use std::io::IsTerminal;
use std::path::PathBuf;

use tokio::io::{AsyncBufReadExt, BufReader};

use super::args::{Args, DisplayArg};
use super::exit::Exit;
use super::setup::Prepared;
use crate::config::DisplayKind;
use crate::headless::{Display, PlainPrinter, QuietPrinter, Style};
use crate::orchestrator::OrchestratorHandle;
use crate::protocol::{EventMsg, Mode, Op, TurnOptions};
use crate::session::write_atomic;
use crate::workspace::{ParsedPrompt, parse_prompt};

pub async fn run(mut prepared: Prepared, args: Args, cwd: PathBuf) -> Exit {
    let quiet = match (args.display, prepared.config.ui.display) {
        (Some(DisplayArg::Quiet), _) | (None, Some(DisplayKind::Quiet)) => true,
        (Some(DisplayArg::Plain | DisplayArg::Tui), _)
        | (None, Some(DisplayKind::Plain | DisplayKind::Tui) | None) => false,
    };
    if prepared.is_demo {
        eprintln!(
            "massgen: no config found, so this is the offline demo (3 scripted agents). For real \
             models use --config FILE, --config @examples/NAME (see --list-examples) or --model NAME."
        );
    }
    if let Some(session) = &prepared.resume {
        eprintln!(
            "massgen: continuing {} after {} earlier turn(s)",
            session.id,
            session.turns.len()
        );
    }
    let mut handle = prepared.spawn_orchestrator(&cwd);
    let mut printer = printer(quiet);
    let mut exit = Exit::Success;
    let mut questions = Questions::new(args.question.clone());
    while let Some(question) = questions.next().await {
        let parsed = parse_prompt(&question, &cwd);
        if !parsed.missing.is_empty() {
            eprintln!(
                "error: not found: @{} (paths are taken from {})\n  help: fix the path, or write \\@ for a plain @",
                parsed.missing.join(", @"),
                cwd.display()
            );
            exit = exit.combine(Exit::Config);
            continue;
        }
        let (turn_exit, answer) = run_turn(&mut handle, &mut printer, parsed).await;
        exit = exit.combine(turn_exit);
        if let (Some(path), Some(answer)) = (&args.output_file, answer)
            && let Err(error) = write_atomic(path, answer.as_bytes())
        {
            eprintln!(
                "error: cannot write --output-file {}: {error}",
                path.display()
            );
            exit = exit.combine(Exit::Execution);
        }
        if turn_exit == Exit::Interrupted {
            break;
        }
    }
    if questions.interrupted {
        exit = exit.combine(Exit::Interrupted);
    }
    let _ = handle.ops.send(Op::Shutdown).await;
    while let Some(event) = handle.events.recv().await {
        let _ = printer.handle(&event);
    }
    let _ = handle.task.await;
    exit
}

/// The plain printer on standard output, or the quiet one (only the final answer).
pub fn printer(quiet: bool) -> Display {
    Display::new(if quiet {
        Box::new(QuietPrinter::new(std::io::stdout(), std::io::stderr()))
    } else {
        Box::new(PlainPrinter::new(std::io::stdout(), Style::detect()))
    })
}

/// Submits one question and prints its events until the turn ends.
async fn run_turn(
    handle: &mut OrchestratorHandle,
    printer: &mut Display,
    question: ParsedPrompt,
) -> (Exit, Option<String>) {
    let submit = Op::Submit {
        text: question.text,
        mode: Mode::Normal,
        context_paths: question.paths,
        options: TurnOptions::default(),
    };
    if handle.ops.send(submit).await.is_err() {
        return (Exit::Execution, None);
    }
    let mut cancelling = false;
    let mut answer = None;
    loop {
        tokio::select! {
            event = handle.events.recv() => {
                let Some(event) = event else { return (Exit::Execution, answer) };
                if let Err(error) = printer.handle(&event) {
                    eprintln!("massgen: cannot print progress ({error}); the turn goes on and is logged");
                }
                if let EventMsg::FinalPresentationDone { content, .. } = event.msg {
                    answer = Some(content);
                } else if let EventMsg::TurnFinished { outcome, .. } = event.msg {
                    return (Exit::from_outcome(outcome), answer);
                }
            }
            _ = tokio::signal::ctrl_c() => {
                if cancelling {
                    eprintln!("\nmassgen: interrupted");
                    std::process::exit(Exit::Interrupted as i32);
                }
                cancelling = true;
                eprintln!("\nmassgen: cancelling the turn (Ctrl+C again to quit at once)");
                let _ = handle.ops.send(Op::Cancel).await;
            }
        }
    }
}

/// The questions of a session: the command-line one, or lines of standard input.
struct Questions {
    single: Option<String>,
    stdin: Option<tokio::io::Lines<BufReader<tokio::io::Stdin>>>,
    interactive: bool,
    /// Ctrl+C at the prompt ended the session.
    interrupted: bool,
}

impl Questions {
    fn new(question: Option<String>) -> Self {
        let interactive = question.is_none() && std::io::stdin().is_terminal();
        let stdin = question
            .is_none()
            .then(|| BufReader::new(tokio::io::stdin()).lines());
        Self {
            single: question,
            stdin,
            interactive,
            interrupted: false,
        }
    }

    async fn next(&mut self) -> Option<String> {
        if let Some(question) = self.single.take() {
            return Some(question);
        }
        let lines = self.stdin.as_mut()?;
        loop {
            if self.interactive {
                eprint!("massgen › ");
            }
            let line = tokio::select! {
                line = lines.next_line() => line.ok().flatten()?,
                _ = tokio::signal::ctrl_c() => {
                    eprintln!();
                    self.interrupted = true;
                    return None;
                }
            };
            let line = line.trim();
            match line {
                "" => {}
                "/quit" | "/exit" | "/q" => return None,
                _ => return Some(line.to_string()),
            }
        }
    }
}

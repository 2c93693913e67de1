//! Runs turns with the plain printer: one question from the command line, or one per line
//! of standard input. Ctrl+C, SIGTERM or SIGHUP cancels the running turn (the partial turn
//! is saved; exit 4); a second one, or the cancel taking over 5 s, quits at once.

use std::io::IsTerminal;
use std::path::PathBuf;

use super::args::Args;
use super::exit::Exit;
use super::front_end::{FrontEnd, Interrupts, cancel_deadline, note, printer};
use super::output_file;
use super::question_input::{self, StdinLines};
use super::setup::Prepared;
use crate::headless::Display;
use crate::orchestrator::OrchestratorHandle;
use crate::plan::PlanStore;
use crate::protocol::{
    BroadcastTarget, EventMsg, Mode, Op, PlanStatus, Question, QuestionReply, TurnOutcome,
};

pub async fn run(mut prepared: Prepared, args: Args, cwd: PathBuf, front_end: FrontEnd) -> Exit {
    if prepared.is_demo && front_end != FrontEnd::Automation {
        eprintln!(
            "massgen: no config found, so this is the offline demo (3 scripted agents). For real \
             models use --config FILE, --config @examples/NAME (see --list-examples) or --model NAME."
        );
        if let Some(hint) = &prepared.local_hint {
            eprintln!("massgen: {hint}");
        }
    }
    let (mode, options) = args.turn(prepared.config.orchestrator.coordination.plan_depth);
    if let Some(spec) = &options.plan
        && let Err(error) = PlanStore::new(&cwd.join(".massgen")).resolve(spec)
    {
        eprintln!("error: --execute-plan {spec}: {error}");
        return Exit::Config;
    }
    // Agents may ask the user only where the user can answer: a terminal on stdin, and
    // never a script (`--automation`).
    let human = std::io::stdin().is_terminal() && front_end != FrontEnd::Automation;
    let inbox_dir = match super::steering::open_inbox(&args, &cwd) {
        Ok(dir) => dir,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Config;
        }
    };
    if front_end == FrontEnd::Automation {
        if let Some(dir) = &inbox_dir {
            println!("RUNTIME_INBOX: {}", dir.display());
        }
        for dir in crate::headless::file_approval_dirs(
            &prepared.config,
            &cwd,
            args.approval_dir.as_deref(),
        ) {
            println!("APPROVALS: {}", dir.display());
        }
    }
    // The plain and automation displays cannot put a tool call to the user: the policy
    // (or the file handshake) answers.
    let mut handle = prepared.spawn_orchestrator(
        &cwd,
        human,
        inbox_dir,
        super::approval_flags::approval_options(
            args.approval_policy,
            args.approval_dir.clone(),
            true,
        ),
    );
    let mut printer = printer(front_end);
    let mut exit = Exit::Success;
    // Executing a plan needs no question: one given is added as extra instructions.
    let single = args
        .question
        .clone()
        .or_else(|| (mode == Mode::Execute).then(String::new));
    let limits = &prepared.config.limits;
    let mut questions = Questions::new(single, limits.max_question_bytes);
    while let Some(question) = questions.next().await {
        let optional = mode == Mode::Execute;
        let allow = args.allow_outside_project;
        let parsed = match question_input::prepare(&question, &cwd, limits, allow, optional) {
            Ok(parsed) => parsed,
            Err(message) => {
                eprintln!("error: {message}");
                exit = exit.combine(Exit::Config);
                continue;
            }
        };
        let submit = Op::Submit {
            text: parsed.text,
            mode,
            context_paths: parsed.paths,
            options: options.clone(),
        };
        let (turn_exit, answer) =
            run_turns(&mut handle, &mut printer, &mut questions, submit).await;
        exit = exit.combine(turn_exit);
        if let (Some(path), Some(answer)) = (&args.output_file, answer) {
            let saved = output_file::save_answer(path, &answer, &mut questions.interrupts).await;
            exit = exit.combine(saved);
            if saved == Exit::Interrupted {
                break;
            }
        }
        if turn_exit == Exit::Interrupted {
            break;
        }
    }
    if questions.interrupted {
        exit = exit.combine(Exit::Interrupted);
    }
    if questions.bad_input {
        exit = exit.combine(Exit::Config);
    }
    if questions.abandoned {
        // Returned, not `process::exit`: the caller still ends the agents' commands.
        return Exit::Interrupted;
    }
    let _ = handle.ops.send(Op::Shutdown).await;
    while let Some(event) = handle.events.recv().await {
        let _ = printer.handle(&event);
    }
    let _ = handle.task.await;
    exit
}

/// Submits one question and prints its events until its turn ends — with
/// `--plan-and-execute`, until the execution of the plan it made ends too. Questions agents
/// ask the user are read from the terminal.
async fn run_turns(
    handle: &mut OrchestratorHandle,
    printer: &mut Display,
    questions: &mut Questions,
    submit: Op,
) -> (Exit, Option<String>) {
    let auto_execute = matches!(&submit, Op::Submit { options, .. } if options.auto_execute);
    if handle.ops.send(submit).await.is_err() {
        return (Exit::Execution, None);
    }
    // Set by the first interrupt: until when the cancelled turn may take to be saved.
    let mut cancelling: Option<tokio::time::Instant> = None;
    let mut answer = None;
    let mut exit = Exit::Success;
    let mut execution_follows = false;
    // The plan a turn made failed, or the one it carried out was left partial.
    let mut plan_unfinished = false;
    loop {
        tokio::select! {
            event = handle.events.recv() => {
                let Some(event) = event else { return (Exit::Execution, answer) };
                if let Err(error) = printer.handle(&event) {
                    eprintln!("massgen: cannot print progress ({error}); the turn goes on and is logged");
                }
                if let EventMsg::FinalPresentationDone { content, .. } = event.msg {
                    answer = Some(content);
                } else if let EventMsg::PlanUpdated { plan } = &event.msg {
                    match plan.status {
                        PlanStatus::Ready => execution_follows = auto_execute,
                        PlanStatus::Failed | PlanStatus::Partial => plan_unfinished = true,
                        PlanStatus::Planning | PlanStatus::Executing | PlanStatus::Completed => {}
                    }
                } else if let EventMsg::BroadcastAsked {
                    request_id,
                    target: BroadcastTarget::Human,
                    questions: asked,
                    timeout_secs,
                    ..
                } = event.msg
                {
                    let replies = questions.ask_user(&asked, timeout_secs).await;
                    let interrupted = replies.is_none();
                    let replies = replies.unwrap_or_default();
                    let _ = handle.ops.send(Op::AnswerQuestion { request_id, replies }).await;
                    if interrupted {
                        // Ctrl+C at the prompt means what it means elsewhere: cancel.
                        cancelling = Some(cancel_deadline());
                        note("massgen: cancelling the turn (Ctrl+C again to quit at once)");
                        let _ = handle.ops.send(Op::Cancel).await;
                    }
                } else if let EventMsg::TurnFinished { outcome, .. } = event.msg {
                    // A cancelled or timed-out turn says so; a completed turn whose plan
                    // failed (no or a bad project_plan.json) or was left with open tasks
                    // is an execution error: it ran but did not finish.
                    let unfinished = std::mem::take(&mut plan_unfinished);
                    let turn_exit = if outcome == TurnOutcome::Completed && unfinished {
                        Exit::Execution
                    } else {
                        Exit::from_turn(outcome, answer.is_some())
                    };
                    exit = exit.combine(turn_exit);
                    // The runtime carries out a plan at once only after a completed
                    // planning turn, as this waits for it only then.
                    if !std::mem::take(&mut execution_follows) || exit != Exit::Success {
                        return (exit, answer);
                    }
                }
            }
            name = questions.interrupts.recv() => {
                if cancelling.is_some() {
                    note(&format!("\nmassgen: {name}: interrupted"));
                    questions.abandoned = true;
                    return (Exit::Interrupted, answer);
                }
                cancelling = Some(cancel_deadline());
                note(&format!("\nmassgen: {name}: cancelling the turn (again to quit at once)"));
                let _ = handle.ops.send(Op::Cancel).await;
            }
            () = tokio::time::sleep_until(cancelling.unwrap_or_else(tokio::time::Instant::now)),
                if cancelling.is_some() => {
                note("massgen: the cancelled turn did not finish in time: interrupted");
                questions.abandoned = true;
                return (Exit::Interrupted, answer);
            }
        }
    }
}

/// The questions of a session (the command-line one, or lines of standard input), and the
/// user's replies to agents' questions, read from the same terminal.
struct Questions {
    single: Option<String>,
    stdin: Option<StdinLines>,
    /// `limits.max_question_bytes`: the longest line read.
    max_line: u64,
    /// Standard input was too large, not UTF-8 or held no question (reported).
    bad_input: bool,
    /// Questions come from standard input, one per line.
    from_stdin: bool,
    interactive: bool,
    /// Ctrl+C at the prompt ended the session.
    interrupted: bool,
    interrupts: Interrupts,
    /// A second interrupt, or a cancel that took too long: quit without waiting.
    abandoned: bool,
}

impl Questions {
    fn new(question: Option<String>, max_line: u64) -> Self {
        let from_stdin = question.is_none();
        Self {
            single: question,
            stdin: None,
            max_line,
            bad_input: false,
            from_stdin,
            interactive: from_stdin && std::io::stdin().is_terminal(),
            interrupted: false,
            interrupts: Interrupts::new(),
            abandoned: false,
        }
    }

    fn lines(&mut self) -> (&mut StdinLines, &mut Interrupts) {
        let (max_line, interactive) = (self.max_line, self.interactive);
        let lines = (self.stdin).get_or_insert_with(|| StdinLines::new(max_line, interactive));
        (lines, &mut self.interrupts)
    }

    async fn next(&mut self) -> Option<String> {
        if let Some(question) = self.single.take() {
            return Some(question);
        }
        if !self.from_stdin {
            return None;
        }
        let interactive = self.interactive;
        loop {
            if interactive {
                eprint!("massgen › ");
            }
            let (lines, interrupts) = self.lines();
            let line = tokio::select! {
                line = lines.next_line() => match line {
                    Ok(line) => line?,
                    Err(error) => {
                        eprintln!("error: {error}");
                        self.bad_input = true;
                        return None;
                    }
                },
                _ = interrupts.recv() => {
                    note("");
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

    /// Prints an agent's questions on standard error and reads one reply line each; an
    /// empty line or the time running out leaves the rest unanswered. `None`: Ctrl+C.
    async fn ask_user(
        &mut self,
        asked: &[Question],
        timeout_secs: u64,
    ) -> Option<Vec<QuestionReply>> {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(timeout_secs);
        eprintln!(
            "\nmassgen: an agent asks you ({} to answer; an empty line skips):",
            crate::tui::render::format::duration(timeout_secs)
        );
        let mut replies = Vec::new();
        for (index, question) in asked.iter().enumerate() {
            eprintln!("  {}/{} {}", index + 1, asked.len(), question.text);
            for (number, option) in question.options.iter().enumerate() {
                let description = if option.description.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", option.description)
                };
                eprintln!("     {}) {}{description}", number + 1, option.label);
            }
            eprint!(
                "  {} ",
                if question.options.is_empty() {
                    "your answer ›"
                } else if question.multi_select {
                    "numbers (several allowed) or text ›"
                } else {
                    "number or text ›"
                }
            );
            let (lines, interrupts) = self.lines();
            let line = tokio::select! {
                line = lines.next_line() => line.ok().flatten(),
                () = tokio::time::sleep_until(deadline) => None,
                _ = interrupts.recv() => {
                    note("");
                    return None;
                }
            };
            let Some(line) = line.filter(|line| !line.trim().is_empty()) else {
                eprintln!();
                break;
            };
            replies.push(read_reply(question, line.trim()));
        }
        Some(replies)
    }
}

/// A reply line: option numbers or ids (several for multiple choice), else free text.
fn read_reply(question: &Question, line: &str) -> QuestionReply {
    let pick = |token: &str| {
        question
            .options
            .iter()
            .enumerate()
            .find(|(number, option)| {
                token == option.id || token.parse::<usize>().ok() == Some(number + 1)
            })
            .map(|(_, option)| option.id.clone())
    };
    let tokens: Vec<&str> = line
        .split([',', ' '])
        .filter(|token| !token.is_empty())
        .collect();
    let picked: Vec<String> = tokens.iter().filter_map(|token| pick(token)).collect();
    if !question.options.is_empty() && !picked.is_empty() && picked.len() == tokens.len() {
        let selected = if question.multi_select {
            picked
        } else {
            picked.into_iter().take(1).collect()
        };
        return QuestionReply {
            selected,
            text: String::new(),
        };
    }
    QuestionReply {
        selected: Vec::new(),
        text: line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::QuestionOption;

    fn question(multi_select: bool) -> Question {
        Question {
            text: "Format?".into(),
            options: ["md", "pdf", "html"]
                .iter()
                .map(|id| QuestionOption {
                    id: (*id).into(),
                    label: id.to_uppercase(),
                    description: String::new(),
                })
                .collect(),
            multi_select,
            required: true,
        }
    }

    #[test]
    fn replies_name_options_by_number_or_id_else_are_text() {
        let single = question(false);
        assert_eq!(read_reply(&single, "2").selected, ["pdf"]);
        assert_eq!(read_reply(&single, "html").selected, ["html"]);
        assert_eq!(read_reply(&single, "1, 3").selected, ["md"]);
        let text = read_reply(&single, "whatever is smallest");
        assert!(text.selected.is_empty());
        assert_eq!(text.text, "whatever is smallest");
        assert_eq!(read_reply(&question(true), "1, 3").selected, ["md", "html"]);
        assert_eq!(read_reply(&question(true), "9").text, "9");
    }
}

//! Fixtures for the TUI's tests: real demo turns from the orchestrator, scripted agents
//! made instant (run under tokio's paused clock, so every run is the same), and hand-made
//! events.

use std::sync::Arc;

use crate::backend::build_backends;
use crate::config::{self, Env};
use crate::orchestrator::ToolSetup;
use crate::orchestrator::{self, RuntimeOptions};
use crate::protocol::{AgentId, Event, EventMsg, ResumedTurn, TurnOutcome};
use crate::session::{RunLogDir, compact_recorded};
use crate::tools::NoTools;
use crate::tui::state::UiState;

/// The shipped demo's events for `questions`, one turn each.
pub async fn demo_turns(questions: &[&str]) -> Vec<Event> {
    let demo = config::examples::demo().unwrap();
    scripted_turns(demo.text, questions).await
}

/// The events of scripted agents configured by `yaml`, one turn per question.
pub async fn scripted_turns(yaml: &str, questions: &[&str]) -> Vec<Event> {
    logged_turns(yaml, questions, None).await
}

/// Like [`scripted_turns`], with logs and sessions under `massgen_dir` if one is given.
pub async fn logged_turns(
    yaml: &str,
    questions: &[&str],
    massgen_dir: Option<std::path::PathBuf>,
) -> Vec<Event> {
    run_turns(yaml, questions, massgen_dir, true).await
}

/// Like [`scripted_turns`], each agent as slow as `yaml` says (under tokio's paused clock
/// still the same every run), so the script decides who answers and votes when.
pub async fn timed_turns(yaml: &str, questions: &[&str]) -> Vec<Event> {
    run_turns(yaml, questions, None, false).await
}

async fn run_turns(
    yaml: &str,
    questions: &[&str],
    massgen_dir: Option<std::path::PathBuf>,
    instant: bool,
) -> Vec<Event> {
    let mut config = config::from_text(yaml, "test", &Env::default())
        .unwrap()
        .into_runnable()
        .unwrap()
        .0;
    for agent in &mut config.agents {
        if let Some(options) = agent.backend.scripted.as_mut().filter(|_| instant) {
            options.tokens_per_second = 0.0;
            options.first_token_ms = 0;
        }
    }
    let backends = build_backends(&config, &Env::default()).unwrap();
    let mut handle = orchestrator::spawn(
        Arc::new(config),
        backends,
        ToolSetup::Shared(Arc::new(NoTools)),
        RuntimeOptions {
            logs: massgen_dir.map(|dir| RunLogDir::create(&dir).unwrap()),
            resume: None,
            session_registry: None,
            human: false,
            inbox_dir: None,
            redactor: crate::redact::Redactor::default(),
            history: Vec::new(),
            approvals: Default::default(),
            agents_loader: None,
        },
    );
    let mut events = Vec::new();
    for question in questions {
        events.extend(handle.run_turn(question).await);
    }
    events
}

/// An event of turn 1, about `agent` if one is named.
pub fn event(seq: u64, agent: Option<&str>, msg: EventMsg) -> Event {
    Event {
        seq,
        at: jiff::Timestamp::UNIX_EPOCH,
        turn: 1,
        agent: agent.map(AgentId::new),
        msg,
    }
}

/// The state after all of `events`.
pub fn fold(events: &[Event]) -> UiState {
    fold_until(events, |_| false)
}

/// The state after `events` up to and including the first one `stop` matches.
pub fn fold_until(events: &[Event], stop: fn(&EventMsg) -> bool) -> UiState {
    let mut state = UiState::default();
    for event in events {
        state.apply(event);
        if stop(&event.msg) {
            break;
        }
    }
    state
}

/// The demo turn on `question`, folded up to and including the first event `stop` matches.
pub async fn demo_until(question: &str, stop: fn(&EventMsg) -> bool) -> UiState {
    fold_until(&demo_turns(&[question]).await, stop)
}

pub fn run_started(msg: &EventMsg) -> bool {
    matches!(msg, EventMsg::RunStarted { .. })
}

pub fn first_answer(msg: &EventMsg) -> bool {
    matches!(msg, EventMsg::AnswerSubmitted { .. })
}

pub fn first_vote(msg: &EventMsg) -> bool {
    matches!(msg, EventMsg::VoteCast { .. })
}

/// Folds `msgs` in as events about the agent at `index`.
pub fn apply_as(state: &mut UiState, index: usize, msgs: impl IntoIterator<Item = EventMsg>) {
    let agent = state.agents[index].info.id.clone();
    for msg in msgs {
        state.apply(&event(10_000, Some(agent.as_str()), msg));
    }
}

pub fn tool_begin(call_id: &str, tool: &str, arguments: &str) -> EventMsg {
    EventMsg::ToolCallBegin {
        call_id: call_id.into(),
        tool: tool.into(),
        arguments: arguments.into(),
        category: None,
    }
}

pub fn tool_end(call_id: &str, tool: &str, ok: bool, output: &str, duration_ms: u64) -> EventMsg {
    EventMsg::ToolCallEnd {
        call_id: call_id.into(),
        tool: tool.into(),
        ok,
        output: output.into(),
        duration_ms,
        category: None,
    }
}

/// Turn `turn` of `events` as `--continue` delivers it: compacted, asked as `question N`.
pub fn resumed(turn: u32, outcome: TurnOutcome, events: &[Event]) -> ResumedTurn {
    let events: Vec<Event> = events
        .iter()
        .filter(|event| event.turn == turn)
        .cloned()
        .filter_map(compact_recorded)
        .collect();
    let winner = events.iter().find_map(|event| match &event.msg {
        EventMsg::TurnFinished { winner, .. } => winner.clone(),
        _ => None,
    });
    ResumedTurn {
        turn,
        question: format!("question {turn}"),
        winner,
        outcome,
        events,
    }
}

/// Folds in the news that the run goes on with an earlier session of `turns`.
pub fn resume(state: &mut UiState, turns: Vec<ResumedTurn>) {
    state.apply(&Event {
        turn: 0,
        ..event(
            0,
            None,
            EventMsg::SessionResumed {
                session_id: "session_20261122_120000".into(),
                turns,
                history_from: None,
                notice: None,
            },
        )
    });
}

/// `events` stamped a quarter second apart by sequence number, so times shown are the same
/// on every run.
pub fn evenly_timed(events: Vec<Event>) -> Vec<Event> {
    events
        .into_iter()
        .map(|event| Event {
            at: jiff::Timestamp::UNIX_EPOCH
                + jiff::SignedDuration::from_millis(250 * i64::try_from(event.seq).unwrap()),
            ..event
        })
        .collect()
}

//! Turns resumed from an earlier session: folded from their recorded events they read as
//! they did live (records, timeline, tool calls) without touching the cards; a turn whose
//! log is gone or torn keeps what the session recorded.

use super::*;
use crate::protocol::{EventMsg, Mode, ResumedTurn, TurnOutcome};
use crate::tui::test_support::{
    apply_as, demo_turns, demo_until, event, fold, resume, resumed, run_started, tool_begin,
    tool_end,
};

#[tokio::test(start_paused = true)]
async fn a_resumed_turn_reads_as_it_did_live_and_leaves_the_cards_alone() {
    let mut events = demo_turns(&["question 1"]).await;
    // A tool call just before the first answer, as a logged turn would hold it.
    let at = events
        .iter()
        .position(|event| matches!(event.msg, EventMsg::AnswerSubmitted { .. }))
        .unwrap();
    let call = [
        tool_begin("c1", "mcp__search__web", "{}"),
        tool_end("c1", "mcp__search__web", false, "timed out", 30_000),
    ]
    .map(|msg| Event {
        msg,
        ..events[at].clone()
    });
    events.splice(at..at, call);
    let live = fold(&events);
    let mut state = demo_until("question 1", run_started).await;
    let cards = state.agents.clone();
    resume(
        &mut state,
        vec![resumed(1, TurnOutcome::Completed, &events)],
    );

    assert_eq!(state.turns, live.turns, "the same record as live");
    let record = &state.turns[0];
    assert!(record.spend.usage.total() > 0);
    let answers = events
        .iter()
        .filter(|event| matches!(event.msg, EventMsg::AnswerSubmitted { .. }))
        .count();
    let votes = events
        .iter()
        .filter(|event| matches!(event.msg, EventMsg::VoteCast { .. }))
        .count();
    let parts = &record.agents;
    assert_eq!(
        parts.iter().map(|part| part.answers.len()).sum::<usize>(),
        answers
    );
    assert_eq!(
        parts.iter().map(|part| part.votes.len()).sum::<usize>(),
        votes
    );
    assert!(
        parts
            .iter()
            .all(|part| part.votes.iter().all(|vote| !vote.reason.is_empty()))
    );
    let presented = record.final_answer.as_ref().unwrap();
    assert_eq!(Some(&presented.agent), record.winner.as_ref());
    assert!(!presented.content.is_empty());

    assert_eq!(state.timeline, live.timeline, "the turn's timeline entries");
    assert_eq!(state.timeline.tool_log, live.timeline.tool_log);
    assert!(matches!(
        &state.timeline.tool_log[..],
        [TimelineEntry {
            kind: EntryKind::ToolCall {
                ok: false,
                duration_ms: 30_000,
                ..
            },
            ..
        }]
    ));
    assert_eq!(state.agents, cards, "the cards are untouched");
    assert_eq!((state.turn.number, state.turn.phase), (0, Phase::Idle));
    assert_eq!(state.session_usage(), live.session_usage());
}

#[tokio::test(start_paused = true)]
async fn a_resumed_turn_without_its_log_keeps_what_the_session_recorded() {
    let events = demo_turns(&["question 1"]).await;
    let first_vote = events
        .iter()
        .position(|event| matches!(event.msg, EventMsg::VoteCast { .. }))
        .unwrap();
    let mut state = demo_until("question 1", run_started).await;
    let torn = resumed(1, TurnOutcome::Cancelled, &events[..=first_vote]);
    let gone = ResumedTurn {
        events: Vec::new(),
        ..resumed(2, TurnOutcome::Failed, &[])
    };
    resume(&mut state, vec![torn, gone]);

    let [torn, gone] = &state.turns[..] else {
        panic!("two turns: {:?}", state.turns);
    };
    assert_eq!((torn.turn, torn.outcome), (1, TurnOutcome::Cancelled));
    assert_eq!(torn.question, "question 1");
    assert!(torn.agents.iter().any(|part| !part.answers.is_empty()));
    assert!(torn.final_answer.is_none());
    assert!(
        torn.spend.usage.total() > 0,
        "what it used before it stopped"
    );
    assert_eq!((gone.turn, gone.outcome), (2, TurnOutcome::Failed));
    assert_eq!(gone.question, "question 2");
    assert_eq!(gone.spend.usage.total(), 0);
    assert_eq!(gone.duration_ms, 0);
    assert!(gone.agents.iter().all(|part| part.answers.is_empty()));
}

#[tokio::test(start_paused = true)]
async fn the_session_totals_per_agent_cover_every_turn_and_the_running_one() {
    let mut state = fold(&demo_turns(&["First?", "Second?"]).await);
    let sum_of = |state: &UiState, index: usize| {
        let id = &state.agents[index].info.id;
        state
            .session_usage_by_agent()
            .into_iter()
            .find(|(agent, ..)| agent == id)
            .map(|(_, spend)| spend.usage.total())
            .unwrap()
    };
    let recorded: u64 = state
        .turns
        .iter()
        .map(|turn| turn.agents[0].spend.usage.total())
        .sum();
    assert_eq!(sum_of(&state, 0), recorded);
    let by_agent: u64 = state
        .session_usage_by_agent()
        .iter()
        .map(|(_, spend)| spend.usage.total())
        .sum();
    assert_eq!(by_agent, state.session_usage().usage.total());
    // A running turn counts too.
    state.apply(&Event {
        turn: 3,
        ..event(
            1,
            None,
            EventMsg::TurnStarted {
                options: Default::default(),
                question: "Third?".into(),
                mode: Mode::Normal,
                agents: state.agents.iter().map(|card| card.info.clone()).collect(),
                log_dir: None,
            },
        )
    });
    apply_as(
        &mut state,
        0,
        [EventMsg::Usage {
            usage: crate::protocol::Usage {
                input_tokens: 7,
                ..Default::default()
            },
            cost_usd: None,
            timing: None,
        }],
    );
    assert_eq!(sum_of(&state, 0), recorded + 7);
    let unknown = state.session_usage_by_agent()[0].1.cost_unknown;
    assert!(unknown, "a price unknown in the running turn shows");
}

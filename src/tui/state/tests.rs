//! The reducer over recorded event sequences: whole demo turns from the real orchestrator
//! with scripted agents, and hand-made edge cases.

use super::*;
use crate::protocol::{
    AnonId, AnonymousMapping, AnswerLabel, EventMsg, FinalAnswerStrategy, Mode, Spend, TurnOutcome,
    Usage,
};
use crate::tui::test_support::{demo_turns, event, fold, tool_begin, tool_end};

/// `agent1`, `agent2`, `agent3` as the anonymous ids of `a`, `b`, `c`.
fn anon_id(name: &str) -> AnonId {
    let roster = [AgentId::new("a"), AgentId::new("b"), AgentId::new("c")];
    let mapping = AnonymousMapping::new(roster.iter());
    let id = match name {
        "agent1" => "a",
        "agent2" => "b",
        _ => "c",
    };
    mapping.anon(&AgentId::new(id)).cloned().unwrap()
}

pub(super) fn info(id: &str, anon: &str) -> AgentInfo {
    AgentInfo {
        id: AgentId::new(id),
        anon_id: anon_id(anon),
        backend: "scripted".into(),
        model: "vendor/model-x".into(),
    }
}

pub(super) fn started(agents: &[AgentInfo]) -> Event {
    event(
        0,
        None,
        EventMsg::TurnStarted {
            options: Default::default(),
            question: "Why?".into(),
            mode: Mode::Planning,
            agents: agents.to_vec(),
            log_dir: None,
        },
    )
}

fn answer(seq: u64, agent: &str, anon: &str) -> Event {
    event(
        seq,
        Some(agent),
        EventMsg::AnswerSubmitted {
            label: AnswerLabel::answer(&anon_id(anon), 1),
            anon_id: anon_id(anon),
            content: format!("{agent}'s answer\nsecond line"),
            votes_reset: None,
        },
    )
}

fn vote(seq: u64, voter: &str, target: &str, target_anon: &str) -> Event {
    event(
        seq,
        Some(voter),
        EventMsg::VoteCast {
            target: AgentId::new(target),
            target_anon: anon_id(target_anon),
            target_label: AnswerLabel::answer(&anon_id(target_anon), 1),
            reason: "best".into(),
            standing: None,
        },
    )
}

#[tokio::test(start_paused = true)]
async fn a_whole_demo_turn_ends_idle_with_a_winner_and_its_final_answer() {
    let events = demo_turns(&["What is the capital of France?"]).await;
    let state = fold(&events);
    assert_eq!(state.turn.phase, Phase::Idle);
    assert_eq!(state.turn.outcome, Some(TurnOutcome::Completed));
    assert_eq!(state.turn.number, 1);
    assert_eq!(state.turn.question, "What is the capital of France?");
    assert_eq!(state.agents.len(), 3);
    let winner = state.turn.winner.clone().unwrap();
    let card = state.agent(&winner).unwrap();
    assert!(card.is_winner);
    let presented = events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::FinalPresentationDone { content, .. } => Some(content.clone()),
            _ => None,
        })
        .unwrap();
    assert!(
        matches!(card.items.last(), Some(CardItem::Final { body, done: true, .. }) if body.text == presented),
        "{:?}",
        card.items.last()
    );
    for card in &state.agents {
        assert!(card.answers >= 1, "{} answered", card.info.id);
        assert!(card.spend.usage.total() > 0, "{} used tokens", card.info.id);
        assert!(
            card.items
                .iter()
                .any(|item| matches!(item, CardItem::Text(_))),
            "{} streamed text",
            card.info.id
        );
    }
    // The timeline holds every answer and vote, in event order.
    let answers = state
        .timeline
        .iter()
        .filter(|entry| matches!(entry.kind, EntryKind::Answer { .. }))
        .count();
    let submitted = events
        .iter()
        .filter(|event| matches!(event.msg, EventMsg::AnswerSubmitted { .. }))
        .count();
    assert_eq!(answers, submitted);
    assert!(
        state
            .timeline
            .windows(2)
            .all(|pair| pair[0].seq < pair[1].seq)
    );
    assert!(matches!(
        state.timeline.last().map(|entry| &entry.kind),
        Some(EntryKind::TurnFinished {
            outcome: TurnOutcome::Completed,
            ..
        })
    ));
    // The tally shows the final count, its leader the winner.
    let bars = state.votes.bars();
    let leader: Vec<&Bar> = bars.iter().filter(|bar| bar.leader).collect();
    assert_eq!(leader.len(), 1);
    assert_eq!(leader[0].candidate, winner);
    assert_eq!(state.turns.len(), 1);
    assert_eq!(state.turns[0].spend.usage, state.turn_usage().usage);
}

#[tokio::test(start_paused = true)]
async fn mid_turn_the_phase_follows_answers_votes_and_presentation() {
    let events = demo_turns(&["Why is the sky blue?"]).await;
    let mut state = UiState::default();
    let mut phases = Vec::new();
    for event in &events {
        state.apply(event);
        if phases.last() != Some(&state.turn.phase) {
            phases.push(state.turn.phase);
        }
    }
    assert_eq!(phases[..2], [Phase::Idle, Phase::Coordinating]);
    assert!(phases.contains(&Phase::Voting), "{phases:?}");
    let presenting = phases.iter().position(|phase| *phase == Phase::Presenting);
    assert_eq!(presenting, Some(phases.len() - 2), "{phases:?}");
    assert_eq!(phases.last(), Some(&Phase::Idle));
}

#[tokio::test(start_paused = true)]
async fn a_second_turn_starts_fresh_cards_and_keeps_the_first_in_the_record() {
    let events = demo_turns(&["First?", "Second?"]).await;
    let state = fold(&events);
    assert_eq!(state.turn.number, 2);
    assert_eq!(state.turn.question, "Second?");
    assert_eq!(state.turns.len(), 2);
    assert_eq!(state.turns[0].question, "First?");
    // Card items belong to the second turn only: exactly one final presentation in all.
    let finals = state
        .agents
        .iter()
        .flat_map(|card| &card.items)
        .filter(|item| matches!(item, CardItem::Final { .. }))
        .count();
    assert_eq!(finals, 1);
    let session = state.session_usage().usage;
    assert_eq!(
        session.total(),
        state.turns[0].spend.usage.total() + state.turns[1].spend.usage.total()
    );
}

#[test]
fn a_new_answer_voids_standing_votes_and_ties_have_no_leader() {
    let agents = [
        info("a", "agent1"),
        info("b", "agent2"),
        info("c", "agent3"),
    ];
    let mut state = UiState::default();
    state.apply(&started(&agents));
    assert_eq!(state.turn.mode, Mode::Planning);
    state.apply(&answer(1, "b", "agent2"));
    state.apply(&answer(2, "a", "agent1"));
    assert_eq!(
        state.votes.candidates,
        [AgentId::new("a"), AgentId::new("b")]
    );
    state.apply(&vote(3, "a", "b", "agent2"));
    state.apply(&vote(4, "c", "a", "agent1"));
    assert_eq!(state.turn.phase, Phase::Voting);
    assert!(state.votes.is_tie());
    assert!(state.votes.bars().iter().all(|bar| !bar.leader));
    // c changes its mind: b leads alone.
    state.apply(&vote(5, "c", "b", "agent2"));
    let bars = state.votes.bars();
    assert_eq!((bars[1].votes, bars[1].leader), (2, true));
    state.apply(&answer(6, "c", "agent3"));
    assert_eq!(state.votes.standing_votes(), 0);
    assert_eq!(state.turn.phase, Phase::Coordinating);
    assert_eq!(state.votes.candidates.len(), 3);
}

#[test]
fn tool_calls_show_running_then_done_with_mcp_names_shortened() {
    let mut state = UiState::default();
    state.apply(&started(&[info("a", "agent1")]));
    let forecast = "mcp__weather__forecast";
    state.apply(&event(
        1,
        Some("a"),
        tool_begin("c1", forecast, "{\"city\":\"Oslo\"}"),
    ));
    let card = &state.agents[0];
    assert_eq!(card.running_tools, 1);
    assert!(matches!(&card.items[0], CardItem::Tool(tool) if tool.name == "weather/forecast"));
    state.apply(&event(
        2,
        Some("a"),
        tool_end("c1", forecast, true, "cold", 300),
    ));
    assert_eq!(state.agents[0].running_tools, 0);
    assert_eq!(state.agents[0].short_model(), "model-x");
}

#[test]
fn a_custom_tool_shows_its_category_where_an_mcp_tool_shows_its_server() {
    let mut state = UiState::default();
    state.apply(&started(&[info("a", "agent1")]));
    let begin = |call_id: &str, category: Option<&str>| EventMsg::ToolCallBegin {
        call_id: call_id.into(),
        tool: "custom_tool__two_num_tool".into(),
        arguments: "{}".into(),
        category: category.map(str::to_string),
    };
    state.apply(&event(1, Some("a"), begin("c1", Some("math"))));
    state.apply(&event(2, Some("a"), begin("c2", None)));
    let names: Vec<&str> = state.agents[0]
        .items
        .iter()
        .filter_map(|item| match item {
            CardItem::Tool(tool) => Some(tool.name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["math/two_num_tool", "custom/two_num_tool"]);
}

#[test]
fn streamed_text_and_reasoning_extend_their_items_until_something_else_comes() {
    let mut state = UiState::default();
    state.apply(&started(&[info("a", "agent1")]));
    for (seq, msg) in [
        EventMsg::ReasoningDelta { text: "Hm".into() },
        EventMsg::ReasoningDelta { text: "m.".into() },
        EventMsg::TextDelta { text: "Par".into() },
        EventMsg::TextDelta { text: "is".into() },
        EventMsg::Retrying {
            attempt: 1,
            max_retries: 3,
            delay_ms: 4000,
            reason: "rate limited".into(),
        },
        EventMsg::TextDelta {
            text: "Again".into(),
        },
    ]
    .into_iter()
    .enumerate()
    {
        state.apply(&event(seq as u64 + 1, Some("a"), msg));
    }
    let items = &state.agents[0].items;
    assert_eq!(items[0], CardItem::Reasoning("Hmm.".into()));
    assert_eq!(items[1], CardItem::Text("Paris".into()));
    assert!(matches!(items[2], CardItem::Retry { delay_ms: 4000, .. }));
    assert_eq!(items[3], CardItem::Text("Again".into()));
    assert!(matches!(
        state.timeline.last().map(|entry| &entry.kind),
        Some(EntryKind::Retrying { .. })
    ));
}

#[test]
fn usage_adds_up_per_agent_with_unknown_prices_flagged() {
    let mut state = UiState::default();
    state.apply(&started(&[info("a", "agent1")]));
    let usage = Usage {
        input_tokens: 100,
        output_tokens: 20,
        ..Usage::default()
    };
    state.apply(&event(
        1,
        Some("a"),
        EventMsg::Usage {
            usage,
            cost_usd: Some(0.5),
            timing: None,
        },
    ));
    state.apply(&event(
        2,
        Some("a"),
        EventMsg::Usage {
            usage,
            cost_usd: None,
            timing: None,
        },
    ));
    let Spend {
        usage: total,
        cost_usd: cost,
        cost_unknown: unknown,
    } = state.turn_usage();
    assert_eq!(total.total(), 240);
    assert!((cost - 0.5).abs() < 1e-9);
    assert!(unknown);
}

#[test]
fn the_timeline_says_how_the_final_answer_is_made() {
    let agents = [info("a", "agent1"), info("b", "agent2")];
    let presenting = |strategy| {
        let mut state = UiState::default();
        state.apply(&started(&agents));
        state.apply(&answer(1, "a", "agent1"));
        state.apply(&event(
            2,
            Some("a"),
            EventMsg::FinalPresentationStarted {
                label: AnswerLabel::final_presentation(&anon_id("agent1")),
                strategy,
            },
        ));
        let entry = state.timeline.last().unwrap();
        crate::tui::render::timeline_text::describe(&entry.kind, &Default::default()).0
    };
    assert_eq!(
        presenting(FinalAnswerStrategy::WinnerPresent),
        "🎯 presenting agent1.final"
    );
    assert_eq!(
        presenting(FinalAnswerStrategy::Synthesize),
        "🎯 presenting agent1.final · synthesized from all answers"
    );
    assert_eq!(
        presenting(FinalAnswerStrategy::WinnerReuse),
        "🎯 presenting agent1.final · the winner's answer as written"
    );
}

#[test]
fn previews_cut_long_and_multi_line_text() {
    assert_eq!(preview("short", 10), "short");
    assert_eq!(preview("a very long line", 6), "a very…");
    assert_eq!(preview("one\ntwo", 10), "one two");
    assert_eq!(
        preview("## Answer\n\n**Paris** is it.", 40),
        "Answer Paris is it."
    );
}

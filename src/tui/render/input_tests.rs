//! Input typed during a turn, at 80×24: queued (the status bar counts it, the timeline
//! row says so), delivered (the row names who has it, the agent's card shows it) and not
//! delivered when the agents finished first.

use insta::assert_snapshot;

use super::tests::{FRANCE, draw, screen_text, view};
use crate::protocol::{AgentId, Event, EventMsg};
use crate::tui::state::UiState;
use crate::tui::test_support::demo_turns;

const INPUT: &str = "Mention the Seine";

// Wide symbols (👤) take two cells, so the screen's text has a blank after each: the
// checks below look at the words beside them.

/// An event just after `last`, about `agent` if one is named.
fn after(last: &Event, agent: Option<&str>, msg: EventMsg) -> Event {
    Event {
        seq: last.seq + 1,
        agent: agent.map(AgentId::new),
        msg,
        ..last.clone()
    }
}

/// Folds `events` up to the first answer, then `msgs` (about `agent`) after it.
fn with_input(events: &[Event], msgs: &[(Option<&str>, EventMsg)]) -> UiState {
    let mut state = UiState::default();
    let mut last = None;
    for event in events {
        state.apply(event);
        last = Some(event.clone());
        if matches!(event.msg, EventMsg::AnswerSubmitted { .. }) {
            break;
        }
    }
    let mut last = last.unwrap();
    for (agent, msg) in msgs {
        let event = after(&last, *agent, msg.clone());
        state.apply(&event);
        last = event;
    }
    state
}

fn queued() -> EventMsg {
    EventMsg::HumanInputQueued {
        text: INPUT.into(),
        targets: Vec::new(),
    }
}

fn delivered() -> EventMsg {
    EventMsg::HumanInputDelivered { text: INPUT.into() }
}

#[tokio::test(start_paused = true)]
async fn queued_input_is_counted_in_the_status_bar_and_listed_as_queued() {
    let events = demo_turns(&[FRANCE]).await;
    let state = with_input(&events, &[(None, queued())]);
    let screen = draw(&state, &view(), 80, 24);
    let text = screen_text(&screen);
    assert!(text.contains("1 queued"), "{text}");
    assert!(text.contains("queued: Mention the Seine"), "{text}");
    assert_snapshot!("input_queued_80x24", screen);
}

#[tokio::test(start_paused = true)]
async fn delivered_input_shows_on_the_agents_card_and_its_row_says_delivered() {
    let events = demo_turns(&[FRANCE]).await;
    let state = with_input(&events, &[(None, queued()), (Some("scout"), delivered())]);
    let screen = draw(&state, &view(), 80, 24);
    let text = screen_text(&screen);
    assert!(text.contains("human input: Mention the Seine"), "{text}");
    assert!(
        text.contains("delivered to scout: Mention the Seine"),
        "{text}"
    );
    assert!(!text.contains("queued:"), "the row changed: {text}");
    assert!(text.contains("1 queued"), "two agents still wait: {text}");
    assert_snapshot!("input_delivered_80x24", screen);
    let all = with_input(
        &events,
        &[
            (None, queued()),
            (Some("scout"), delivered()),
            (Some("scholar"), delivered()),
            (Some("critic"), delivered()),
        ],
    );
    let text = screen_text(&draw(&all, &view(), 80, 24));
    assert!(!text.contains("queued"), "everyone has it: {text}");
}

#[tokio::test(start_paused = true)]
async fn input_no_agent_received_before_the_turn_ended_reads_not_delivered() {
    let events = demo_turns(&[FRANCE]).await;
    let (finished, before) = events.split_last().unwrap();
    assert!(matches!(finished.msg, EventMsg::TurnFinished { .. }));
    let mut state = UiState::default();
    for event in before {
        state.apply(event);
    }
    let last = before.last().unwrap();
    state.apply(&after(last, None, queued()));
    state.apply(&Event {
        seq: last.seq + 2,
        ..finished.clone()
    });
    let screen = draw(&state, &view(), 80, 24);
    let text = screen_text(&screen);
    assert!(
        text.contains("not delivered, the agents finished first: Mention"),
        "{text}"
    );
    assert!(!text.contains("queued:"), "the row changed: {text}");
    assert!(!text.contains("1 queued"), "nothing waits any more: {text}");
    assert_snapshot!("input_undelivered_80x24", screen);
}

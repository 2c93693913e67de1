//! The coordination table with an error, a timeout across the row and no winner.

use super::*;
use crate::protocol::{AgentStatus, Mode, TimeoutScope};
use crate::text::display_width;
use crate::tui::test_support::event;

fn failing_turn() -> Vec<Event> {
    let agents = AgentInfo::roster(
        ["a", "b"].map(|id| (AgentId::new(id), "scripted".to_string(), "m".to_string())),
    );
    vec![
        event(
            1,
            None,
            EventMsg::TurnStarted {
                options: Default::default(),
                question: "Why is the sky blue? Explain it in one long line of text.".into(),
                mode: Mode::Normal,
                agents,
                log_dir: None,
            },
        ),
        event(
            2,
            Some("b"),
            EventMsg::AgentError {
                message: "rate limited (429)".into(),
            },
        ),
        event(
            3,
            Some("b"),
            EventMsg::AgentStatus {
                status: AgentStatus::Error,
            },
        ),
        event(
            4,
            None,
            EventMsg::Timeout {
                scope: TimeoutScope::Orchestrator,
                seconds: 30,
            },
        ),
        event(
            5,
            None,
            EventMsg::TurnFinished {
                outcome: TurnOutcome::Failed,
                winner: None,
                duration_ms: 30_000,
            },
        ),
    ]
}

#[test]
fn errors_sit_in_their_column_and_a_timeout_spans_the_row() {
    let table = coordination_table(&failing_turn());
    let lines: Vec<&str> = table.lines().collect();
    let error = lines.iter().find(|line| line.starts_with("| E1 ")).unwrap();
    let cells: Vec<&str> = error.split('|').map(str::trim).collect();
    assert_eq!(cells[1..4], ["E1", "", "✗ ERROR"], "{table}");
    let timeout = lines.iter().find(|line| line.starts_with("| E2 ")).unwrap();
    assert_eq!(timeout.matches('|').count(), 3, "one cell spans: {timeout}");
    assert!(timeout.contains("✗ TIMEOUT: coordination after 30 s"));
    assert!(table.contains("No winner."));
    assert!(table.ends_with("Outcome: failed: no agent produced an answer\n"));
}

#[test]
fn every_grid_line_has_the_same_display_width() {
    let table = coordination_table(&failing_turn());
    let grid: Vec<&str> = table
        .lines()
        .filter(|line| line.starts_with('|') || line.starts_with('+'))
        .collect();
    let width = display_width(grid[0]);
    assert!(grid.len() > 8);
    for line in grid {
        assert_eq!(display_width(line), width, "{line}");
    }
}

/// The shipped timeout example: time runs out, so the winner's stored answer is the final
/// answer — the table and the TUI's timeline say so, not that a presentation failed.
#[tokio::test(start_paused = true)]
async fn a_stored_answer_after_a_timeout_is_said_to_be_for_the_timeout() {
    let example = crate::config::examples::find("scripted/timeout").unwrap();
    let events = crate::tui::test_support::scripted_turns(example.text, &["q?"]).await;
    assert!(
        events.iter().any(|event| matches!(
            event.msg,
            EventMsg::FinalPresentationDone { fallback: true, .. }
        )),
        "the stored answer stands in"
    );
    let table = coordination_table(&events);
    assert!(table.contains("its stored answer: time ran"), "{table}");
    assert!(!table.contains("presentation failed"), "{table}");

    let state = crate::tui::test_support::fold(&events);
    let done = state
        .timeline
        .iter()
        .find_map(|entry| match entry.kind {
            crate::tui::state::EntryKind::FinalDone {
                fallback,
                after_timeout,
            } => Some((fallback, after_timeout)),
            _ => None,
        })
        .unwrap();
    assert_eq!(done, (true, Some(TimeoutScope::Orchestrator)));
}

#[test]
fn a_fairness_hold_and_its_release_have_cells() {
    let hold = crate::session::derived::table_cells::cell(
        &EventMsg::FairnessHold { lead: 1, cap: 1 },
        None,
    );
    assert_eq!(
        hold,
        Some(vec![
            "⏸ HELD (fairness)".to_string(),
            "held: waiting for peers (lead 1/1)".to_string()
        ])
    );
    let released = crate::session::derived::table_cells::cell(&EventMsg::FairnessReleased, None);
    assert_eq!(
        released,
        Some(vec!["▶ released: peers caught up or voted".to_string()])
    );
}

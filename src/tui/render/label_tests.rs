//! Counts read as English: "1 answer", "1 file", never "1 answers".

use super::tests::{FRANCE, draw, modal_view, screen_text, view};
use crate::protocol::EventMsg;
use crate::tui::render::format::tokens;
use crate::tui::test_support::{apply_as, demo_until, first_answer};
use crate::tui::view::ModalKind;

#[tokio::test(start_paused = true)]
async fn one_answer_and_one_file_are_singular() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(
        &mut state,
        0,
        [EventMsg::WorkspaceSnapshot {
            files: 1,
            bytes: 20,
            skipped: Vec::new(),
        }],
    );
    let cards = screen_text(&draw(&state, &view(), 160, 48));
    assert!(cards.contains("workspace saved: 1 file,"), "{cards}");
    assert!(!cards.contains("1 files"), "{cards}");

    let status = screen_text(&draw(&state, &modal_view(ModalKind::Status), 160, 48));
    assert!(status.contains("· 1 answer"), "{status}");
    assert!(!status.contains("1 answers"), "{status}");

    let table = screen_text(&draw(&state, &modal_view(ModalKind::Coordination), 160, 48));
    assert!(table.contains("1 answer, 0 votes"), "{table}");
    assert!(!table.contains("1 answers"), "{table}");
}

#[tokio::test(start_paused = true)]
async fn the_header_labels_the_turns_and_the_sessions_tokens_and_cost() {
    use crate::protocol::Usage;
    use crate::tui::state::UiState;
    use crate::tui::test_support::demo_turns;
    let mut state = UiState::default();
    // Each turn's first agent is charged: $0.50 in turn 1, $0.25 in turn 2.
    let mut charges = [0.5, 0.25].into_iter();
    for event in demo_turns(&[FRANCE, "And Germany?"]).await {
        state.apply(&event);
        if matches!(event.msg, EventMsg::TurnStarted { .. }) {
            let usage = EventMsg::Usage {
                usage: Usage::default(),
                cost_usd: charges.next(),
                timing: None,
            };
            apply_as(&mut state, 0, [usage]);
        }
    }
    let backend = draw(&state, &view(), 160, 48);
    let buffer = backend.buffer();
    let header: String = (0..buffer.area.width)
        .map(|x| buffer[(x, 0)].symbol().to_string())
        .collect();
    let turn = state.turn_usage().usage;
    let session = state.session_usage().usage;
    assert!(
        session.input_tokens + session.output_tokens > turn.input_tokens + turn.output_tokens,
        "two turns: the session used more than its last turn"
    );
    assert!(
        header.contains("turn ") && header.contains(" · session "),
        "{header}"
    );
    let turn_at = header.find("turn ").unwrap();
    let session_at = header.find("session ").unwrap();
    assert!(turn_at < session_at, "{header}");
    let figures = |label: &str| -> String {
        let at = header.find(label).unwrap() + label.len();
        header[at..].split(" · ").next().unwrap().trim().to_string()
    };
    assert_eq!(
        figures("turn "),
        format!("{} tok $0.2500", tokens(turn.total())),
        "{header}"
    );
    assert_eq!(
        figures("session "),
        format!("{} tok $0.7500", tokens(session.total())),
        "{header}"
    );
}

#[test]
fn the_welcome_view_says_when_the_demo_is_offline_and_how_to_use_real_models() {
    use crate::protocol::{AgentId, AgentInfo};
    use crate::tui::state::UiState;
    let roster = |backend: &str| {
        AgentInfo::roster(
            ["a", "b"].map(|id| (AgentId::new(id), backend.to_string(), "m".to_string())),
        )
    };
    let demo = screen_text(&draw(&UiState::new(roster("scripted")), &view(), 160, 48));
    assert!(demo.contains("Offline demo"), "{demo}");
    assert!(demo.contains("massgen --config your.yaml"), "{demo}");
    let real = screen_text(&draw(&UiState::new(roster("openai")), &view(), 160, 48));
    assert!(!real.contains("Offline demo"), "{real}");
}

//! Snapshots of what injection, round time limits, post-evaluation and orchestration
//! restarts look like: card notices, the card's time left, timeline entries, the banner;
//! and what the timeline says of a stored answer presented after a timeout.

use super::tests::{FRANCE, both_sizes, draw, screen_text, view};
use crate::protocol::{
    AnswerLabel, EventMsg, PostEvaluationOutcome, RoundTimeLimit, RoundTimeStage,
};
use crate::tui::state::RoundTimeLeft;
use crate::tui::test_support::{apply_as, demo_until, first_answer};

fn label(text: &str) -> AnswerLabel {
    serde_json::from_value(serde_json::json!(text)).unwrap()
}

#[tokio::test(start_paused = true)]
async fn an_injected_update_and_the_round_time_left_show_on_the_card() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(
        &mut state,
        2,
        [
            EventMsg::RoundStarted {
                round: 2,
                answers_seen: vec![label("agent1.1")],
                vote_only: false,
                time_limit: Some(RoundTimeLimit {
                    soft_ms: 300_000,
                    grace_ms: 120_000,
                }),
            },
            EventMsg::UpdateInjected {
                labels: vec![label("agent2.1")],
            },
            EventMsg::RoundTimeLimitReached {
                stage: RoundTimeStage::WrapUp,
                elapsed_secs: 301,
            },
        ],
    );
    let clock = state.agents[2]
        .round_clock
        .expect("the round has a time limit");
    let notified = clock.notified.expect("the wrap-up notice starts the grace");
    assert_eq!(
        clock.left_at(notified),
        RoundTimeLeft::WrapUp(120),
        "the grace counts from the notice"
    );
    let mut view = view();
    view.clocks.agent_round_left = vec![
        None,
        Some(RoundTimeLeft::Left(272)),
        Some(RoundTimeLeft::WrapUp(75)),
    ];
    let screen = screen_text(&draw(&state, &view, 160, 48));
    assert!(screen.contains("update received: agent2.1"), "{screen}");
    assert!(screen.contains("wrap up 1:15"), "{screen}");
    assert!(screen.contains("4:32 left"), "{screen}");
    both_sizes("update_injected", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn an_orchestration_restart_shows_its_banner_and_the_attempt() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(
        &mut state,
        0,
        [
            EventMsg::PostEvaluationStarted {
                attempt: 1,
                max_attempts: 3,
            },
            EventMsg::PostEvaluationFinished {
                outcome: PostEvaluationOutcome::RestartRequested {
                    reason: "the answer cites no source".into(),
                    instructions: "cite an official source".into(),
                },
            },
        ],
    );
    state.apply(&crate::tui::test_support::event(
        10_001,
        None,
        EventMsg::OrchestrationRestarted {
            attempt: 2,
            max_attempts: 3,
            reason: "the answer cites no source".into(),
            instructions: "cite an official source".into(),
            log_dir: None,
        },
    ));
    assert_eq!(state.turn.attempt, Some((2, 3)));
    assert!(state.turn.winner.is_none());
    let screen = screen_text(&draw(&state, &view(), 160, 48));
    assert!(
        screen.contains("ORCHESTRATION RESTART (attempt 2/3)"),
        "{screen}"
    );
    assert!(screen.contains("Turn 1 · attempt 2/3"), "{screen}");
    both_sizes("orchestration_restart", &state, &view());
}

#[tokio::test(start_paused = true)]
async fn a_stored_answer_after_a_timeout_is_said_to_be_for_the_timeout_in_the_timeline() {
    use crate::tui::render::tests::modal_view;
    use crate::tui::render::timeline::{TimelineView, entry_line};
    use crate::tui::theme::Theme;
    use crate::tui::view::ModalKind;
    use ratatui::widgets::Widget;

    let example = crate::config::examples::find("scripted/timeout").unwrap();
    let state = crate::tui::test_support::fold(
        &crate::tui::test_support::scripted_turns(example.text, &["q?"]).await,
    );
    let theme = Theme::default();
    let entries: String = state
        .timeline
        .iter()
        .map(|entry| entry_line(&state, entry, &theme, 200).to_string() + "\n")
        .collect();
    assert!(
        entries.contains("final answer: the winner's stored answer (time ran out)"),
        "{entries}"
    );
    assert!(!entries.contains("presentation failed"), "{entries}");

    let area = ratatui::layout::Rect::new(0, 0, 120, 8);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    TimelineView {
        state: &state,
        theme: &theme,
        scroll: 0,
        focused: false,
        selected: None,
        hits: None,
    }
    .render(area, &mut buf);
    let panel: String = buf.content().iter().map(|cell| cell.symbol()).collect();
    assert!(panel.contains("stored answer (time ran out)"), "{panel}");
    assert!(!panel.contains("presentation failed"), "{panel}");

    let modal = screen_text(&draw(&state, &modal_view(ModalKind::Timeline), 160, 48));
    assert!(modal.contains("stored answer (time ran out)"), "{modal}");
    assert!(!modal.contains("presentation failed"), "{modal}");
}

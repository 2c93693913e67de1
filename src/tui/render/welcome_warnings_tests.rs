//! The welcome view of a run that started with warnings: how many, the first ones, and
//! where the rest are (`/status`, which lists them all, and `massgen.log`).

use insta::assert_snapshot;

use super::tests::{draw, screen_text, view};
use crate::tui::app::App;
use crate::tui::test_support::{demo_turns, run_started};

const ORCHESTRATER: &str =
    "typos.yaml:1:1: ignored: unknown key `orchestrater`; did you mean `orchestrator`?";
const SYTEM_MESSAGE: &str = "typos.yaml:6:5: ignored: unknown key `agents[0].sytem_message`; \
    did you mean `system_message`?";

/// The demo's agents ready, the run having warned `warnings`.
async fn warned(warnings: &[&str]) -> App {
    let mut app = App::new(Vec::new());
    app.state.startup_warnings = warnings.iter().map(ToString::to_string).collect();
    for event in demo_turns(&["q"]).await {
        let started = run_started(&event.msg);
        app.on_event(&event);
        if started {
            break;
        }
    }
    app
}

#[tokio::test(start_paused = true)]
async fn two_config_warnings_show_on_the_welcome_view() {
    let app = warned(&[ORCHESTRATER, SYTEM_MESSAGE]).await;
    let screen = draw(&app.state, &view(), 120, 30);
    let text = screen_text(&screen);
    assert!(
        text.contains("⚠ 2 warnings (massgen.log keeps them):"),
        "{text}"
    );
    assert!(text.contains("unknown key `orchestrater`"), "{text}");
    assert!(
        text.contains("unknown key `agents[0].sytem_message`"),
        "{text}"
    );
    assert!(text.contains("type a question below"), "{text}");
    assert_snapshot!("welcome_two_warnings_120x30", screen);
}

#[tokio::test(start_paused = true)]
async fn many_warnings_show_the_first_and_point_to_status() {
    let many: Vec<String> = (1..=7)
        .map(|line| format!("typos.yaml:{line}:1: ignored: unknown key `k{line}`"))
        .collect();
    let refs: Vec<&str> = many.iter().map(String::as_str).collect();
    let app = warned(&refs).await;
    let text = screen_text(&draw(&app.state, &view(), 120, 30));
    assert!(
        text.contains("⚠ 7 warnings (/status lists them all"),
        "{text}"
    );
    assert!(text.contains("unknown key `k3`"), "{text}");
    assert!(!text.contains("unknown key `k4`"), "{text}");
    assert!(text.contains("… and 4 more"), "{text}");
    let status = screen_text(&draw(
        &app.state,
        &super::tests::modal_view(crate::tui::view::ModalKind::Status),
        120,
        40,
    ));
    assert!(
        status.contains("7 warnings when the run started"),
        "{status}"
    );
    assert!(status.contains("unknown key `k7`"), "{status}");
}

#[tokio::test(start_paused = true)]
async fn a_run_without_warnings_shows_none() {
    let app = warned(&[]).await;
    let text = screen_text(&draw(&app.state, &view(), 120, 30));
    assert!(!text.contains('⚠'), "{text}");
}

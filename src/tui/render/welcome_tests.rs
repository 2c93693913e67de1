//! The welcome view of a continued session: which session goes on, and, when `--continue`
//! found no earlier session run with this config, the warning that it took another one.

use insta::assert_snapshot;

use super::tests::{draw, screen_text, view};
use crate::protocol::{AgentId, EventMsg, ResumedTurn, TurnOutcome};
use crate::tui::app::App;
use crate::tui::test_support::{demo_turns, event, run_started};

const NOTICE: &str = "no earlier session ran gamma.yaml: continuing the newest session, \
    session_20261122_120000, which ran beta.yaml (--session-id ID picks another; massgen \
    --list-sessions lists them)";

/// The demo's agents ready, then the news that the run goes on with an earlier session.
async fn continued(notice: Option<&str>) -> App {
    let mut app = App::new(Vec::new());
    for event in demo_turns(&["q"]).await {
        let started = run_started(&event.msg);
        app.on_event(&event);
        if started {
            break;
        }
    }
    let turn = ResumedTurn {
        turn: 1,
        question: "First question?".into(),
        winner: Some(AgentId::new("scholar")),
        outcome: TurnOutcome::Completed,
        events: Vec::new(),
    };
    app.on_event(&crate::protocol::Event {
        turn: 0,
        ..event(
            90,
            None,
            EventMsg::SessionResumed {
                session_id: "session_20261122_120000".into(),
                turns: vec![turn],
                history_from: None,
                notice: notice.map(str::to_string),
            },
        )
    });
    app
}

#[tokio::test(start_paused = true)]
async fn continuing_another_configs_session_warns_on_the_welcome_view_and_in_a_notice() {
    let app = continued(Some(NOTICE)).await;
    assert_eq!(app.view.notice.as_deref(), Some(NOTICE));
    assert_eq!(
        app.state
            .resumed
            .as_ref()
            .and_then(|session| session.notice.as_deref()),
        Some(NOTICE)
    );
    // The welcome line stays after the notice went away.
    let welcome = view();
    let screen = draw(&app.state, &welcome, 80, 24);
    let text = screen_text(&screen);
    assert!(
        text.contains("Continuing session_20261122_120000"),
        "{text}"
    );
    assert!(
        text.contains("⚠ no earlier session ran gamma.yaml"),
        "{text}"
    );
    assert_snapshot!("continued_other_config_80x24", screen);
    let noticed = crate::tui::view::View {
        notice: app.view.notice.clone(),
        ..view()
    };
    let text = screen_text(&draw(&app.state, &noticed, 160, 48));
    assert_eq!(
        text.matches("no earlier session ran").count(),
        2,
        "on the welcome view and in the notice: {text}"
    );
    // At 80×24 the notice's lines above the mode bar take the welcome view's last rows.
    let text = screen_text(&draw(&app.state, &noticed, 80, 24));
    assert!(text.contains("no earlier session ran"), "{text}");
}

#[tokio::test(start_paused = true)]
async fn continuing_this_configs_own_session_says_nothing_more() {
    let app = continued(None).await;
    assert_eq!(app.view.notice, None);
    let text = screen_text(&draw(&app.state, &view(), 80, 24));
    assert!(
        text.contains("Continuing session_20261122_120000"),
        "{text}"
    );
    assert!(!text.contains('⚠'), "{text}");
}

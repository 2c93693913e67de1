//! Issue 6's acceptance: a scripted session of three turns, then `--continue` adds a fourth
//! whose agents see the earlier three as history, and `/inspect` in the full-screen display
//! lists all four and shows a resumed turn in full: answers, votes, final answer and cost.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{Scenario, outcome};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use massgen::protocol::{EventMsg, Op, TurnOutcome};
use massgen::session::find_session;
use massgen::tui::app::App;
use massgen::tui::view::ModalKind;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Two instant agents: `a` votes for `b`, `b` for itself, so `b` wins every turn.
const TWO_AGENTS: &str = r#"
agents:
  - id: a
    backend:
      type: scripted
      tokens_per_second: 0
      answers: ["a says: {question}"]
      vote_for: b
      vote_reason: "b is clearer"
  - id: b
    backend:
      type: scripted
      tokens_per_second: 0
      answers: ["b says: {question}"]
      vote_for: b
      vote_reason: "mine covers it"
      final_answer: "Final: {question}"
"#;

const QUESTIONS: [&str; 4] = ["first?", "second?", "third?", "fourth?"];

#[tokio::test(start_paused = true)]
async fn a_continued_session_adds_a_fourth_turn_with_history_and_inspect_shows_all_four() {
    let mut first_run = Scenario::start(TWO_AGENTS);
    for question in &QUESTIONS[..3] {
        let events = first_run.handle.run_turn(question).await;
        assert_eq!(outcome(&events), TurnOutcome::Completed);
    }
    first_run.handle.shutdown().await;

    let session = find_session(&first_run.dir.path().join(".massgen"), None, None).unwrap();
    assert_eq!(session.turns.len(), 3);
    let mut resumed_run = Scenario::start_resumed(TWO_AGENTS, session);
    let events = resumed_run.handle.run_turn(QUESTIONS[3]).await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);

    let fourth = resumed_run
        .requests_of("a")
        .into_iter()
        .find(|request| request.messages[1].content().contains("fourth?"))
        .unwrap();
    let asked = fourth.messages[1].content();
    assert!(
        asked.starts_with(
            "<CONVERSATION_HISTORY>\nUser: first?\nAssistant: Final: first?\nUser: second?\n\
             Assistant: Final: second?\nUser: third?\nAssistant: Final: third?\n"
        ),
        "{asked}"
    );
    let numbers: Vec<u32> = events.iter().map(|event| event.turn).collect();
    assert!(
        numbers.iter().all(|turn| [0, 4].contains(turn)),
        "{numbers:?}"
    );
    resumed_run.handle.shutdown().await;

    let mut app = App::new(Vec::new());
    for event in &events {
        app.on_event(event);
    }
    let turns: Vec<(u32, String)> = app
        .state
        .turns
        .iter()
        .map(|turn| (turn.turn, turn.winner.as_ref().unwrap().to_string()))
        .collect();
    assert_eq!(turns, [1, 2, 3, 4].map(|turn| (turn, "b".to_string())));
    let resumed_cost = app.state.turns[0].spend.usage.total();
    assert!(resumed_cost > 0, "the resumed turn keeps its tokens");

    for key in "/inspect 1"
        .chars()
        .map(KeyCode::Char)
        .chain([KeyCode::Enter])
    {
        app.on_key(KeyEvent::new(key, KeyModifiers::NONE));
    }
    assert_eq!(
        app.view.modals.top(),
        Some(ModalKind::Turns { selected: 0 })
    );
    let screen = draw(&app, 160, 48);
    for (number, question) in (1..).zip(QUESTIONS) {
        let listed = screen
            .lines()
            .find(|line| line.contains(&format!("turn {number}   done")))
            .unwrap_or_else(|| panic!("turn {number} is not listed:\n{screen}"));
        assert!(listed.contains(&format!("b  {question}")), "{listed}");
    }
    for shown in [
        "Turn 1 · done",
        "a · agent1.1",
        "a says: first?",
        "a → b (agent2.1): b is clearer",
        "b → b (agent2.1): mine covers it",
        "agent2.final by b",
        "Final: first?",
        "turn total",
    ] {
        assert!(screen.contains(shown), "{shown} missing:\n{screen}");
    }
    assert_snapshot!("inspect_after_continue_160x48", screen);
}

/// `/clear` in a continued session is kept in it: continuing it again gives only the turns
/// after the clear as history, and says where the history starts.
#[tokio::test(start_paused = true)]
async fn a_clear_in_a_continued_session_holds_when_it_is_continued_again() {
    let mut first_run = Scenario::start(TWO_AGENTS);
    for question in &QUESTIONS[..2] {
        first_run.handle.run_turn(question).await;
    }
    first_run.handle.shutdown().await;
    let massgen_dir = first_run.dir.path().join(".massgen");

    let session = find_session(&massgen_dir, None, None).unwrap();
    assert_eq!(session.history_from, 1);
    let mut second_run = Scenario::start_resumed(TWO_AGENTS, session);
    second_run.handle.ops.send(Op::ClearHistory).await.unwrap();
    let events = second_run.handle.run_turn(QUESTIONS[2]).await;
    assert!(
        events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::HistoryCleared)),
        "the clear was done"
    );
    let third = asked_of_a(&second_run, "third?");
    assert!(!third.contains("first?"), "cleared at once: {third}");
    second_run.handle.shutdown().await;

    let session = find_session(&massgen_dir, None, None).unwrap();
    assert_eq!((session.turns.len(), session.history_from), (3, 3));
    let mut third_run = Scenario::start_resumed(TWO_AGENTS, session);
    let events = third_run.handle.run_turn(QUESTIONS[3]).await;
    assert!(
        events.iter().any(|event| matches!(
            &event.msg,
            EventMsg::SessionResumed { turns, history_from: Some(3), .. } if turns.len() == 3
        )),
        "the resumed session says where its history starts"
    );
    let asked = asked_of_a(&third_run, "fourth?");
    assert!(
        asked.starts_with("<CONVERSATION_HISTORY>\nUser: third?\nAssistant: Final: third?\n"),
        "only the turn after the clear: {asked}"
    );
    assert!(
        !asked.contains("first?") && !asked.contains("second?"),
        "{asked}"
    );
    third_run.handle.shutdown().await;
}

/// What agent `a` was asked in the turn whose question contains `question`.
fn asked_of_a(run: &Scenario, question: &str) -> String {
    run.requests_of("a")
        .into_iter()
        .find(|request| request.messages[1].content().contains(question))
        .unwrap()
        .messages[1]
        .content()
        .to_string()
}

/// The frame as text, one line per row.
fn draw(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| {
            massgen::tui::frame::render(&app.state, &app.view, &app.next, &app.theme, frame)
        })
        .unwrap();
    let buffer = terminal.backend().buffer();
    (0..height)
        .map(|row| {
            (0..width)
                .map(|column| buffer[(column, row)].symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

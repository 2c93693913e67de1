//! Issue 28, item 10: a card's reasoning line shows as much of the newest thought as fits,
//! answers in cards keep their markdown, the welcome view's agents line up, overlays keep
//! their border beside wide characters, `/history` has no gap after the turn number, `/`
//! completions say what each command does, and a turn cancelled while the winner presents
//! does not say that it won.

use insta::assert_snapshot;
use ratatui::backend::TestBackend;
use ratatui::style::Modifier;

use super::output::{Paint, tail_lines};
use super::tests::{FRANCE, draw, modal_view, screen_text, view};
use crate::protocol::{AgentStatus, AnswerLabel, EventMsg, TurnOutcome};
use crate::tui::complete::suggest;
use crate::tui::slash::SLASH_COMMANDS;
use crate::tui::state::UiState;
use crate::tui::test_support::{apply_as, demo_turns, demo_until, event, fold, run_started};
use crate::tui::theme::Theme;
use crate::tui::view::ModalKind;

/// The screen's rows, each as the cells show it (a wide character's hidden half dropped).
fn rows(backend: &TestBackend) -> Vec<String> {
    let buffer = backend.buffer();
    let width = usize::from(buffer.area.width);
    buffer
        .content()
        .chunks(width)
        .map(|row| row.iter().map(|cell| cell.symbol()).collect())
        .collect()
}

/// The display lines of `index`'s card output at `width`, as text.
fn card_text(state: &UiState, index: usize, width: usize, whole_answers: bool) -> Vec<String> {
    let theme = Theme::default();
    let paint = Paint {
        width,
        theme: &theme,
        index,
        expanded: false,
        whole_answers,
    };
    tail_lines(&state.agents[index], paint, 40, None)
        .iter()
        .map(ToString::to_string)
        .filter(|line| !line.starts_with("── round"))
        .collect()
}

const THOUGHT: &str = "The capital question is simple, but the answer should say how sure it \
    is and what evidence supports it before I deal with it";

async fn thinking(thought: &str) -> UiState {
    let mut state = demo_until(FRANCE, round_started).await;
    apply_as(
        &mut state,
        0,
        [
            EventMsg::AgentStatus {
                status: AgentStatus::Thinking,
            },
            EventMsg::ReasoningDelta {
                text: format!("Earlier thoughts.\n{thought}"),
            },
        ],
    );
    state
}

#[tokio::test(start_paused = true)]
async fn a_wide_card_shows_the_whole_recent_thought() {
    let state = thinking(THOUGHT).await;
    let lines = card_text(&state, 0, 60, false);
    assert!(lines.len() > 1, "the thought wraps: {lines:?}");
    assert_eq!(lines.join(" "), format!("💭 {THOUGHT}"));
    assert_snapshot!("thought_wide_160x48", draw(&state, &view(), 160, 48));
}

#[tokio::test(start_paused = true)]
async fn a_thought_too_long_for_the_card_loses_its_start_only() {
    let long = format!("{THOUGHT}. {THOUGHT}. {THOUGHT}");
    let state = thinking(&long).await;
    let lines = card_text(&state, 0, 40, false);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with("💭 …"), "{lines:?}");
    assert!(
        lines
            .iter()
            .all(|line| super::wrap::display_width(line) <= 40)
    );
    let shown = lines.join(" ");
    let words = shown.trim_start_matches("💭 …");
    assert!(long.ends_with(words), "a suffix of the thought: {words}");
    assert!(
        long.split_whitespace().any(|word| words.starts_with(word)),
        "it starts at a word: {words}"
    );
    assert!(words.len() > 80, "three lines' worth: {words}");
}

const ANSWER: &str = "# Paris\n\n- **Capital** of France\n- Seat of the government\n\n\
    ```\nlat 48.85\n```\n\nSources: the usual atlases.\n";

fn round_started(msg: &EventMsg) -> bool {
    matches!(msg, EventMsg::RoundStarted { .. })
}

async fn answered() -> UiState {
    let mut state = demo_until(FRANCE, round_started).await;
    let anon_id = state.agents[0].info.anon_id.clone();
    apply_as(
        &mut state,
        0,
        [EventMsg::AnswerSubmitted {
            label: AnswerLabel::answer(&anon_id, 1),
            anon_id,
            content: ANSWER.into(),
            votes_reset: Some(Vec::new()),
        }],
    );
    state
}

#[tokio::test(start_paused = true)]
async fn answers_in_cards_keep_their_markdown() {
    let state = answered().await;
    let lines = card_text(&state, 0, 50, false);
    assert_eq!(
        lines,
        [
            "✔ answer agent1.1",
            "Paris",
            "",
            "• Capital of France",
            "… 7 more lines"
        ]
    );
    let theme = Theme::default();
    let paint = Paint {
        width: 50,
        theme: &theme,
        index: 0,
        expanded: false,
        whole_answers: false,
    };
    let drawn = tail_lines(&state.agents[0], paint, 40, None);
    let bold = drawn[4]
        .spans
        .iter()
        .find(|span| span.content == "Capital")
        .map(|span| span.style.add_modifier);
    assert!(bold.is_some_and(|modifier| modifier.contains(Modifier::BOLD)));

    // Zoomed (and in the full output), the whole answer, as markdown.
    let whole = card_text(&state, 0, 50, true);
    assert_eq!(
        whole[1..],
        [
            "Paris",
            "",
            "• Capital of France",
            "• Seat of the government",
            "",
            "```",
            "lat 48.85",
            "```",
            "",
            "Sources: the usual atlases.",
        ]
    );
    let mut zoomed = view();
    zoomed.cards.maximized = true;
    let screen = screen_text(&draw(&state, &zoomed, 80, 24));
    assert!(screen.contains("• Seat of the government"), "{screen}");
    assert!(!screen.contains("- **Capital**"), "{screen}");
}

#[tokio::test(start_paused = true)]
async fn welcome_lists_agents_in_columns() {
    let state = demo_until(FRANCE, run_started).await;
    let screen = rows(&draw(&state, &view(), 100, 30));
    let column = |text: &str| -> Vec<usize> {
        screen
            .iter()
            .filter_map(|row| row.find(text).map(|at| row[..at].chars().count()))
            .collect()
    };
    let names: Vec<usize> = ["scout", "scholar", "critic"]
        .iter()
        .flat_map(|name| column(&format!("{name} ")))
        .collect();
    assert_eq!(names.len(), 3, "{screen:#?}");
    assert!(names.iter().all(|at| *at == names[0]), "{names:?}");
    let models = column("scripted ·");
    assert_eq!(models.len(), 3, "{screen:#?}");
    assert!(models.iter().all(|at| *at == models[0]), "{models:?}");
    assert_snapshot!("welcome_columns_100x30", draw(&state, &view(), 100, 30));
}

/// Where the open modal's frame starts on the screen: the column of its top-left corner.
fn modal_left(backend: &TestBackend, title: &str) -> (u16, u16) {
    let buffer = backend.buffer();
    for y in 0..buffer.area.height {
        let row: Vec<&str> = (0..buffer.area.width)
            .map(|x| buffer[(x, y)].symbol())
            .collect();
        let text: String = row.concat();
        if let Some(at) = text.find(&format!("╭ {title}")) {
            let x = text[..at].chars().count();
            return (u16::try_from(x).unwrap(), y);
        }
    }
    panic!("no modal titled {title}");
}

#[tokio::test(start_paused = true)]
async fn a_wide_character_beside_a_modal_leaves_its_border_whole() {
    let state = fold(&demo_turns(&[FRANCE]).await);
    for (kind, title) in [
        (ModalKind::Help, "Keys and commands"),
        (ModalKind::Votes, "Votes"),
    ] {
        let view = modal_view(kind);
        let (left, top) = modal_left(&draw(&state, &view, 80, 24), title);
        // The focused card's text, so that a wide character ends under the left border.
        let mut wide = state.clone();
        let lead = "a".repeat(usize::from(left) - 2);
        let text = (0..12)
            .map(|_| format!("{lead}日本語のテキスト"))
            .collect::<Vec<_>>()
            .join("\n");
        apply_as(&mut wide, 0, [EventMsg::TextDelta { text }]);
        let backend = draw(&wide, &view, 80, 24);
        let buffer = backend.buffer();
        let bottom = (top + 1..buffer.area.height)
            .find(|&y| buffer[(left, y)].symbol() == "╰")
            .unwrap_or_else(|| panic!("{title}: no bottom corner\n{backend}"));
        for y in top + 1..bottom {
            assert_eq!(
                buffer[(left, y)].symbol(),
                "│",
                "{title}, row {y}:\n{backend}"
            );
        }
        if kind == ModalKind::Help {
            assert_snapshot!("help_beside_wide_text_80x24", backend);
        }
    }
}

#[tokio::test(start_paused = true)]
async fn history_follows_the_turn_number_without_a_gap() {
    let state = fold(&demo_turns(&[FRANCE]).await);
    let screen = rows(&draw(&state, &modal_view(ModalKind::History), 40, 12));
    assert!(
        screen
            .iter()
            .any(|row| row.contains("│1 ▸ What is the capital")),
        "{screen:#?}"
    );
}

#[tokio::test(start_paused = true)]
async fn slash_completions_say_what_each_command_does() {
    let state = demo_until(FRANCE, run_started).await;
    let popup = suggest("/e", std::path::Path::new(".")).unwrap();
    let mut shown = view();
    shown.input.popup = Some(popup);
    let backend = draw(&state, &shown, 100, 30);
    let screen = rows(&backend);
    for command in ["/exit", "/events", "/export"] {
        let about = SLASH_COMMANDS
            .iter()
            .find(|entry| entry.name == command)
            .map(|entry| entry.about)
            .unwrap();
        let row = screen
            .iter()
            .find(|row| row.contains(&format!("│{command} ")))
            .unwrap_or_else(|| panic!("{command}: {screen:#?}"));
        let words: Vec<&str> = about.split_whitespace().take(3).collect();
        assert!(row.contains(&words.join(" ")), "{command}: {row}");
    }
    assert_snapshot!("completions_described_100x30", backend);
}

#[test]
fn every_short_form_in_the_table_runs_its_command() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    for command in &SLASH_COMMANDS {
        for name in std::iter::once(command.name.trim_start_matches('/'))
            .chain(command.aliases.iter().copied())
        {
            if matches!(name, "quit" | "q" | "exit" | "config") {
                continue;
            }
            let mut app = crate::tui::app::App::new(Vec::new());
            for ch in format!("/{name}").chars() {
                app.on_key(KeyEvent::new(KeyCode::Char(ch), KeyModifiers::NONE));
            }
            app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
            let notice = app.view.notice.clone().unwrap_or_default();
            assert!(!notice.starts_with("unknown command"), "/{name}: {notice}");
        }
    }
}

/// The demo turn up to the winner's first words of its final answer, then cancelled as
/// the orchestrator cancels a presentation: `Cancelled`, the winner's card cancelled, and
/// the turn finished without a winner.
async fn cancelled_while_presenting() -> UiState {
    let events = demo_turns(&[FRANCE]).await;
    let mut state = UiState::default();
    for event in &events {
        state.apply(event);
        if matches!(event.msg, EventMsg::FinalPresentationDelta { .. }) {
            break;
        }
    }
    let winner = state.turn.winner.clone().unwrap();
    for (seq, agent, msg) in [
        (9_000, None, EventMsg::Cancelled),
        (
            9_001,
            Some(winner.as_str()),
            EventMsg::AgentStatus {
                status: AgentStatus::Cancelled,
            },
        ),
        (
            9_002,
            None,
            EventMsg::TurnFinished {
                outcome: TurnOutcome::Cancelled,
                winner: None,
                duration_ms: 1_000,
            },
        ),
    ] {
        state.apply(&event(seq, agent, msg));
    }
    state
}

#[tokio::test(start_paused = true)]
async fn cancelled_during_the_final_answer_the_status_bar_says_so() {
    let state = cancelled_while_presenting().await;
    let backend = draw(&state, &view(), 160, 48);
    let screen = rows(&backend);
    let status = screen.last().unwrap();
    assert!(!status.contains("wins"), "{status}");
    assert!(
        status.contains("cancelled · scholar's final answer incomplete"),
        "{status}"
    );
    let title = screen
        .iter()
        .find(|row| row.contains("scholar · scripted-deep"))
        .unwrap();
    assert!(
        !title.contains("🏆 scholar"),
        "the card no longer claims it: {title}"
    );
    assert_snapshot!("cancelled_presenting_160x48", backend);
    let mut final_view = view();
    final_view.final_view.shown = true;
    let shown = screen_text(&draw(&state, &final_view, 100, 30));
    assert!(shown.contains("cancelled, incomplete"), "{shown}");
    assert!(!shown.contains("presenting…"), "{shown}");

    // A turn that ran to its end still names its winner.
    let finished = fold(&demo_turns(&[FRANCE]).await);
    let status = rows(&draw(&finished, &view(), 160, 48)).pop().unwrap();
    assert!(status.contains("scholar wins"), "{status}");
}

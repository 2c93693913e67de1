//! Issue 19: a streaming text block draws its partial last line as it grows, and appending
//! text never changes the lines above it, however the text is cut into tokens; a paused card
//! or a replay cut anywhere draws what the live stream drew at that point.

use proptest::prelude::*;
use ratatui::text::Line;

use super::tests::{FRANCE, both_sizes, draw, screen_text, small_size, tiny_size, view};
use super::text::block_lines;
use crate::protocol::{AgentStatus, AnswerLabel, EventMsg, FinalAnswerStrategy};
use crate::tui::state::{TextBlock, UiState};
use crate::tui::test_support::{apply_as, demo_until};
use crate::tui::theme::Theme;

/// The pieces generated texts are made of: prose with inline markdown, CJK and a long word,
/// list items, a quote, headings, a rule, a blank line and fenced code (its lines shorter
/// than the narrowest width tried, which cuts code lines rather than wrapping them).
const PIECES: &[&str] = &[
    "The cache keeps **hot keys** in memory and evicts _cold_ ones by `age`.",
    "see [the docs](https://example.org/cache) and ~~old~~ notes, 2 * 3 * 4",
    "日本語のテキストは空白なしで折り返されます、長い行でも。",
    "supercalifragilisticexpialidocious_without_any_spaces_at_all_in_it",
    "- a list item with **bold** words and more words after them",
    "  * a nested item",
    "1. an ordered item",
    "> a quoted *line* of text",
    "# A heading",
    "### Small `heading`",
    "---",
    "",
    "```rust\nfn main() {\n    run();\n}\n```",
    "```\nplain\n```",
];

fn streaming(block: &TextBlock, wanted: usize, width: usize) -> Vec<Line<'static>> {
    block_lines(block, usize::MAX, true, wanted, width, &Theme::default())
}

/// Everything the lines show, spaces left out.
fn visible(lines: &[Line<'_>]) -> String {
    lines
        .iter()
        .map(ToString::to_string)
        .collect::<String>()
        .split_whitespace()
        .collect()
}

/// The last word of the text's partial last line, when it has a letter or digit (a lone
/// `-` or `#` becomes a bullet or heading once its line goes on).
fn last_word(text: &str) -> Option<&str> {
    let tail = &text[text.rfind('\n').map_or(0, |newline| newline + 1)..];
    tail.split_whitespace()
        .last()
        .filter(|word| word.chars().any(char::is_alphanumeric))
}

/// Streams `text` in tokens ending at `ends` and checks every render against the one before.
fn check_growth(text: &str, ends: &[usize], width: usize) -> Result<(), TestCaseError> {
    let whole = TextBlock::from(text);
    let mut block = TextBlock::default();
    let mut before: Vec<Line<'static>> = Vec::new();
    let mut at = 0;
    for &end in ends {
        let token = &text[at..end];
        let earlier = &text[..at];
        block.push(token);
        let now = streaming(&block, usize::MAX, width);
        // The display lines of source lines that were complete before this token.
        let complete = &earlier[..earlier.rfind('\n').map_or(0, |newline| newline + 1)];
        let settled = streaming(&TextBlock::from(complete), usize::MAX, width).len();
        // Within one source line, wrapping is greedy: only the last display line may change.
        let kept = if token.contains('\n') {
            settled
        } else {
            settled.max(before.len().saturating_sub(1))
        };
        prop_assert!(now.len() >= kept, "{token:?} took lines away");
        prop_assert_eq!(
            &now[..kept],
            &before[..kept],
            "{:?} changed lines above the last one",
            token
        );
        if let Some(word) = last_word(&block.text) {
            prop_assert!(
                visible(&now).ends_with(word),
                "{:?} is not on screen: {:?}",
                word,
                visible(&now)
            );
        }
        // A card wanting only its newest lines gets the end of the same lines.
        let newest = streaming(&block, 3, width);
        prop_assert!(now.ends_with(&newest) && !newest.is_empty() || now.is_empty());
        // A paused card or a replay cut here draws what streamed up to here.
        let cut = block_lines(&whole, end, true, usize::MAX, width, &Theme::default());
        prop_assert_eq!(&cut, &now, "cut at byte {}", end);
        before = now;
        at = end;
    }
    Ok(())
}

/// Token ends from token sizes (1–16 bytes), moved to char boundaries; the last is the end.
fn token_ends(text: &str, sizes: &[usize]) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut at = 0;
    for size in sizes.iter().cycle() {
        if at >= text.len() {
            break;
        }
        at = (at + size).min(text.len());
        while !text.is_char_boundary(at) {
            at += 1;
        }
        ends.push(at);
    }
    ends
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn appending_a_token_never_changes_the_lines_above_the_last_one(
        pieces in prop::collection::vec(0..PIECES.len(), 1..10),
        sizes in prop::collection::vec(1..=16usize, 1..12),
        width in 12..=60usize,
    ) {
        let text = pieces.iter().map(|&piece| PIECES[piece]).collect::<Vec<_>>().join("\n");
        check_growth(&text, &token_ends(&text, &sizes), width)?;
    }
}

#[test]
fn every_word_of_a_paragraph_is_drawn_as_it_streams() {
    let text: String = PIECES[..4].join(" ");
    let ends: Vec<usize> = (1..=text.len())
        .filter(|&end| text.is_char_boundary(end))
        .collect();
    for width in [12, 37, 80] {
        check_growth(&text, &ends, width).unwrap();
    }
}

#[test]
fn a_partial_line_settles_its_own_styling_when_it_completes() {
    let theme = Theme::default();
    let mut block = TextBlock::from("# Plan\n- keep **hot");
    let texts = |lines: &[Line<'_>]| lines.iter().map(ToString::to_string).collect::<Vec<_>>();
    assert_eq!(
        texts(&streaming(&block, usize::MAX, 40)),
        ["Plan", "• keep **hot"]
    );
    block.push(" keys** warm\n");
    let lines = streaming(&block, usize::MAX, 40);
    assert_eq!(texts(&lines), ["Plan", "• keep hot keys warm"]);
    let bold = lines[1]
        .spans
        .iter()
        .find(|span| span.content == "hot keys");
    assert_eq!(
        bold.map(|span| span.style),
        Some(theme.text().add_modifier(ratatui::style::Modifier::BOLD))
    );
    // A lone `#` may be a hashtag: it becomes a heading only once a space follows.
    let hashtag = TextBlock::from("#");
    assert_eq!(texts(&streaming(&hashtag, usize::MAX, 40)), ["#"]);
}

#[test]
fn a_partial_line_inside_a_code_block_is_cut_not_wrapped_until_it_is_highlighted() {
    let long = "let value = compute_the_answer(with_a_long_argument);";
    let mut block = TextBlock::from(format!("```rust\n{long}").as_str());
    let lines = streaming(&block, usize::MAX, 20);
    assert_eq!(lines.len(), 2, "the fence and one cut code line");
    assert!(lines[1].to_string().starts_with("let value = comput"));
    assert!(lines[1].to_string().ends_with('…'));
    block.push("\n");
    let done = streaming(&block, usize::MAX, 20);
    assert_eq!(done.len(), 2, "still one code line");
    assert!(done[1].spans.len() > 1, "highlighted once complete");
    // A settled answer that ends inside its code block, with no last line break.
    let settled = TextBlock::from(format!("```rust\n{long}").as_str());
    let lines = block_lines(&settled, usize::MAX, false, 10, 20, &Theme::default());
    assert_eq!(lines.len(), 2);
}

/// Three cards mid-paragraph: plain prose cut mid-word, a list item, an open code fence.
async fn half_streamed() -> UiState {
    let mut state = demo_until(FRANCE, |msg| matches!(msg, EventMsg::TurnStarted { .. })).await;
    let texts = [
        "Paris is the capital of France. It has been the seat of the government for most \
         of the last thousand years, and today the city and its suburbs are home to about \
         twelve million peo",
        "The main facts:\n- Paris is the capital and the largest city of France, on the \
         Seine in the north of the coun",
        "Look it up:\n```python\ncapitals = {\"France\": \"Paris\"}\nprint(capitals[\"Fra",
    ];
    for (index, text) in texts.into_iter().enumerate() {
        apply_as(
            &mut state,
            index,
            [
                EventMsg::AgentStatus {
                    status: AgentStatus::Streaming,
                },
                EventMsg::TextDelta { text: text.into() },
            ],
        );
    }
    state
}

#[tokio::test(start_paused = true)]
async fn half_streamed_paragraphs_are_on_screen_in_their_cards() {
    let state = half_streamed().await;
    let words = ["peo", "coun", "capitals[\"Fra"];
    let wide = screen_text(&draw(&state, &view(), 160, 48));
    for word in words {
        assert!(wide.contains(word), "{word} at 160x48: {wide}");
    }
    both_sizes("half_streamed", &state, &view());
    // 80×24 shows the focused card only: each of the three in turn.
    for (focused, word) in words.into_iter().enumerate() {
        let mut view = view();
        view.cards.focused = focused;
        let screen = screen_text(&draw(&state, &view, 80, 24));
        assert!(screen.contains(word), "{word} at 80x24: {screen}");
        if focused > 0 {
            small_size(&format!("half_streamed_card_{focused}"), &state, &view);
        }
    }
}

#[tokio::test(start_paused = true)]
async fn the_final_view_shows_the_presentation_growing() {
    let mut state = half_streamed().await;
    let label = AnswerLabel::answer(&state.agents[0].info.anon_id, 1);
    apply_as(
        &mut state,
        0,
        [
            EventMsg::AgentStatus {
                status: AgentStatus::Presenting,
            },
            EventMsg::FinalPresentationStarted {
                label,
                strategy: FinalAnswerStrategy::WinnerPresent,
            },
            EventMsg::FinalPresentationDelta {
                text: "## Paris\n\nThe capital of France is **Paris**, a city of about two \
                       million people on the Seine; with its sub"
                    .into(),
            },
        ],
    );
    let mut final_view = view();
    final_view.final_view.shown = true;
    for (width, height) in [(80, 24), (160, 48)] {
        let screen = screen_text(&draw(&state, &final_view, width, height));
        assert!(screen.contains("with its sub"), "{screen}");
        assert!(screen.contains("presenting…"), "{screen}");
    }
    both_sizes("final_view_presenting", &state, &final_view);
    tiny_size("final_view_presenting", &state, &final_view);

    // Followed from its end (End, or scrolled to the bottom), a presentation taller than the
    // view keeps its newest words on screen as it grows.
    let mut following = view();
    following.final_view.shown = true;
    following.final_view.scroll = usize::MAX;
    let long: String = (1..=60)
        .map(|n| format!("Line {n} of the answer.\n"))
        .collect();
    apply_as(
        &mut state,
        0,
        [EventMsg::FinalPresentationDelta {
            text: format!("\n\n{long}and the newest wor"),
        }],
    );
    let screen = screen_text(&draw(&state, &following, 80, 24));
    assert!(screen.contains("and the newest wor"), "{screen}");
    assert!(
        !screen.contains("## Paris") && !screen.contains("Line 1 of"),
        "{screen}"
    );
}

#[tokio::test(start_paused = true)]
async fn collapsed_reasoning_shows_its_newest_words_as_they_stream() {
    let mut state = demo_until(FRANCE, |msg| matches!(msg, EventMsg::TurnStarted { .. })).await;
    // One long line of thought, wider than the card, before the words to watch.
    let opening = "Let me weigh the candidates one by one before answering, since the \
                   question asks for the capital and not the largest city, which";
    apply_as(
        &mut state,
        0,
        [EventMsg::ReasoningDelta {
            text: opening.into(),
        }],
    );
    for word in [
        "carefully",
        "considering",
        "population",
        "history",
        "Versailles",
    ] {
        apply_as(
            &mut state,
            0,
            [
                EventMsg::AgentStatus {
                    status: AgentStatus::Thinking,
                },
                EventMsg::ReasoningDelta {
                    text: format!(" {word}"),
                },
            ],
        );
        let screen = screen_text(&draw(&state, &view(), 80, 24));
        let line = screen
            .lines()
            .find(|line| line.contains("💭"))
            .unwrap_or_else(|| panic!("no reasoning line: {screen}"));
        assert!(line.contains(word), "{word} is not on its line: {line}");
    }
}

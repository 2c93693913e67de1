//! The question modal: who asks, which question of how many, its text, its options (radio
//! or check boxes, with descriptions), the one-line text field, the hint when a required
//! question was left unanswered, and the time left; kept scrolled so the cursor's row
//! shows.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::protocol::Question;
use crate::tui::question::{Answer, QuestionForm};
use crate::tui::render::format::{duration, plural};
use crate::tui::render::wrap::{display_width, truncate, wrap};
use crate::tui::state::UiState;
use crate::tui::theme::Theme;
use crate::tui::view::View;

/// Why a required question was not sent on.
const MISSING: &str = "choose an option or type an answer; Esc skips";

/// Whether the open question is the last of its request (Enter sends the replies).
pub fn on_last(state: &UiState, view: &View) -> bool {
    view.modals.question.as_ref().is_some_and(|form| {
        state
            .planning
            .questions
            .iter()
            .find(|pending| pending.request_id == form.request_id)
            .is_none_or(|pending| form.index + 1 >= pending.questions.len())
    })
}

/// The lines that fit `height`, around the cursor's row; the question does not scroll
/// otherwise (↑↓ move the cursor).
pub fn page(
    state: &UiState,
    view: &View,
    theme: &Theme,
    width: usize,
    height: usize,
) -> (Vec<Line<'static>>, usize) {
    let pending = view.modals.question.as_ref().and_then(|form| {
        state
            .planning
            .questions
            .iter()
            .position(|pending| pending.request_id == form.request_id)
            .map(|at| (form, at))
    });
    let Some((form, at)) = pending else {
        return (
            vec![Line::styled(
                "This question no longer waits for an answer.",
                theme.dim(),
            )],
            0,
        );
    };
    let pending = &state.planning.questions[at];
    let waiting = state.planning.questions.len() - 1;
    let Some(question) = pending.questions.get(form.index) else {
        let nothing = "The agent asked nothing: Enter or Esc closes this.";
        return (vec![Line::styled(nothing, theme.dim())], 0);
    };
    let unanswered = Answer::default();
    let answer = form.answers.get(form.index).unwrap_or(&unanswered);
    let mut lines = Vec::new();
    let asker = pending
        .asker
        .as_ref()
        .map_or_else(|| "an agent".to_string(), ToString::to_string);
    let colour = pending
        .asker
        .as_ref()
        .and_then(|asker| state.agent_index(asker))
        .map_or_else(|| theme.accent(), |index| theme.agent(index));
    lines.push(Line::from(vec![
        Span::styled("From: ", theme.dim()),
        Span::styled(asker, colour.add_modifier(Modifier::BOLD)),
    ]));
    lines.push(Line::styled(
        format!("Question {} of {}", form.index + 1, pending.questions.len()),
        theme.dim(),
    ));
    lines.push(Line::default());
    for line in wrap(&question.text, width) {
        lines.push(Line::styled(
            line,
            theme.text().add_modifier(Modifier::BOLD),
        ));
    }
    lines.push(Line::default());
    let mut focus = options(question, form, answer, theme, width, &mut lines);
    if form.missing {
        focus = lines.len();
        lines.push(Line::styled(truncate(MISSING, width), theme.warn()));
    }
    let secs = view
        .clocks
        .question_secs_left
        .unwrap_or(pending.timeout_secs);
    let more = if waiting > 0 {
        format!(" · {} waiting", plural(waiting, "more question"))
    } else {
        String::new()
    };
    lines.push(Line::default());
    lines.push(Line::styled(
        format!("Times out in {}{more}", duration(secs)),
        theme.warn(),
    ));
    let start = (focus + 2)
        .saturating_sub(height)
        .min(lines.len().saturating_sub(height));
    lines.drain(..start);
    lines.truncate(height);
    (lines, 0)
}

/// The options and the text field; returns the line the cursor is on.
fn options(
    question: &Question,
    form: &QuestionForm,
    answer: &Answer,
    theme: &Theme,
    width: usize,
    lines: &mut Vec<Line<'static>>,
) -> usize {
    let mut focus = lines.len();
    if !question.options.is_empty() {
        lines.push(Line::styled(
            if question.multi_select {
                "Select all that apply:"
            } else {
                "Select one:"
            },
            theme.dim(),
        ));
        for (at, option) in question.options.iter().enumerate() {
            let chosen = answer.chosen.get(at).copied().unwrap_or(false);
            let mark = match (question.multi_select, chosen) {
                (false, true) => "◉",
                (false, false) => "○",
                (true, true) => "[x]",
                (true, false) => "[ ]",
            };
            let here = form.cursor == at;
            if here {
                focus = lines.len();
            }
            let text = if option.description.is_empty() {
                format!("{mark} {}", option.label)
            } else {
                format!("{mark} {} — {}", option.label, option.description)
            };
            let style = match (here, chosen) {
                (true, _) => theme.selected(),
                (false, true) => theme.accent(),
                (false, false) => theme.text(),
            };
            lines.push(Line::from(vec![
                Span::raw(if here { "▸ " } else { "  " }),
                Span::styled(truncate(&text, width.saturating_sub(2)), style),
            ]));
        }
        lines.push(Line::default());
    }
    let label = if question.options.is_empty() {
        "Your answer: "
    } else {
        "Other / comments: "
    };
    let typing = form.cursor >= question.options.len();
    if typing {
        focus = lines.len();
    }
    let room = width.saturating_sub(display_width(label) + 1);
    let shown = tail(&answer.text, room);
    let cursor = if typing { "▏" } else { "" };
    lines.push(Line::from(vec![
        Span::styled(label, if typing { theme.accent() } else { theme.dim() }),
        Span::styled(shown, theme.text().add_modifier(Modifier::UNDERLINED)),
        Span::styled(cursor, theme.accent()),
    ]));
    focus
}

/// The end of `text` that fits `width` columns (the text field shows what is typed last).
pub(super) fn tail(text: &str, width: usize) -> String {
    let mut used = 0;
    let start = text
        .char_indices()
        .rev()
        .find(|(_, ch)| {
            used += display_width(ch.encode_utf8(&mut [0; 4]));
            used > width
        })
        .map_or(0, |(at, ch)| at + ch.len_utf8());
    text[start..].to_string()
}

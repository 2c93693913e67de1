//! The final view (`f`, `/final`): the turn's final answer filling the body, the whole of
//! it as markdown, read from its top and scrolled with the arrows and PgUp/PgDn.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Widget};

use super::text::block_lines;
use crate::protocol::TurnOutcome;
use crate::tui::focus;
use crate::tui::state::{PresentedAnswer, UiState};
use crate::tui::theme::Theme;
use crate::tui::view::View;

/// Whether the body shows the final view: chosen, and there is a final answer to show.
pub fn shown(state: &UiState, view: &View) -> bool {
    view.final_view.shown && state.final_answer().is_some()
}

pub fn render(state: &UiState, view: &View, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let Some(answer) = state.final_answer() else {
        return;
    };
    let author = state
        .agents
        .get(answer.agent)
        .map(|card| card.info.id.to_string())
        .unwrap_or_default();
    let style = theme.agent(answer.agent);
    // Unfinished: still coming, or cut off when the turn ended (cancelled, most often).
    let progress = match (answer.done, state.turn.outcome) {
        (true, _) => "",
        (false, None) => " · presenting…",
        (false, Some(TurnOutcome::Cancelled)) => " · cancelled, incomplete",
        (false, Some(_)) => " · incomplete",
    };
    let title = format!(" 🏆 Final answer · {author} ({}){progress} ", answer.label);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(style)
        .title(Line::styled(title, style.add_modifier(Modifier::BOLD)));
    let inner = block.inner(area);
    let lines = answer_lines(&answer, usize::from(inner.width.max(1)), theme);
    let height = usize::from(inner.height);
    let furthest = lines.len().saturating_sub(height);
    view.final_view.scroll_max.set(furthest);
    let top = view.final_view.scroll.min(furthest);
    let mut block = block;
    if let Some(hints) = focus::final_view_hint(view, area.width >= 60) {
        block = block.title_bottom(Line::styled(hints, theme.dim()).right_aligned());
    }
    if furthest > 0 {
        let position = format!(
            " {}–{} of {} ",
            top + 1,
            (top + height).min(lines.len()),
            lines.len()
        );
        block = block.title_bottom(Line::from(Span::styled(position, theme.dim())).left_aligned());
    }
    let shown: Vec<Line<'static>> = lines.into_iter().skip(top).take(height).collect();
    Paragraph::new(shown).block(block).render(area, buf);
}

/// Every display line of the answer: markdown, highlighted code.
fn answer_lines(answer: &PresentedAnswer<'_>, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let lines = block_lines(
        answer.body,
        usize::MAX,
        !answer.done,
        usize::MAX,
        width,
        theme,
    );
    if lines.is_empty() {
        return vec![Line::styled("The answer is on its way…", theme.dim())];
    }
    lines
}

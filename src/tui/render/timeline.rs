//! The timeline pane: coordination events as one line each, newest at the bottom; only
//! the lines on screen are formatted, however long the history.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::symbols::border;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::paint;
use super::timeline_text::describe;
use super::wrap::truncate;
use crate::tui::state::{TimelineEntry, UiState};
use crate::tui::theme::Theme;

pub struct TimelineView<'a> {
    pub state: &'a UiState,
    pub theme: &'a Theme,
    /// Entries scrolled up from the newest (0 = follow).
    pub scroll: usize,
    pub focused: bool,
    /// The entry a click selected, drawn highlighted.
    pub selected: Option<usize>,
    /// Where each row and the pane were drawn, for the mouse.
    pub hits: Option<&'a std::cell::RefCell<crate::tui::view::HitMap>>,
}

impl Widget for TimelineView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let entries = &self.state.timeline;
        let title = if self.scroll > 0 {
            format!(" Timeline · {} new ↓ (End) ", self.scroll)
        } else {
            format!(" Timeline · {} ", entries.len())
        };
        let title = Line::from(Span::styled(title, self.theme.dim()));
        paint::frame(
            buf,
            area,
            &border::PLAIN,
            self.theme.border(self.focused),
            &[title],
            &[],
        );
        let inner = paint::inside(area);
        let height = usize::from(inner.height);
        let end = entries.len().saturating_sub(self.scroll);
        let start = end.saturating_sub(height);
        let width = usize::from(inner.width);
        let lines: Vec<Line<'static>> = entries[start..end]
            .iter()
            .enumerate()
            .map(|(row, entry)| {
                let line = entry_line(self.state, entry, self.theme, width);
                if self.selected == Some(start + row) {
                    line.patch_style(self.theme.selected())
                } else {
                    line
                }
            })
            .collect();
        paint::lines(buf, inner, &lines);
        if let Some(hits) = self.hits {
            let mut hits = hits.borrow_mut();
            hits.timeline = Some(area);
            hits.timeline_rows = (start..end)
                .zip(inner.rows())
                .map(|(entry, row)| (row, entry))
                .collect();
        }
    }
}

/// One entry as one line: `[agent] what happened`.
pub fn entry_line(
    state: &UiState,
    entry: &TimelineEntry,
    theme: &Theme,
    width: usize,
) -> Line<'static> {
    let who = entry.agent.as_ref().map(|agent| {
        let index = state.agent_index(agent).unwrap_or(0);
        (agent.to_string(), theme.agent(index))
    });
    let (text, style) = describe(&entry.kind, theme);
    let mut spans = Vec::new();
    let mut used = 0;
    if let Some((name, agent_style)) = who {
        used += name.chars().count() + 1;
        spans.push(Span::styled(name, agent_style));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled(
        truncate(&text, width.saturating_sub(used)),
        style,
    ));
    Line::from(spans)
}

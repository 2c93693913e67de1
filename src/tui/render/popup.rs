//! The completion list: slash commands or `@path` entries with what each does, in a box
//! just above the composer, the selected one highlighted.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::paint::clear_for_overlay;
use super::wrap::{display_width, truncate};
use crate::tui::complete::Popup;
use crate::tui::theme::Theme;

/// The completion list, just above the composer.
pub fn render(popup: &Popup, theme: &Theme, composer: Rect, frame: &mut Frame) {
    let height = u16::try_from(popup.items.len()).unwrap_or(8) + 2;
    let widest =
        |texts: &mut dyn Iterator<Item = &str>| texts.map(display_width).max().unwrap_or(0);
    let item_width = widest(&mut popup.items.iter().map(String::as_str));
    let note_width = widest(&mut popup.notes.iter().copied());
    // Each item, then what it does after a gap, cut at the frame's edge.
    let gap = if note_width == 0 { 0 } else { 2 };
    let room = usize::from(composer.width.saturating_sub(4));
    let width = (item_width + gap + note_width).clamp(18, room.max(18));
    let area = Rect {
        x: composer.x + 1,
        y: composer.y.saturating_sub(height),
        width: (u16::try_from(width).unwrap_or(u16::MAX).saturating_add(2))
            .min(composer.width.saturating_sub(2)),
        height: height.min(composer.y),
    };
    let lines: Vec<Line<'static>> = popup
        .items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let selected = index == popup.selected;
            let style = if selected {
                theme.selected()
            } else {
                theme.text()
            };
            let note = popup.notes.get(index).copied().unwrap_or_default();
            if note.is_empty() {
                return Line::styled(item.clone(), style);
            }
            let item = crate::text::pad_to(item, item_width + gap);
            let left = width.saturating_sub(display_width(&item));
            let note_style = if selected { style } else { theme.dim() };
            Line::from(vec![
                Span::styled(item, style),
                Span::styled(truncate(note, left), note_style),
            ])
        })
        .collect();
    clear_for_overlay(frame.buffer_mut(), area);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::new()
                .borders(Borders::ALL)
                .border_style(theme.accent())
                .title(Line::styled(" Tab to complete ", theme.dim())),
        ),
        area,
    );
}

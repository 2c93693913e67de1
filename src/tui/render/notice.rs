//! A notice that does not fit beside the mode bar (or the replay bar) gets its own lines
//! above it, wrapped to the width: as many as it needs, up to a third of the screen, so a
//! narrow terminal still shows it whole.

use ratatui::text::Line;

use super::wrap::{truncate, wrap};
use crate::tui::theme::Theme;

/// Fewest lines a notice may take above the bar, however short the screen.
const MIN_LINES: usize = 2;

/// Most lines a notice takes above the bar on a screen `height` rows tall.
pub fn most_lines(height: u16) -> usize {
    (usize::from(height) / 3).max(MIN_LINES)
}

/// `notice` wrapped for its own lines at `width` (each drawn one column in), the last of
/// `most` lines cut with `…` when it needs more.
pub fn wrapped(notice: &str, width: usize, most: usize) -> Vec<String> {
    let room = width.saturating_sub(1).max(1);
    let most = most.max(1);
    let mut lines = wrap(notice, room);
    if lines.len() > most {
        let rest = lines[most - 1..].join(" ");
        lines.truncate(most - 1);
        lines.push(truncate(&rest, room));
    }
    lines
}

/// The notice's own lines as drawn, the first `room` of them.
pub fn styled(lines: &[String], room: usize, theme: &Theme) -> Vec<Line<'static>> {
    lines
        .iter()
        .take(room)
        .map(|line| Line::styled(format!(" {}", line.trim_start()), theme.warn()))
        .collect()
}

//! What kind of prose line a markdown source line is (heading, bullet, quote or paragraph),
//! shared by complete lines and the partial line still streaming.

use ratatui::style::{Modifier, Style};

use super::inline::Segment;
use crate::tui::theme::Theme;

/// What kind of prose line `source` is, from its start: the marker shown in place of its
/// own (`• `, `│ `), the rest of its text and the style of that text. A `partial` line
/// (still streaming) is a heading only once a space follows its `#`s.
pub(super) fn line_kind<'a>(
    source: &'a str,
    partial: bool,
    theme: &Theme,
) -> (Option<Segment>, &'a str, Style) {
    let trimmed = source.trim_start();
    let indent = &source[..source.len() - trimmed.len()];
    if let Some((level, title)) = heading(trimmed).filter(|_| !partial || spaced_heading(trimmed)) {
        let style = if level <= 2 {
            theme.accent()
        } else {
            theme.text().add_modifier(Modifier::BOLD)
        };
        (None, title, style)
    } else if let Some(item) = ["- ", "* ", "+ "]
        .iter()
        .find_map(|bullet| trimmed.strip_prefix(bullet))
    {
        (
            Some((format!("{indent}• "), theme.text())),
            item,
            theme.text(),
        )
    } else if let Some(quote) = trimmed.strip_prefix('>') {
        (
            Some(("│ ".to_string(), theme.dim())),
            quote.trim_start(),
            theme.dim(),
        )
    } else {
        (None, source, theme.text())
    }
}

/// `#`s followed by a space or tab: a heading however the line goes on.
fn spaced_heading(trimmed: &str) -> bool {
    trimmed.trim_start_matches('#').starts_with([' ', '\t'])
}

/// An ATX heading's level and title: 1–6 `#`s, then a space or the end.
fn heading(trimmed: &str) -> Option<(usize, &str)> {
    let level = trimmed.bytes().take_while(|&byte| byte == b'#').count();
    let title = &trimmed[level..];
    let spaced = title.is_empty() || title.starts_with([' ', '\t']);
    ((1..=6).contains(&level) && spaced).then(|| (level, title.trim()))
}

//! The partial last line of a streaming text block, drawn as it grows: wrapped like a
//! complete line, but its inline markdown and code highlighting wait for its line break, so
//! that appending text changes only its last display line (wrapping is greedy: the breaks
//! already made stay made) and never the lines above it.

use ratatui::text::Line;

use super::line_kind::line_kind;
use super::wrap::{truncate, wrap_styled_last};
use crate::tui::theme::Theme;

/// The display lines of `tail`, a source line still streaming (nothing when it is empty):
/// a fence line dim, a line inside a code block (`code`) plain and cut at the edge as code
/// lines are, any other as prose whose bullet, quote or heading shows from its start and
/// whose inline markdown shows as written until the line completes. Only the last `wanted`
/// display lines are built.
pub fn lines(
    tail: &str,
    code: bool,
    width: usize,
    wanted: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    if tail.is_empty() || wanted == 0 {
        return Vec::new();
    }
    if tail.trim_start().starts_with("```") {
        return vec![Line::styled(truncate(tail, width), theme.dim())];
    }
    if code {
        return vec![Line::styled(truncate(tail, width), theme.text())];
    }
    let (prefix, rest, style) = line_kind(tail, true, theme);
    let mut segments: Vec<_> = prefix.into_iter().collect();
    segments.push((rest.to_string(), style));
    wrap_styled_last(&segments, width, wanted)
}

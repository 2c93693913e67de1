//! Text blocks as display lines: light markdown (headings, bullets, quotes, fences) and
//! code lines in the colours computed when they completed; only the newest lines needed are
//! built, however long the text.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::wrap::{display_width, truncate, wrap};
use crate::tui::state::{CodeLines, CodeSpan, TextBlock};
use crate::tui::theme::Theme;

/// A text block's newest `wanted` source lines: code lines with the colours computed when
/// they completed, the rest with light markdown. `streaming` holds back a partial last line.
#[cfg(test)]
pub fn block_lines(
    block: &TextBlock,
    streaming: bool,
    wanted: usize,
    width: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    block_prefix_lines(block, block.text.len(), streaming, wanted, width, theme)
}

/// [`block_lines`] of the block's first `until` bytes (what a paused card shows); when
/// text follows them, the line they end in is held back as partial.
pub fn block_prefix_lines(
    block: &TextBlock,
    until: usize,
    streaming: bool,
    wanted: usize,
    width: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let until = floor_char_boundary(&block.text, until);
    let (text, later) = block.text.split_at(until);
    let streaming = streaming || !later.is_empty();
    let complete = block
        .code
        .lines
        .len()
        .saturating_sub(later.matches('\n').count());
    let (shown, total) = if streaming {
        (text.rfind('\n').map_or("", |end| &text[..end]), complete)
    } else {
        let trailing = text.len() - text.trim_end_matches('\n').len();
        let total = if trailing == 0 {
            complete + 1
        } else {
            complete.saturating_sub(trailing - 1)
        };
        (text.trim_end_matches('\n'), total)
    };
    if shown.is_empty() {
        return Vec::new();
    }
    let tail = last_lines(shown, wanted);
    let first = total.saturating_sub(tail.split('\n').count());
    text_lines(tail, first, &block.code, width, theme)
}

/// The largest char boundary of `text` at or below `at`.
pub fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The last `count` source lines of `text`: each makes at least one display line, so no
/// more are needed to fill `count` lines, however long the text.
pub fn last_lines(text: &str, count: usize) -> &str {
    if count == 0 {
        return "";
    }
    if count == usize::MAX {
        return text;
    }
    let mut start = text.len();
    for _ in 0..count {
        match text[..start].rfind('\n') {
            Some(newline) => start = newline,
            None => return text,
        }
    }
    &text[start + 1..]
}

/// Answer text with light markdown (headings bold, bullets, quotes, `**` dropped, fences
/// dim) and highlighted code:
/// `first` is the index of `text`'s first line among the block's lines in `code`.
fn text_lines(
    text: &str,
    first: usize,
    code: &CodeLines,
    width: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (offset, source) in text.split('\n').enumerate() {
        if let Some(Some(spans)) = code.lines.get(first + offset) {
            lines.push(code_line(spans, width, theme));
            continue;
        }
        let trimmed = source.trim_start();
        if trimmed.starts_with("```") {
            lines.push(Line::styled(truncate(source, width), theme.dim()));
            continue;
        }
        let indent = source.len() - trimmed.len();
        let (shown, style) = if trimmed.starts_with('#') {
            (
                trimmed.trim_start_matches('#').trim_start().to_string(),
                theme.text().add_modifier(Modifier::BOLD),
            )
        } else if let Some(item) = trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix("* "))
        {
            (format!("{}• {item}", &source[..indent]), theme.text())
        } else if let Some(quote) = trimmed.strip_prefix('>') {
            (format!("│ {}", quote.trim_start()), theme.dim())
        } else {
            (source.to_string(), theme.text())
        };
        let shown = shown.replace("**", "");
        for line in wrap(&shown, width) {
            lines.push(Line::styled(line, style));
        }
    }
    lines
}

/// One highlighted code line, cut (not wrapped) at the card's edge.
fn code_line(spans: &[CodeSpan], width: usize, theme: &Theme) -> Line<'static> {
    let mut used = 0;
    let mut out = Vec::new();
    for ((red, green, blue), piece) in spans {
        if used >= width {
            break;
        }
        let piece = truncate(piece, width - used);
        used += display_width(&piece);
        out.push(Span::styled(piece, theme.code(*red, *green, *blue)));
    }
    Line::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_markdown_turns_bullets_quotes_and_headings_into_plain_lines() {
        let block = TextBlock::from("# Title\n- one\n  * two\n> quoted **bold**\n");
        let lines: Vec<String> = block_lines(&block, false, 10, 40, &Theme::default())
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(lines, ["Title", "• one", "  • two", "│ quoted bold"]);
    }

    #[test]
    fn a_streaming_block_holds_back_its_partial_line() {
        let block = TextBlock::from("done line\npartial");
        let lines = block_lines(&block, true, 10, 40, &Theme::default());
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].to_string(), "done line");
    }
}

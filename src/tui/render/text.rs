//! Text blocks as display lines: markdown (headings, bullets, quotes, rules, fences and
//! inline styles) and code lines in the colours computed when they completed; only the
//! newest lines needed are built, however long the text.

use ratatui::text::{Line, Span};

use super::inline::{self, Segment};
use super::line_kind::line_kind;
use super::partial;
use super::wrap::{display_width, truncate, wrap_styled};
use crate::tui::state::{CodeLines, CodeSpan, TextBlock};
use crate::tui::theme::Theme;

/// The newest `wanted` source lines of a text block's first `until` bytes (all of it, or
/// what a paused card shows): code lines in the colours computed when they completed, the
/// rest as markdown. While it streams (`streaming`, or text after `until`), its partial last
/// line is drawn too, wrapped like the others (see [`super::partial`]): appending text never
/// changes the lines above it.
pub fn block_lines(
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
    // Source lines of `text` that a line break ends: highlighting has read each of them.
    let complete = block
        .code
        .lines
        .len()
        .saturating_sub(later.matches('\n').count());
    let shown = if streaming {
        text
    } else {
        text.trim_end_matches('\n')
    };
    if wanted == 0 || (!streaming && shown.is_empty()) {
        return Vec::new();
    }
    // The index of `shown`'s last source line among the block's lines.
    let last = complete.saturating_sub(text.len() - shown.len());
    let (body, tail) = match shown.rfind('\n') {
        Some(end) => (Some(&shown[..end]), &shown[end + 1..]),
        None => (None, shown),
    };
    // The last line first: a streaming one builds at most `wanted` display lines (an empty
    // one none), and the body fills what room is left.
    let last_line = if streaming {
        let code = block.code.inside_code(last);
        partial::lines(tail, code, width, wanted, theme)
    } else if block.code.lines.get(last).is_none() && block.code.inside_code(last) {
        // A settled answer that ends inside a code block, without a last line break.
        partial::lines(tail, true, width, wanted, theme)
    } else {
        text_lines(tail, last, &block.code, width, theme)
    };
    let room = wanted.saturating_sub(last_line.len());
    let mut lines = match body.filter(|_| room > 0) {
        Some(body) => tail_text_lines(
            body,
            last.saturating_sub(1),
            room,
            &block.code,
            width,
            theme,
        ),
        None => Vec::new(),
    };
    lines.extend(last_line);
    lines
}

/// At least the last `room` display lines of `body` (all of them if it has fewer), whose
/// last source line is line `last` among the block's: built from that line back, so a
/// paragraph that wraps into many lines costs only the ones shown.
fn tail_text_lines(
    body: &str,
    last: usize,
    room: usize,
    code: &CodeLines,
    width: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut chunks = Vec::new();
    let mut built = 0;
    let mut rest = body;
    let mut index = last;
    loop {
        let (before, source) = match rest.rfind('\n') {
            Some(end) => (Some(&rest[..end]), &rest[end + 1..]),
            None => (None, rest),
        };
        let lines = text_lines(source, index, code, width, theme);
        built += lines.len();
        chunks.push(lines);
        match before {
            Some(before) if built < room => {
                rest = before;
                index = index.saturating_sub(1);
            }
            Some(_) | None => break,
        }
    }
    chunks.into_iter().rev().flatten().collect()
}

/// A whole settled text (an answer) as display lines: markdown and highlighted code.
pub fn markdown_lines(text: &str, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    block_lines(
        &TextBlock::from(text),
        usize::MAX,
        false,
        usize::MAX,
        width,
        theme,
    )
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

/// Answer text with markdown and highlighted code:
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
        } else if is_rule(trimmed) {
            lines.push(Line::styled("─".repeat(width), theme.dim()));
        } else {
            lines.extend(wrap_styled(&markdown_line(source, theme), width));
        }
    }
    lines
}

/// A prose line's segments: a heading (`#`s dropped, levels 1–2 in the accent colour), a
/// bullet (`•`), a quote (`│`, dim) or a paragraph, each with inline markdown.
fn markdown_line(source: &str, theme: &Theme) -> Vec<Segment> {
    let (prefix, rest, style) = line_kind(source, false, theme);
    let mut segments = inline::parse(rest, style, theme);
    if let Some(prefix) = prefix {
        segments.insert(0, prefix);
    }
    segments
}

/// `---`, `***` or `___` (three or more, spaces allowed between).
fn is_rule(trimmed: &str) -> bool {
    let trimmed = trimmed.trim_end();
    let Some(mark) = trimmed
        .chars()
        .next()
        .filter(|ch| matches!(ch, '-' | '*' | '_'))
    else {
        return false;
    };
    let mut marks = 0;
    for ch in trimmed.chars() {
        if ch == mark {
            marks += 1;
        } else if ch != ' ' && ch != '\t' {
            return false;
        }
    }
    marks >= 3
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
    use ratatui::style::Modifier;

    use super::*;

    #[test]
    fn light_markdown_turns_bullets_quotes_and_headings_into_plain_lines() {
        let block = TextBlock::from("# Title\n- one\n  * two\n> quoted **bold**\n");
        let lines: Vec<String> = block_lines(&block, usize::MAX, false, 10, 40, &Theme::default())
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(lines, ["Title", "• one", "  • two", "│ quoted bold"]);
    }

    fn shown(text: &str, width: usize) -> Vec<Line<'static>> {
        block_lines(
            &TextBlock::from(text),
            usize::MAX,
            false,
            50,
            width,
            &Theme::default(),
        )
    }

    #[test]
    fn markdown_lists_rules_links_and_inline_styles_render_as_text() {
        let text = "## Plan **now**\n\
                    1. first `step`\n\
                    ---\n\
                    * * *\n\
                    see [docs](https://x.io) and ~~old~~ _new_ snake_case\n\
                    #hashtag, 2 * 3 * 4\n\
                    > a *quoted* line";
        let lines: Vec<String> = shown(text, 12).iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "Plan now",
                "1. first",
                "step",
                "────────────",
                "────────────",
                "see docs",
                "(https://x.i",
                "o) and old",
                "new",
                "snake_case",
                "#hashtag, 2",
                "* 3 * 4",
                "│ a quoted",
                "line",
            ]
        );
    }

    #[test]
    fn inline_styles_reach_the_spans() {
        let theme = Theme::default();
        let lines = shown("- a **bold** word\n# Title\n### Small `x`", 40);
        let bold = lines[0]
            .spans
            .iter()
            .find(|span| span.content == "bold")
            .map(|span| span.style);
        assert_eq!(bold, Some(theme.text().add_modifier(Modifier::BOLD)));
        assert_eq!(lines[0].to_string(), "• a bold word");
        assert_eq!(lines[1].spans[0].style, theme.accent());
        let code = &lines[2].spans[1];
        assert_eq!(code.content, "x");
        assert!(code.style.add_modifier.contains(Modifier::BOLD));
        assert_eq!(code.style.fg, theme.inline_code().fg);
    }

    #[test]
    fn a_streaming_block_shows_its_partial_line() {
        let block = TextBlock::from("done line\npartial **bold");
        let lines = block_lines(&block, usize::MAX, true, 10, 40, &Theme::default());
        let texts: Vec<String> = lines.iter().map(ToString::to_string).collect();
        assert_eq!(texts, ["done line", "partial **bold"]);
    }
}

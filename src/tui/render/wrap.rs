//! Wrapping text to a display width (wide characters count twice), at spaces where it can:
//! one breaking routine, for plain strings and for styled segments alike.

use std::borrow::Cow;
use std::ops::Range;

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

/// `text` as display lines no wider than `width`; `\n` always breaks.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut ranges = Vec::new();
    for paragraph in text.split('\n') {
        let paragraph = paragraph.trim_end_matches('\r');
        ranges.clear();
        line_ranges(paragraph, width, &mut ranges);
        lines.extend(
            ranges
                .iter()
                .map(|range| detab(&paragraph[range.clone()]).into_owned()),
        );
    }
    lines
}

/// One source line's styled segments as display lines no wider than `width`, broken where
/// [`wrap`] would break their text; each line merges neighbouring pieces of equal style.
pub fn wrap_styled(segments: &[(String, Style)], width: usize) -> Vec<Line<'static>> {
    let text: String = segments.iter().map(|(piece, _)| piece.as_str()).collect();
    let mut ranges = Vec::new();
    line_ranges(&text, width.max(1), &mut ranges);
    ranges
        .into_iter()
        .map(|range| styled_line(segments, range))
        .collect()
}

/// The part of `segments` (whose texts joined have `range` as a byte range) as one line.
fn styled_line(segments: &[(String, Style)], range: Range<usize>) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut start = 0;
    for (piece, style) in segments {
        let end = start + piece.len();
        if end > range.start && start < range.end {
            let cut = detab(&piece[range.start.max(start) - start..range.end.min(end) - start]);
            match spans.last_mut() {
                Some(last) if last.style == *style => last.content.to_mut().push_str(&cut),
                Some(_) | None => spans.push(Span::styled(cut.into_owned(), *style)),
            }
        }
        if end >= range.end {
            break;
        }
        start = end;
    }
    Line::from(spans)
}

/// Byte ranges of `line`'s (no `\n`) display lines at `width` columns: broken at the last
/// space that fits, dropping the spaces there, else mid-word.
fn line_ranges(line: &str, width: usize, out: &mut Vec<Range<usize>>) {
    let mut start = 0;
    let mut used = 0;
    let mut last_space: Option<usize> = None;
    for (at, ch) in line.char_indices() {
        let ch_width = columns(ch);
        if used + ch_width > width && at > start {
            match last_space {
                Some(space) if space > start => {
                    out.push(start..space);
                    start = at - line[space..at].trim_start().len();
                }
                Some(_) | None => {
                    out.push(start..at);
                    start = at;
                }
            }
            used = line[start..at].chars().map(columns).sum();
            last_space = None;
        }
        if ch == ' ' || ch == '\t' {
            last_space = Some(at);
        }
        used += ch_width;
    }
    out.push(start..line.len());
}

/// A character's columns when wrapped: tabs become one space.
fn columns(ch: char) -> usize {
    if ch == '\t' {
        1
    } else {
        ch.width().unwrap_or(0)
    }
}

fn detab(text: &str) -> Cow<'_, str> {
    if text.contains('\t') {
        Cow::Owned(text.replace('\t', " "))
    } else {
        Cow::Borrowed(text)
    }
}

pub fn display_width(text: &str) -> usize {
    text.chars().map(|ch| ch.width().unwrap_or(0)).sum()
}

/// `text` cut to its last `width` columns, starting with `…` when cut (paths, whose end
/// says most).
pub fn truncate_start(text: &str, width: usize) -> String {
    let reversed: String = text.chars().rev().collect();
    truncate(&reversed, width).chars().rev().collect()
}

/// `text` cut to `width` columns, ending in `…` when cut.
pub fn truncate(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for ch in text.chars() {
        let ch_width = ch.width().unwrap_or(0);
        if used + ch_width + 1 > width {
            break;
        }
        out.push(ch);
        used += ch_width;
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use ratatui::style::Modifier;

    use super::*;

    #[test]
    fn wraps_at_spaces_and_hard_breaks_long_words() {
        assert_eq!(wrap("the quick brown fox", 10), ["the quick", "brown fox"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("a\n\nb", 5), ["a", "", "b"]);
        assert_eq!(wrap("日本語のテキスト", 6), ["日本語", "のテキ", "スト"]);
    }

    #[test]
    fn truncates_by_display_width() {
        assert_eq!(truncate("hello world", 8), "hello w…");
        assert_eq!(truncate("short", 8), "short");
        assert_eq!(truncate("日本語テキスト", 7), "日本語…");
        assert_eq!(truncate_start("/a/b/session_1", 10), "…session_1");
        assert_eq!(truncate_start("short", 8), "short");
    }

    fn texts(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn styled_wrapping_breaks_where_plain_wrapping_does() {
        let plain = Style::new();
        let bold = Style::new().add_modifier(Modifier::BOLD);
        for (text, width) in [
            ("the quick brown fox", 10),
            ("abcdefghij", 4),
            ("a  b\tc   dd", 3),
            ("日本語のテキスト", 6),
            ("", 5),
        ] {
            let (head, tail) = text.split_at(text.len() / 2);
            let segments = [(head.to_string(), plain), (tail.to_string(), bold)];
            assert_eq!(texts(&wrap_styled(&segments, width)), wrap(text, width));
        }
    }

    #[test]
    fn styles_survive_a_break_and_equal_neighbours_merge() {
        let plain = Style::new();
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let segments = [
            ("a ".to_string(), plain),
            ("bold words".to_string(), bold),
            (" end".to_string(), plain),
        ];
        let lines = wrap_styled(&segments, 7);
        assert_eq!(texts(&lines), ["a bold", "words", "end"]);
        assert_eq!(lines[0].spans.len(), 2);
        assert_eq!(lines[0].spans[1].style, bold);
        assert_eq!(lines[1].spans.len(), 1);
        assert_eq!(lines[1].spans[0].style, bold);
        assert_eq!(lines[2].spans[0].style, plain);

        let merged = wrap_styled(&[("ab".to_string(), bold), ("cd".to_string(), bold)], 10);
        assert_eq!(merged[0].spans.len(), 1);
        assert_eq!(merged[0].spans[0].content, "abcd");
    }

    #[test]
    fn styled_wrapping_counts_wide_characters_twice() {
        let code = Style::new().add_modifier(Modifier::ITALIC);
        let segments = [
            ("日本".to_string(), Style::new()),
            ("語のテ".to_string(), code),
        ];
        let lines = wrap_styled(&segments, 4);
        assert_eq!(texts(&lines), ["日本", "語の", "テ"]);
        assert_eq!(lines[0].spans[0].style, Style::new());
        assert_eq!(lines[1].spans[0].style, code);
    }
}

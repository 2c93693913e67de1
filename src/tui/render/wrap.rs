//! Wrapping styled text to a display width where [`crate::text`] wraps plain strings: the
//! same breaking routine, so both break alike.

use std::ops::Range;

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::text::{detab, line_ranges};
pub use crate::text::{display_width, truncate, truncate_start, wrap};

/// One source line's styled segments as display lines no wider than `width`, broken where
/// [`wrap`] would break their text; each line merges neighbouring pieces of equal style.
pub fn wrap_styled(segments: &[(String, Style)], width: usize) -> Vec<Line<'static>> {
    wrap_styled_last(segments, width, usize::MAX)
}

/// The last `wanted` lines [`wrap_styled`] would make: only those are built.
pub fn wrap_styled_last(
    segments: &[(String, Style)],
    width: usize,
    wanted: usize,
) -> Vec<Line<'static>> {
    let text: String = segments.iter().map(|(piece, _)| piece.as_str()).collect();
    let mut ranges = Vec::new();
    line_ranges(&text, width.max(1), &mut ranges);
    let skip = ranges.len().saturating_sub(wanted);
    ranges
        .into_iter()
        .skip(skip)
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

#[cfg(test)]
mod tests {
    use ratatui::style::Modifier;

    use super::*;

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

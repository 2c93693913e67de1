//! Text measured in terminal columns (wide characters and emoji count twice): width,
//! cutting and wrapping at spaces, shared by the TUI and the plain-text log files; and
//! counted nouns (`1 turn`, `2 turns`) for every front end.

use std::borrow::Cow;
use std::ops::Range;

use unicode_width::UnicodeWidthChar;

/// `1 agent`, `3 agents`: `count` and `noun`, with an `s` unless there is exactly one.
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

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

/// Byte ranges of `line`'s (no `\n`) display lines at `width` columns: broken at the last
/// space that fits, dropping the spaces there, else mid-word.
pub fn line_ranges(line: &str, width: usize, out: &mut Vec<Range<usize>>) {
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

/// Tabs as single spaces, as [`line_ranges`] counted them.
pub fn detab(text: &str) -> Cow<'_, str> {
    if text.contains('\t') {
        Cow::Owned(text.replace('\t', " "))
    } else {
        Cow::Borrowed(text)
    }
}

pub fn display_width(text: &str) -> usize {
    text.chars().map(|ch| ch.width().unwrap_or(0)).sum()
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

/// `text` cut to its last `width` columns, starting with `…` when cut (paths, whose end
/// says most).
pub fn truncate_start(text: &str, width: usize) -> String {
    let reversed: String = text.chars().rev().collect();
    truncate(&reversed, width).chars().rev().collect()
}

/// `text` followed by spaces up to `width` columns (nothing added when it is wider).
pub fn pad_to(text: &str, width: usize) -> String {
    let used = display_width(text);
    format!("{text}{}", " ".repeat(width.saturating_sub(used)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_of_a_noun_is_singular_and_every_other_count_plural() {
        assert_eq!(plural(0, "turn"), "0 turns");
        assert_eq!(plural(1, "turn"), "1 turn");
        assert_eq!(plural(2, "tool"), "2 tools");
    }

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

    #[test]
    fn pads_by_display_width() {
        assert_eq!(pad_to("ab", 4), "ab  ");
        assert_eq!(pad_to("✨ x", 6), "✨ x  ");
        assert_eq!(pad_to("toolong", 3), "toolong");
    }
}

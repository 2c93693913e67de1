//! Wrapping text to a display width (wide characters count twice), at spaces where it can.

use unicode_width::UnicodeWidthChar;

/// `text` as display lines no wider than `width`; `\n` always breaks.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        wrap_line(paragraph.trim_end_matches('\r'), width, &mut lines);
    }
    lines
}

fn wrap_line(line: &str, width: usize, out: &mut Vec<String>) {
    let mut current = String::new();
    let mut current_width = 0;
    // Where the last space in `current` is, to break there.
    let mut last_space: Option<usize> = None;
    for ch in line.chars() {
        let ch = if ch == '\t' { ' ' } else { ch };
        let ch_width = ch.width().unwrap_or(0);
        if current_width + ch_width > width && !current.is_empty() {
            match last_space {
                Some(at) if at > 0 => {
                    let rest = current.split_off(at);
                    out.push(current);
                    current = rest.trim_start().to_string();
                }
                Some(_) | None => out.push(std::mem::take(&mut current)),
            }
            current_width = display_width(&current);
            last_space = None;
        }
        if ch == ' ' {
            last_space = Some(current.len());
        }
        current.push(ch);
        current_width += ch_width;
    }
    out.push(current);
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

#[cfg(test)]
mod tests {
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
    }
}

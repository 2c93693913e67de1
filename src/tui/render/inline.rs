//! Inline markdown in one line (code, emphasis, strikethrough, links, escapes) as styled segments.

use ratatui::style::{Modifier, Style};

use crate::tui::theme::Theme;

/// A piece of display text and its style.
pub type Segment = (String, Style);

/// Nesting deeper than this is shown as it is written.
const MAX_DEPTH: usize = 8;

/// `line`'s inline markdown as segments: markers dropped, their styles patched over `base`;
/// a marker that never closes stays as written.
pub fn parse(line: &str, base: Style, theme: &Theme) -> Vec<Segment> {
    let mut out = Vec::new();
    parse_nested(line, base, theme, 0, &mut out);
    out
}

enum Inline<'a> {
    /// A backslash-escaped punctuation character.
    Escaped(&'a str),
    Code(&'a str),
    Emphasis {
        inner: &'a str,
        modifier: Modifier,
    },
    Link {
        label: &'a str,
        url: &'a str,
    },
}

fn parse_nested(line: &str, base: Style, theme: &Theme, depth: usize, out: &mut Vec<Segment>) {
    if depth >= MAX_DEPTH {
        push(out, line, base);
        return;
    }
    let bytes = line.as_bytes();
    let mut memo = Memo::new();
    let mut literal = 0;
    let mut at = 0;
    while at < bytes.len() {
        let Some((inline, end)) = inline_at(line, at, &mut memo) else {
            at += skip(bytes, at);
            continue;
        };
        push(out, &line[literal..at], base);
        match inline {
            Inline::Escaped(text) => push(out, text, base),
            Inline::Code(code) => push(out, code, base.patch(theme.inline_code())),
            Inline::Emphasis { inner, modifier } => {
                parse_nested(inner, base.add_modifier(modifier), theme, depth + 1, out);
            }
            Inline::Link { label, url } => {
                let underlined = base.add_modifier(Modifier::UNDERLINED);
                if label.is_empty() {
                    push(out, url, underlined);
                } else {
                    parse_nested(label, underlined, theme, depth + 1, out);
                    if !url.is_empty() && url != label {
                        let dim = base.patch(theme.dim());
                        push(out, " (", dim);
                        push(out, url, dim);
                        push(out, ")", dim);
                    }
                }
            }
        }
        at = end;
        literal = end;
    }
    push(out, &line[literal..], base);
}

/// Appends `text`, extending the last segment when the style is the same.
fn push(out: &mut Vec<Segment>, text: &str, style: Style) {
    if text.is_empty() {
        return;
    }
    if let Some((last, last_style)) = out.last_mut()
        && *last_style == style
    {
        last.push_str(text);
        return;
    }
    out.push((text.to_string(), style));
}

/// The construct starting at byte `at`, and the byte after it.
fn inline_at<'a>(line: &'a str, at: usize, memo: &mut Memo) -> Option<(Inline<'a>, usize)> {
    let bytes = line.as_bytes();
    match bytes[at] {
        b'\\' => bytes
            .get(at + 1)
            .filter(|next| next.is_ascii_punctuation())
            .map(|_| (Inline::Escaped(&line[at + 1..at + 2]), at + 2)),
        b'`' => code_span(line, at, memo).map(|(code, end)| (Inline::Code(code), end)),
        b'*' | b'_' | b'~' => emphasis(line, at, memo),
        b'[' => link(line, at, memo),
        _ => None,
    }
}

/// How far to move past a byte that starts nothing: a whole run of markers, so `**` that
/// never closes does not open `*` one byte on.
fn skip(bytes: &[u8], at: usize) -> usize {
    match bytes[at] {
        b'*' | b'_' | b'~' | b'`' => run_len(bytes, at),
        _ => 1,
    }
}

fn run_len(bytes: &[u8], at: usize) -> usize {
    bytes[at..]
        .iter()
        .take_while(|&&byte| byte == bytes[at])
        .count()
}

/// A code span opened by the backtick run at `at`, closed by a run of the same length:
/// its content (one padding space each side dropped) and the byte after it.
fn code_span<'a>(line: &'a str, at: usize, memo: &mut Memo) -> Option<(&'a str, usize)> {
    let bytes = line.as_bytes();
    let fence = run_len(bytes, at);
    let open_end = at + fence;
    if memo.known_missing(b'`', fence, open_end) {
        return None;
    }
    let mut from = open_end;
    while let Some(offset) = line[from..].find('`') {
        let close = from + offset;
        let run = run_len(bytes, close);
        if run == fence {
            let code = &line[open_end..close];
            let padded = code.len() > 2 && code.starts_with(' ') && code.ends_with(' ');
            let code = if padded && !code.trim().is_empty() {
                &code[1..code.len() - 1]
            } else {
                code
            };
            return Some((code, close + run));
        }
        from = close + run;
    }
    memo.missing(b'`', fence, open_end);
    None
}

/// `*`/`_` (italic, bold, both by run length) or `~~` opened at `at`: the opener must be
/// followed by a non-space, and `_` must start a word.
fn emphasis<'a>(line: &'a str, at: usize, memo: &mut Memo) -> Option<(Inline<'a>, usize)> {
    let bytes = line.as_bytes();
    let mark = bytes[at];
    let run = run_len(bytes, at);
    let modifier = match (mark, run) {
        (b'~', 2) => Modifier::CROSSED_OUT,
        (b'*' | b'_', 1) => Modifier::ITALIC,
        (b'*' | b'_', 2) => Modifier::BOLD,
        (b'*' | b'_', 3) => Modifier::BOLD | Modifier::ITALIC,
        _ => return None,
    };
    let open_end = at + run;
    let after = line[open_end..].chars().next();
    let before = line[..at].chars().next_back();
    if after.is_none_or(char::is_whitespace)
        || (mark == b'_' && before.is_some_and(char::is_alphanumeric))
    {
        return None;
    }
    let close = closer(line, open_end, mark, run, memo)?;
    let inner = &line[open_end..close];
    Some((Inline::Emphasis { inner, modifier }, close + run))
}

/// The first run of exactly `run` `mark`s after `start` that can close: preceded by a
/// non-space, and for `_` ending a word. Escapes and code spans are passed over.
fn closer(line: &str, start: usize, mark: u8, run: usize, memo: &mut Memo) -> Option<usize> {
    if memo.known_missing(mark, run, start) {
        return None;
    }
    let bytes = line.as_bytes();
    let mut at = start;
    while at < bytes.len() {
        let byte = bytes[at];
        if byte == b'\\' {
            at += 2;
        } else if byte == b'`' {
            at = code_span(line, at, memo).map_or(at + run_len(bytes, at), |(_, end)| end);
        } else if byte == mark {
            let found = run_len(bytes, at);
            let after = line[at + found..].chars().next();
            if found == run
                && at > start
                && line[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| !c.is_whitespace())
                && (mark != b'_' || !after.is_some_and(char::is_alphanumeric))
            {
                return Some(at);
            }
            at += found;
        } else {
            at += 1;
        }
    }
    memo.missing(mark, run, start);
    None
}

/// `[label](url)` or `[label](url "title")` opened at `at`.
fn link<'a>(line: &'a str, at: usize, memo: &mut Memo) -> Option<(Inline<'a>, usize)> {
    let bytes = line.as_bytes();
    let close = memo.bracket_after(line, at)?;
    if bytes.get(close + 1) != Some(&b'(') {
        return None;
    }
    let url_start = close + 2;
    let mut depth = 0usize;
    let mut url_end = url_start;
    loop {
        match bytes.get(url_end)? {
            b')' if depth == 0 => break,
            b')' => depth -= 1,
            b'(' => depth += 1,
            b' ' | b'\t' => break,
            _ => {}
        }
        url_end += 1;
    }
    let end = if bytes[url_end] == b')' {
        url_end + 1
    } else {
        let title = line[url_end..].trim_start();
        let quote = title.chars().next().filter(|c| matches!(c, '"' | '\''))?;
        let title_end = title[1..].find(quote)? + 2;
        let after = title[title_end..].trim_start().strip_prefix(')')?;
        line.len() - after.len()
    };
    let label = &line[at + 1..close];
    let url = &line[url_start..url_end];
    Some((Inline::Link { label, url }, end))
}

/// Searches that already failed within one text, so a line full of unclosed markers is
/// still parsed in linear time: a closer missing after one start is missing after any
/// later start too.
struct Memo {
    /// Per marker and run length (1–3), the earliest start known to have no closer.
    missing_from: [usize; 12],
    /// The first `]` after some earlier `[`, or none after it.
    bracket: Option<Option<usize>>,
}

impl Memo {
    fn new() -> Self {
        Self {
            missing_from: [usize::MAX; 12],
            bracket: None,
        }
    }

    fn slot(mark: u8, run: usize) -> Option<usize> {
        let first = match mark {
            b'*' => 0,
            b'_' => 3,
            b'~' => 6,
            b'`' => 9,
            _ => return None,
        };
        (1..=3).contains(&run).then(|| first + run - 1)
    }

    fn known_missing(&self, mark: u8, run: usize, start: usize) -> bool {
        Self::slot(mark, run).is_some_and(|slot| start >= self.missing_from[slot])
    }

    fn missing(&mut self, mark: u8, run: usize, start: usize) {
        if let Some(slot) = Self::slot(mark, run) {
            self.missing_from[slot] = self.missing_from[slot].min(start);
        }
    }

    fn bracket_after(&mut self, line: &str, at: usize) -> Option<usize> {
        match self.bracket {
            Some(Some(close)) if close > at => return Some(close),
            Some(None) => return None,
            Some(Some(_)) | None => {}
        }
        let found = line[at..].find(']').map(|offset| at + offset);
        self.bracket = Some(found);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `line` parsed over plain text, each styled segment shown as `<text:marks>`: Bold,
    /// Italic, Strikethrough, Underlined, Code colour, Dim colour.
    fn marked(line: &str) -> String {
        let theme = Theme::default();
        let base = theme.text();
        let mut out = String::new();
        for (piece, style) in parse(line, base, &theme) {
            let mut marks = String::new();
            for (modifier, mark) in [
                (Modifier::BOLD, 'B'),
                (Modifier::ITALIC, 'I'),
                (Modifier::CROSSED_OUT, 'S'),
                (Modifier::UNDERLINED, 'U'),
            ] {
                if style.add_modifier.contains(modifier) {
                    marks.push(mark);
                }
            }
            if style.fg == theme.inline_code().fg {
                marks.push('C');
            }
            if style.fg == theme.dim().fg {
                marks.push('D');
            }
            if marks.is_empty() {
                out.push_str(&piece);
            } else {
                out.push_str(&format!("<{piece}:{marks}>"));
            }
        }
        out
    }

    #[test]
    fn each_construct_styles_its_text() {
        assert_eq!(marked("a **b** c __d__"), "a <b:B> c <d:B>");
        assert_eq!(marked("*i* and _j_"), "<i:I> and <j:I>");
        assert_eq!(marked("~~gone~~ ***both***"), "<gone:S> <both:BI>");
        assert_eq!(marked("run `ls -la` now"), "run <ls -la:C> now");
        assert_eq!(marked("`` a`b ``"), "<a`b:C>");
    }

    #[test]
    fn links_show_their_url_unless_it_is_the_text() {
        assert_eq!(
            marked("see [docs](https://x.io)."),
            "see <docs:U>< (https://x.io):D>."
        );
        assert_eq!(marked("[https://x.io](https://x.io)"), "<https://x.io:U>");
        assert_eq!(marked("[wiki](w/Foo_(bar))"), "<wiki:U>< (w/Foo_(bar)):D>");
        assert_eq!(marked(r#"[t](u "title")"#), "<t:U>< (u):D>");
        assert_eq!(marked("[not](a link) [x] (y)"), "[not](a link) [x] (y)");
    }

    #[test]
    fn unclosed_markers_stay_literal() {
        for line in [
            "**open", "*open", "a ** b", "~~open", "`open", "[x](open", "** x**",
        ] {
            assert_eq!(marked(line), line);
        }
    }

    #[test]
    fn underscores_inside_words_and_spaced_stars_are_literal() {
        for line in ["snake_case_name", "call my_func_here()", "2 * 3 * 4"] {
            assert_eq!(marked(line), line);
        }
        assert_eq!(marked("_a_b_"), "<a_b:I>");
    }

    #[test]
    fn escapes_and_code_keep_markers_literal() {
        assert_eq!(
            marked(r"\*not italic\* a\_b \\ c\d"),
            r"*not italic* a_b \ c\d"
        );
        assert_eq!(marked("`**kwargs` and `_x_`"), "<**kwargs:C> and <_x_:C>");
        assert_eq!(marked("**see `a**b` here**"), "<see :B><a**b:BC>< here:B>");
    }

    #[test]
    fn nested_styles_combine() {
        assert_eq!(marked("*a **b** c*"), "<a :I><b:BI>< c:I>");
        assert_eq!(marked("**[x](y)**"), "<x:BU>< (y):BD>");
    }

    #[test]
    fn many_unclosed_markers_parse_quickly() {
        let line = "*a [b _c ~~d ".repeat(20_000);
        assert_eq!(marked(&line), line);
    }
}

//! Text from models, tools and MCP servers made safe to print on a terminal: escape
//! sequences, C0/C1 controls (except `\n` and `\t`) and bidi overrides are removed, so a
//! hostile answer cannot clear the screen, set the clipboard (OSC 52), hide links (OSC 8)
//! or reorder what the user reads. `\r` is dropped too (it could overwrite a line).

use std::borrow::Cow;
use std::iter::Peekable;
use std::str::Chars;

const ESC: char = '\u{1b}';
const BEL: char = '\u{07}';
/// C1 String Terminator.
const ST: char = '\u{9c}';

/// `text` without anything a terminal would interpret; borrowed when already clean.
pub fn sanitize_for_terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            ESC => skip_escape(&mut chars),
            '\u{9b}' => skip_csi(&mut chars),
            '\u{9d}' => skip_string(&mut chars, true),
            '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars, false),
            ch if unsafe_char(ch) => {}
            ch => out.push(ch),
        }
    }
    Cow::Owned(out)
}

/// Whether `ch` is never printed as is.
fn unsafe_char(ch: char) -> bool {
    matches!(ch,
        '\u{00}'..='\u{08}' | '\u{0b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// After an ESC: the rest of its sequence.
fn skip_escape(chars: &mut Peekable<Chars<'_>>) {
    let Some(&next) = chars.peek() else {
        return;
    };
    match next {
        '[' => {
            chars.next();
            skip_csi(chars);
        }
        ']' => {
            chars.next();
            skip_string(chars, true);
        }
        'P' | 'X' | '^' | '_' => {
            chars.next();
            skip_string(chars, false);
        }
        // `ESC (intermediates) final`, e.g. `ESC c` (reset) or `ESC ( B`.
        ' '..='/' => {
            while chars.next_if(|ch| matches!(ch, ' '..='/')).is_some() {}
            chars.next_if(|ch| matches!(ch, '0'..='~'));
        }
        '0'..='~' => {
            chars.next();
        }
        // Not a sequence: only the ESC goes; the next character is judged on its own.
        _ => {}
    }
}

/// A CSI's parameters, intermediates and final byte. Anything else ends it early and is
/// judged on its own.
fn skip_csi(chars: &mut Peekable<Chars<'_>>) {
    while chars
        .next_if(|ch| matches!(ch, '0'..='?' | ' '..='/'))
        .is_some()
    {}
    chars.next_if(|ch| matches!(ch, '@'..='~'));
}

/// An OSC, DCS, SOS, PM or APC body up to its terminator (`ESC \` or ST; BEL too for
/// OSC), or to the end of the text.
fn skip_string(chars: &mut Peekable<Chars<'_>>, bel_ends: bool) {
    while let Some(ch) = chars.next() {
        match ch {
            ST => return,
            BEL if bel_ends => return,
            ESC => {
                chars.next_if_eq(&'\\');
                return;
            }
            _ => {}
        }
    }
}

/// `text` on one honest line: newlines, tabs, every other control and bidi override shown
/// escaped (`\n`, `\u{202e}`) instead of acted on or hidden. For text quoted in an error,
/// where the reader must see what is there (a config value, a path, an argument).
pub fn escape_for_terminal(text: &str) -> Cow<'_, str> {
    let needs_escape = |ch: char| matches!(ch, '\n' | '\t' | '\r') || unsafe_char(ch);
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for ch in text.chars() {
        if needs_escape(ch) {
            out.extend(ch.escape_default());
        } else {
            out.push(ch);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(text: &str) -> String {
        sanitize_for_terminal(text).into_owned()
    }

    #[test]
    fn clean_text_is_borrowed() {
        let text = "plain text, tabs\tand\nnewlines, émoji 🎉, עברית";
        assert!(matches!(sanitize_for_terminal(text), Cow::Borrowed(_)));
        assert_eq!(sanitize_for_terminal(text), text);
    }

    #[test]
    fn escape_sequences_are_removed_whole() {
        assert_eq!(clean("a\x1b[2Jb"), "ab");
        assert_eq!(clean("a\x1b[1;31mred\x1b[0m"), "ared");
        assert_eq!(clean("x\x1b]52;c;ZXZpbA==\x07y"), "xy");
        assert_eq!(
            clean("\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\ text"),
            "link text"
        );
        assert_eq!(clean("a\x1bPq#0;2;0;0;0\x1b\\b"), "ab");
        assert_eq!(clean("a\x1b_apc\u{9c}b"), "ab");
        assert_eq!(clean("a\x1bcb"), "ab");
        assert_eq!(clean("a\x1b(Bb"), "ab");
        assert_eq!(clean("a\x1b"), "a");
        assert_eq!(clean("a\x1b[12"), "a");
        assert_eq!(clean("a\x1b]0;title never ends"), "a");
    }

    #[test]
    fn c1_controls_and_their_sequences_are_removed() {
        assert_eq!(clean("a\u{9b}2Jb"), "ab");
        assert_eq!(clean("a\u{9d}0;t\u{9c}b"), "ab");
        assert_eq!(clean("a\u{85}\u{8d}b"), "ab");
    }

    #[test]
    fn c0_controls_go_but_newline_and_tab_stay() {
        assert_eq!(
            clean("ding\x07 back\x08\x08 cr\r\nnext\tx\x7f\x00"),
            "ding back cr\nnext\tx"
        );
    }

    #[test]
    fn bidi_overrides_and_isolates_are_removed() {
        assert_eq!(clean("abc\u{202e}fed\u{202c}"), "abcfed");
        assert_eq!(clean("\u{2066}x\u{2069}\u{202a}"), "x");
    }

    #[test]
    fn a_sequence_broken_by_a_control_does_not_swallow_text() {
        assert_eq!(clean("a\x1b[1\nb"), "a\nb");
        assert_eq!(clean("a\x1b\x1b[2Jb"), "ab");
    }

    #[test]
    fn nothing_interpretable_survives() {
        let hostile = "\x1b[2J\x1b]52;c;AAAA\x07\x1b]8;;x\x1b\\\u{9b}31m\x07\x08\u{202e}\r";
        let out = clean(&format!("{hostile}ok{hostile}"));
        assert_eq!(out, "ok");
    }

    #[test]
    fn escaped_text_shows_controls_on_one_line() {
        assert_eq!(escape_for_terminal("plain é"), "plain é");
        assert_eq!(
            escape_for_terminal("a\nb\0c\u{202e}d\x1b[2J\t\r\u{85}"),
            "a\\nb\\u{0}c\\u{202e}d\\u{1b}[2J\\t\\r\\u{85}"
        );
    }
}

//! Configured secrets (API keys, MCP header values) replaced by `[REDACTED]` in text that
//! is shown or logged, including text streamed in pieces: a [`StreamHold`] keeps back the
//! end of a piece that could be the start of a secret until the next piece settles it.

use std::borrow::Cow;

pub const REDACTED: &str = "[REDACTED]";

/// Values shorter than this are not treated as secrets (they would match ordinary text).
pub const MIN_SECRET_LEN: usize = 8;

/// The secrets to hide, longest first so a key containing another is replaced whole.
#[derive(Clone, Debug, Default)]
pub struct Redactor {
    secrets: Vec<String>,
}

impl Redactor {
    /// Keeps the distinct values at least [`MIN_SECRET_LEN`] bytes long, each also as it
    /// reads inside a JSON string (so event logs are covered when a key holds `"` or `\`).
    pub fn new<I, S>(values: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut secrets: Vec<String> = values
            .into_iter()
            .map(Into::into)
            .map(|value| value.trim().to_string())
            .filter(|value| value.len() >= MIN_SECRET_LEN)
            .flat_map(|value| {
                let escaped = json_escaped(&value).filter(|escaped| *escaped != value);
                std::iter::once(value).chain(escaped)
            })
            .collect();
        secrets.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        secrets.dedup();
        Self { secrets }
    }

    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }

    /// `text` with every secret replaced; borrowed when it holds none.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(text);
        for secret in &self.secrets {
            if out.contains(secret.as_str()) {
                out = Cow::Owned(out.replace(secret.as_str(), REDACTED));
            }
        }
        out
    }

    /// Redacts `text` in place.
    pub fn redact_string(&self, text: &mut String) {
        if let Cow::Owned(redacted) = self.redact(text) {
            *text = redacted;
        }
    }

    /// Bytes at the end of `text` that could begin a secret: the longest suffix that is a
    /// proper prefix of one.
    fn risky_tail(&self, text: &str) -> usize {
        let longest = self.secrets.first().map_or(0, String::len);
        let from = text.len().saturating_sub(longest.saturating_sub(1));
        text.char_indices()
            .map(|(at, _)| at)
            .filter(|&at| at >= from)
            .find(|&at| {
                let tail = &text[at..];
                self.secrets
                    .iter()
                    .any(|secret| secret.len() > tail.len() && secret.starts_with(tail))
            })
            .map_or(0, |at| text.len() - at)
    }
}

/// `value` as it appears between the quotes of a JSON string.
fn json_escaped(value: &str) -> Option<String> {
    let quoted = serde_json::to_string(value).ok()?;
    Some(quoted.get(1..quoted.len().saturating_sub(1))?.to_string())
}

/// One stream's held-back text (see the module docs).
#[derive(Debug, Default)]
pub struct StreamHold {
    held: String,
}

impl StreamHold {
    /// The part of `held + piece` that is safe to show now, redacted.
    pub fn push(&mut self, redactor: &Redactor, piece: &str) -> String {
        if redactor.is_empty() {
            return std::mem::take(&mut self.held) + piece;
        }
        self.held.push_str(piece);
        let text = redactor.redact(&self.held).into_owned();
        let keep = redactor.risky_tail(&text);
        let cut = text.len() - keep;
        self.held = text[cut..].to_string();
        let mut text = text;
        text.truncate(cut);
        text
    }

    /// Whatever is still held: the stream ended, so it was not a secret.
    pub fn finish(&mut self) -> String {
        std::mem::take(&mut self.held)
    }

    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "sk-hostile-secret-42";

    #[test]
    fn secrets_are_replaced_and_short_values_ignored() {
        let redactor = Redactor::new([KEY, "short", "  "]);
        assert_eq!(
            redactor.redact(&format!("key={KEY}, again {KEY}.")),
            "key=[REDACTED], again [REDACTED]."
        );
        assert!(matches!(redactor.redact("short text"), Cow::Borrowed(_)));
        assert!(Redactor::new(["1234567"]).is_empty());
    }

    #[test]
    fn a_longer_secret_containing_a_shorter_one_goes_whole() {
        let redactor = Redactor::new(["abcdefgh", "abcdefgh-ijkl"]);
        assert_eq!(redactor.redact("x abcdefgh-ijkl y"), "x [REDACTED] y");
    }

    /// The key split at every byte of a message in two pieces never comes out.
    #[test]
    fn a_key_split_across_two_pieces_is_caught_at_every_point() {
        let redactor = Redactor::new([KEY]);
        let message = format!("Your key is {KEY}, keep it safe. ✓");
        for split in 0..=message.len() {
            if !message.is_char_boundary(split) {
                continue;
            }
            let mut hold = StreamHold::default();
            let mut shown = hold.push(&redactor, &message[..split]);
            assert!(!shown.contains(KEY));
            shown.push_str(&hold.push(&redactor, &message[split..]));
            shown.push_str(&hold.finish());
            assert_eq!(
                shown, "Your key is [REDACTED], keep it safe. ✓",
                "split at {split}"
            );
        }
    }

    #[test]
    fn a_key_streamed_a_character_at_a_time_is_caught() {
        let redactor = Redactor::new([KEY]);
        let mut hold = StreamHold::default();
        let mut shown = String::new();
        for ch in format!("a{KEY}b{KEY}").chars() {
            shown.push_str(&hold.push(&redactor, &ch.to_string()));
        }
        shown.push_str(&hold.finish());
        assert_eq!(shown, "a[REDACTED]b[REDACTED]");
    }

    #[test]
    fn a_prefix_that_never_completes_is_released_at_the_end() {
        let redactor = Redactor::new([KEY]);
        let mut hold = StreamHold::default();
        assert_eq!(hold.push(&redactor, "text sk-host"), "text ");
        assert!(!hold.is_empty());
        assert_eq!(hold.push(&redactor, "ing"), "sk-hosting");
        assert_eq!(hold.push(&redactor, " sk-"), " ");
        assert_eq!(hold.finish(), "sk-");
    }

    #[test]
    fn a_secret_is_also_caught_as_json_escapes_it() {
        let redactor = Redactor::new([r#"pa"ss\word-9"#]);
        let json = serde_json::to_string(r#"said pa"ss\word-9"#).unwrap();
        assert_eq!(redactor.redact(&json), r#""said [REDACTED]""#);
    }

    #[test]
    fn without_secrets_nothing_is_held() {
        let mut hold = StreamHold::default();
        assert_eq!(hold.push(&Redactor::default(), "sk-"), "sk-");
        assert!(hold.is_empty());
    }
}

//! The question: read from standard input a line at a time within
//! `limits.max_question_bytes` and as UTF-8, and checked — not empty, not too large, its
//! `@path` attachments present and not `/`, the home directory or a system directory.

use std::path::Path;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader, Stdin};

use crate::config::limits::how_to_raise;
use crate::config::{ALLOW_FLAG, Grantor, LimitsConfig, refusal};
use crate::workspace::{ParsedPrompt, parse_prompt};

/// Why standard input stopped giving questions.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error(
        "the question on stdin (from byte {start}) is larger than {} (limits.max_question_bytes)\n  \
         help: attach long text as a file with @path, or {}",
        size(*.max),
        how_to_raise("max_question_bytes")
    )]
    TooLarge { start: u64, max: u64 },
    #[error(
        "standard input is not valid UTF-8 at byte {offset}; the rest is not read\n  help: send \
         UTF-8 text (convert it with: iconv -t UTF-8)"
    )]
    InvalidUtf8 { offset: u64 },
    #[error(
        "standard input held no question\n  help: pass the question as an argument, or one per \
         line on standard input"
    )]
    NoQuestion,
    #[error("cannot read standard input: {0}")]
    Io(#[from] std::io::Error),
}

/// Lines of standard input, each at most `max` bytes.
pub struct StdinLines {
    reader: BufReader<Stdin>,
    max: u64,
    /// Bytes read so far, for the offset of bad input.
    offset: u64,
    /// A terminal: ending without a question is the user's choice, not an error.
    interactive: bool,
    /// A line with something on it was read.
    any: bool,
}

impl StdinLines {
    pub fn new(max: u64, interactive: bool) -> Self {
        Self {
            reader: BufReader::new(tokio::io::stdin()),
            max,
            offset: 0,
            interactive,
            any: false,
        }
    }

    /// The next line without its line ending; `None` at the end of input.
    pub async fn next_line(&mut self) -> Result<Option<String>, InputError> {
        let start = self.offset;
        let mut line = Vec::new();
        // Room for the question and a CRLF; anything longer is too large.
        let room = self.max.saturating_add(2);
        let read = (&mut self.reader)
            .take(room)
            .read_until(b'\n', &mut line)
            .await?;
        self.offset += read as u64;
        if read == 0 {
            if !self.any && !self.interactive {
                return Err(InputError::NoQuestion);
            }
            return Ok(None);
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        if line.len() as u64 > self.max {
            return Err(InputError::TooLarge {
                start,
                max: self.max,
            });
        }
        let text = String::from_utf8(line).map_err(|error| InputError::InvalidUtf8 {
            offset: start + error.utf8_error().valid_up_to() as u64,
        })?;
        self.any |= !text.trim().is_empty();
        Ok(Some(text))
    }
}

/// `bytes` as "1 MiB", "64 KiB" or "300 bytes".
fn size(bytes: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * KIB;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// The question ready to submit, or the full message (after `error: `) why not.
/// `may_be_empty`: the question is optional (extra instructions for `--execute-plan`).
pub fn prepare(
    question: &str,
    cwd: &Path,
    limits: &LimitsConfig,
    allow_outside: bool,
    may_be_empty: bool,
) -> Result<ParsedPrompt, String> {
    if question.trim().is_empty() && !may_be_empty {
        return Err(
            "the question is empty, so no turn runs\n  help: ask something, e.g. \
                    massgen \"What is the capital of France?\""
                .into(),
        );
    }
    if question.len() as u64 > limits.max_question_bytes {
        return Err(format!(
            "the question is larger than {} (limits.max_question_bytes)\n  help: attach long \
             text as a file with @path, or {}",
            size(limits.max_question_bytes),
            how_to_raise("max_question_bytes")
        ));
    }
    let parsed = parse_prompt(question, cwd);
    if !parsed.missing.is_empty() {
        return Err(format!(
            "not found: @{} (paths are taken from {})\n  help: fix the path, or write \\@ for a \
             plain @",
            parsed.missing.join(", @"),
            cwd.display()
        ));
    }
    if !allow_outside {
        let project = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
        for attached in &parsed.paths {
            if let Some(refused) = refusal(&attached.path, &project, Grantor::Attachment) {
                return Err(format!(
                    "@{} {}; massgen does not attach it\n  help: attach the files you need \
                     inside it, or pass {ALLOW_FLAG} if you mean it",
                    attached.path.display(),
                    refused.describe()
                ));
            }
        }
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_naturally() {
        assert_eq!(size(1024 * 1024), "1 MiB");
        assert_eq!(size(64 * 1024), "64 KiB");
        assert_eq!(size(10), "10 bytes");
    }

    #[test]
    fn empty_oversized_and_system_questions_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let limits = LimitsConfig {
            max_question_bytes: 8,
            ..LimitsConfig::default()
        };
        let error = prepare("  \n", dir.path(), &limits, false, false).unwrap_err();
        assert!(error.contains("the question is empty"), "{error}");
        assert!(prepare("", dir.path(), &limits, false, true).is_ok());
        let error = prepare("123456789", dir.path(), &limits, false, false).unwrap_err();
        assert!(error.contains("larger than 8 bytes"), "{error}");
        let wide = LimitsConfig::default();
        let error = prepare("see @/etc", dir.path(), &wide, false, false).unwrap_err();
        assert!(error.contains("system directory"), "{error}");
        assert!(prepare("see @/etc", dir.path(), &wide, true, false).is_ok());
    }
}

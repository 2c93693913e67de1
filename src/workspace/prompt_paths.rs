//! `@path` in a question, as MassGen reads it: `@file` or `@dir/` attaches a path for
//! reading, `@path:w` for writing by the winner, `@"path with spaces"` quotes, `\@` is a
//! plain `@`. An `@` inside a word (an e-mail address) is left alone.

use std::path::Path;

use crate::protocol::ContextPath;

/// A question with its attached paths taken out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedPrompt {
    /// The question, each `@path` written as its absolute path (agents resolve relative
    /// paths from their own workspaces).
    pub text: String,
    pub paths: Vec<ContextPath>,
    /// Paths that do not exist, as typed.
    pub missing: Vec<String>,
}

/// Characters that end a path when they close it (a sentence's period, a comma…).
const TRAILING: &[char] = &['.', ',', ';', ':', '!', '?', ')', ']', '}', '"', '\''];

pub fn parse_prompt(input: &str, cwd: &Path) -> ParsedPrompt {
    let mut parsed = ParsedPrompt::default();
    let mut rest = input;
    while let Some(at) = rest.find('@') {
        let (before, after) = rest.split_at(at);
        let after = &after[1..];
        if let Some(kept) = before.strip_suffix('\\') {
            parsed.text.push_str(kept);
            parsed.text.push('@');
            rest = after;
            continue;
        }
        parsed.text.push_str(before);
        let starts_word = before.chars().next_back().is_none_or(char::is_whitespace);
        let Some(attached) = attached_path(after).filter(|_| starts_word) else {
            parsed.text.push('@');
            rest = after;
            continue;
        };
        let path = cwd.join(attached.path);
        if path.exists() {
            let path = path.canonicalize().unwrap_or(path);
            parsed.text.push_str(&path.display().to_string());
            match parsed.paths.iter_mut().find(|known| known.path == path) {
                Some(known) => known.writable |= attached.writable,
                None => parsed.paths.push(ContextPath {
                    path,
                    writable: attached.writable,
                }),
            }
        } else {
            parsed.missing.push(attached.path.to_string());
            parsed.text.push_str(attached.path);
        }
        rest = &after[attached.consumed..];
    }
    parsed.text.push_str(rest);
    parsed
}

struct Attached<'a> {
    path: &'a str,
    writable: bool,
    /// Bytes after the `@` that belong to it (quotes and `:w` included).
    consumed: usize,
}

fn attached_path(after: &str) -> Option<Attached<'_>> {
    let (path, mut consumed) = if let Some(quoted) = after.strip_prefix('"') {
        let end = quoted.find('"')?;
        (&quoted[..end], end + 2)
    } else {
        let end = after.find(char::is_whitespace).unwrap_or(after.len());
        let word = &after[..end];
        let path = match word.strip_suffix(":w") {
            Some(_) => word,
            None => word.trim_end_matches(TRAILING),
        };
        (path, path.len())
    };
    let (path, writable) = match path.strip_suffix(":w") {
        Some(path) => (path, true),
        None if after[consumed..].starts_with(":w") => {
            consumed += 2;
            (path, true)
        }
        None => (path, false),
    };
    (!path.is_empty()).then_some(Attached {
        path,
        writable,
        consumed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/main.rs"), "").unwrap();
        std::fs::create_dir_all(dir.path().join("my docs")).unwrap();
        dir
    }

    #[test]
    fn paths_are_attached_and_written_plainly_in_the_question() {
        let dir = setup();
        let parsed = parse_prompt("Fix @src/main.rs, then update @src/:w.", dir.path());
        let root = dir.path().canonicalize().unwrap();
        assert_eq!(
            parsed.text,
            format!(
                "Fix {}, then update {}.",
                root.join("src/main.rs").display(),
                root.join("src").display()
            )
        );
        assert_eq!(
            parsed.paths,
            [
                ContextPath {
                    path: root.join("src/main.rs"),
                    writable: false
                },
                ContextPath {
                    path: root.join("src"),
                    writable: true
                },
            ]
        );
        assert!(parsed.missing.is_empty());
    }

    #[test]
    fn quotes_escapes_emails_and_missing_paths() {
        let dir = setup();
        let parsed = parse_prompt(
            r#"Read @"my docs":w and mail me@example.com about \@home; also @nope.txt"#,
            dir.path(),
        );
        let docs = dir.path().canonicalize().unwrap().join("my docs");
        assert_eq!(
            parsed.text,
            format!(
                "Read {} and mail me@example.com about @home; also nope.txt",
                docs.display()
            )
        );
        assert_eq!(parsed.paths.len(), 1);
        assert!(parsed.paths[0].writable);
        assert_eq!(parsed.missing, ["nope.txt"]);
        let plain = parse_prompt("no paths here @ all", dir.path());
        assert_eq!(plain.text, "no paths here @ all");
        assert!(plain.missing.is_empty() && plain.paths.is_empty());
    }
}

//! What execute_command refuses before anything runs: shell syntax, the built-in deny list,
//! the configured allow and block lists, and path-like arguments outside the allowed roots.

use std::path::Path;

use regex::Regex;

use crate::tools::permissions::{Access, OnDisk, Refusal};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quote {
    None,
    Single,
    Double,
}

/// The first character a shell would treat specially, outside the quotes that make it
/// literal: `$` and backquotes still expand inside double quotes.
pub(super) fn shell_syntax(command: &str) -> Option<char> {
    let mut quote = Quote::None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match quote {
            Quote::None => match c {
                '\\' => {
                    chars.next();
                }
                '\'' => quote = Quote::Single,
                '"' => quote = Quote::Double,
                ';' | '|' | '&' | '$' | '`' | '>' | '<' | '(' | ')' | '\n' | '\r' => {
                    return Some(c);
                }
                _ => {}
            },
            Quote::Single => {
                if c == '\'' {
                    quote = Quote::None;
                }
            }
            Quote::Double => match c {
                '\\' => {
                    chars.next();
                }
                '"' => quote = Quote::None,
                '$' | '`' => return Some(c),
                _ => {}
            },
        }
    }
    None
}

pub(super) fn shell_syntax_message(found: char) -> String {
    let shown = match found {
        '\n' | '\r' => "a line break".to_string(),
        other => format!("`{other}`"),
    };
    format!(
        "The command contains {shown}, which needs a shell, and commands run without one (no \
         pipes, redirection, `;`/`&&` chains, variables or subshells). Run one command at a \
         time; to save output use write_file, and to change directory use `work_dir`."
    )
}

/// Patterns refused whatever the configuration says, with the reason shown to the model.
const DENIED: [(&str, &str); 12] = [
    (r"\bsudo\b", "`sudo` is not allowed"),
    (r"\bdoas\b", "`doas` is not allowed"),
    (r"(?:^|\s)su(?:\s|$)", "`su` is not allowed"),
    (
        r"\b(?:shutdown|reboot|halt|poweroff)\b",
        "shutting the machine down is not allowed",
    ),
    (
        r"\bmkfs(?:\.\w+)?\b",
        "formatting disks (`mkfs`) is not allowed",
    ),
    (r"\b(?:fdisk|parted)\b", "partitioning disks is not allowed"),
    (r"\bdd\b", "`dd` is not allowed"),
    (
        r"\brm\b.*(?:\s|^)(?:/|/\*|~|~/)(?:\s|$)",
        "`rm` on `/` or `~` is not allowed",
    ),
    (r"--no-preserve-root", "`--no-preserve-root` is not allowed"),
    (r"\bchown\b", "`chown` is not allowed"),
    (
        r"\b(?:killall|pkill)\b",
        "killing processes by name is not allowed",
    ),
    (r":\s*\(\s*\)\s*\{", "fork bombs are not allowed"),
];

#[derive(Clone)]
pub(super) struct Screen {
    denied: Vec<(Regex, &'static str)>,
    /// `None` when no allow list is configured: every command may run.
    allowed: Option<Vec<(Regex, String)>>,
    blocked: Vec<(Regex, String)>,
}

impl Screen {
    /// Configured patterns match from the start of the command, like MassGen's `re.match`;
    /// a pattern that is not a valid regex is matched as literal text.
    pub(super) fn new(allowed: &[String], blocked: &[String]) -> Self {
        let compile = |patterns: &[String]| -> Vec<(Regex, String)> {
            patterns
                .iter()
                .filter_map(|pattern| {
                    let regex = Regex::new(&format!("^(?:{pattern})")).or_else(|error| {
                        tracing::warn!(%pattern, %error, "command pattern is not a regex; matching it as text");
                        Regex::new(&format!("^{}", regex::escape(pattern)))
                    });
                    regex.ok().map(|regex| (regex, pattern.clone()))
                })
                .collect()
        };
        Self {
            denied: DENIED
                .iter()
                .filter_map(|(pattern, why)| Regex::new(pattern).ok().map(|regex| (regex, *why)))
                .collect(),
            allowed: (!allowed.is_empty()).then(|| compile(allowed)),
            blocked: compile(blocked),
        }
    }

    /// Why `command` may not run, if it may not.
    pub(super) fn refuse(&self, command: &str) -> Option<String> {
        let command = command.trim();
        if let Some((_, why)) = self
            .denied
            .iter()
            .find(|(regex, _)| regex.is_match(command))
        {
            return Some(format!(
                "Refused: {why}. Work inside your workspace without it."
            ));
        }
        if let Some(allowed) = &self.allowed
            && !allowed.iter().any(|(regex, _)| regex.is_match(command))
        {
            let patterns: Vec<&str> = allowed.iter().map(|(_, text)| text.as_str()).collect();
            return Some(format!(
                "Refused: only commands matching these patterns may run: {}.",
                patterns.join(", ")
            ));
        }
        if let Some((_, pattern)) = self
            .blocked
            .iter()
            .find(|(regex, _)| regex.is_match(command))
        {
            return Some(format!(
                "Refused: the command matches the blocked pattern `{pattern}`."
            ));
        }
        None
    }
}

/// Device files that are harmless to name.
const HARMLESS: [&str; 1] = ["/dev/null"];

/// Programs that change files: with one of these anywhere in the command, every path it
/// names needs write access, so read-only and protected paths cannot be changed this way.
const WRITERS: [&str; 22] = [
    "cp", "mv", "rm", "rmdir", "unlink", "touch", "tee", "mkdir", "ln", "chmod", "truncate",
    "install", "rsync", "shred", "sed", "tar", "unzip", "zip", "patch", "git", "curl", "wget",
];

/// Checks every word of the command as a path (relative ones from `cwd`), also inside `-c`
/// scripts and `--opt=value` forms: words that are not paths resolve harmlessly inside the
/// workspace, while absolute paths, `~`, `..` and symlinks leading out are refused.
pub(super) fn check_paths(roots: &OnDisk, argv: &[String], cwd: &Path) -> Result<(), Refusal> {
    let tokens: Vec<(usize, &str)> = argv
        .iter()
        .enumerate()
        .flat_map(|(index, arg)| tokens(arg).into_iter().map(move |token| (index, token)))
        .collect();
    let writes = tokens.iter().any(|(_, token)| {
        let program = token.rsplit('/').next().unwrap_or(token);
        WRITERS.contains(&program)
    });
    let access = if writes { Access::Write } else { Access::Read };
    for (index, token) in tokens {
        // The program itself may be a system binary such as /usr/bin/python3.
        if (index == 0 && token.starts_with('/')) || HARMLESS.contains(&token) {
            continue;
        }
        if token.starts_with('/') || token.starts_with('~') {
            roots.check(token, access)?;
        } else {
            let joined = cwd.join(token);
            roots
                .check(&joined.to_string_lossy(), access)
                .map_err(|refusal| Refusal {
                    path: token.to_string(),
                    reason: refusal
                        .reason
                        .replace(&joined.to_string_lossy().into_owned(), token),
                })?;
        }
    }
    Ok(())
}

/// The words of one argument, split at spaces and shell punctuation; URLs stay whole.
fn tokens(arg: &str) -> Vec<&str> {
    const SEPARATORS: &[char] = &[
        '=', '\'', '"', '(', ')', ',', ';', '|', '&', '<', '>', '`', '{', '}', '[', ']', '$',
    ];
    let mut tokens = Vec::new();
    for word in arg.split(|c: char| c.is_whitespace() || SEPARATORS.contains(&c)) {
        if word.contains("://") {
            continue;
        }
        tokens.extend(word.split(':').filter(|piece| !piece.is_empty()));
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_syntax_outside_quotes_is_found() {
        assert_eq!(shell_syntax("ls -la"), None);
        assert_eq!(shell_syntax("echo 'a | b; $c'"), None);
        assert_eq!(shell_syntax(r#"echo "a | b""#), None);
        assert_eq!(shell_syntax(r"echo a\;b"), None);
        assert_eq!(shell_syntax("python -c 'print(1)'"), None);
        assert_eq!(shell_syntax("ls | wc"), Some('|'));
        assert_eq!(shell_syntax(r#"echo "$HOME""#), Some('$'));
        assert_eq!(shell_syntax("a\nb"), Some('\n'));
        assert_eq!(shell_syntax("print(1)"), Some('('));
    }

    #[test]
    fn tokens_split_options_and_scripts_but_keep_urls() {
        assert_eq!(tokens("--out=/etc/x"), vec!["--out", "/etc/x"]);
        assert_eq!(tokens("open('/etc/passwd')"), vec!["open", "/etc/passwd"]);
        assert_eq!(tokens("PATH=/a:/b"), vec!["PATH", "/a", "/b"]);
        assert!(tokens("https://example.com/a").is_empty());
    }

    #[test]
    fn configured_patterns_match_from_the_start_and_bad_ones_as_text() {
        let screen = Screen::new(&[], &["git push".into(), "bad[".into()]);
        assert!(screen.refuse("git push origin").is_some());
        assert!(screen.refuse("echo git push").is_none());
        assert!(screen.refuse("bad[ x").is_some());
        assert!(screen.refuse("echo hi").is_none());
    }
}

//! Completion popups for the composer: slash commands, and `@path` context paths from the
//! working directory (fuzzy by subsequence, directories browsable).

use std::path::Path;

use crate::tui::slash::{SLASH_COMMANDS, SLASH_NAMES};

/// The slash commands the composer knows: every command the app takes, each under its
/// full name (aliases such as `/v` and `/votes` are not offered).
pub const COMMANDS: [&str; SLASH_NAMES.len()] = SLASH_NAMES;

/// Most suggestions shown at once.
const LIMIT: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PopupKind {
    Command,
    Path,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Popup {
    pub kind: PopupKind,
    /// Full replacements for the token being typed (`/vote`, `@src/`, `@README.md`).
    pub items: Vec<String>,
    /// What each item does, one line each (commands; empty for paths).
    pub notes: Vec<&'static str>,
    pub selected: usize,
    /// Byte offset in the text where the token being completed starts.
    pub token_start: usize,
}

impl Popup {
    /// The text with the token replaced by the selected item; a finished path or command
    /// gets a trailing space, a directory does not (so browsing goes on).
    pub fn accept(&self, text: &str) -> String {
        let Some(item) = self.items.get(self.selected) else {
            return text.to_string();
        };
        let space = if item.ends_with('/') { "" } else { " " };
        format!("{}{item}{space}", &text[..self.token_start])
    }

    pub fn step(&mut self, down: bool) {
        let count = self.items.len().max(1);
        self.selected = if down {
            (self.selected + 1) % count
        } else {
            (self.selected + count - 1) % count
        };
    }
}

/// Suggestions for the text as typed (the cursor at its end), if any apply.
pub fn suggest(text: &str, cwd: &Path) -> Option<Popup> {
    if text.starts_with('/') && !text.contains(char::is_whitespace) {
        let (items, notes) = SLASH_COMMANDS
            .iter()
            .filter(|command| command.name.starts_with(text) && command.name != text)
            .map(|command| (command.name.to_string(), command.about))
            .unzip::<_, _, Vec<String>, Vec<&str>>();
        return (!items.is_empty()).then_some(Popup {
            kind: PopupKind::Command,
            items,
            notes,
            selected: 0,
            token_start: 0,
        });
    }
    let token_start = text.rfind(char::is_whitespace).map_or(0, |space| space + 1);
    let token = &text[token_start..];
    let path = token.strip_prefix('@')?;
    if path.contains(':') {
        return None;
    }
    let (dir, partial) = match path.rfind('/') {
        Some(slash) => (&path[..=slash], &path[slash + 1..]),
        None => ("", path),
    };
    let entries = std::fs::read_dir(cwd.join(dir)).ok()?;
    let mut scored: Vec<(usize, String)> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') && !partial.starts_with('.') {
                return None;
            }
            let score = fuzzy_score(&name, partial)?;
            let is_dir = entry.file_type().is_ok_and(|kind| kind.is_dir());
            let suffix = if is_dir { "/" } else { "" };
            Some((score, format!("@{dir}{name}{suffix}")))
        })
        .collect();
    scored.sort();
    let items: Vec<String> = scored
        .into_iter()
        .take(LIMIT)
        .map(|(_, item)| item)
        .collect();
    (!items.is_empty()).then_some(Popup {
        kind: PopupKind::Path,
        notes: vec![""; items.len()],
        items,
        selected: 0,
        token_start,
    })
}

/// Lower is better; `None` when `pattern` is not a subsequence of `name` (ignoring case).
/// A prefix match beats a match further in; tighter matches beat looser ones.
fn fuzzy_score(name: &str, pattern: &str) -> Option<usize> {
    if pattern.is_empty() {
        return Some(0);
    }
    let name_lower = name.to_lowercase();
    let mut chars = name_lower.char_indices();
    let mut first = None;
    let mut last = 0;
    for wanted in pattern.to_lowercase().chars() {
        let (at, _) = chars.find(|(_, ch)| *ch == wanted)?;
        first.get_or_insert(at);
        last = at;
    }
    let first = first.unwrap_or(0);
    Some(first * 100 + (last - first))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slash_commands_complete_by_prefix() {
        let popup = suggest("/vo", Path::new(".")).unwrap();
        assert_eq!(popup.items, ["/vote"]);
        assert_eq!(popup.accept("/vo"), "/vote ");
        assert!(
            suggest("/vote", Path::new(".")).is_none(),
            "already complete"
        );
        assert!(suggest("/vote now", Path::new(".")).is_none());
        let all = suggest("/", Path::new(".")).unwrap();
        assert_eq!(all.items.len(), COMMANDS.len());
        assert_eq!(suggest("/ev", Path::new(".")).unwrap().items, ["/events"]);
    }

    #[test]
    fn paths_complete_fuzzily_and_directories_can_be_browsed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src/tui")).unwrap();
        std::fs::write(dir.path().join("README.md"), "").unwrap();
        std::fs::write(dir.path().join("src/main.rs"), "").unwrap();
        std::fs::write(dir.path().join(".env"), "").unwrap();
        let popup = suggest("explain @rd", dir.path()).unwrap();
        assert_eq!(popup.items, ["@README.md"]);
        assert_eq!(popup.accept("explain @rd"), "explain @README.md ");
        let popup = suggest("look at @s", dir.path()).unwrap();
        assert_eq!(popup.items, ["@src/"]);
        assert_eq!(popup.accept("look at @s"), "look at @src/");
        let inside = suggest("look at @src/", dir.path()).unwrap();
        assert_eq!(inside.items, ["@src/main.rs", "@src/tui/"]);
        assert!(
            suggest("@", dir.path())
                .unwrap()
                .items
                .iter()
                .all(|item| item != "@.env")
        );
        assert!(suggest("@nothing-like-it", dir.path()).is_none());
        assert!(suggest("@README.md:w", dir.path()).is_none());
    }

    #[test]
    fn prefix_matches_rank_first() {
        assert!(fuzzy_score("main.rs", "ma") < fuzzy_score("format.rs", "ma"));
        assert_eq!(fuzzy_score("abc", "x"), None);
    }
}

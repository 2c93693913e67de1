//! The production module tree of `src/`, read from the sources: each module's file, its text
//! without comments, string literals and `#[cfg(test)]` items, and the `crate::`, `super::`
//! and `self::` paths it names.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// A module path inside the crate: `["tui", "render", "card"]`; the crate root is empty.
pub type ModPath = Vec<String>;

pub struct Module {
    /// The file, relative to `src/`.
    pub file: String,
    /// Production code only: comments, string contents and test items removed.
    pub code: String,
}

/// Every production module reachable from `src/lib.rs` by `mod` declarations.
pub fn modules(src: &Path) -> BTreeMap<ModPath, Module> {
    let mut found = BTreeMap::new();
    load(src, &src.join("lib.rs"), Vec::new(), &mut found);
    found
}

fn load(src: &Path, file: &Path, path: ModPath, found: &mut BTreeMap<ModPath, Module>) {
    let text = fs::read_to_string(file)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", file.display()));
    let code = without_test_items(&blank_comments_and_strings(&text));
    for (name, path_attr) in declared_modules(&code) {
        let child = match path_attr {
            Some(relative) => file
                .parent()
                .expect("a file has a directory")
                .join(relative),
            None => child_file(file, &name),
        };
        let mut child_path = path.clone();
        child_path.push(name);
        load(src, &child, child_path, found);
    }
    let relative = file
        .strip_prefix(src)
        .expect("modules live under src/")
        .to_string_lossy()
        .into_owned();
    found.insert(
        path,
        Module {
            file: relative,
            code,
        },
    );
}

/// Where `mod name;` declared in `parent` lives: beside a `mod.rs` or `lib.rs`, in a folder
/// named after any other file.
fn child_file(parent: &Path, name: &str) -> PathBuf {
    let dir = parent.parent().expect("a file has a directory");
    let stem = parent
        .file_stem()
        .and_then(|stem| stem.to_str())
        .unwrap_or("");
    let base = if matches!(stem, "mod" | "lib" | "main") {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    let flat = base.join(format!("{name}.rs"));
    if flat.exists() {
        flat
    } else {
        base.join(name).join("mod.rs")
    }
}

/// `(name, #[path] value)` of each out-of-line `mod name;` in production code.
fn declared_modules(code: &str) -> Vec<(String, Option<String>)> {
    let mut declared = Vec::new();
    let mut path_attr: Option<String> = None;
    for line in code.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("#[path") {
            path_attr = rest
                .split('"')
                .nth(1)
                .map(str::to_string)
                .or(Some(String::new()));
            continue;
        }
        let item = ["pub(crate) ", "pub(super) ", "pub "]
            .iter()
            .find_map(|visibility| line.strip_prefix(visibility))
            .unwrap_or(line);
        if let Some(name) = item
            .strip_prefix("mod ")
            .and_then(|rest| rest.strip_suffix(';'))
        {
            declared.push((name.trim().to_string(), path_attr.take()));
        } else if !line.starts_with("#[") && !line.is_empty() {
            path_attr = None;
        }
    }
    declared
}

/// The text with comments removed and the contents of string literals blanked, so a path
/// in a comment or a message is not taken for an import. `#[path = "…"]` keeps its value.
pub fn blank_comments_and_strings(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let prev_is_word = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i = block_comment_end(&chars, i);
        } else if c == '"' {
            let keep = out.trim_end().ends_with("#[path =");
            let end = string_end(&chars, i + 1, 0);
            out.push('"');
            if keep {
                out.extend(&chars[i + 1..end.saturating_sub(1)]);
            }
            out.push('"');
            i = end;
        } else if c == 'r' && !prev_is_word && matches!(next, Some('"' | '#')) {
            let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
            if chars.get(i + 1 + hashes) == Some(&'"') {
                out.push_str("\"\"");
                i = string_end(&chars, i + 2 + hashes, hashes);
            } else {
                out.push(c);
                i += 1;
            }
        } else if c == '\'' {
            i = after_char_literal(&chars, i, &mut out);
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn block_comment_end(chars: &[char], start: usize) -> usize {
    let mut depth = 0;
    let mut i = start;
    while i + 1 < chars.len() {
        if chars[i] == '/' && chars[i + 1] == '*' {
            depth += 1;
            i += 2;
        } else if chars[i] == '*' && chars[i + 1] == '/' {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    chars.len()
}

/// The index just past the closing quote (and `hashes` #s) of a string starting at `start`.
fn string_end(chars: &[char], start: usize, hashes: usize) -> usize {
    let mut i = start;
    while i < chars.len() {
        if hashes == 0 && chars[i] == '\\' {
            i += 2;
            continue;
        }
        if chars[i] == '"' && chars[i + 1..].iter().take(hashes).all(|&c| c == '#') {
            return i + 1 + hashes;
        }
        i += 1;
    }
    chars.len()
}

/// Skips a char literal (`'"'`, `'\''`); a lifetime's quote is copied as it is.
fn after_char_literal(chars: &[char], start: usize, out: &mut String) -> usize {
    let next = chars.get(start + 1).copied();
    if next == Some('\\') {
        let mut i = start + 2;
        while i < chars.len() && chars[i] != '\'' {
            i += 1;
        }
        out.push_str("' '");
        return i + 1;
    }
    if chars.get(start + 2) == Some(&'\'') {
        out.push_str("' '");
        return start + 3;
    }
    out.push('\'');
    start + 1
}

/// Production code: items under `#[cfg(test)]` (a `mod x;`, a `mod tests { … }`, a test
/// helper) are dropped, with their other attributes.
pub fn without_test_items(code: &str) -> String {
    let mut kept = String::with_capacity(code.len());
    let mut skipping = false;
    let mut depth: i64 = 0;
    let mut entered = false;
    for line in code.lines() {
        let trimmed = line.trim_start();
        if !skipping {
            if let Some(rest) = trimmed
                .strip_prefix("#[cfg(test)]")
                .or_else(|| trimmed.strip_prefix("#[cfg(all(test"))
            {
                skipping = true;
                depth = 0;
                entered = false;
                if rest.trim().is_empty() || trimmed.starts_with("#[cfg(all(test") {
                    continue;
                }
            } else {
                kept.push_str(line);
                kept.push('\n');
                continue;
            }
        }
        if depth == 0 && !entered && trimmed.starts_with("#[") {
            continue;
        }
        depth += brace_balance(line);
        entered |= line.contains('{');
        if depth <= 0 && (entered || line.contains(';')) {
            skipping = false;
        }
    }
    kept
}

fn brace_balance(line: &str) -> i64 {
    line.chars().fold(0, |balance, c| match c {
        '{' => balance + 1,
        '}' => balance - 1,
        _ => balance,
    })
}

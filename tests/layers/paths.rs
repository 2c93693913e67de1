//! The module paths a file names: every `crate::…`, `super::…` and `self::…` path in its
//! production code, with `{…}` groups expanded, made absolute from the file's own module.

use crate::source::ModPath;

/// Absolute paths named in `code`, the production code of module `here`.
pub fn named_paths(here: &ModPath, code: &str) -> Vec<ModPath> {
    let tokens = tokenize(code);
    let mut paths = Vec::new();
    for (index, token) in tokens.iter().enumerate() {
        let Token::Word(word) = token else { continue };
        let base = match word.as_str() {
            "crate" | "$crate" => Vec::new(),
            "super" | "self" if !after_path_separator(&tokens, index) => here.clone(),
            _ => continue,
        };
        if tokens.get(index + 1) != Some(&Token::PathSep) {
            continue;
        }
        let mut cursor = index;
        let start = match word.as_str() {
            "super" => {
                let mut base = base;
                base.pop();
                base
            }
            _ => base,
        };
        let start = leading_supers(&tokens, &mut cursor, start);
        tree(&tokens, &mut cursor, start, &mut paths);
    }
    paths
}

/// `super` and `self` count only at the head of a path: `a::super` is not written, and
/// `crate::x::{self, y}` is expanded by [`tree`].
fn after_path_separator(tokens: &[Token], index: usize) -> bool {
    index > 0
        && matches!(
            tokens[index - 1],
            Token::PathSep | Token::Open | Token::Comma
        )
}

/// Steps over `::super` after a first `super`, climbing one module each.
fn leading_supers(tokens: &[Token], cursor: &mut usize, mut path: ModPath) -> ModPath {
    while tokens.get(*cursor + 1) == Some(&Token::PathSep)
        && tokens.get(*cursor + 2) == Some(&Token::Word("super".to_string()))
    {
        path.pop();
        *cursor += 2;
    }
    path
}

/// Reads the rest of a path after the token at `cursor` (whose module is `prefix`), pushing
/// each complete path; `{a, b::c, self}` branches.
fn tree(tokens: &[Token], cursor: &mut usize, prefix: ModPath, out: &mut Vec<ModPath>) {
    let mut path = prefix;
    while tokens.get(*cursor + 1) == Some(&Token::PathSep) {
        *cursor += 2;
        match tokens.get(*cursor) {
            Some(Token::Word(word)) => path.push(word.clone()),
            Some(Token::Open) => {
                group(tokens, cursor, &path, out);
                return;
            }
            _ => break,
        }
    }
    out.push(path);
}

/// A `{…}` group whose opening brace is at `cursor`; leaves `cursor` on its closing brace.
fn group(tokens: &[Token], cursor: &mut usize, prefix: &ModPath, out: &mut Vec<ModPath>) {
    loop {
        *cursor += 1;
        match tokens.get(*cursor) {
            Some(Token::Word(word)) if word == "self" => out.push(prefix.clone()),
            Some(Token::Word(word)) => {
                let mut path = prefix.clone();
                path.push(word.clone());
                tree(tokens, cursor, path, out);
            }
            Some(Token::Open) => group(tokens, cursor, prefix, out),
            Some(Token::Close) | None => return,
            Some(_) => {}
        }
        // After one branch: skip an `as name` rename up to the `,` or `}` that ends it.
        while let Some(token) = tokens.get(*cursor + 1) {
            match token {
                Token::Comma => {
                    *cursor += 1;
                    break;
                }
                Token::Close => {
                    *cursor += 1;
                    return;
                }
                _ => *cursor += 1,
            }
        }
    }
}

#[derive(Debug, PartialEq)]
enum Token {
    Word(String),
    PathSep,
    Open,
    Close,
    Comma,
    Other,
}

fn tokenize(code: &str) -> Vec<Token> {
    let chars: Vec<char> = code.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') || i == start {
                i += 1;
            }
            tokens.push(Token::Word(chars[start..i].iter().collect()));
            continue;
        }
        i += 1;
        tokens.push(match c {
            ':' if chars.get(i) == Some(&':') => {
                i += 1;
                Token::PathSep
            }
            '{' => Token::Open,
            '}' => Token::Close,
            ',' => Token::Comma,
            c if c.is_whitespace() => continue,
            _ => Token::Other,
        });
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::named_paths;

    fn named(here: &[&str], code: &str) -> Vec<String> {
        let here = here.iter().map(|s| s.to_string()).collect();
        named_paths(&here, code)
            .into_iter()
            .map(|path| path.join("::"))
            .collect()
    }

    #[test]
    fn expands_groups_and_relative_heads() {
        assert_eq!(
            named(
                &["tui", "modal"],
                "use crate::tui::{render::{View, wrap}, state::UiState};"
            ),
            [
                "tui::render::View",
                "tui::render::wrap",
                "tui::state::UiState"
            ]
        );
        assert_eq!(
            named(
                &["a", "b", "c"],
                "use super::super::x::Y; self::z::w(); super::{self, k};"
            ),
            ["a::x::Y", "a::b::c::z::w", "a::b", "a::b::k"]
        );
        assert_eq!(
            named(
                &["a"],
                "use crate::x::{Y as Z, w::{self, V}}; let _ = crate::q::f::<T>(1);"
            ),
            ["x::Y", "x::w", "x::w::V", "q::f"]
        );
        assert!(named(&["a"], "fn f(&self) { self.crate_x(); Self::new(); }").is_empty());
    }
}

//! Rule globs as Python's `fnmatch.fnmatchcase` reads them (MassGen's matching): `*` any
//! run of characters including `/` and spaces (so `**` is the same), `?` one character,
//! `[abc]` / `[!abc]` / `[a-z]` one of a set; case-sensitive.

pub fn glob_matches(pattern: &str, text: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = text.chars().collect();
    // Iterative matching with one backtrack point for the last `*`.
    let (mut p, mut t) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some('*') => {
                while pattern.get(p) == Some(&'*') {
                    p += 1;
                }
                star = Some((p, t));
                continue;
            }
            Some('?') => {
                p += 1;
                t += 1;
                continue;
            }
            Some('[') => {
                if let Some((matched, next)) = class(&pattern, p, text[t]) {
                    if matched {
                        p = next;
                        t += 1;
                        continue;
                    }
                } else if text[t] == '[' {
                    p += 1;
                    t += 1;
                    continue;
                }
            }
            Some(&ch) if ch == text[t] => {
                p += 1;
                t += 1;
                continue;
            }
            _ => {}
        }
        match star {
            Some((star_p, star_t)) => {
                p = star_p;
                t = star_t + 1;
                star = Some((star_p, star_t + 1));
            }
            None => return false,
        }
    }
    pattern[p..].iter().all(|ch| *ch == '*')
}

/// Whether `ch` is in the set opening at `pattern[open]`, and where the set ends; `None`
/// when the `[` opens no set (it is then a literal `[`).
fn class(pattern: &[char], open: usize, ch: char) -> Option<(bool, usize)> {
    let mut at = open + 1;
    let negated = matches!(pattern.get(at), Some('!'));
    if negated {
        at += 1;
    }
    let first = at;
    let mut matched = false;
    loop {
        let current = *pattern.get(at)?;
        if current == ']' && at > first {
            return Some((matched != negated, at + 1));
        }
        if pattern.get(at + 1) == Some(&'-')
            && let Some(&high) = pattern.get(at + 2)
            && high != ']'
        {
            matched |= (current..=high).contains(&ch);
            at += 3;
        } else {
            matched |= current == ch;
            at += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::glob_matches;

    #[test]
    fn star_crosses_slashes_and_spaces_like_fnmatch() {
        assert!(glob_matches("curl*", "curl x"));
        assert!(glob_matches(
            "git push --force*",
            "git push --force origin main"
        ));
        assert!(!glob_matches("git push --force*", "git push origin main"));
        assert!(glob_matches("/etc/**", "/etc/ssh/sshd_config"));
        assert!(glob_matches("./**", "./src/a.rs"));
        assert!(glob_matches("*", ""));
        assert!(glob_matches("*.env", "conf/.env"));
        assert!(!glob_matches("*.ENV", "conf/.env"));
        assert!(glob_matches("a?c", "abc"));
        assert!(glob_matches("[a-c]x[!0-9]", "bxz"));
        assert!(!glob_matches("[a-c]x[!0-9]", "bx1"));
        assert!(glob_matches("linear/*", "linear/create_issue"));
        assert!(glob_matches("[", "["));
        assert!(!glob_matches("git status", "git status --porcelain"));
    }
}

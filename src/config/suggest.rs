//! The one "did you mean" of config errors and warnings: the closest known name to a
//! mistyped one, forgiving case, `-` for `_`, a missing or doubled `_`, and swapped letters.

/// The closest of `candidates` to `word`, if it is close enough to be a likely typo.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let typed = normalized(word);
    let typed_chars = typed.chars().count();
    let squashed = squash(&typed);
    candidates
        .into_iter()
        .filter_map(|candidate| {
            let known = normalized(candidate);
            let known_chars = known.chars().count();
            let allowed = (known_chars / 3).max(1);
            let distance = if squash(&known) == squashed {
                0
            } else if known_chars.abs_diff(typed_chars) > allowed {
                // Every edit changes the length by one at most: too far apart to be a typo.
                return None;
            } else {
                edit_distance(&typed, &known)
            };
            (distance <= allowed).then_some((distance, candidate))
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Lower case, with `-` read as `_` (`max-tokens` is `max_tokens`).
fn normalized(word: &str) -> String {
    word.trim().to_lowercase().replace('-', "_")
}

/// Without separators, so `systemmessage` and `system__message` meet `system_message`.
fn squash(word: &str) -> String {
    word.chars().filter(|c| *c != '_').collect()
}

/// Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Three rows of the table are enough: a swap looks two rows back.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut above: Vec<usize> = (0..=b.len()).collect();
    let mut row = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (above[j] + 1).min(row[j - 1] + 1).min(above[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut above);
        std::mem::swap(&mut above, &mut row);
    }
    above[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swapped_letters_are_one_edit() {
        assert_eq!(did_you_mean("modle", ["model", "type"]), Some("model"));
        assert_eq!(did_you_mean("agnets", ["agent", "agents"]), Some("agents"));
        assert_eq!(
            did_you_mean("tokens_per_secnd", ["tokens_per_second"]),
            Some("tokens_per_second")
        );
    }

    #[test]
    fn case_and_separators_are_forgiven() {
        assert_eq!(did_you_mean("Model", ["model"]), Some("model"));
        assert_eq!(
            did_you_mean("max-tokens", ["max_tokens"]),
            Some("max_tokens")
        );
        assert_eq!(
            did_you_mean("systemmessage", ["system_message"]),
            Some("system_message")
        );
        assert_eq!(did_you_mean("ID", ["id", "backend"]), Some("id"));
    }

    #[test]
    fn far_names_get_no_suggestion() {
        assert_eq!(did_you_mean("banana", ["openai", "claude"]), None);
        assert_eq!(did_you_mean("xy", ["id"]), None);
        assert_eq!(did_you_mean("opnai", ["openai", "claude"]), Some("openai"));
    }

    #[test]
    fn distances_count_each_edit_once() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("abcd", "badc"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }

    #[test]
    fn the_closest_wins() {
        assert_eq!(did_you_mean("agent", ["agents", "agent"]), Some("agent"));
        assert_eq!(did_you_mean("agentss", ["agent", "agents"]), Some("agents"));
    }
}

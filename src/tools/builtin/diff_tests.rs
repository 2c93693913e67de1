//! Tests of unified diffs: exact output for known cases, and for generated texts that the
//! diff turns the old text into the new one with as few changed lines as `similar` finds.

use proptest::prelude::*;

use super::unified;

#[test]
fn a_changed_line_and_an_added_one_show_with_their_context() {
    let old = "a = 1\nb = 2\nc = 3\n";
    let new = "a = 1\nb = 20\nc = 3\nd = 4\n";
    assert_eq!(
        unified(old, new, "code.py", "code.py", 3),
        "--- code.py\n+++ code.py\n@@ -1,3 +1,4 @@\n a = 1\n-b = 2\n+b = 20\n c = 3\n+d = 4\n"
    );
}

#[test]
fn equal_texts_have_no_diff() {
    assert_eq!(unified("same\n", "same\n", "a", "b", 3), "");
    assert_eq!(unified("", "", "a", "b", 3), "");
}

#[test]
fn distant_changes_make_separate_hunks_and_ranges_read_as_diff_u_writes_them() {
    let old: String = (1..=20).map(|n| format!("{n}\n")).collect();
    let new: String = (1..=20)
        .filter(|n| *n != 19)
        .map(|n| {
            if n == 2 {
                "two\n".to_string()
            } else {
                format!("{n}\n")
            }
        })
        .collect();
    assert_eq!(
        unified(&old, &new, "a", "b", 1),
        "--- a\n+++ b\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n@@ -18,3 +18,2 @@\n 18\n-19\n 20\n"
    );
    // Only additions: the old range is the line before, with length 0.
    assert_eq!(
        unified("x\n", "x\ny\n", "a", "b", 0),
        "--- a\n+++ b\n@@ -1,0 +2 @@\n+y\n"
    );
}

#[test]
fn a_last_line_without_a_newline_is_marked() {
    assert_eq!(
        unified("a\nb", "a\nc", "f", "f", 3),
        "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
    );
}

#[test]
fn a_diff_past_the_edit_limit_removes_and_adds_the_middle_whole() {
    let old: String = (0..3_000).map(|n| format!("old {n}\n")).collect();
    let new: String = (0..3_000).map(|n| format!("new {n}\n")).collect();
    let diff = unified(
        &format!("top\n{old}end\n"),
        &format!("top\n{new}end\n"),
        "a",
        "b",
        1,
    );
    assert!(diff.starts_with("--- a\n+++ b\n@@ -1,3002 +1,3002 @@\n top\n-old 0\n"));
    assert_eq!(
        diff.lines().filter(|line| line.starts_with('-')).count(),
        3_001
    );
    assert_eq!(
        diff.lines().filter(|line| line.starts_with('+')).count(),
        3_001
    );
}

/// Applies a unified diff made with any context to `old`.
fn apply(old: &str, diff: &str) -> String {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let mut out = String::new();
    let mut at = 0;
    let mut lines = diff.split_inclusive('\n').skip(2).peekable();
    while let Some(line) = lines.next() {
        if let Some(header) = line.strip_prefix("@@ -") {
            let range = header.split(' ').next().unwrap();
            let (start, len) = match range.split_once(',') {
                Some((start, len)) => (
                    start.parse::<usize>().unwrap(),
                    len.parse::<usize>().unwrap(),
                ),
                None => (range.parse::<usize>().unwrap(), 1),
            };
            let first = if len == 0 { start } else { start - 1 };
            out.extend(old_lines[at..first].iter().copied());
            at = first;
            continue;
        }
        let (sign, text) = line.split_at(1);
        let no_newline = lines.peek().is_some_and(|next| next.starts_with('\\'));
        let text = if no_newline {
            text.strip_suffix('\n').unwrap()
        } else {
            text
        };
        if no_newline {
            lines.next();
        }
        match sign {
            " " => {
                assert_eq!(old_lines[at], text);
                out.push_str(text);
                at += 1;
            }
            "-" => {
                assert_eq!(old_lines[at], text);
                at += 1;
            }
            "+" => out.push_str(text),
            other => panic!("unexpected line {other:?}{text:?}"),
        }
    }
    out.extend(old_lines[at..].iter().copied());
    out
}

fn text() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(
            prop::sample::select(vec!["a\n", "b\n", "c\n", "d\n", "\n"]),
            0..24,
        ),
        any::<bool>(),
    )
        .prop_map(|(lines, cut)| {
            let mut text = lines.concat();
            if cut {
                text.pop();
            }
            text
        })
}

proptest! {
    #[test]
    fn a_diff_applied_to_the_old_text_gives_the_new_with_the_fewest_changes(
        old in text(),
        new in text(),
        context in 0usize..4,
    ) {
        let ours = unified(&old, &new, "a", "b", context);
        prop_assert_eq!(ours.is_empty(), old == new);
        if !ours.is_empty() {
            prop_assert_eq!(apply(&old, &ours), new.clone());
        }
        let theirs = similar::TextDiff::configure()
            .diff_lines(old.as_str(), new.as_str())
            .unified_diff()
            .context_radius(context)
            .header("a", "b")
            .to_string();
        let changes = |diff: &str| {
            diff.lines()
                .skip(2)
                .filter(|line| line.starts_with('-') || line.starts_with('+'))
                .count()
        };
        prop_assert_eq!(changes(&ours), changes(&theirs), "ours:\n{}\ntheirs:\n{}", ours, theirs);
    }
}

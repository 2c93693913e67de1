//! Unified line diffs for `edit_file` and `compare_files`: the fewest lines removed and
//! added (Myers' algorithm on the lines between the common start and end), grouped into
//! hunks with `context` unchanged lines around each change, in the format `diff -u` and
//! `patch` read (`\ No newline at end of file` after a last line without one). Past
//! `MAX_EDITS` changed lines the middle is shown as removed whole and added whole: an
//! approximate diff rather than a long wait.

use std::collections::HashMap;
use std::fmt::Write as _;

/// The most changed lines searched for a minimal diff (memory grows with its square).
const MAX_EDITS: usize = 1_000;

/// What a run of the diff does with its lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Equal,
    Delete,
    Insert,
}

/// One run of the diff: `len` lines kept, removed from the old text or added from the new,
/// at line `old` of the old text and `new` of the new.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Op {
    kind: Kind,
    old: usize,
    new: usize,
    len: usize,
}

impl Op {
    /// The old text's lines it covers (none for an addition).
    fn old_range(self) -> (usize, usize) {
        match self.kind {
            Kind::Equal | Kind::Delete => (self.old, self.old + self.len),
            Kind::Insert => (self.old, self.old),
        }
    }

    /// The new text's lines it covers (none for a removal).
    fn new_range(self) -> (usize, usize) {
        match self.kind {
            Kind::Equal | Kind::Insert => (self.new, self.new + self.len),
            Kind::Delete => (self.new, self.new),
        }
    }
}

/// A unified diff from `old` to `new` headed `--- from` / `+++ to`, with `context` lines
/// around each change; empty when the texts are equal.
pub fn unified(old: &str, new: &str, from: &str, to: &str, context: usize) -> String {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let ops = diff(&old_lines, &new_lines);
    let mut out = String::new();
    for hunk in hunks(ops, context) {
        if out.is_empty() {
            let _ = writeln!(out, "--- {from}\n+++ {to}");
        }
        let (Some(first), Some(last)) = (hunk.first(), hunk.last()) else {
            continue;
        };
        let old_span = (first.old_range().0, last.old_range().1);
        let new_span = (first.new_range().0, last.new_range().1);
        let _ = writeln!(out, "@@ -{} +{} @@", range(old_span), range(new_span));
        for op in hunk {
            let (sign, lines, (start, end)) = match op.kind {
                Kind::Equal => (' ', &old_lines, op.old_range()),
                Kind::Delete => ('-', &old_lines, op.old_range()),
                Kind::Insert => ('+', &new_lines, op.new_range()),
            };
            for line in &lines[start..end] {
                out.push(sign);
                out.push_str(line);
                if !line.ends_with('\n') {
                    out.push_str("\n\\ No newline at end of file\n");
                }
            }
        }
    }
    out
}

/// `start,len` of a hunk's lines (1-based; a single line is `start` alone, none is the
/// line before).
fn range((start, end): (usize, usize)) -> String {
    match end - start {
        1 => format!("{}", start + 1),
        0 => format!("{start},0"),
        len => format!("{},{len}", start + 1),
    }
}

/// The runs that turn `old` into `new`: a common start and end kept, the middle diffed.
fn diff<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Op> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);
    let mut ops = Vec::new();
    push(&mut ops, Kind::Equal, 0, 0, prefix);
    // Lines as numbers, so the search compares integers.
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let mut numbered = |lines: &[&'a str]| -> Vec<u32> {
        lines
            .iter()
            .map(|line| {
                let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
                *ids.entry(line).or_insert(next)
            })
            .collect()
    };
    let a = numbered(&old[prefix..old_end]);
    let b = numbered(&new[prefix..new_end]);
    // One side empty: nothing to search.
    let script = if a.is_empty() || b.is_empty() {
        Some(vec![(Kind::Delete, a.len()), (Kind::Insert, b.len())])
    } else {
        edit_script(&a, &b)
    };
    match script {
        Some(steps) => {
            let (mut x, mut y) = (prefix, prefix);
            for step in steps {
                let (kind, len) = step;
                push(&mut ops, kind, x, y, len);
                match kind {
                    Kind::Equal => (x, y) = (x + len, y + len),
                    Kind::Delete => x += len,
                    Kind::Insert => y += len,
                }
            }
        }
        None => {
            push(&mut ops, Kind::Delete, prefix, prefix, a.len());
            push(&mut ops, Kind::Insert, old_end, prefix, b.len());
        }
    }
    push(&mut ops, Kind::Equal, old_end, new_end, suffix);
    ops
}

/// Appends a run, merged into the last one when it is of the same kind.
fn push(ops: &mut Vec<Op>, kind: Kind, old: usize, new: usize, len: usize) {
    if len == 0 {
        return;
    }
    match ops.last_mut() {
        Some(last) if last.kind == kind => last.len += len,
        Some(_) | None => ops.push(Op {
            kind,
            old,
            new,
            len,
        }),
    }
}

/// The shortest edit script from `a` to `b` as (kind, length) runs, each change block's
/// removals before its additions; `None` when it needs more than `MAX_EDITS` changes.
fn edit_script(a: &[u32], b: &[u32]) -> Option<Vec<(Kind, usize)>> {
    let (n, m) = (a.len(), b.len());
    let max = (n + m).min(MAX_EDITS);
    let offset = max + 1;
    // v[k + offset]: the furthest x reached on diagonal k = x - y; one copy per step d.
    let mut v = vec![0usize; 2 * offset + 1];
    // Before each step d, the part of `v` its backtracking reads: diagonals -(d+1)..=d+1.
    let mut trace: Vec<Vec<usize>> = Vec::new();
    let mut found = None;
    'search: for d in 0..=max {
        trace.push(v[offset - d - 1..=offset + d + 1].to_vec());
        let d = d as isize;
        for k in (-d..=d).step_by(2) {
            let at = |k: isize| (k + offset as isize) as usize;
            let down = k == -d || (k != d && v[at(k - 1)] < v[at(k + 1)]);
            let mut x = if down { v[at(k + 1)] } else { v[at(k - 1)] + 1 };
            let mut y = (x as isize - k) as usize;
            while x < n && y < m && a[x] == b[y] {
                x += 1;
                y += 1;
            }
            v[at(k)] = x;
            if x >= n && y >= m {
                found = Some(d as usize);
                break 'search;
            }
        }
    }
    let edits = found?;
    // Back from (n, m): each step d came from diagonal k ± 1 of step d - 1.
    let mut steps: Vec<(Kind, usize)> = Vec::new();
    let (mut x, mut y) = (n as isize, m as isize);
    for d in (0..=edits).rev() {
        let v = &trace[d];
        // `v` holds diagonals from -(d+1) on.
        let at = |k: isize| (k + d as isize + 1) as usize;
        let (d, k) = (d as isize, x - y);
        let down = k == -d || (k != d && v[at(k - 1)] < v[at(k + 1)]);
        let previous_k = if down { k + 1 } else { k - 1 };
        let previous_x = if d == 0 {
            0
        } else {
            v[at(previous_k)] as isize
        };
        let previous_y = if d == 0 { 0 } else { previous_x - previous_k };
        // The snake after the edit: equal lines.
        let start_x = if d == 0 {
            0
        } else if down {
            previous_x
        } else {
            previous_x + 1
        };
        let snake = (x - start_x) as usize;
        steps.push((Kind::Equal, snake));
        if d > 0 {
            steps.push((if down { Kind::Insert } else { Kind::Delete }, 1));
        }
        (x, y) = (previous_x, previous_y);
    }
    steps.reverse();
    Some(removals_first(steps))
}

/// Runs merged, and within each block of changes between equal lines the removals put
/// before the additions, as unified diffs show them.
fn removals_first(steps: Vec<(Kind, usize)>) -> Vec<(Kind, usize)> {
    let mut out = Vec::new();
    let (mut deleted, mut inserted) = (0, 0);
    let flush = |out: &mut Vec<(Kind, usize)>, deleted: &mut usize, inserted: &mut usize| {
        for (kind, len) in [(Kind::Delete, *deleted), (Kind::Insert, *inserted)] {
            if len > 0 {
                out.push((kind, len));
            }
        }
        (*deleted, *inserted) = (0, 0);
    };
    for (kind, len) in steps {
        match kind {
            Kind::Delete => deleted += len,
            Kind::Insert => inserted += len,
            Kind::Equal if len > 0 => {
                flush(&mut out, &mut deleted, &mut inserted);
                match out.last_mut() {
                    Some((Kind::Equal, last)) => *last += len,
                    Some((Kind::Delete | Kind::Insert, _)) | None => out.push((Kind::Equal, len)),
                }
            }
            Kind::Equal => {}
        }
    }
    flush(&mut out, &mut deleted, &mut inserted);
    out
}

/// The runs grouped into hunks: changes with up to `context` equal lines around them, a
/// gap of more than twice that starting a new hunk.
fn hunks(mut ops: Vec<Op>, context: usize) -> Vec<Vec<Op>> {
    if let Some(first) = ops.first_mut().filter(|op| op.kind == Kind::Equal) {
        let cut = first.len.saturating_sub(context);
        (first.old, first.new, first.len) = (first.old + cut, first.new + cut, first.len - cut);
    }
    if let Some(last) = ops.last_mut().filter(|op| op.kind == Kind::Equal) {
        last.len = last.len.min(context);
    }
    let mut groups = Vec::new();
    let mut group = Vec::new();
    for op in ops {
        match op.kind {
            Kind::Equal if op.len > context * 2 => {
                group.push(Op { len: context, ..op });
                groups.push(std::mem::take(&mut group));
                let cut = op.len - context;
                group.push(Op {
                    old: op.old + cut,
                    new: op.new + cut,
                    len: context,
                    ..op
                });
            }
            Kind::Equal if op.len == 0 => {}
            Kind::Equal | Kind::Delete | Kind::Insert => group.push(op),
        }
    }
    groups.push(group);
    groups.retain(|group| group.iter().any(|op| op.kind != Kind::Equal));
    groups
}

#[cfg(test)]
#[path = "diff_tests.rs"]
mod tests;

//! The composer's text as screen rows: lines wrapped at spaces (a word wider than the row
//! at grapheme clusters) to a width, each cluster as wide as it is drawn (CJK and emoji 2
//! cells), the cursor's row and column, and the row it moves to on Up/Down.
//!
//! A ZWJ sequence (👨‍👩‍👧) is drawn as its parts, each in its own cells: terminals that
//! join it and terminals that do not then show the same cells, and neither leaves stale
//! cells behind it. The cursor still moves over and deletes it as one.

use std::ops::Range;

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

const ZWJ: char = '\u{200d}';

/// The pieces a cluster is drawn as: a ZWJ sequence's parts (each with its joiner), else
/// the cluster.
pub fn parts(cluster: &str) -> impl Iterator<Item = &str> {
    let split = cluster.contains(ZWJ) && cluster.chars().count() > 1;
    let whole = (!split).then_some(cluster);
    whole
        .into_iter()
        .chain(cluster.split_inclusive(ZWJ).filter(move |_| split))
}

/// The cells a piece takes: its display width, a tab or control character one (drawn as
/// a space), never zero (a lone combining mark is still a cell to stand on).
pub fn part_width(part: &str) -> usize {
    if part.contains(char::is_control) {
        1
    } else {
        part.width().max(1)
    }
}

/// The cells a grapheme cluster takes, all its pieces together.
pub fn cluster_width(cluster: &str) -> usize {
    parts(cluster).map(part_width).sum()
}

/// What a cluster is drawn as: tabs and control characters become a space.
pub fn drawn(cluster: &str) -> &str {
    if cluster.contains(char::is_control) {
        " "
    } else {
        cluster
    }
}

/// The text wrapped to a width, and where the cursor falls in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Byte ranges of the text, one per screen row; line breaks belong to no row.
    pub rows: Vec<Range<usize>>,
    pub cursor_row: usize,
    pub cursor_col: usize,
}

impl Layout {
    /// `width` 0 means unlimited (nothing drawn yet): one row per line.
    pub fn new(text: &str, cursor: usize, width: usize) -> Self {
        let width = if width == 0 { usize::MAX } else { width };
        let mut rows = Vec::new();
        let mut start = 0;
        for line in text.split('\n') {
            wrap_line(text, start..start + line.len(), width, &mut rows);
            start += line.len() + 1;
        }
        let mut cursor_row = rows
            .iter()
            .enumerate()
            .find(|(index, row)| {
                row.contains(&cursor)
                    || (row.end == cursor
                        && rows.get(index + 1).is_none_or(|next| next.start != cursor))
            })
            .map_or(0, |(index, _)| index);
        let mut cursor_col = rows
            .get(cursor_row)
            .map_or(0, |row| text_width(&text[row.start..cursor.max(row.start)]));
        // A full row with the cursor after its last cluster: the cursor starts a new row.
        if cursor_col >= width {
            rows.insert(cursor_row + 1, cursor..cursor);
            cursor_row += 1;
            cursor_col = 0;
        }
        Self {
            rows,
            cursor_row,
            cursor_col,
        }
    }

    /// Where the cursor lands on row `row` at column `col` (or the nearest cluster start
    /// left of it); `None` past the first or last row.
    pub fn offset_at(&self, text: &str, row: usize, col: usize) -> Option<usize> {
        let range = self.rows.get(row)?.clone();
        let last_of_line = self
            .rows
            .get(row + 1)
            .is_none_or(|next| next.start != range.end);
        let mut used = 0;
        let mut at = range.start;
        for (offset, cluster) in text[range.clone()].grapheme_indices(true) {
            let width = cluster_width(cluster);
            if used + width > col {
                return Some(range.start + offset);
            }
            used += width;
            at = range.start + offset;
        }
        // Past the row's end: its end, unless that is the next row's start.
        Some(if last_of_line { range.end } else { at })
    }
}

/// Display width of `text` as the layout counts it.
pub fn text_width(text: &str) -> usize {
    text.graphemes(true).map(cluster_width).sum()
}

/// One line (`range` of `text`, no line break) as rows of at most `width` cells.
fn wrap_line(text: &str, range: Range<usize>, width: usize, rows: &mut Vec<Range<usize>>) {
    let line = &text[range.clone()];
    let mut start = 0;
    let mut used = 0;
    // Just after the last space on the row: where a word that does not fit moves down.
    let mut after_space: Option<usize> = None;
    for (at, cluster) in line.grapheme_indices(true) {
        let cells = cluster_width(cluster);
        if used + cells > width && at > start {
            let cut = after_space.filter(|&cut| cut > start).unwrap_or(at);
            rows.push(range.start + start..range.start + cut);
            start = cut;
            used = text_width(&line[start..at]);
            after_space = None;
        }
        used += cells;
        if cluster == " " {
            after_space = Some(at + 1);
        }
    }
    rows.push(range.start + start..range.end);
}

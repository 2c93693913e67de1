//! The composer's text and cursor: the cursor sits between extended grapheme clusters, so
//! a flag (🇫🇷), a ZWJ family (👨‍👩‍👧) or e + a combining accent moves and is deleted as
//! one; words, line starts and ends, and undo/redo.

use std::ops::Range;

use unicode_segmentation::{GraphemeCursor, UnicodeSegmentation};

/// The text and cursor before an edit, for undo.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Snapshot {
    text: String,
    cursor: usize,
}

/// How many edits undo remembers.
const UNDO_DEPTH: usize = 200;

#[derive(Clone, Debug, Default)]
pub struct Draft {
    text: String,
    /// A byte offset into `text`, always on a grapheme cluster boundary.
    cursor: usize,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// The last edit typed a word's character: the next one joins its undo step.
    typing: bool,
}

impl Draft {
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Inserts `text` at the cursor, which ends after it.
    pub fn insert(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let word_char = text.chars().count() == 1 && !text.contains(char::is_whitespace);
        if !(self.typing && word_char) {
            self.remember();
        }
        self.text.insert_str(self.cursor, text);
        self.cursor = self.snap(self.cursor + text.len());
        self.typing = word_char;
    }

    /// Replaces the whole text (history recall), cursor at its end.
    pub fn set(&mut self, text: &str) {
        if self.text != text {
            self.remember();
        }
        self.text = text.to_string();
        self.cursor = self.text.len();
    }

    /// Moves the cursor to `at` (a boundary the layout found; past the end: the end).
    pub fn move_to(&mut self, at: usize) -> bool {
        let to = self.snap(at.min(self.text.len()));
        self.moved(to)
    }

    pub fn left(&mut self) -> bool {
        let to = prev_boundary(&self.text, self.cursor);
        self.moved(to)
    }

    pub fn right(&mut self) -> bool {
        let to = next_boundary(&self.text, self.cursor);
        self.moved(to)
    }

    pub fn word_left(&mut self) -> bool {
        let to = self.word_start();
        self.moved(to)
    }

    pub fn word_right(&mut self) -> bool {
        let to = self.word_end();
        self.moved(to)
    }

    pub fn home(&mut self) -> bool {
        let to = line_start(&self.text, self.cursor);
        self.moved(to)
    }

    pub fn end(&mut self) -> bool {
        let to = line_end(&self.text, self.cursor);
        self.moved(to)
    }

    /// Deletes the grapheme cluster before the cursor.
    pub fn backspace(&mut self) -> bool {
        let from = prev_boundary(&self.text, self.cursor);
        self.delete_range(from..self.cursor)
    }

    /// Deletes the grapheme cluster after the cursor.
    pub fn delete(&mut self) -> bool {
        let to = next_boundary(&self.text, self.cursor);
        self.delete_range(self.cursor..to)
    }

    pub fn delete_word_left(&mut self) -> bool {
        self.delete_range(self.word_start()..self.cursor)
    }

    pub fn delete_word_right(&mut self) -> bool {
        self.delete_range(self.cursor..self.word_end())
    }

    /// Deletes to the end of the line, or the line break when already there.
    pub fn kill_to_end(&mut self) -> bool {
        let end = line_end(&self.text, self.cursor);
        if end == self.cursor {
            let next = next_boundary(&self.text, self.cursor);
            return self.delete_range(self.cursor..next);
        }
        self.delete_range(self.cursor..end)
    }

    pub fn kill_to_start(&mut self) -> bool {
        self.delete_range(line_start(&self.text, self.cursor)..self.cursor)
    }

    pub fn undo(&mut self) -> bool {
        let Some(before) = self.undo.pop() else {
            return false;
        };
        let now = self.snapshot();
        self.redo.push(now);
        self.restore(before);
        true
    }

    pub fn redo(&mut self) -> bool {
        let Some(after) = self.redo.pop() else {
            return false;
        };
        let now = self.snapshot();
        self.undo.push(now);
        self.restore(after);
        true
    }

    fn moved(&mut self, to: usize) -> bool {
        self.typing = false;
        let moved = to != self.cursor;
        self.cursor = to;
        moved
    }

    fn delete_range(&mut self, range: Range<usize>) -> bool {
        if range.is_empty() {
            return false;
        }
        self.remember();
        self.typing = false;
        self.cursor = range.start;
        self.text.replace_range(range, "");
        // Deleting can join what was on either side (two halves of a flag).
        self.cursor = self.snap(self.cursor);
        true
    }

    /// The start of the word before the cursor (spaces before the cursor skipped).
    fn word_start(&self) -> usize {
        let before = &self.text[..self.cursor];
        before
            .split_word_bound_indices()
            .rev()
            .find(|(_, piece)| !piece.trim().is_empty())
            .map_or(0, |(at, _)| at)
    }

    /// The end of the word after the cursor (spaces after the cursor skipped).
    fn word_end(&self) -> usize {
        let after = &self.text[self.cursor..];
        after
            .split_word_bound_indices()
            .find(|(_, piece)| !piece.trim().is_empty())
            .map_or(self.text.len(), |(at, piece)| {
                self.cursor + at + piece.len()
            })
    }

    /// `at`, or the end of the cluster it falls inside.
    fn snap(&self, at: usize) -> usize {
        let mut cursor = GraphemeCursor::new(at, self.text.len(), true);
        if cursor.is_boundary(&self.text, 0).unwrap_or(true) {
            at
        } else {
            next_boundary(&self.text, at)
        }
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            text: self.text.clone(),
            cursor: self.cursor,
        }
    }

    fn remember(&mut self) {
        let now = self.snapshot();
        self.undo.push(now);
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    fn restore(&mut self, snapshot: Snapshot) {
        self.text = snapshot.text;
        self.cursor = snapshot.cursor.min(self.text.len());
        self.typing = false;
    }
}

/// The grapheme cluster boundary before `at` (0 at the start).
pub fn prev_boundary(text: &str, at: usize) -> usize {
    let mut cursor = GraphemeCursor::new(at, text.len(), true);
    cursor.prev_boundary(text, 0).ok().flatten().unwrap_or(0)
}

/// The grapheme cluster boundary after `at` (the end at the end).
pub fn next_boundary(text: &str, at: usize) -> usize {
    let mut cursor = GraphemeCursor::new(at, text.len(), true);
    cursor
        .next_boundary(text, 0)
        .ok()
        .flatten()
        .unwrap_or(text.len())
}

fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |newline| newline + 1)
}

fn line_end(text: &str, at: usize) -> usize {
    text[at..]
        .find('\n')
        .map_or(text.len(), |newline| at + newline)
}

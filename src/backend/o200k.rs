//! OpenAI's o200k byte-pair encoding, as far as counting needs it: the packed token table,
//! the pattern that splits text into pieces, and the merges that turn a piece into tokens.
//!
//! It gives tiktoken's `encode_ordinary` (the tests compare the two on generated text): a
//! special token's text, such as `<|endoftext|>`, is ordinary text here.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use fancy_regex::Regex;
use rustc_hash::FxHashMap;

/// A token's number in the encoding; lower ranks merge first.
pub type Rank = u32;

/// The o200k tokens in rank order, each as a byte or as two tokens of lower rank whose
/// bytes it joins, zlib-compressed (0.73 MB; tiktoken's base64 text of the same table is
/// 3.6 MB, the tokens' own bytes compress to 1.05 MB). Written by `scripts/o200k_table.py`,
/// whose docstring gives the format; [`o200k_tokens`] reads it.
const O200K_TABLE: &[u8] = include_bytes!("../../assets/o200k_base.zlib");

/// How o200k splits text into pieces before merging each (tiktoken's `O200K_BASE_PAT_STR`):
/// words with a leading mark and a contraction, numbers of up to three digits, punctuation
/// runs, line breaks and other white space.
const O200K_PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"\p{N}{1,3}",
    "|",
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
    "|",
    r"\s*[\r\n]+",
    "|",
    r"\s+(?!\S)",
    "|",
    r"\s+",
);

/// The o200k encoder: every token's rank by its bytes, and the split pattern.
pub struct Encoder {
    ranks: FxHashMap<Box<[u8]>, Rank>,
    pattern: Regex,
}

impl Encoder {
    /// The encoder built from the packed table; `None` if the table is malformed.
    pub fn o200k() -> Option<Encoder> {
        let tokens = o200k_tokens()?;
        let mut ranks = FxHashMap::with_capacity_and_hasher(tokens.len(), Default::default());
        for (rank, token) in tokens.into_iter().enumerate() {
            ranks.insert(token.into_boxed_slice(), Rank::try_from(rank).ok()?);
        }
        Some(Encoder {
            ranks,
            pattern: Regex::new(O200K_PATTERN).ok()?,
        })
    }

    /// How many tokens `text` encodes to.
    pub fn count(&self, text: &str) -> usize {
        let mut tokens = 0;
        let mut counted = 0;
        for found in self.pattern.find_iter(text) {
            let Ok(piece) = found else {
                // The pattern's backtracking gave up (it cannot on o200k's pattern): the
                // rest counts at four bytes a token.
                return tokens + (text.len() - counted).div_ceil(4);
            };
            tokens += self.piece_tokens(piece.as_str().as_bytes());
            counted = piece.end();
        }
        tokens
    }

    fn piece_tokens(&self, piece: &[u8]) -> usize {
        if self.ranks.contains_key(piece) {
            1
        } else {
            self.token_starts(piece).len()
        }
    }

    /// The tokens of `text`, by rank (for the tests that compare them with tiktoken's).
    #[cfg(test)]
    pub fn encode(&self, text: &str) -> Vec<Rank> {
        let mut encoded = Vec::new();
        for piece in self.pattern.find_iter(text).flatten() {
            let piece = piece.as_str().as_bytes();
            if let Some(rank) = self.rank(piece) {
                encoded.push(rank);
                continue;
            }
            let mut starts = self.token_starts(piece);
            starts.push(piece.len());
            for token in starts.windows(2) {
                encoded.extend(self.rank(&piece[token[0]..token[1]]));
            }
        }
        encoded
    }

    fn rank(&self, bytes: &[u8]) -> Option<Rank> {
        self.ranks.get(bytes).copied()
    }

    /// Where each token of `piece` starts once byte-pair merged: starting from single bytes,
    /// the adjacent pair whose joined bytes have the lowest rank merges first (the leftmost
    /// of equal ones), until no adjacent pair is a token. A heap keeps this n·log n in the
    /// piece's length.
    fn token_starts(&self, piece: &[u8]) -> Vec<usize> {
        let length = piece.len();
        // Per byte where a token starts: where that token ends, where the token before it
        // starts, and the rank of it joined with the next (`None` once it is no pair).
        let mut end: Vec<usize> = (1..=length).collect();
        let mut before: Vec<usize> = (0..length).map(|at| at.saturating_sub(1)).collect();
        let mut pair: Vec<Option<Rank>> = vec![None; length];
        let mut heap = BinaryHeap::with_capacity(length);
        for start in 0..length.saturating_sub(1) {
            pair[start] = self.rank(&piece[start..start + 2]);
            if let Some(rank) = pair[start] {
                heap.push(Reverse((rank, start)));
            }
        }
        while let Some(Reverse((rank, left))) = heap.pop() {
            if pair[left] != Some(rank) {
                continue;
            }
            let right = end[left];
            let merged_end = end[right];
            end[left] = merged_end;
            pair[right] = None;
            pair[left] = None;
            if merged_end < length {
                before[merged_end] = left;
                pair[left] = self.rank(&piece[left..end[merged_end]]);
                if let Some(rank) = pair[left] {
                    heap.push(Reverse((rank, left)));
                }
            }
            if left > 0 {
                let previous = before[left];
                pair[previous] = self.rank(&piece[previous..merged_end]);
                if let Some(rank) = pair[previous] {
                    heap.push(Reverse((rank, previous)));
                }
            }
        }
        let mut starts = Vec::new();
        let mut start = 0;
        while start < length {
            starts.push(start);
            start = end[start];
        }
        starts
    }
}

/// The o200k tokens in rank order, read from the packed table: per rank, numbers A and B in
/// six byte planes (A's low, middle, high bytes, then B's). A == rank: the byte B; A < rank:
/// token A followed by token B (B < rank). `None` if the table is malformed.
fn o200k_tokens() -> Option<Vec<Vec<u8>>> {
    let table = miniz_oxide::inflate::decompress_to_vec_zlib(O200K_TABLE).ok()?;
    if table.len() % 6 != 0 {
        return None;
    }
    let planes: Vec<&[u8]> = table.chunks_exact(table.len() / 6).collect();
    let number = |first: usize, rank: usize| -> Option<usize> {
        let byte = |plane: usize| {
            planes
                .get(first + plane)?
                .get(rank)
                .map(|b| usize::from(*b))
        };
        Some(byte(0)? | byte(1)? << 8 | byte(2)? << 16)
    };
    let count = table.len() / 6;
    let mut tokens: Vec<Vec<u8>> = Vec::with_capacity(count);
    for rank in 0..count {
        let (first, second) = (number(0, rank)?, number(3, rank)?);
        let token = if first == rank {
            vec![u8::try_from(second).ok()?]
        } else {
            let (head, tail) = (tokens.get(first)?, tokens.get(second)?);
            [head.as_slice(), tail.as_slice()].concat()
        };
        tokens.push(token);
    }
    Some(tokens)
}

#[cfg(test)]
#[path = "o200k_tests.rs"]
mod tests;

//! Reading files as text for the model: binary files refused with a hint, size capped.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::args::{ToolError, io_error};

/// The most a text read returns at once.
pub(super) const READ_CAP: u64 = 1024 * 1024;
/// How much of a file's start is looked at to tell binary from text.
const SNIFF: usize = 8 * 1024;

/// Part or all of a file's text.
pub(super) struct Text {
    pub(super) content: String,
    /// The file's size in bytes.
    pub(super) size: u64,
    /// Whether `content` is only part of the file.
    pub(super) cut: bool,
}

/// Which end of a file larger than [`READ_CAP`] to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum End {
    Start,
    Finish,
}

/// Reads up to [`READ_CAP`] bytes from `end` of the file; `path` (resolved) and `shown`
/// (as the model wrote it) are for messages.
pub(super) fn read_text(
    mut file: File,
    path: &Path,
    shown: &str,
    end: End,
) -> Result<Text, ToolError> {
    let meta = file
        .metadata()
        .map_err(|error| io_error("read", path, &error))?;
    if meta.is_dir() {
        return Err(ToolError::Failed(format!(
            "`{shown}` is a directory. Use list_directory or directory_tree to see what it holds."
        )));
    }
    let size = meta.len();
    if has_nul_early(&mut file).map_err(|error| io_error("read", path, &error))? {
        return Err(binary(shown, size));
    }
    let start = match end {
        End::Finish if size > READ_CAP => size - READ_CAP,
        End::Start | End::Finish => 0,
    };
    file.seek(SeekFrom::Start(start))
        .map_err(|error| io_error("read", path, &error))?;
    let mut bytes = Vec::new();
    file.take(READ_CAP)
        .read_to_end(&mut bytes)
        .map_err(|error| io_error("read", path, &error))?;
    let cut = (bytes.len() as u64) < size;
    Ok(Text {
        content: String::from_utf8_lossy(&bytes).into_owned(),
        size,
        cut,
    })
}

/// The whole file as text, or an error when it is larger than [`READ_CAP`].
pub(super) fn read_whole(file: File, path: &Path, shown: &str) -> Result<String, ToolError> {
    let text = read_text(file, path, shown, End::Start)?;
    if text.cut {
        return Err(ToolError::Failed(format!(
            "`{shown}` is {} bytes, more than the {} bytes this tool handles at once.",
            text.size, READ_CAP
        )));
    }
    Ok(text.content)
}

fn binary(shown: &str, size: u64) -> ToolError {
    ToolError::Failed(format!(
        "`{shown}` looks like a binary file ({size} bytes with NUL bytes in its first 8 KiB), \
         so it is not read as text. Use get_file_info for its size and dates, or a tool made for \
         that kind of file (images, audio, PDFs)."
    ))
}

/// Whether the first [`SNIFF`] bytes from the file's current position hold a NUL byte.
fn has_nul_early(file: &mut File) -> std::io::Result<bool> {
    let mut sniff = Vec::with_capacity(SNIFF);
    file.take(SNIFF as u64).read_to_end(&mut sniff)?;
    Ok(sniff.contains(&0))
}

/// The first `count` lines (each with its line ending).
pub(super) fn head(text: &str, count: usize) -> String {
    text.split_inclusive('\n').take(count).collect()
}

/// The last `count` lines (each with its line ending).
pub(super) fn tail(text: &str, count: usize) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    lines[lines.len().saturating_sub(count)..].concat()
}

/// Whether the file's first 8 KiB hold a NUL byte; unreadable files count as binary.
pub(super) fn looks_binary(mut file: File) -> bool {
    has_nul_early(&mut file).unwrap_or(true)
}

/// A unified diff from `old` to `new` with `context` lines around each change; large inputs
/// get an approximate diff rather than a long wait.
pub(super) fn unified_diff(old: &str, new: &str, from: &str, to: &str, context: usize) -> String {
    super::diff::unified(old, new, from, to, context)
}

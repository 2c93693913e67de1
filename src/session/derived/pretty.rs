//! `serde_json`'s pretty form of a large JSON document written a member at a time: the
//! document is described as [`Piece`]s whose large parts are produced lazily, so only one
//! member's value is in memory at once, and the bytes are those of the whole value.

use std::io::{self, Write};

use serde_json::Value;

/// One part of a pretty JSON document.
pub(super) enum Piece<'a> {
    /// A value held whole.
    Whole(Value),
    /// An object whose members come one at a time. They must come in the order
    /// `serde_json` writes a map's keys: sorted.
    Object(Box<dyn Iterator<Item = (String, Piece<'a>)> + 'a>),
    /// An array whose items come one at a time.
    Array(Box<dyn Iterator<Item = Value> + 'a>),
}

impl<'a> Piece<'a> {
    /// An object of the given members, in any order: they are written sorted, as
    /// `serde_json` writes a map. Only their lazy parts wait to be written.
    pub fn object(mut members: Vec<(&'static str, Piece<'a>)>) -> Self {
        members.sort_by_key(|(key, _)| *key);
        Self::Object(Box::new(
            members
                .into_iter()
                .map(|(key, piece)| (key.to_string(), piece)),
        ))
    }

    pub fn array(items: impl Iterator<Item = Value> + 'a) -> Self {
        Self::Array(Box::new(items))
    }
}

/// Writes `piece` as the whole document, with the final newline every JSON file under
/// `.massgen/` has.
pub(super) fn write_document(out: &mut dyn Write, piece: Piece<'_>) -> io::Result<()> {
    write_piece(out, piece, 0)?;
    out.write_all(b"\n")
}

/// Writes `piece` at nesting `depth` (its first line already indented by the caller).
fn write_piece(out: &mut dyn Write, piece: Piece<'_>, depth: usize) -> io::Result<()> {
    let inner = "  ".repeat(depth + 1);
    match piece {
        Piece::Whole(value) => write_indented(out, &value, &inner[2..]),
        Piece::Object(members) => {
            let mut written = 0;
            for (key, member) in members {
                out.write_all(if written == 0 { b"{\n" } else { b",\n" })?;
                out.write_all(inner.as_bytes())?;
                serde_json::to_writer(&mut *out, &key)?;
                out.write_all(b": ")?;
                write_piece(out, member, depth + 1)?;
                written += 1;
            }
            close(out, written, b"{}", b"}", &inner[2..])
        }
        Piece::Array(items) => {
            let mut written = 0;
            for item in items {
                out.write_all(if written == 0 { b"[\n" } else { b",\n" })?;
                out.write_all(inner.as_bytes())?;
                write_indented(out, &item, &inner)?;
                written += 1;
            }
            close(out, written, b"[]", b"]", &inner[2..])
        }
    }
}

/// Ends an object or array of `written` members: empty, it is written whole (`{}`).
fn close(
    out: &mut dyn Write,
    written: usize,
    empty: &[u8],
    end: &[u8],
    indent: &str,
) -> io::Result<()> {
    if written == 0 {
        return out.write_all(empty);
    }
    out.write_all(b"\n")?;
    out.write_all(indent.as_bytes())?;
    out.write_all(end)
}

/// `value` pretty-printed, every line after the first indented by `indent` (a JSON string
/// never holds a raw line break, so lines are the pretty form's own).
pub(super) fn write_indented(out: &mut dyn Write, value: &Value, indent: &str) -> io::Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    for (index, line) in text.split('\n').enumerate() {
        if index > 0 {
            out.write_all(b"\n")?;
            out.write_all(indent.as_bytes())?;
        }
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

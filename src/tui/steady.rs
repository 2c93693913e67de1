//! The backend the TUI draws through: crossterm's, except that a symbol whose width
//! terminals disagree on (`🗳`, `⏱`, `⚠`: one column by Unicode, two in many terminals)
//! cannot push the rest of its row out of place, a modal's border with it. The cell after
//! such a symbol is drawn first and the symbol over it, then the cursor is placed anew.

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use unicode_width::UnicodeWidthStr;

/// `inner`, with each symbol of disputed width drawn so that it cannot shift its row.
pub struct SteadyBackend<B> {
    inner: B,
}

impl<B> SteadyBackend<B> {
    pub fn new(inner: B) -> Self {
        Self { inner }
    }
}

/// Whether terminals may draw `symbol` two columns wide though Unicode gives it one: a
/// pictograph of the symbol blocks, which many terminals show in their emoji font.
fn width_disputed(symbol: &str) -> bool {
    let mut chars = symbol.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let pictograph = matches!(
        u32::from(first),
        0x2300..=0x23FF | 0x2600..=0x27BF | 0x2B00..=0x2BFF | 0x1F000..=0x1FAFF
    );
    pictograph && symbol.width() == 1
}

/// `cells` (in the order a frame's diff sends them) with each disputed symbol moved after
/// the cell to its right, when that cell is sent too: the backend then places the cursor
/// before the symbol and again after it, so a terminal drawing it two columns wide covers
/// only that cell (a space, in everything the TUI writes) and nothing moves.
fn settle(cells: &mut [(u16, u16, &Cell)]) {
    let mut at = 0;
    while at + 1 < cells.len() {
        let (x, y, cell) = cells[at];
        let (next_x, next_y, _) = cells[at + 1];
        if next_y == y && Some(next_x) == x.checked_add(1) && width_disputed(cell.symbol()) {
            cells.swap(at, at + 1);
            at += 2;
        } else {
            at += 1;
        }
    }
}

impl<B: Backend> Backend for SteadyBackend<B> {
    type Error = B::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let mut cells: Vec<(u16, u16, &'a Cell)> = content.collect();
        settle(&mut cells);
        self.inner.draw(cells.into_iter())
    }

    fn append_lines(&mut self, lines: u16) -> Result<(), Self::Error> {
        self.inner.append_lines(lines)
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> Result<Size, Self::Error> {
        self.inner.size()
    }

    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        self.inner.window_size()
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use ratatui::backend::CrosstermBackend;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;

    use super::*;

    /// What crossterm's backend writes for `text` drawn at the top left, with and without
    /// the steadying.
    fn written(text: &str, steady: bool) -> String {
        let mut buffer = Buffer::empty(Rect::new(0, 0, 12, 1));
        buffer.set_string(0, 0, text, ratatui::style::Style::new());
        let mut out = Vec::new();
        {
            let backend = CrosstermBackend::new(&mut out);
            let cells = buffer
                .content()
                .iter()
                .enumerate()
                .map(|(x, cell)| (u16::try_from(x).unwrap(), 0, cell));
            if steady {
                SteadyBackend::new(backend).draw(cells).unwrap();
            } else {
                let mut backend = backend;
                backend.draw(cells).unwrap();
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_cell_after_a_disputed_symbol_is_placed_by_position() {
        // Plain, the cell after `🗳` is written wherever the terminal's cursor ended up.
        let plain = written("🗳 vote│", false);
        assert!(plain.contains("🗳 vote"), "{plain:?}");
        // Steadied: the space first, then `🗳` over it, then a move to column 3 (`\x1b[1;3H`).
        let steady = written("🗳 vote│", true);
        let symbol = steady.find('🗳').unwrap();
        let space = steady.find("\x1b[1;2H").unwrap();
        assert!(space < symbol, "{steady:?}");
        assert!(
            steady[symbol..].starts_with("🗳\x1b[1;3Hvote│"),
            "{steady:?}"
        );
    }

    #[test]
    fn only_pictographs_of_one_column_are_disputed() {
        for symbol in ["🗳", "⏱", "⚠", "🛡", "⏸"] {
            assert!(width_disputed(symbol), "{symbol}");
        }
        for symbol in ["a", "│", "─", "🏆", "💭", "日", ""] {
            assert!(!width_disputed(symbol), "{symbol}");
        }
    }
}

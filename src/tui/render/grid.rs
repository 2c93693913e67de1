//! Where each agent's card goes in the body: side by side, a grid of rows and columns when
//! every card fits at a readable size, or nowhere (the caller shows a tab bar and the
//! focused card). Pure geometry: no state, no drawing.

use ratatui::layout::{Constraint, Layout, Rect};

/// The smallest card, frame included, that still reads: 38 characters by 6 lines inside.
pub const READABLE_WIDTH: u16 = 40;
pub const READABLE_HEIGHT: u16 = 8;

/// Up to this many agents sit side by side whenever each gets [`READABLE_WIDTH`] columns,
/// however short the body (the layout of 1–4 agents before the grid).
const SIDE_BY_SIDE_MAX: usize = 4;

/// Rows and columns of a grid; the last row may hold fewer cards (they share its width).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub rows: u16,
    pub columns: u16,
}

/// Each card's cell in `area`, in agent order, or `None` when they do not all fit at the
/// readable size (then: tabs and one card).
///
/// 1–4 agents sit side by side when each gets [`READABLE_WIDTH`] columns; otherwise (and
/// always from 5 agents on) the best [`shape`] is used, if any.
pub fn arrange(count: usize, area: Rect) -> Option<Vec<Rect>> {
    if count == 0 {
        return Some(Vec::new());
    }
    let side_by_side = count <= SIDE_BY_SIDE_MAX
        && u16::try_from(count).is_ok_and(|count| area.width / count >= READABLE_WIDTH);
    let shape = if side_by_side {
        Shape {
            rows: 1,
            columns: u16::try_from(count).ok()?,
        }
    } else {
        shape(count, area)?
    };
    Some(cells(count, area, shape))
}

/// The grid that gives `count` cards the largest cells for their shape: of the shapes
/// whose cells are all at least the readable size, the one whose cell is the biggest
/// multiple of it in both directions (so neither thin strips nor slivers), then the one
/// with the larger cell, then the one with fewer rows (wider lines read better).
pub fn shape(count: usize, area: Rect) -> Option<Shape> {
    let count = u16::try_from(count).ok().filter(|count| *count > 0)?;
    (1..=count)
        .filter_map(|columns| {
            let rows = count.div_ceil(columns);
            let width = area.width / columns;
            let height = area.height / rows;
            (width >= READABLE_WIDTH && height >= READABLE_HEIGHT).then(|| {
                let (width, height) = (u32::from(width), u32::from(height));
                // `width / 40` against `height / 8`, both times 320.
                let scale =
                    (width * u32::from(READABLE_HEIGHT)).min(height * u32::from(READABLE_WIDTH));
                (
                    (scale, width * height, std::cmp::Reverse(rows)),
                    Shape { rows, columns },
                )
            })
        })
        .max_by_key(|(score, _)| *score)
        .map(|(_, shape)| shape)
}

/// The cells of `shape` over `area`, row by row; the last row's cards share its width.
/// One row is split as ratatui splits equal `Fill`s (the side-by-side layout as it always
/// was); a grid's rows and columns differ by at most one cell, the first ones the larger.
pub fn cells(count: usize, area: Rect, shape: Shape) -> Vec<Rect> {
    if shape.rows <= 1 {
        return Layout::horizontal(vec![Constraint::Fill(1); count])
            .split(area)
            .to_vec();
    }
    let columns = usize::from(shape.columns.max(1));
    let mut cells = Vec::with_capacity(count);
    for (y, height) in split(area.y, area.height, usize::from(shape.rows)) {
        let in_row = (count - cells.len()).min(columns);
        if in_row == 0 {
            break;
        }
        cells.extend(
            split(area.x, area.width, in_row).map(|(x, width)| Rect::new(x, y, width, height)),
        );
    }
    cells
}

/// `length` cells from `start` in `parts` runs (positions and lengths), as even as can be.
fn split(start: u16, length: u16, parts: usize) -> impl Iterator<Item = (u16, u16)> {
    let parts = u16::try_from(parts.max(1)).unwrap_or(u16::MAX);
    let (base, extra) = (length / parts, length % parts);
    (0..parts).map(move |part| {
        let offset = start + part * base + part.min(extra);
        (offset, base + u16::from(part < extra))
    })
}

/// The status bar's word on `g`: what it would show instead. Said when one card is shown
/// by choice (`single_card`) though all would fit, or when a grid of 5 or more is on
/// screen; nothing while the cards are not on screen (`body` is `None`), while the focused
/// card is zoomed, or when the terminal is too small for every card anyway.
pub fn hint(
    count: usize,
    single_card: bool,
    zoomed: bool,
    body: Option<Rect>,
) -> Option<&'static str> {
    let fits = body.is_some_and(|body| arrange(count, body).is_some());
    if !fits || zoomed || count < 2 {
        None
    } else if single_card {
        Some("g: all cards · ")
    } else {
        (count > SIDE_BY_SIDE_MAX).then_some("g: one card · ")
    }
}

#[cfg(test)]
#[path = "grid_tests.rs"]
mod tests;

//! Writing prepared lines and frames straight into the buffer: what cards draw every frame
//! while agents stream (issue 19). The lines come wrapped already, so ratatui's
//! `Paragraph` (a line composer, a style pass over the whole area) and `Block` (another
//! style pass) would redo work on every one of a 200×50 screen's cells; plain ASCII text,
//! most of what models write, is written a byte to a cell without grapheme segmentation.
//! What is drawn is cell for cell what those widgets draw.

use ratatui::buffer::{Buffer, CellWidth};
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::symbols::border;
use ratatui::text::Line;
use ratatui::widgets::Widget;
use unicode_segmentation::UnicodeSegmentation;

/// Makes `area` ready to be drawn over (a modal, a popup): emptied, and a wide character
/// just left of it that reaches into it blanked. Left there, its right half would hide the
/// overlay's left border: a terminal draws the character over the cell after it, and
/// ratatui sends nothing for a cell that a wide character covers.
pub fn clear_for_overlay(buf: &mut Buffer, area: Rect) {
    let area = area.intersection(buf.area);
    ratatui::widgets::Clear.render(area, buf);
    let Some(left) = area.x.checked_sub(1).filter(|left| *left >= buf.area.x) else {
        return;
    };
    for y in area.top()..area.bottom() {
        if let Some(cell) = buf.cell_mut((left, y))
            && unicode_width::UnicodeWidthStr::width(cell.symbol()) > 1
        {
            cell.set_symbol(" ");
        }
    }
}

/// `lines` from the top of `area`, one per row, each cut at the area's width and placed by
/// its alignment, cell for cell as `Paragraph` draws them; rows past the last line are left
/// as they are.
pub fn lines(buf: &mut Buffer, area: Rect, lines: &[Line<'_>]) {
    let area = area.intersection(buf.area);
    for (line, y) in lines.iter().zip(area.top()..area.bottom()) {
        self::line(buf, area.x, y, area.width, line);
    }
}

/// One line at `x, y` in at most `width` cells, cut and placed by its alignment as
/// `Paragraph` cuts and places it: control characters dropped, a character wider than
/// `width` skipped, the line cut before the first that does not fit.
fn line(buf: &mut Buffer, x: u16, y: u16, width: u16, line: &Line<'_>) {
    let offset = match line.alignment {
        None | Some(Alignment::Left) => 0,
        Some(Alignment::Center) => (width / 2).saturating_sub(fit(line, width, |_, _, _| {}) / 2),
        Some(Alignment::Right) => width.saturating_sub(fit(line, width, |_, _, _| {})),
    };
    let bounds = buf.area;
    if !bounds.contains((x, y).into()) {
        return;
    }
    let row = usize::from(y - bounds.y) * usize::from(bounds.width);
    let (left, right) = (x.saturating_add(offset), bounds.right());
    let mut at = left;
    fit(line, width, |symbol, style, cells| {
        if at < right {
            let index = row + usize::from(at - bounds.x);
            if let Some(cell) = buf.content.get_mut(index) {
                match symbol.as_bytes() {
                    [byte] => cell.set_char(char::from(*byte)),
                    _ => cell.set_symbol(symbol),
                }
                .set_style(style);
            }
        }
        at = at.saturating_add(cells);
    });
}

/// Walks the characters of `line` that fit in `width` cells (as `Paragraph` finds them),
/// giving each with its style and width (zero-width ones are given, to be skipped); returns
/// the cells they take. ASCII, most of what models write, is read a byte at a time.
fn fit(line: &Line<'_>, width: u16, mut each: impl FnMut(&str, Style, u16)) -> u16 {
    let mut used: u16 = 0;
    for span in &line.spans {
        let style = line.style.patch(span.style);
        let text: &str = &span.content;
        if text.is_ascii() {
            for (at, byte) in text.bytes().enumerate() {
                if byte.is_ascii_control() {
                    continue;
                }
                if used >= width {
                    return used;
                }
                each(&text[at..=at], style, 1);
                used += 1;
            }
            continue;
        }
        for symbol in text
            .graphemes(true)
            .filter(|symbol| !symbol.contains(char::is_control))
        {
            let cells = symbol.cell_width();
            if cells > width {
                continue;
            }
            if used.saturating_add(cells) > width {
                return used;
            }
            if cells > 0 {
                each(symbol, style, cells);
            }
            used += cells;
        }
    }
    used
}

/// What a frame drawn by [`frame`] leaves inside its border (as `Block::inner` finds it).
pub fn inside(area: Rect) -> Rect {
    let x = area.x.saturating_add(1).min(area.right());
    let y = area.y.saturating_add(1).min(area.bottom());
    Rect {
        x,
        y,
        width: area.width.saturating_sub(2),
        height: area.height.saturating_sub(2),
    }
}

/// A bordered frame around `area` in `style` (`set` gives its corners and sides), with
/// titles on its top and bottom borders laid out as `Block` lays them out: left-aligned ones
/// from the left, a space apart, then right-aligned ones from the right over them.
pub fn frame(
    buf: &mut Buffer,
    area: Rect,
    set: &border::Set<'_>,
    style: Style,
    top: &[Line<'_>],
    bottom: &[Line<'_>],
) {
    let area = area.intersection(buf.area);
    if area.width == 0 || area.height == 0 {
        return;
    }
    let (left, top_row) = (area.left(), area.top());
    let (right, bottom_row) = (area.right() - 1, area.bottom() - 1);
    // Sides, then corners over them, in `Block`'s order (it matters when the area is one
    // cell wide or high).
    for y in top_row..=bottom_row {
        put(buf, left, y, set.vertical_left, style);
    }
    for x in left..=right {
        put(buf, x, top_row, set.horizontal_top, style);
    }
    for y in top_row..=bottom_row {
        put(buf, right, y, set.vertical_right, style);
    }
    for x in left..=right {
        put(buf, x, bottom_row, set.horizontal_bottom, style);
    }
    put(buf, right, bottom_row, set.bottom_right, style);
    put(buf, right, top_row, set.top_right, style);
    put(buf, left, bottom_row, set.bottom_left, style);
    put(buf, left, top_row, set.top_left, style);
    let titles_area = |y| Rect {
        x: left.saturating_add(1),
        y,
        width: area.width.saturating_sub(2),
        height: 1,
    };
    titles(buf, titles_area(top_row), top);
    titles(buf, titles_area(bottom_row), bottom);
}

/// Titles on one border row, as `Block` places them.
fn titles(buf: &mut Buffer, area: Rect, titles: &[Line<'_>]) {
    let width = |line: &Line<'_>| u16::try_from(line.width()).unwrap_or(u16::MAX);
    let right_aligned = |line: &&Line<'_>| line.alignment == Some(Alignment::Right);
    let mut room = area;
    for title in titles.iter().filter(|line| !right_aligned(line)) {
        if room.is_empty() {
            break;
        }
        let used = width(title);
        title.render(
            Rect {
                width: used.min(room.width),
                ..room
            },
            buf,
        );
        let advance = used.saturating_add(1);
        room.x = room.x.saturating_add(advance);
        room.width = room.width.saturating_sub(advance);
    }
    let mut room = area;
    for title in titles.iter().filter(right_aligned).rev() {
        if room.is_empty() {
            break;
        }
        let used = width(title);
        title.render(
            Rect {
                x: room.right().saturating_sub(used).max(room.left()),
                width: used.min(room.width),
                ..room
            },
            buf,
        );
        room.width = room.width.saturating_sub(used).saturating_sub(1);
    }
}

fn put(buf: &mut Buffer, x: u16, y: u16, symbol: &str, style: Style) {
    if let Some(cell) = buf.cell_mut((x, y)) {
        cell.set_symbol(symbol).set_style(style);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use ratatui::style::{Color, Modifier};
    use ratatui::text::Span;
    use ratatui::widgets::{Block, BorderType, Borders, Paragraph};

    use super::*;

    /// Pieces of text of every kind the painter treats apart: ASCII, wide and combining
    /// characters, emoji, controls and tabs.
    fn piece() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec![
                "word",
                " ",
                "a",
                "日本",
                "é",
                "e\u{301}",
                "👍",
                "🇫🇷",
                "\t",
                "\u{7}",
                "x\u{200b}y",
                "-",
                "│",
            ]),
            0..8,
        )
        .prop_map(|parts| parts.concat())
    }

    fn style() -> impl Strategy<Value = Style> {
        prop::sample::select(vec![
            Style::new(),
            Style::new().fg(Color::Red),
            Style::new().bg(Color::Blue).add_modifier(Modifier::BOLD),
        ])
    }

    fn line() -> impl Strategy<Value = Line<'static>> {
        (
            prop::collection::vec((piece(), style()), 0..4),
            prop::sample::select(vec![
                None,
                Some(Alignment::Left),
                Some(Alignment::Center),
                Some(Alignment::Right),
            ]),
            style(),
        )
            .prop_map(|(spans, alignment, style)| {
                let mut line = Line::from(
                    spans
                        .into_iter()
                        .map(|(text, style)| Span::styled(text, style))
                        .collect::<Vec<_>>(),
                )
                .style(style);
                line.alignment = alignment;
                line
            })
    }

    /// A screen, sometimes not at the origin (an inline viewport's buffer is not).
    fn screen() -> impl Strategy<Value = Rect> {
        prop::sample::select(vec![Rect::new(0, 0, 34, 12), Rect::new(5, 3, 34, 12)])
    }

    fn area() -> impl Strategy<Value = Rect> {
        (0u16..9, 0u16..6, 0u16..30, 0u16..8).prop_map(|(x, y, width, height)| Rect {
            x,
            y,
            width,
            height,
        })
    }

    proptest! {
        #[test]
        fn lines_draw_what_a_paragraph_draws(lines in prop::collection::vec(line(), 0..10), area in area(), screen in screen()) {
            let mut ours = Buffer::empty(screen);
            let mut theirs = Buffer::empty(screen);
            super::lines(&mut ours, area, &lines);
            Paragraph::new(lines.clone()).render(area, &mut theirs);
            prop_assert_eq!(ours, theirs);
        }

        #[test]
        fn frames_draw_what_a_block_draws(
            top in prop::collection::vec(line(), 0..3),
            bottom in prop::collection::vec(line(), 0..3),
            area in area(),
            double in any::<bool>(),
            style in style(),
            screen in screen(),
        ) {
            let kind = if double { BorderType::Double } else { BorderType::Rounded };
            let mut ours = Buffer::empty(screen);
            let mut theirs = Buffer::empty(screen);
            // Block places centred titles its own way; the painter takes left and right ones.
            let sided = |lines: Vec<Line<'static>>| -> Vec<Line<'static>> {
                lines
                    .into_iter()
                    .map(|line| if line.alignment == Some(Alignment::Center) { line.left_aligned() } else { line })
                    .collect()
            };
            let (top, bottom) = (sided(top), sided(bottom));
            super::frame(&mut ours, area, &BorderType::border_symbols(kind), style, &top, &bottom);
            let mut block = Block::new().borders(Borders::ALL).border_type(kind).border_style(style);
            for title in &top {
                block = block.title_top(title.clone());
            }
            for title in &bottom {
                block = block.title_bottom(title.clone());
            }
            block.render(area, &mut theirs);
            prop_assert_eq!(ours, theirs);
            prop_assert_eq!(inside(area), Block::new().borders(Borders::ALL).inner(area));
        }
    }
}

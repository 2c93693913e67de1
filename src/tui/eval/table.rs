//! The finished eval's summary table: the numbers summary.md gives, one row per contender.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Borders, Cell, Row as TableRow, Table};

use crate::eval::report;
use crate::eval::summary::{Row, Summary};

const HEADINGS: [&str; 9] = [
    "Contender",
    "Kind",
    "Items",
    "Accuracy [95 % CI]",
    "Δ vs best [95 % CI]",
    "Cost/item",
    "Tokens/item",
    "p50",
    "p95",
];

pub fn render(summary: &Summary, frame: &mut Frame, area: Rect) {
    let rows: Vec<TableRow> = summary
        .rows
        .iter()
        .map(|row| {
            let best = summary.best_single.as_deref() == Some(row.contender.as_str());
            let style = if best {
                Style::new().add_modifier(Modifier::BOLD)
            } else {
                Style::new()
            };
            TableRow::new(cells(row, best).map(Cell::from)).style(style)
        })
        .collect();
    let name_width = summary
        .rows
        .iter()
        .map(|row| row.contender.chars().count() + 2)
        .max()
        .unwrap_or(10)
        .clamp(10, 40);
    let widths = [
        Constraint::Length(u16::try_from(name_width).unwrap_or(40)),
        Constraint::Length(16),
        Constraint::Length(14),
        Constraint::Length(22),
        Constraint::Length(22),
        Constraint::Length(10),
        Constraint::Length(11),
        Constraint::Length(8),
        Constraint::Length(8),
    ];
    let table = Table::new(rows, widths)
        .header(
            TableRow::new(HEADINGS.map(Cell::from))
                .style(Style::new().add_modifier(Modifier::UNDERLINED)),
        )
        .column_spacing(1)
        .block(Block::new().borders(Borders::ALL).title(" summary "));
    frame.render_widget(table, area);
}

/// A row's cells, as summary.md writes them ("★" marks the best single model).
fn cells(row: &Row, best: bool) -> [String; 9] {
    let mut cells = report::cells(row, best);
    if best {
        cells[0] = format!("★ {}", cells[0]);
    }
    cells
}

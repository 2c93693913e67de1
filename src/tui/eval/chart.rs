//! The finished eval's chart: accuracy (y, with its 95 % interval as a whisker) against
//! cost per item (x), one labelled point per contender, the best single model a star.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::canvas::{Canvas, Line as Segment};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::eval::record::ContenderKind;
use crate::eval::report::cost_text;
use crate::eval::summary::Summary;

const Y_LABEL_WIDTH: u16 = 6;

fn kind_colour(kind: ContenderKind) -> Color {
    match kind {
        ContenderKind::Strategy => Color::Blue,
        ContenderKind::SingleModel => Color::Yellow,
        ContenderKind::SelfConsistency => Color::Green,
    }
}

/// The plotted ranges: x from just left of $0 past the dearest contender (room for its
/// label), y from the decade under the lowest interval to 100 %.
struct Bounds {
    x: [f64; 2],
    y: [f64; 2],
    most_cost: f64,
}

fn bounds(summary: &Summary) -> Bounds {
    let most_cost = summary
        .rows
        .iter()
        .filter_map(|row| row.cost_per_item)
        .fold(0.0_f64, f64::max);
    let span = if most_cost > 0.0 { most_cost } else { 1.0 };
    let lowest = summary
        .rows
        .iter()
        .filter_map(|row| row.accuracy.map(|accuracy| accuracy.low))
        .fold(1.0_f64, f64::min);
    let floor = ((lowest * 10.0).floor() * 10.0).clamp(0.0, 90.0);
    Bounds {
        x: [-span * 0.05, span * 1.6],
        y: [floor, 100.0],
        most_cost,
    }
}

pub fn render(summary: &Summary, frame: &mut Frame, area: Rect) {
    let block = Block::new()
        .borders(Borders::ALL)
        .title(" accuracy [95 % CI] vs cost per item ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [plot_row, x_labels, legend] = Layout::vertical([
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    let [y_labels, plot] =
        Layout::horizontal([Constraint::Length(Y_LABEL_WIDTH), Constraint::Min(10)])
            .areas(plot_row);
    if plot.width < 2 || plot.height < 2 {
        return;
    }
    let bounds = bounds(summary);
    render_y_labels(&bounds, frame, y_labels);
    render_x_labels(&bounds, frame, plot, x_labels);
    frame.render_widget(Paragraph::new(legend_line()), legend);
    let canvas = Canvas::default()
        .marker(Marker::Braille)
        .x_bounds(bounds.x)
        .y_bounds(bounds.y)
        .paint(|ctx| {
            ctx.draw(&Segment::new(0.0, bounds.y[0], 0.0, 100.0, Color::DarkGray));
            ctx.draw(&Segment::new(
                0.0,
                bounds.y[0],
                bounds.x[1],
                bounds.y[0],
                Color::DarkGray,
            ));
            for row in &summary.rows {
                let (Some(accuracy), Some(cost)) = (row.accuracy, row.cost_per_item) else {
                    continue;
                };
                let colour = kind_colour(row.kind);
                ctx.draw(&Segment::new(
                    cost,
                    accuracy.low * 100.0,
                    cost,
                    accuracy.high * 100.0,
                    colour,
                ));
            }
            for row in &summary.rows {
                let (Some(accuracy), Some(cost)) = (row.accuracy, row.cost_per_item) else {
                    continue;
                };
                let best = summary.best_single.as_deref() == Some(row.contender.as_str());
                let mark = if best { "★" } else { "●" };
                let label = Line::from(vec![
                    Span::styled(mark, Style::new().fg(kind_colour(row.kind))),
                    Span::raw(format!(" {} {:.1}%", row.contender, accuracy.value * 100.0)),
                ]);
                ctx.print(cost, accuracy.value * 100.0, label);
            }
        });
    frame.render_widget(canvas, plot);
}

fn render_y_labels(bounds: &Bounds, frame: &mut Frame, area: Rect) {
    let [low, high] = bounds.y;
    let last = area.height.saturating_sub(1);
    let marks = [(0, high), (last / 2, (low + high) / 2.0), (last, low)];
    for (offset, value) in marks {
        let cell = Rect::new(area.x, area.y + offset, area.width, 1);
        frame.render_widget(
            Paragraph::new(format!("{value:>4.0}%")).style(Style::new().fg(Color::DarkGray)),
            cell,
        );
    }
}

/// "$0" under the y axis, the dearest contender's cost under its point.
fn render_x_labels(bounds: &Bounds, frame: &mut Frame, plot: Rect, area: Rect) {
    let column = |cost: f64| {
        let share = (cost - bounds.x[0]) / (bounds.x[1] - bounds.x[0]);
        plot.x + (share * f64::from(plot.width - 1)) as u16
    };
    let mut marks = vec![(column(0.0), "$0".to_string())];
    if bounds.most_cost > 0.0 {
        marks.push((column(bounds.most_cost), cost_text(bounds.most_cost)));
    }
    for (x, text) in marks {
        let width = u16::try_from(text.chars().count()).unwrap_or(0);
        let room = area.right().saturating_sub(x).min(width);
        frame.render_widget(
            Paragraph::new(text).style(Style::new().fg(Color::DarkGray)),
            Rect::new(x, area.y, room, 1),
        );
    }
    let title = "cost per item →";
    let width = u16::try_from(title.chars().count()).unwrap_or(0);
    if area.width > width {
        frame.render_widget(
            Paragraph::new(title).style(Style::new().fg(Color::DarkGray)),
            Rect::new(area.right() - width, area.y, width, 1),
        );
    }
}

fn legend_line() -> Line<'static> {
    let entry = |mark: &'static str, kind: ContenderKind, text: &'static str| {
        [
            Span::styled(mark, Style::new().fg(kind_colour(kind))),
            Span::raw(text),
        ]
    };
    let spans: Vec<Span> = [
        entry("●", ContenderKind::Strategy, " strategy   "),
        entry("●", ContenderKind::SingleModel, " single model   "),
        entry("●", ContenderKind::SelfConsistency, " self-consistency   "),
        entry("★", ContenderKind::SingleModel, " best single model   "),
    ]
    .into_iter()
    .flatten()
    .chain([Span::styled(
        "│ whisker: 95 % interval",
        Style::new().fg(Color::DarkGray),
    )])
    .collect();
    Line::from(spans)
}

//! Draws the eval screen: the running view until the run ends, then the summary (table or
//! chart, Tab switches) with the paths of the files written.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::eval::runner::RESULTS;
use crate::eval::summary::Summary;
use crate::tui::eval::running::{self, clock, header_paragraph};
use crate::tui::eval::state::{EvalState, Phase, Tab};
use crate::tui::eval::{chart, table};

/// The files a finished eval wrote, as the end screen lists them.
pub const WRITTEN: [&str; 3] = ["summary.md", "chart.svg", RESULTS];

pub fn render(state: &EvalState, frame: &mut Frame) {
    match &state.phase {
        Phase::Done(summary) => render_done(state, summary, frame),
        Phase::Running | Phase::Stopped => running::render(state, frame),
    }
}

fn render_done(state: &EvalState, summary: &Summary, frame: &mut Frame) {
    let [header, status, main, files, footer] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Length(1),
        Constraint::Min(6),
        Constraint::Length(5),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    frame.render_widget(header_paragraph(&state.header), header);
    let tab = |name: &'static str, on: bool| {
        if on {
            Span::styled(
                format!("[{name}]"),
                Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED),
            )
        } else {
            Span::styled(format!(" {name} "), Style::new().fg(Color::DarkGray))
        }
    };
    let status_line = Line::from(vec![
        tab("Table", state.tab == Tab::Table),
        tab("Chart", state.tab == Tab::Chart),
        Span::raw(format!(
            "  done · {} items · best single model: {} · ${:.4} spent · took {}",
            summary.items,
            summary.best_single.as_deref().unwrap_or("none"),
            state.progress.spent_usd,
            clock(state.elapsed)
        )),
    ]);
    frame.render_widget(Paragraph::new(status_line), status);
    match state.tab {
        Tab::Table => table::render(summary, frame, main),
        Tab::Chart => chart::render(summary, frame, main),
    }
    let paths: Vec<Line> = WRITTEN
        .iter()
        .map(|name| {
            Line::from(vec![
                Span::styled(format!("{name:<14}"), Style::new().fg(Color::DarkGray)),
                Span::raw(state.header.out.join(name).display().to_string()),
            ])
        })
        .collect();
    frame.render_widget(
        Paragraph::new(paths).block(Block::new().borders(Borders::ALL).title(" written ")),
        files,
    );
    frame.render_widget(
        Paragraph::new(Line::styled(
            "Tab table/chart · q quit",
            Style::new().fg(Color::DarkGray),
        )),
        footer,
    );
}

//! The running eval's screen: the header, a progress bar and the accuracy so far per
//! contender, the overall spend, elapsed time and ETA, and the last finished items.

use std::time::Duration;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::eval::progress::{ContenderProgress, Finished};
use crate::tui::eval::state::{EvalHeader, EvalState, Phase};

const BAR_WIDTH: usize = 24;

pub fn render(state: &EvalState, frame: &mut Frame) {
    let area = frame.area();
    let contenders = u16::try_from(state.progress.contenders.len()).unwrap_or(u16::MAX);
    let [header, rows, overall, recent, footer] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Length(contenders.saturating_add(2)),
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
    ])
    .areas(area);
    frame.render_widget(header_paragraph(&state.header), header);
    render_contenders(state, frame, rows);
    frame.render_widget(Paragraph::new(overall_line(state)), overall);
    render_recent(state, frame, recent);
    let footer_text = match state.phase {
        Phase::Stopped => Line::styled(
            "stopped — rerun the same command to resume",
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        ),
        _ => Line::styled(
            "q stop (finished items are kept; rerun the same command to resume)",
            Style::new().fg(Color::DarkGray),
        ),
    };
    frame.render_widget(Paragraph::new(footer_text), footer);
}

pub fn header_paragraph(header: &EvalHeader) -> Paragraph<'static> {
    let budget = header.max_cost.map_or_else(
        || "no budget".to_string(),
        |usd| format!("budget ${usd:.2}"),
    );
    let line = Line::from(vec![
        Span::styled(
            header.dataset.clone(),
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Span::raw(format!(
            " · {} items · {} contenders · concurrency {} · {budget}",
            header.items,
            header.contenders.len(),
            header.concurrency
        )),
    ]);
    Paragraph::new(line).block(Block::new().borders(Borders::ALL).title(" massgen eval "))
}

fn render_contenders(state: &EvalState, frame: &mut Frame, area: Rect) {
    let name_width = state
        .progress
        .contenders
        .iter()
        .map(|row| row.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(40);
    let lines: Vec<Line> = state
        .progress
        .contenders
        .iter()
        .map(|row| contender_line(row, name_width))
        .collect();
    frame.render_widget(
        Paragraph::new(lines).block(Block::new().borders(Borders::ALL).title(" contenders ")),
        area,
    );
}

fn contender_line(row: &ContenderProgress, name_width: usize) -> Line<'static> {
    let filled = (BAR_WIDTH * row.done)
        .checked_div(row.total)
        .unwrap_or(0)
        .min(BAR_WIDTH);
    let name: String = row.name.chars().take(name_width).collect();
    let accuracy = match row.done {
        0 => "–".to_string(),
        done => format!(
            "{}/{done} correct ({:.1}%)",
            row.correct,
            row.correct as f64 * 100.0 / done as f64
        ),
    };
    Line::from(vec![
        Span::raw(format!("{name:<name_width$} ")),
        Span::styled("█".repeat(filled), Style::new().fg(Color::Cyan)),
        Span::styled(
            "░".repeat(BAR_WIDTH - filled),
            Style::new().fg(Color::DarkGray),
        ),
        Span::raw(format!(" {:>4}/{:<4} {accuracy}", row.done, row.total)),
    ])
}

fn overall_line(state: &EvalState) -> Line<'static> {
    let progress = &state.progress;
    let accuracy = progress.accuracy().map_or_else(
        || "–".to_string(),
        |accuracy| format!("{:.1}%", accuracy * 100.0),
    );
    let eta = match (&state.phase, progress.eta_seconds) {
        (Phase::Running, Some(seconds)) => clock(Duration::from_secs_f64(seconds.max(0.0))),
        _ => "–".to_string(),
    };
    Line::from(format!(
        " {}/{} items · {accuracy} correct · ${:.4} spent · elapsed {} · ETA {eta}",
        progress.done,
        progress.total,
        progress.spent_usd,
        clock(state.elapsed)
    ))
}

fn render_recent(state: &EvalState, frame: &mut Frame, area: Rect) {
    let width = usize::from(area.width.saturating_sub(2));
    let lines: Vec<Line> = state
        .recent
        .iter()
        .map(|finished| finished_line(finished, width))
        .collect();
    frame.render_widget(
        Paragraph::new(lines).block(Block::new().borders(Borders::ALL).title(" last finished ")),
        area,
    );
}

/// "✓ contender · item", or "✗ … — error: first line of it", cut to `width`.
fn finished_line(finished: &Finished, width: usize) -> Line<'static> {
    let (mark, colour) = if finished.correct {
        ("✓", Color::Green)
    } else {
        ("✗", Color::Red)
    };
    let mut text = format!("{} · {}", finished.contender, finished.item);
    if let Some(error) = &finished.error {
        let folded = error.split_whitespace().collect::<Vec<_>>().join(" ");
        text.push_str(&format!(" — error: {folded}"));
    }
    let room = width.saturating_sub(2);
    if text.chars().count() > room {
        text = text
            .chars()
            .take(room.saturating_sub(1))
            .collect::<String>()
            + "…";
    }
    Line::from(vec![
        Span::styled(format!("{mark} "), Style::new().fg(colour)),
        Span::raw(text),
    ])
}

/// "0:42", "12:05", "1:02:03".
pub fn clock(duration: Duration) -> String {
    let seconds = duration.as_secs();
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

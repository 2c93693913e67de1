//! An agent card: a frame titled with the agent, its model, round and status, holding the
//! newest lines of its output that fit (only those are built), and its tokens and time.

use std::cell::Cell;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Widget};

use super::format::{bytes, duration, retrying, seconds, status_icon, tokens};
use super::text::{block_lines, floor_char_boundary, last_lines};
use super::wrap::{display_width, truncate, wrap};
use crate::protocol::{AgentStatus, Usage};
use crate::tui::state::{AgentCard, CardItem, OutputMark, ToolState, preview};
use crate::tui::theme::Theme;

pub struct CardView<'a> {
    pub card: &'a AgentCard,
    /// The agent's place in config order, for its colour.
    pub index: usize,
    pub focused: bool,
    pub theme: &'a Theme,
    /// Seconds the agent has been active.
    pub elapsed_secs: Option<u64>,
    /// Lines scrolled up from the newest (0 = follow the output).
    pub scroll: usize,
    pub spinner: usize,
    /// Where to report how far this card can scroll (the focused card only).
    pub scroll_max: Option<&'a Cell<usize>>,
    /// Reasoning in full rather than its last line.
    pub expanded: bool,
    /// Scrolled up: the output as it was then, so new output does not move it.
    pub pause: Option<OutputMark>,
}

/// How a card's output is drawn: its width, colours and whether reasoning is expanded.
#[derive(Clone, Copy)]
pub struct Paint<'a> {
    pub width: usize,
    pub theme: &'a Theme,
    /// The agent's place in config order, for its colour.
    pub index: usize,
    pub expanded: bool,
}

impl Widget for CardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let card = self.card;
        let accent = theme.agent(self.index);
        let title = Line::from(vec![
            Span::styled(
                format!(
                    " {} ",
                    status_icon(card.status, card.is_winner, self.spinner)
                ),
                status_style(theme, card),
            ),
            Span::styled(
                card.info.id.to_string(),
                accent.add_modifier(Modifier::BOLD),
            ),
            Span::styled(format!(" · {}", card.short_model()), theme.dim()),
            Span::styled(
                if card.round > 0 {
                    format!(" · R{}", card.round)
                } else {
                    String::new()
                },
                theme.dim(),
            ),
            Span::raw(" "),
        ]);
        let paused = self.pause.map(|mark| {
            Line::styled(
                format!(" ⏸ {} new ↓ End ", card.new_since(mark)),
                theme.accent(),
            )
        });
        let footer = Line::from(vec![Span::styled(
            format!(
                " {} · {} ",
                status_word(card),
                footer_figures(card.usage, self.elapsed_secs)
            ),
            theme.dim(),
        )])
        .right_aligned();
        let block = Block::new()
            .borders(Borders::ALL)
            .border_type(if card.is_winner {
                BorderType::Double
            } else {
                BorderType::Rounded
            })
            .border_style(if card.is_winner {
                theme.winner()
            } else {
                theme.border(self.focused)
            })
            .title(title)
            .title_bottom(footer);
        let block = match paused {
            Some(paused) => block.title_bottom(paused),
            None => block,
        };
        let inner = block.inner(area);
        block.render(area, buf);
        let height = usize::from(inner.height);
        let wanted = height + self.scroll;
        let paint = Paint {
            width: usize::from(inner.width),
            theme,
            index: self.index,
            expanded: self.expanded,
        };
        let mut lines = tail_lines(card, paint, wanted, self.pause);
        // Scrolled past the top: show the top rather than a blank card.
        let furthest = lines.len().saturating_sub(height);
        if let Some(max) = self.scroll_max {
            max.set(if lines.len() < wanted {
                furthest
            } else {
                usize::MAX
            });
        }
        let end = lines.len().saturating_sub(self.scroll.min(furthest));
        lines.truncate(end);
        lines.drain(..end.saturating_sub(height));
        Paragraph::new(lines).render(inner, buf);
    }
}

fn status_style(theme: &Theme, card: &AgentCard) -> Style {
    if card.is_winner {
        return theme.winner();
    }
    match card.status {
        AgentStatus::Answered | AgentStatus::Voted | AgentStatus::Done => theme.good(),
        AgentStatus::Error | AgentStatus::TimedOut => theme.bad(),
        AgentStatus::Cancelled | AgentStatus::Restarting => theme.warn(),
        AgentStatus::Waiting => theme.dim(),
        AgentStatus::Thinking
        | AgentStatus::Streaming
        | AgentStatus::Tool
        | AgentStatus::Presenting => theme.accent(),
    }
}

fn status_word(card: &AgentCard) -> &'static str {
    if card.is_winner {
        return "winner";
    }
    match card.status {
        AgentStatus::Waiting => "waiting",
        AgentStatus::Thinking => "thinking",
        AgentStatus::Streaming => "streaming",
        AgentStatus::Tool => "tool",
        AgentStatus::Answered => "answered",
        AgentStatus::Voted => "voted",
        AgentStatus::Restarting => "restarting",
        AgentStatus::Presenting => "presenting",
        AgentStatus::Done => "done",
        AgentStatus::Error => "error",
        AgentStatus::Cancelled => "cancelled",
        AgentStatus::TimedOut => "timed out",
    }
}

fn footer_figures(usage: Usage, elapsed_secs: Option<u64>) -> String {
    let time = elapsed_secs.map_or_else(String::new, |secs| format!(" · {}", duration(secs)));
    format!("{} tok{time}", tokens(usage.total()))
}

/// Calls to one MCP server in a row show only this many, newest first, then "+N more".
const BATCH_SHOWN: usize = 3;

/// The newest `wanted` display lines of the card's output (up to `until`, if given), built
/// from the last item back so that a long history costs nothing to draw.
pub fn tail_lines(
    card: &AgentCard,
    paint: Paint<'_>,
    wanted: usize,
    until: Option<OutputMark>,
) -> Vec<Line<'static>> {
    let theme = paint.theme;
    let items =
        &card.items[..until.map_or(card.items.len(), |mark| mark.items.min(card.items.len()))];
    let mut chunks: Vec<Vec<Line<'static>>> = Vec::new();
    let mut total = 0;
    let streaming = matches!(
        card.status,
        AgentStatus::Streaming | AgentStatus::Thinking | AgentStatus::Presenting
    );
    // The MCP server of the run of calls being read (backwards), and how many were shown
    // and hidden.
    let mut batch: Option<(&str, usize, usize)> = None;
    for (position, item) in items.iter().enumerate().rev() {
        if total >= wanted {
            break;
        }
        let server = mcp_server(item);
        if let Some((current, shown, hidden)) = batch.as_mut() {
            if server == Some(*current) {
                if *shown >= BATCH_SHOWN {
                    *hidden += 1;
                    continue;
                }
                *shown += 1;
            } else {
                if *hidden > 0 {
                    chunks.push(vec![more_line(current, *hidden, theme)]);
                    total += 1;
                }
                batch = server.map(|server| (server, 1, 0));
            }
        } else {
            batch = server.map(|server| (server, 1, 0));
        }
        let active = streaming && position + 1 == card.items.len();
        let cut = until
            .filter(|_| position + 1 == items.len())
            .map_or(usize::MAX, |mark| mark.tail_len);
        let lines = item_lines(item, active, cut, wanted - total, paint);
        total += lines.len();
        chunks.push(lines);
    }
    if let Some((server, _, hidden @ 1..)) = batch {
        chunks.push(vec![more_line(server, hidden, theme)]);
    }
    chunks.into_iter().rev().flatten().collect()
}

/// The server of an MCP tool card (`server/tool`), if the item is one.
fn mcp_server(item: &CardItem) -> Option<&str> {
    let (server, _) = item.tool()?.name.split_once('/')?;
    Some(server)
}

fn more_line(server: &str, hidden: usize, theme: &Theme) -> Line<'static> {
    Line::styled(
        format!("   (+{hidden} more {server} calls; d shows them)"),
        theme.dim(),
    )
}

/// An item's newest `wanted` lines; of growing text, only its first `cut` bytes.
fn item_lines(
    item: &CardItem,
    active: bool,
    cut: usize,
    wanted: usize,
    paint: Paint<'_>,
) -> Vec<Line<'static>> {
    let Paint {
        width,
        theme,
        index,
        expanded,
    } = paint;
    let styled = |text: String, style: Style| -> Vec<Line<'static>> {
        wrap(&text, width)
            .into_iter()
            .map(|line| Line::styled(line, style))
            .collect()
    };
    match item {
        CardItem::Text(block) => {
            // While the text streams, only complete lines are shown: no line re-flows.
            block_lines(block, cut, active, wanted, width, theme)
        }
        CardItem::Reasoning(text) if expanded => {
            let text = &text[..floor_char_boundary(text, cut)];
            let style = theme.dim().add_modifier(Modifier::ITALIC);
            let mut lines = vec![Line::styled("💭 reasoning", style)];
            lines.extend(
                wrap(last_lines(text.trim(), wanted), width)
                    .into_iter()
                    .map(|line| Line::styled(line, style)),
            );
            lines
        }
        CardItem::Reasoning(text) => {
            let text = &text[..floor_char_boundary(text, cut)];
            let last = last_lines(text.trim(), 1);
            vec![Line::styled(
                truncate(&format!("💭 {last}"), width),
                theme.dim().add_modifier(Modifier::ITALIC),
            )]
        }
        CardItem::Tool(tool) => {
            let (mark, style) = match &tool.state {
                ToolState::Running => ("◉ running".to_string(), theme.accent()),
                ToolState::Done {
                    ok: true,
                    duration_ms,
                    ..
                } => (format!("✓ {}s", seconds(*duration_ms)), theme.good()),
                ToolState::Done { ok: false, .. } => ("✗ failed".to_string(), theme.bad()),
            };
            let arguments = preview(&tool.arguments, width);
            let head = format!("🔧 {} ", tool.name);
            let room = width.saturating_sub(display_width(&head) + mark.chars().count() + 2);
            vec![Line::from(vec![
                Span::styled(head, theme.text()),
                Span::styled(truncate(&arguments, room), theme.dim()),
                Span::raw("  "),
                Span::styled(mark, style),
            ])]
        }
        CardItem::Round {
            round,
            answers_seen,
        } => {
            let seen = if answers_seen.is_empty() {
                "no answers yet".to_string()
            } else {
                answers_seen
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            vec![Line::styled(
                truncate(&format!("── round {round} · sees {seen}"), width),
                theme.dim(),
            )]
        }
        CardItem::Answer { label, content } => {
            let mut lines = vec![Line::styled(
                format!("✔ answer {label}"),
                theme.good().add_modifier(Modifier::BOLD),
            )];
            lines.extend(styled(
                preview(content, width.saturating_mul(2)),
                theme.text(),
            ));
            lines
        }
        CardItem::Vote {
            target_label,
            target,
            reason,
        } => styled(
            format!("🗳 vote → {target} ({target_label}): {reason}"),
            theme.agent(index),
        ),
        CardItem::VoteIgnored { target, why } => {
            styled(format!("⊘ vote for {target} ignored: {why}"), theme.warn())
        }
        CardItem::Retry {
            reason,
            delay_ms,
            attempt,
            max_retries,
        } => styled(
            retrying(reason, *delay_ms, *attempt, *max_retries),
            theme.warn(),
        ),
        CardItem::Error(message) => styled(format!("✗ {message}"), theme.bad()),
        CardItem::Notice(text) => styled(text.clone(), theme.dim()),
        CardItem::Snapshot {
            files,
            bytes: size,
            skipped,
        } => {
            let skipped = if *skipped == 0 {
                String::new()
            } else {
                format!(", {skipped} left out")
            };
            styled(
                format!(
                    "📁 workspace saved: {files} files, {}{skipped}",
                    bytes(*size)
                ),
                theme.dim(),
            )
        }
        CardItem::Final { label, body, done } => {
            let mut lines = vec![Line::styled(
                truncate(&format!("🏆 final answer · {label}"), width),
                theme.winner(),
            )];
            // The last partial line waits for its newline only while the answer streams.
            lines.extend(block_lines(
                body,
                cut,
                active && !*done,
                wanted,
                width,
                theme,
            ));
            lines
        }
    }
}

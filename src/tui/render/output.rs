//! An agent's output as display lines: the newest ones built from the last item back (a
//! long history costs nothing to draw), runs of calls to one MCP server folded, each kind
//! of item in its own style. The card shows them; so does the full-output modal.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::format::{bytes, plural, retrying, seconds};
use super::text::{block_lines, floor_char_boundary, last_lines, markdown_lines};
use super::wrap::{display_width, truncate, wrap};
use crate::protocol::AgentStatus;
use crate::protocol::symbols::BLOCKED;
use crate::tui::state::{AgentCard, CardItem, OutputMark, ToolState, preview};
use crate::tui::theme::Theme;

/// How a card's output is drawn: its width, colours and whether reasoning is expanded.
#[derive(Clone, Copy)]
pub struct Paint<'a> {
    pub width: usize,
    pub theme: &'a Theme,
    /// The agent's place in config order, for its colour.
    pub index: usize,
    pub expanded: bool,
    /// Answers in full (a zoomed card, the full output) rather than their first lines.
    pub whole_answers: bool,
}

/// Display lines a collapsed reasoning item may take for its newest thought.
const THOUGHT_LINES: usize = 3;

/// Display lines of an answer a card shows unless it is zoomed.
const ANSWER_LINES: usize = 3;

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
    let calls = if hidden == 1 { "call" } else { "calls" };
    Line::styled(
        format!("   (+{hidden} more {server} {calls}; d shows them)"),
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
        whole_answers,
    } = paint;
    let styled = |text: String, style: Style| -> Vec<Line<'static>> {
        wrap(&text, width)
            .into_iter()
            .map(|line| Line::styled(line, style))
            .collect()
    };
    match item {
        CardItem::Text(block) => {
            // While the text streams, its partial last line is shown as it grows.
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
            // Collapsed: its newest thought (last line), as much of it as fits.
            let text = &text[..floor_char_boundary(text, cut)];
            let thought = last_lines(text.trim(), 1);
            let style = theme.dim().add_modifier(Modifier::ITALIC);
            recent_thought(thought, width, wanted.clamp(1, THOUGHT_LINES))
                .into_iter()
                .map(|line| Line::styled(line, style))
                .collect()
        }
        CardItem::Tool(tool) => {
            let (mark, style) = match &tool.state {
                ToolState::Running => ("◉ running".to_string(), theme.accent()),
                ToolState::Done {
                    ok: true,
                    duration_ms,
                    ..
                } => (format!("✓ {}s", seconds(*duration_ms)), theme.good()),
                ToolState::Done { ok: false, .. } | ToolState::Provider { ok: false, .. } => {
                    ("✗ failed".to_string(), theme.bad())
                }
                ToolState::Provider { ok: true, .. } => ("✓ provider".to_string(), theme.good()),
                ToolState::Blocked { .. } => {
                    return vec![Line::styled(
                        truncate(
                            &format!("{BLOCKED} {} · blocked by planning mode", tool.name),
                            width,
                        ),
                        theme.warn(),
                    )];
                }
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
            lines.extend(answer_body(content, width, whole_answers, theme));
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
                    "📁 workspace saved: {}, {}{skipped}",
                    super::format::plural(usize::try_from(*files).unwrap_or(usize::MAX), "file"),
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
            // Its partial last line settles (inline markdown) once the answer is done.
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

/// `💭 thought` wrapped over at most `rows` lines of `width`; a longer thought keeps its
/// newest words, from the start of a word where one is near, its cut marked `…`.
fn recent_thought(thought: &str, width: usize, rows: usize) -> Vec<String> {
    const MARK: &str = "💭 ";
    // No more than its last `rows * width` characters can show (a character is at most
    // four bytes): a long thought costs no more to draw than a short one.
    let recent = floor_char_boundary(thought, thought.len().saturating_sub(rows * width * 4));
    if recent == 0 {
        let whole = wrap(&format!("{MARK}{thought}"), width);
        if whole.len() <= rows {
            return whole;
        }
    }
    let thought = &thought[recent..];
    let cut_at = |start: usize| wrap(&format!("{MARK}…{}", &thought[start..]), width);
    // The earliest start whose rest fits: fewer words never need more lines.
    let starts: Vec<usize> = thought.char_indices().map(|(at, _)| at).collect();
    let fits = starts
        .get(starts.partition_point(|&start| cut_at(start).len() > rows))
        .copied()
        .unwrap_or(thought.len());
    // From the next word rather than inside one, unless that word is long.
    let inside_word = !thought[..fits].ends_with(char::is_whitespace);
    let start = thought[fits..]
        .find(char::is_whitespace)
        .filter(|&space| inside_word && display_width(&thought[fits..fits + space]) < width / 2)
        .map(|space| thought.len() - thought[fits + space..].trim_start().len())
        .filter(|&start| start < thought.len())
        .unwrap_or(fits);
    let mut lines = cut_at(start);
    lines.truncate(rows);
    lines
        .iter_mut()
        .for_each(|line| *line = truncate(line, width));
    lines
}

/// An answer as markdown: whole when `whole`, else its first [`ANSWER_LINES`] lines and
/// how many more there are.
fn answer_body(content: &str, width: usize, whole: bool, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = markdown_lines(content, width, theme);
    if whole || lines.len() <= ANSWER_LINES {
        return lines;
    }
    let more = lines.len() - ANSWER_LINES;
    lines.truncate(ANSWER_LINES);
    lines.push(Line::styled(
        truncate(&format!("… {}", plural(more, "more line")), width),
        theme.dim(),
    ));
    lines
}

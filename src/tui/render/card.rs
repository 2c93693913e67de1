//! An agent card: a frame titled with the agent, its model, round and status, holding the
//! newest lines of its output that fit (only those are built), and its tokens and time.

use std::borrow::Cow;
use std::cell::Cell;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{BorderType, Widget};

use super::checklist::checklist_line;
use super::format::{duration, status_icon, total_tokens};
use super::output::{Paint, tail_lines};
use super::paint;
use super::wrap::{display_width, truncate};
use crate::protocol::symbols::PERSONA;
use crate::protocol::{
    AgentStatus, Stage, Usage, describe_attachments, fairness_hold_line, folded_attachments,
};
use crate::tui::state::{AgentCard, CardPersona, OutputMark, RoundTimeLeft, preview};
use crate::tui::theme::Theme;

/// The context gauge shows once the window is half full (a card of a model with room to
/// spare stays uncluttered), and turns to a warning at MassGen's compression threshold.
const CONTEXT_SHOWN_PERCENT: u64 = 50;
const CONTEXT_WARN_PERCENT: u64 = 75;

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
    /// The running round against its time limit, if it has one.
    pub round_left: Option<RoundTimeLeft>,
    /// Reasoning in full rather than its last line.
    pub expanded: bool,
    /// The card fills the body: answers show in full.
    pub zoomed: bool,
    /// Scrolled up: the output as it was then, so new output does not move it.
    pub pause: Option<OutputMark>,
    /// The council or debate stage the agent is in (`critique 1`), in the title.
    pub stage: Option<Stage>,
}

impl Widget for CardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let card = self.card;
        let accent = theme.agent(self.index);
        let title = Line::from(vec![
            Span::styled(
                format!(" {} ", status_icon(card.status, card.won(), self.spinner)),
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
            Span::styled(
                self.stage
                    .map_or_else(String::new, |stage| format!(" · {}", stage.label())),
                theme.accent(),
            ),
            Span::raw(" "),
        ]);
        let paused = self.pause.map(|mark| {
            Line::styled(
                format!(" ⏸ {} new ↓ End ", card.new_since(mark)),
                theme.accent(),
            )
        });
        let mut footer_spans = Vec::new();
        if let Some(left) = self.round_left {
            let (text, style) = match left {
                RoundTimeLeft::Left(secs) => (format!(" ⏱ {} left ", duration(secs)), theme.dim()),
                RoundTimeLeft::WrapUp(secs) => {
                    (format!(" ⏱ wrap up {} ", duration(secs)), theme.warn())
                }
                RoundTimeLeft::Blocked => (" ⏱ tools blocked ".to_string(), theme.bad()),
            };
            footer_spans.push(Span::styled(text, style));
        }
        if let Some(gauge) = card
            .context
            .filter(|gauge| gauge.percent() >= CONTEXT_SHOWN_PERCENT)
        {
            let style = if gauge.percent() >= CONTEXT_WARN_PERCENT {
                theme.warn()
            } else {
                theme.dim()
            };
            footer_spans.push(Span::styled(format!(" ctx {}% ", gauge.percent()), style));
        }
        let figures = footer_figures(card.spend.usage, self.elapsed_secs);
        let used: usize = footer_spans.iter().map(|span| span.width()).sum();
        let room = usize::from(area.width.saturating_sub(4)).saturating_sub(used);
        let mut status = status_word(card, false);
        if display_width(&status) + display_width(&figures) + 5 > room {
            status = status_word(card, true);
        }
        footer_spans.push(Span::styled(format!(" {status} · {figures} "), theme.dim()));
        let footer = Line::from(footer_spans).right_aligned();
        let border = BorderType::border_symbols(if card.won() {
            BorderType::Double
        } else {
            BorderType::Rounded
        });
        let border_style = if card.won() {
            theme.winner()
        } else {
            theme.border(self.focused)
        };
        let bottom: Vec<Line<'_>> = paused.into_iter().chain([footer]).collect();
        paint::frame(buf, area, &border, border_style, &[title], &bottom);
        let mut inner = paint::inside(area);
        if !card.attachments.is_empty() && inner.height > 1 {
            let [attached, rest] =
                Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
            attachment_line(card, theme, usize::from(attached.width)).render(attached, buf);
            inner = rest;
        }
        if let Some(persona) = card.persona.as_ref().filter(|_| inner.height > 1) {
            let [line, rest] =
                Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
            persona_line(persona, theme, usize::from(line.width)).render(line, buf);
            inner = rest;
        }
        if let Some(subtask) = card.subtask.as_deref().filter(|_| inner.height > 1) {
            let [owned, rest] =
                Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
            subtask_line(subtask, theme, usize::from(owned.width)).render(owned, buf);
            inner = rest;
        }
        if !card.tasks.is_empty() && inner.height > 1 {
            let [tasks, rest] =
                Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
            task_line(card, theme, usize::from(tasks.width)).render(tasks, buf);
            inner = rest;
        }
        if let Some(result) = card.checklist.as_ref().filter(|_| inner.height > 1) {
            let [checklist, rest] =
                Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
            checklist_line(result, theme, usize::from(checklist.width)).render(checklist, buf);
            inner = rest;
        }
        let height = usize::from(inner.height);
        let wanted = height + self.scroll;
        let paint = Paint {
            width: usize::from(inner.width),
            theme,
            index: self.index,
            expanded: self.expanded,
            whole_answers: self.zoomed,
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
        paint::lines(buf, inner, &lines);
    }
}

/// `📎 photo.png · image · 120 KiB`: the files the agent's question carries; several show
/// their names while they fit, else fold to `📎 3 files · 4.2 MiB`.
fn attachment_line(card: &AgentCard, theme: &Theme, width: usize) -> Line<'static> {
    const CLIP: &str = "📎 ";
    let room = width.saturating_sub(display_width(CLIP));
    let whole = describe_attachments(&card.attachments);
    let text = if card.attachments.len() > 1 && display_width(&whole) > room {
        folded_attachments(&card.attachments)
    } else {
        whole
    };
    Line::from(vec![
        Span::styled(CLIP, theme.accent()),
        Span::styled(truncate(&text, room), theme.dim()),
    ])
}

/// `🎭 speed first`: the persona's short name (else its text), cut to the card's width.
fn persona_line(persona: &CardPersona, theme: &Theme, width: usize) -> Line<'static> {
    let mark = format!("{PERSONA} ");
    let room = width.saturating_sub(display_width(&mark));
    let text = persona.summary.as_deref().unwrap_or(&persona.text);
    Line::from(vec![
        Span::styled(mark, theme.accent()),
        Span::styled(
            truncate(&text.split_whitespace().collect::<Vec<_>>().join(" "), room),
            theme.dim(),
        ),
    ])
}

/// `◆ Build the REST API…`: the agent's subtask in decomposition mode, on one line,
/// cut at the card's width.
fn subtask_line(subtask: &str, theme: &Theme, width: usize) -> Line<'static> {
    const MARK: &str = "◆ ";
    let room = width.saturating_sub(display_width(MARK));
    let text = subtask.split_whitespace().collect::<Vec<_>>().join(" ");
    Line::from(vec![
        Span::styled(MARK, theme.accent()),
        Span::styled(truncate(&text, room), theme.dim()),
    ])
}

/// `▸ 3/7 tasks · Draft the core module`: how far the agent's task plan is, and its current
/// task; once the plan it carried out ended, how it ended (`▸ 1/3 tasks · plan partial:
/// open T002 blocked, T003 pending`).
fn task_line(card: &AgentCard, theme: &Theme, width: usize) -> Line<'static> {
    if let Some(outcome) = &card.plan_outcome {
        let head = format!("▸ {}/{} tasks", outcome.done, outcome.total);
        let (ended, style) = if outcome.is_finished() {
            ("plan completed".to_string(), theme.good())
        } else {
            (
                format!("plan partial: open {}", outcome.open_words(3)),
                theme.warn(),
            )
        };
        let room = width.saturating_sub(display_width(&head) + 3);
        return Line::from(vec![
            Span::styled(head, theme.accent()),
            Span::styled(" · ", theme.dim()),
            Span::styled(truncate(&ended, room), style),
        ]);
    }
    let progress = card.task_tree.progress;
    let head = format!("▸ {}/{} tasks", progress.done, progress.total);
    let current = card
        .task_tree
        .current
        .and_then(|at| card.tasks.get(at))
        .map_or_else(
            || {
                if progress.done == progress.total {
                    "all done".to_string()
                } else {
                    "waiting on blocked tasks".to_string()
                }
            },
            |task| preview(&task.description, width),
        );
    let room = width.saturating_sub(display_width(&head) + 3);
    Line::from(vec![
        Span::styled(head, theme.accent()),
        Span::styled(" · ", theme.dim()),
        Span::styled(truncate(&current, room), theme.text()),
    ])
}

fn status_style(theme: &Theme, card: &AgentCard) -> Style {
    if card.won() {
        return theme.winner();
    }
    if card.held.is_some() || card.stopped.as_deref() == Some("blocked") {
        return theme.warn();
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

/// What the agent is doing, in the card's footer (`short`: a hold in fewer words).
fn status_word(card: &AgentCard, short: bool) -> Cow<'static, str> {
    if card.won() {
        return "winner".into();
    }
    match card.held {
        Some((lead, cap)) if short => return format!("held (lead {lead}/{cap})").into(),
        Some((lead, cap)) => return fairness_hold_line(lead, cap).into(),
        None => {}
    }
    if let Some(status) = &card.stopped {
        return format!("stopped ({status})").into();
    }
    let word = match card.status {
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
    };
    word.into()
}

fn footer_figures(usage: Usage, elapsed_secs: Option<u64>) -> String {
    let time = elapsed_secs.map_or_else(String::new, |secs| format!(" · {}", duration(secs)));
    format!("{} tok{time}", total_tokens(&usage))
}

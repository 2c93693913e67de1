//! What each modal shows, as lines: help, votes, answers, the whole timeline, an agent's
//! full output, and the system status (the others from their own files); and which lines
//! of it are on screen.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::ModalKind;
use super::grid::coordination;
use super::window;
use crate::protocol::AnswerLabel;
use crate::tui::render::{
    Paint, View, display_width, entry_line, markdown_lines, tail_lines, wrap,
};
use crate::tui::state::{CardItem, UiState};
use crate::tui::theme::Theme;

/// The lines a modal shows from line `scroll` on, at most `height` of them, and the furthest
/// it can scroll. The timeline and the coordination table format only the lines on screen,
/// however long the timeline is.
pub fn page(
    kind: ModalKind,
    state: &UiState,
    view: &View,
    theme: &Theme,
    width: usize,
    scroll: usize,
    height: usize,
) -> (Vec<Line<'static>>, usize) {
    let mut lines = match kind {
        ModalKind::Timeline => {
            let total = state.timeline.len();
            let lines = state.timeline[window(total, scroll, height)]
                .iter()
                .map(|entry| entry_line(state, entry, theme, width))
                .collect();
            return (lines, total.saturating_sub(height));
        }
        ModalKind::Coordination => {
            let (lines, total) = coordination(state, theme, width, scroll, height);
            return (lines, total.saturating_sub(height));
        }
        // The listing the app read when the browser's choice changed.
        ModalKind::Files { selected, .. } => {
            return super::files::page(&view.files, selected, theme, width, scroll, height);
        }
        ModalKind::PlanApproval => {
            return super::plans::approval(state, theme, width, scroll, height);
        }
        ModalKind::TaskPlan { source } => {
            return super::tasks::page(state, source, theme, width, scroll, height);
        }
        ModalKind::Question => return super::question::page(state, view, theme, width, height),
        ModalKind::PlanOptions { row } => super::plans::options(view, theme, row),
        ModalKind::PlanSelector { selected } => {
            super::plans::selector(state, view, theme, width, selected)
        }
        ModalKind::Help => help_lines(theme, width),
        ModalKind::Agents => {
            return super::agents::page(view.agents.as_ref(), theme, width, height);
        }
        ModalKind::Votes => votes(state, theme, width),
        ModalKind::Costs => super::costs::lines(state, theme),
        ModalKind::Answers { selected } => answers_view(state, theme, width, selected),
        ModalKind::AgentOutput { agent } => state.agents.get(agent).map_or_else(Vec::new, |card| {
            let paint = Paint {
                width,
                theme,
                index: agent,
                expanded: true,
            };
            tail_lines(card, paint, usize::MAX, None)
        }),
        ModalKind::Status => status(state, theme),
        ModalKind::Servers => super::servers::lines(state, theme, width),
        ModalKind::Turns { selected } => super::turns::lines(state, theme, width, selected),
        ModalKind::Events { turns } => super::events::lines(state, theme, width, turns),
        ModalKind::Tools { agent, selected } => {
            super::grid::tool_detail(state, theme, width, agent, selected)
        }
        ModalKind::Context => super::context::lines(&view.context, state, theme, width),
        ModalKind::Metrics => super::metrics::lines(state, theme, width),
        ModalKind::History => super::history::lines(state, theme, width),
        ModalKind::Override { selected } => super::overrides::lines(state, theme, width, selected),
    };
    let total = lines.len();
    let shown = window(total, scroll, height);
    lines.truncate(shown.end);
    lines.drain(..shown.start);
    (lines, total.saturating_sub(height))
}

pub(super) const KEYS: &[(&str, &str)] = &[
    (
        "Enter",
        "ask the question (while a turn runs: send it to the agents)",
    ),
    ("Alt+Enter, Shift+Enter", "new line in the composer"),
    ("Up / Down", "earlier questions"),
    (
        "Ctrl+C",
        "cancel the running turn (its work is saved), else clear the composer; again within 2 s: quit",
    ),
    (
        "Shift+Tab",
        "plan mode: Normal → Planning → Executing (not during a turn); Executing opens the \
         plan selector",
    ),
    ("A", "agents: all of them, or each one alone in turn"),
    ("R", "refinement on or off (off: each agent answers once)"),
    (
        "P",
        "Planning: depth, human feedback, auto-execute · Executing: choose the plan",
    ),
    ("T", "the focused agent's task plan"),
    (
        "Esc",
        "close the modal, or leave the composer for single keys",
    ),
    ("i  /", "back to the composer (/ starts a command)"),
    ("Tab  ← →  1–9", "focus another agent"),
    ("z", "zoom the focused card (the timeline gives way)"),
    (
        "g",
        "every card at once (side by side, or a grid when each fits 40×8) or the focused one",
    ),
    (
        "f",
        "the final answer in full, or back to the cards (opens when a turn ends)",
    ),
    ("y", "copy the final answer to the clipboard (OSC 52)"),
    ("e", "expand or collapse reasoning"),
    ("p", "scroll the timeline instead of the card (and back)"),
    (
        "PgUp PgDn ↑ ↓  wheel",
        "scroll; scrolling up pauses following, End resumes",
    ),
    ("End", "follow the newest output again"),
    ("?", "this help"),
    ("v", "votes"),
    ("c", "tokens and costs"),
    ("a", "answers"),
    ("o", "the focused agent's full output"),
    ("t", "the whole timeline"),
    ("s", "system status"),
    ("m", "MCP servers: state, tools, failed calls (also /mcp)"),
    (
        "w",
        "files: each agent's workspace, snapshot, peers' work, final (also /workspace)",
    ),
    ("r", "coordination table"),
    ("d", "the focused agent's tool calls in full"),
    ("q", "quit (when no turn runs; in a replay, at any time)"),
    (
        "n  Space",
        "replay --step: the next event (with the streamed text before it)",
    ),
    (
        "Ctrl+T",
        "dark or light colours (MASSGEN_THEME=light to start light)",
    ),
    ("/help /quit /exit /q", "help; quit"),
    ("/cancel", "cancel the running turn"),
    (
        "/clear /reset",
        "forget the conversation (typed twice to confirm); the next question starts afresh",
    ),
    ("/config", "open the config file in its desktop application"),
    (
        "/inspect [N|all]",
        "the session's turns: winner, time, cost, answers, votes, final answer",
    ),
    (
        "/events [N|all]",
        "coordination events of the last N turns (default 1)",
    ),
    (
        "/status /vote /cost /answers",
        "open that view (also /v /c /b)",
    ),
    ("/timeline /table", "open that view (also /t /r)"),
    ("/plan /tasks /single /refine", "the same as P, T, A and R"),
    ("/final /copy", "the same as f and y"),
    (
        "M",
        "metrics: model calls, tokens, time to first token, tool time (also /metrics /m)",
    ),
    ("h", "the conversation so far (also /history)"),
    (
        "Ctrl+O",
        "override: once voting is done, choose the final answer yourself",
    ),
    (
        "Ctrl+P",
        "attach the current directory to each question: off → read → write",
    ),
    (
        "/context",
        "the paths agents may read and write, and how to change them",
    ),
    (
        "/export [N] [path]",
        "a finished turn as Markdown (default .massgen/exports/turn_N.md)",
    ),
    (
        "/agents",
        "add, remove and change agents between turns (type, model, system message); save them as a config",
    ),
    (
        "Ctrl+Z Ctrl+Y Ctrl+W Ctrl+K Ctrl+U",
        "composer: undo, redo, delete the word before, to the line's end, to its start",
    ),
    (
        "mouse",
        "wheel: scroll the pane under the pointer · click: focus a card, select a timeline \
         row; click it again (or Enter) to open its answer or vote · --no-mouse (or \
         MASSGEN_NO_MOUSE=1) keeps the terminal's text selection; Shift+drag selects in \
         most terminals",
    ),
];

/// The keys table, fitted to `width`: each description wraps under itself; narrower than
/// 60 columns, the keys take their own line and the description goes under them.
pub(super) fn help_lines(theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let key_column = KEYS
        .iter()
        .map(|(keys, _)| display_width(keys) + 2)
        .max()
        .unwrap_or(0)
        .min(30)
        .min(width / 3);
    let stacked = width < 60;
    let indent = if stacked { 4 } else { key_column };
    let mut lines = Vec::new();
    for (keys, what) in KEYS {
        let wrapped = wrap(what, width.saturating_sub(indent).max(10));
        if stacked || display_width(keys) + 2 > key_column {
            lines.push(Line::styled((*keys).to_string(), theme.accent()));
            lines.extend(wrapped.into_iter().map(|line| {
                Line::from(vec![
                    Span::raw(" ".repeat(indent)),
                    Span::styled(line, theme.text()),
                ])
            }));
            continue;
        }
        for (row, line) in wrapped.into_iter().enumerate() {
            let left = if row == 0 { *keys } else { "" };
            let pad = key_column - display_width(left);
            lines.push(Line::from(vec![
                Span::styled(format!("{left}{}", " ".repeat(pad)), theme.accent()),
                Span::styled(line, theme.text()),
            ]));
        }
    }
    lines
}

fn votes(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let bars = state.votes.bars();
    if bars.is_empty() {
        return vec![Line::styled(
            "No answers yet, so nothing to vote on.",
            theme.dim(),
        )];
    }
    let most = bars.iter().map(|bar| bar.votes).max().unwrap_or(0).max(1);
    for bar in &bars {
        let index = state.agent_index(&bar.candidate).unwrap_or(0);
        let filled = (30 * bar.votes as usize) / most as usize;
        lines.push(Line::from(vec![
            Span::styled(
                format!("{:<16}", bar.candidate.as_str()),
                theme.agent(index),
            ),
            Span::styled("█".repeat(filled), theme.agent(index)),
            Span::styled(format!(" {}", bar.votes), theme.text()),
            Span::styled(if bar.leader { "  👑 leader" } else { "" }, theme.winner()),
        ]));
    }
    if state.votes.is_tie() {
        lines.push(Line::styled("Tie: config order decides.", theme.warn()));
    }
    lines.push(Line::default());
    if state.votes.votes.is_empty() {
        lines.push(Line::styled("No standing votes.", theme.dim()));
    }
    for (voter, target, reason) in &state.votes.votes {
        let text = format!("{voter} → {target}: {reason}");
        for line in wrap(&text, width) {
            lines.push(Line::styled(
                line,
                theme.agent(state.agent_index(voter).unwrap_or(0)),
            ));
        }
    }
    if let Some(winner) = &state.winner {
        lines.push(Line::default());
        lines.push(Line::styled(format!("🏆 winner: {winner}"), theme.winner()));
    }
    lines
}

/// Every answer of the turn: author index, label, text; in the order given.
pub fn answers(state: &UiState) -> Vec<(usize, &AnswerLabel, &str)> {
    let mut found = Vec::new();
    for (index, card) in state.agents.iter().enumerate() {
        for item in &card.items {
            match item {
                CardItem::Answer { label, content } => found.push((index, label, content.as_str())),
                CardItem::Final {
                    label,
                    body,
                    done: true,
                } => found.push((index, label, body.text.as_str())),
                CardItem::Text(_)
                | CardItem::Reasoning(_)
                | CardItem::Tool(_)
                | CardItem::Round { .. }
                | CardItem::Vote { .. }
                | CardItem::VoteIgnored { .. }
                | CardItem::Retry { .. }
                | CardItem::Error(_)
                | CardItem::Notice(_)
                | CardItem::Snapshot { .. }
                | CardItem::Final { .. } => {}
            }
        }
    }
    found
}

/// Where the winner's latest answer (the one that won) is among `answers`, once there is
/// a winner; its earlier answers were superseded.
pub(super) fn winning_answer(state: &UiState) -> Option<usize> {
    let winner = state.agents.iter().position(|card| card.is_winner)?;
    answers(state)
        .iter()
        .rposition(|(index, _, _)| *index == winner)
}

fn answers_view(
    state: &UiState,
    theme: &Theme,
    width: usize,
    selected: usize,
) -> Vec<Line<'static>> {
    let all = answers(state);
    if all.is_empty() {
        return vec![Line::styled("No answers yet.", theme.dim())];
    }
    let selected = selected.min(all.len() - 1);
    let winning = winning_answer(state);
    let mut tabs = vec![Span::styled("← → ", theme.dim())];
    for (position, (index, label, _)) in all.iter().enumerate() {
        let text = format!(
            " {label}{} ",
            if winning == Some(position) {
                " 🏆"
            } else {
                ""
            }
        );
        let style = if position == selected {
            theme.agent(*index).add_modifier(Modifier::REVERSED)
        } else {
            theme.agent(*index)
        };
        tabs.push(Span::styled(text, style));
    }
    let mut lines = vec![Line::from(tabs), Line::default()];
    let (index, label, content) = &all[selected];
    let author = super::agent_name(state, *index);
    lines.push(Line::styled(
        format!("{label} by {author}"),
        theme.agent(*index).add_modifier(Modifier::BOLD),
    ));
    lines.extend(markdown_lines(content, width, theme));
    lines
}

fn status(state: &UiState, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![
        Line::styled(format!("massgen {}", state.version), theme.accent()),
        Line::styled(
            format!(
                "phase: {:?} · turn {} · {} finished",
                state.phase,
                state.turn,
                state.turns.len()
            ),
            theme.text(),
        ),
        Line::default(),
    ];
    for (index, card) in state.agents.iter().enumerate() {
        lines.push(Line::from(vec![
            Span::styled(
                format!("{:<16}", card.info.id.to_string()),
                theme.agent(index),
            ),
            Span::styled(
                format!(
                    "{} · {} · {:?} · round {} · {}",
                    card.info.backend,
                    card.info.model,
                    card.status,
                    card.round,
                    crate::tui::render::plural(card.answers as usize, "answer")
                ),
                theme.text(),
            ),
        ]));
    }
    if !state.queued_input.is_empty() {
        lines.push(Line::default());
        for queued in &state.queued_input {
            lines.push(Line::styled(
                format!(
                    "queued for the agents: {} ({} delivered)",
                    queued.text,
                    queued.delivered_to.len()
                ),
                theme.accent(),
            ));
        }
    }
    lines
}

//! The help modal: every key (`KEYS`) and slash command (the commands' own table) with what
//! it does, laid out to fit the modal's width.

use ratatui::text::{Line, Span};

use crate::text::{display_width, wrap};
use crate::tui::slash::{SLASH_COMMANDS, help_row};
use crate::tui::theme::Theme;

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
        "S",
        "strategy: vote → council → debate (not during a turn; also /strategy NAME)",
    ),
    (
        "P",
        "Planning: depth, human feedback, auto-execute · Executing: choose the plan",
    ),
    ("T", "the focused agent's task plan"),
    (
        "Esc",
        "close the modal, or leave the composer: single-letter keys work only then",
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
    ("v", "votes (a council turn: its rankings)"),
    (
        "D",
        "debate: each round's critiques and revisions (also /debate)",
    ),
    (
        "C",
        "consensus map: each agent's latest answer and state, vote arrows, leader (also /map)",
    ),
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
    (
        "M",
        "metrics: model calls, tokens, time to first token, tool time (also /metrics /m)",
    ),
    ("h", "the conversation so far (also /history)"),
    (
        "y s a n m",
        "a tool call waiting for approval: approve once, for this session, always for this \
         project (saved to .massgen/settings.local.json), deny, deny with a message \
         (/approvals lists the decisions)",
    ),
    (
        "Ctrl+O",
        "override: once voting is done, choose the final answer yourself",
    ),
    (
        "Ctrl+G",
        "answer now: end refinement; the vote leader presents the best answer so far",
    ),
    (
        "Ctrl+P",
        "attach the current directory to each question: off → read → write",
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
    let rows: Vec<(String, String)> = KEYS
        .iter()
        .map(|(keys, what)| ((*keys).to_string(), (*what).to_string()))
        .chain(SLASH_COMMANDS.iter().map(help_row))
        .collect();
    let key_column = rows
        .iter()
        .map(|(keys, _)| display_width(keys) + 2)
        .max()
        .unwrap_or(0)
        .min(30)
        .min(width / 3);
    let stacked = width < 60;
    let indent = if stacked { 4 } else { key_column };
    let mut lines = Vec::new();
    for (keys, what) in &rows {
        let wrapped = wrap(what, width.saturating_sub(indent).max(10));
        if stacked || display_width(keys) + 2 > key_column {
            lines.push(Line::styled(keys.clone(), theme.accent()));
            lines.extend(wrapped.into_iter().map(|line| {
                Line::from(vec![
                    Span::raw(" ".repeat(indent)),
                    Span::styled(line, theme.text()),
                ])
            }));
            continue;
        }
        for (row, line) in wrapped.into_iter().enumerate() {
            let left = if row == 0 { keys.as_str() } else { "" };
            let pad = key_column - display_width(left);
            lines.push(Line::from(vec![
                Span::styled(format!("{left}{}", " ".repeat(pad)), theme.accent()),
                Span::styled(line, theme.text()),
            ]));
        }
    }
    lines
}

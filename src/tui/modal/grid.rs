//! Two modals laid out as tables: the coordination table (one column per agent, one row
//! per coordination event, MassGen's symbols) and the tool-call detail of one agent.

use std::fmt::{self, Display};

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::chrome::window;
use crate::protocol::ChecklistVerdict;
use crate::protocol::symbols::{
    APPROACH, BLOCKED, CHECKLIST, COMPRESSED, ERROR, EVALUATE, FINAL_ANSWER, HELD, NEW_ANSWER,
    PERSONA, PLANNING_MODE, QUESTION, REFUSED, RELEASED, REPLY, RESTART, RETRY, STOPPED, TIMER,
    UPDATE, VOTE, VOTE_IGNORED, WINNER,
};
use crate::tui::render::format::seconds;
use crate::tui::render::strategy_text::{CHAIRMAN, RANKING};
use crate::tui::render::wrap::{display_width, truncate, wrap};
use crate::tui::state::{CardItem, EntryKind, StrategyEntry, ToolCard, ToolState, UiState};
use crate::tui::theme::Theme;

const EVENT_WIDTH: usize = 6;
/// Lines above the rows: the legend, the agents' names, the question.
const HEAD: usize = 3;

/// The coordination table from line `scroll` on, at most `height` lines, and how many it has:
/// `USER` row with the question, then `E1`, `E2`, … one per coordination event in the
/// column of the agent it concerns; totals at the end. Only the rows on screen are
/// formatted, however long the timeline.
pub fn coordination(
    state: &UiState,
    theme: &Theme,
    width: usize,
    scroll: usize,
    height: usize,
) -> (Vec<Line<'static>>, usize) {
    let columns = state.agents.len().max(1);
    let cell = (width.saturating_sub(EVENT_WIDTH) / columns).max(8);
    let events = || {
        state.timeline.iter().filter_map(|entry| {
            let column = state.agent_index(entry.agent.as_ref()?)?;
            Some((column, cell_text(&entry.kind)?))
        })
    };
    let count = events().count();
    let total = HEAD + count + 2;
    let shown = window(total, scroll, height);
    let mut head = head(state, theme, width, cell);
    let mut rows = events().enumerate().skip(shown.start.saturating_sub(HEAD));
    let lines = shown
        .map(|at| match at.checked_sub(HEAD) {
            None => std::mem::take(&mut head[at]),
            Some(row) if row < count => rows
                .next()
                .map_or_else(Line::default, |(number, (column, text))| {
                    event_row(state, theme, cell, number + 1, column, &text)
                }),
            Some(row) if row == count => Line::default(),
            Some(_) => totals(state, theme, cell),
        })
        .collect();
    (lines, total)
}

fn head(state: &UiState, theme: &Theme, width: usize, cell: usize) -> [Line<'static>; HEAD] {
    let mut names = vec![Span::styled(
        format!("{:<EVENT_WIDTH$}", "Event"),
        theme.dim(),
    )];
    for (index, card) in state.agents.iter().enumerate() {
        names.push(Span::styled(
            pad(&card.info.id.to_string(), cell),
            theme.agent(index).add_modifier(Modifier::BOLD),
        ));
    }
    // Planning symbols join the legend only when a turn used them.
    let planning = if state.timeline.planning {
        format!(
            "  {PLANNING_MODE} planning mode  {BLOCKED} blocked  {QUESTION} question  {REPLY} reply"
        )
    } else {
        String::new()
    };
    [
        Line::styled(
            format!(
                "{NEW_ANSWER} new answer  {VOTE} vote  {RESTART} restart  {VOTE_IGNORED} ignored \
                 vote  {ERROR} error  {WINNER} winner  {FINAL_ANSWER} final answer{planning}"
            ),
            theme.dim(),
        ),
        Line::from(names),
        Line::styled(
            truncate(
                &format!(
                    "{:<EVENT_WIDTH$}{}",
                    "USER",
                    state.turn.question.replace('\n', " ")
                ),
                width,
            ),
            theme.text(),
        ),
    ]
}

fn event_row(
    state: &UiState,
    theme: &Theme,
    cell: usize,
    number: usize,
    column: usize,
    text: &CellText<'_>,
) -> Line<'static> {
    let mut spans = vec![Span::styled(
        format!("{:<EVENT_WIDTH$}", format!("E{number}")),
        theme.dim(),
    )];
    for index in 0..state.agents.len() {
        let content = if index == column {
            text.to_string()
        } else {
            String::new()
        };
        spans.push(Span::styled(pad(&content, cell), theme.agent(index)));
    }
    Line::from(spans)
}

fn totals(state: &UiState, theme: &Theme, cell: usize) -> Line<'static> {
    let mut totals = vec![Span::styled(
        format!("{:<EVENT_WIDTH$}", "Total"),
        theme.dim(),
    )];
    for (index, card) in state.agents.iter().enumerate() {
        let votes = state
            .timeline
            .iter()
            .filter(|entry| {
                entry.agent.as_ref() == Some(&card.info.id)
                    && matches!(entry.kind, EntryKind::Vote { .. })
            })
            .count();
        totals.push(Span::styled(
            pad(
                &format!(
                    "{}, {}",
                    crate::tui::render::format::plural(card.answers as usize, "answer"),
                    crate::tui::render::format::plural(votes, "vote")
                ),
                cell,
            ),
            theme.agent(index),
        ));
    }
    Line::from(totals)
}

/// An event's cell: a symbol, a word after it and what follows; formatted only when on
/// screen.
struct CellText<'a>(&'static str, &'static str, Option<&'a dyn Display>);

impl Display for CellText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let CellText(symbol, word, detail) = self;
        match detail {
            Some(detail) => write!(f, "{symbol}{word} {detail}"),
            None => write!(f, "{symbol}{word}"),
        }
    }
}

fn cell_text(kind: &EntryKind) -> Option<CellText<'_>> {
    Some(match kind {
        EntryKind::Answer { label, .. } => CellText(NEW_ANSWER, "", Some(label)),
        EntryKind::Vote { target_label, .. } => CellText(VOTE, "", Some(target_label)),
        EntryKind::VoteIgnored { .. } => CellText(VOTE_IGNORED, " ignored", None),
        EntryKind::Checklist { result } => match result.verdict {
            ChecklistVerdict::Vote => CellText(CHECKLIST, " vote", None),
            ChecklistVerdict::NewAnswer => CellText(CHECKLIST, " iterate", None),
        },
        EntryKind::Approach { .. } => CellText(APPROACH, " approach", None),
        EntryKind::Restarted { round, .. } => CellText(RESTART, " round", Some(round)),
        EntryKind::Injected { .. } => CellText(UPDATE, " update", None),
        EntryKind::FairnessHold { .. } => CellText(HELD, " held", None),
        EntryKind::FairnessReleased => CellText(RELEASED, " released", None),
        EntryKind::RoundTimeLimit { .. } => CellText(TIMER, " time limit", None),
        EntryKind::Compressed { .. } => CellText(COMPRESSED, " compressed", None),
        EntryKind::PostEvaluation { .. } => CellText(EVALUATE, " check", None),
        EntryKind::OrchestrationRestart { attempt, .. } => {
            CellText(RESTART, " attempt", Some(attempt))
        }
        EntryKind::Error { .. } | EntryKind::Killed { .. } => CellText(ERROR, " error", None),
        EntryKind::Winner { .. } => CellText(WINNER, " winner", None),
        EntryKind::Presenting { label, .. } => CellText(FINAL_ANSWER, "", Some(label)),
        EntryKind::Overridden { label, .. } => CellText("👤", " override", Some(label)),
        EntryKind::Enforcement { attempt, .. } => CellText(RETRY, " attempt", Some(attempt)),
        EntryKind::Retrying { .. } => CellText(RETRY, " retry", None),
        EntryKind::ToolRefused { .. } => CellText(REFUSED, " refused", None),
        EntryKind::PlanningMode {
            irreversible: true, ..
        } => CellText(PLANNING_MODE, " irreversible", None),
        EntryKind::PlanningMode {
            irreversible: false,
            ..
        } => CellText(PLANNING_MODE, " allowed", None),
        EntryKind::ToolBlocked { tool } => CellText(BLOCKED, "", Some(tool)),
        EntryKind::Persona { .. } => CellText(PERSONA, " persona", None),
        EntryKind::Stopped { status, .. } => CellText(STOPPED, " stopped", Some(status)),
        EntryKind::QuestionAsked { .. } => CellText(QUESTION, " asks", None),
        EntryKind::QuestionAnswered { .. } => CellText(REPLY, " reply", None),
        EntryKind::Strategy(StrategyEntry::Ballot { .. }) => CellText(RANKING, " ranked", None),
        EntryKind::Strategy(StrategyEntry::RankingMissing { .. }) => {
            CellText(ERROR, " no ranking", None)
        }
        EntryKind::Strategy(StrategyEntry::Aggregate { .. }) => CellText(RANKING, " totals", None),
        EntryKind::Strategy(StrategyEntry::ChairmanChosen { .. }) => {
            CellText(CHAIRMAN, " chairman", None)
        }
        EntryKind::QuestionClosed { .. }
        | EntryKind::Plan { .. }
        | EntryKind::Subtasks { .. }
        | EntryKind::Criteria { .. } => return None,
        EntryKind::TurnStarted { .. }
        | EntryKind::FinalDone { .. }
        | EntryKind::Timeout { .. }
        | EntryKind::Cancelled
        | EntryKind::AnswerNow { .. }
        | EntryKind::HumanInput { .. }
        | EntryKind::Warning { .. }
        | EntryKind::TurnFinished { .. }
        | EntryKind::ToolCall { .. } => return None,
    })
}

fn pad(text: &str, width: usize) -> String {
    let cut = truncate(text, width.saturating_sub(1));
    let used = display_width(&cut);
    format!("{cut}{}", " ".repeat(width.saturating_sub(used)))
}

/// The agent's tool calls.
pub fn tool_calls(state: &UiState, agent: usize) -> Vec<&ToolCard> {
    state.agents.get(agent).map_or_else(Vec::new, |card| {
        card.items.iter().filter_map(CardItem::tool).collect()
    })
}

/// One tool call in full: its name, arguments (pretty JSON when they are JSON) and result.
pub fn tool_detail(
    state: &UiState,
    theme: &Theme,
    width: usize,
    agent: usize,
    selected: usize,
) -> Vec<Line<'static>> {
    let calls = tool_calls(state, agent);
    if calls.is_empty() {
        return vec![Line::styled("No tool calls yet.", theme.dim())];
    }
    let selected = selected.min(calls.len() - 1);
    let tool = calls[selected];
    let mut lines = vec![Line::styled(
        format!(
            "← → call {} of {}: {}",
            selected + 1,
            calls.len(),
            tool.name
        ),
        theme.accent(),
    )];
    lines.push(Line::default());
    lines.push(Line::styled(
        "Arguments",
        theme.dim().add_modifier(Modifier::BOLD),
    ));
    let arguments = serde_json::from_str::<serde_json::Value>(&tool.arguments)
        .ok()
        .and_then(|value| serde_json::to_string_pretty(&value).ok())
        .unwrap_or_else(|| tool.arguments.clone());
    lines.extend(
        wrap(&arguments, width)
            .into_iter()
            .map(|line| Line::styled(line, theme.text())),
    );
    lines.push(Line::default());
    match &tool.state {
        ToolState::Running => lines.push(Line::styled("◉ running…", theme.accent())),
        ToolState::Blocked { message } => {
            lines.push(Line::styled(
                format!("{BLOCKED} blocked by planning mode: it did not run"),
                theme.warn(),
            ));
            lines.extend(
                wrap(message, width)
                    .into_iter()
                    .map(|line| Line::styled(line, theme.text())),
            );
        }
        ToolState::Provider { ok, output } => {
            let (head, style) = if *ok {
                ("Result ✓ (run by the provider)", theme.good())
            } else {
                ("Error ✗ (run by the provider)", theme.bad())
            };
            lines.push(Line::styled(head, style));
            lines.extend(
                wrap(output, width)
                    .into_iter()
                    .map(|line| Line::styled(line, theme.text())),
            );
        }
        ToolState::Done {
            ok,
            output,
            duration_ms,
        } => {
            let (head, style) = if *ok {
                (
                    format!("Result ✓ in {} s", seconds(*duration_ms)),
                    theme.good(),
                )
            } else {
                (
                    format!("Error ✗ after {} s", seconds(*duration_ms)),
                    theme.bad(),
                )
            };
            lines.push(Line::styled(head, style));
            lines.extend(
                wrap(output, width)
                    .into_iter()
                    .map(|line| Line::styled(line, theme.text())),
            );
        }
    }
    lines
}

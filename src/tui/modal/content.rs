//! What each modal shows, as lines: votes, answers, the whole timeline, an agent's
//! full output, and the system status (the others from their own files); and which lines
//! of it are on screen.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::chrome::window;
use super::grid::coordination;
use crate::protocol::symbols::STOPPED;
use crate::protocol::{AgentId, AnswerLabel, ChecklistResult, ChecklistVerdict};
use crate::tui::choices::NextQuestion;
use crate::tui::render::checklist::checklist_line;
use crate::tui::render::format::plural;
use crate::tui::render::output::{Paint, tail_lines};
use crate::tui::render::text::markdown_lines;
use crate::tui::render::timeline::entry_line;
use crate::tui::render::wrap::{display_width, wrap};
use crate::tui::state::{CardItem, UiState};
use crate::tui::theme::Theme;
use crate::tui::view::{Modal, ModalKind, View};

/// The lines `modal` shows from the line it is scrolled to on, at most `height` of them,
/// and the furthest it can scroll. The timeline and the coordination table format only the
/// lines on screen, however long the timeline is.
pub fn page(
    modal: Modal,
    state: &UiState,
    view: &View,
    next: &NextQuestion,
    theme: &Theme,
    width: usize,
    height: usize,
) -> (Vec<Line<'static>>, usize) {
    let Modal { kind, scroll } = modal;
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
            return super::files::page(&view.modals.files, selected, theme, width, scroll, height);
        }
        ModalKind::PlanApproval => {
            return super::plans::approval(state, theme, width, scroll, height);
        }
        ModalKind::TaskPlan { source } => {
            return super::tasks::page(state, source, theme, width, scroll, height);
        }
        ModalKind::Question => return super::question::page(state, view, theme, width, height),
        ModalKind::Approval => {
            return super::approval::page(state, view, theme, width, scroll, height);
        }
        ModalKind::Approvals => super::approvals::lines(state, theme, width),
        ModalKind::PlanOptions { row } => super::plans::options(&next.choices, theme, row),
        ModalKind::PlanSelector { selected } => {
            super::plans::selector(state, view, theme, width, selected)
        }
        ModalKind::Help => super::help::help_lines(theme, width),
        ModalKind::Agents => {
            return super::agents::page(view.modals.agents.as_ref(), theme, width, height);
        }
        ModalKind::Votes => votes(state, theme, width),
        ModalKind::ConsensusMap => super::consensus::lines(state, theme, width),
        ModalKind::Debate => super::debate::lines(state, theme, width),
        ModalKind::Costs => super::costs::lines(state, theme),
        ModalKind::Answers { selected } => answers_view(state, theme, width, selected),
        ModalKind::AgentOutput { agent } => state.agents.get(agent).map_or_else(Vec::new, |card| {
            let paint = Paint {
                width,
                theme,
                index: agent,
                expanded: true,
                whole_answers: true,
            };
            tail_lines(card, paint, usize::MAX, None)
        }),
        ModalKind::Status => status(state, theme),
        ModalKind::Servers => super::servers::lines(state, theme, width),
        ModalKind::Skills => super::skills::lines(state, theme, width),
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

fn votes(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    if crate::tui::render::rankings::shown(state) {
        return crate::tui::render::rankings::lines(state, theme, width);
    }
    let mut lines = Vec::new();
    let bars = state.votes.bars();
    if bars.is_empty() {
        return vec![Line::styled(
            "No answers yet, so nothing to vote on.",
            theme.dim(),
        )];
    }
    let most = bars.iter().map(|bar| bar.votes).max().unwrap_or(0).max(1);
    let leader = state.votes.leader().filter(|leader| !leader.tied);
    for bar in &bars {
        let leads = leader
            .as_ref()
            .is_some_and(|leader| leader.agent == bar.candidate);
        let index = state.agent_index(&bar.candidate).unwrap_or(0);
        let filled = (30 * bar.votes as usize) / most as usize;
        lines.push(Line::from(vec![
            Span::styled(
                format!("{:<16}", bar.candidate.as_str()),
                theme.agent(index),
            ),
            Span::styled("█".repeat(filled), theme.agent(index)),
            Span::styled(format!(" {}", bar.votes), theme.text()),
            Span::styled(if leads { "  👑 leader" } else { "" }, theme.winner()),
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
        lines.extend(voter_checklist(state, voter, theme, width));
    }
    // Decomposition mode: a `stop` takes the vote's slot but backs nobody.
    for card in &state.agents {
        if let Some(status) = &card.stopped {
            lines.push(Line::styled(
                format!("{STOPPED} {} stopped ({status}): no vote", card.info.id),
                theme.dim(),
            ));
        }
    }
    lines.extend(
        state
            .turn
            .criteria
            .as_ref()
            .map(|text| Line::styled(text.clone(), theme.dim())),
    );
    sent_back(&mut lines, state, theme, width);
    if let Some(winner) = &state.turn.winner {
        lines.push(Line::default());
        lines.push(Line::styled(format!("🏆 winner: {winner}"), theme.winner()));
    }
    lines
}

/// The checklist that let `voter` vote, under its vote.
fn voter_checklist(
    state: &UiState,
    voter: &AgentId,
    theme: &Theme,
    width: usize,
) -> Option<Line<'static>> {
    let card = &state.agents[state.agent_index(voter)?];
    let result = card.checklist.as_ref()?;
    let mut line = checklist_line(result, theme, width.saturating_sub(2));
    line.spans.insert(0, Span::raw("  "));
    Some(line)
}

/// The agents whose checklist sent them back to improve the answer rather than vote.
fn sent_back(lines: &mut Vec<Line<'static>>, state: &UiState, theme: &Theme, width: usize) {
    let back: Vec<(usize, &ChecklistResult)> = state
        .agents
        .iter()
        .enumerate()
        .filter_map(|(index, card)| Some((index, card.checklist.as_ref()?)))
        .filter(|(_, result)| result.verdict == ChecklistVerdict::NewAnswer)
        .collect();
    if back.is_empty() {
        return;
    }
    lines.push(Line::default());
    lines.push(Line::styled("Sent back by their checklist:", theme.dim()));
    for (index, result) in back {
        let name = state.agents[index].info.id.to_string();
        let room = width.saturating_sub(display_width(&name) + 3);
        let mut line = checklist_line(result, theme, room);
        line.spans.splice(
            0..0,
            [
                Span::raw("  "),
                Span::styled(name, theme.agent(index)),
                Span::raw(" "),
            ],
        );
        lines.push(line);
    }
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

/// Where the answer the turn chose is among `answers`, once there is a winner: the one the
/// user picked (an override's label), else the winner's newest answer, the one the votes
/// were for (its earlier answers were superseded). Never its final presentation, which
/// restates it.
pub(super) fn winning_answer(state: &UiState) -> Option<usize> {
    let winner = state.agents.iter().position(|card| card.is_winner)?;
    let all = answers(state);
    let picked = state
        .final_answer()
        .map(|presented| presented.label)
        .filter(|label| !label.is_final_presentation());
    if let Some(picked) = picked
        && let Some(position) = all
            .iter()
            .position(|(index, label, _)| *index == winner && *label == picked)
    {
        return Some(position);
    }
    all.iter()
        .rposition(|(index, label, _)| *index == winner && !label.is_final_presentation())
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
    let author = super::chrome::agent_name(state, *index);
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
                state.turn.phase,
                state.turn.number,
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
                    plural(card.answers as usize, "answer")
                ),
                theme.text(),
            ),
        ]));
    }
    if !state.startup_warnings.is_empty() {
        lines.push(Line::default());
        lines.push(Line::styled(
            format!(
                "{} when the run started:",
                plural(state.startup_warnings.len(), "warning")
            ),
            theme.warn(),
        ));
        for warning in &state.startup_warnings {
            lines.push(Line::styled(format!("⚠ {warning}"), theme.warn()));
        }
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

//! `/inspect`: the session's turns, one line each (outcome, winner, duration, tokens, cost),
//! and the selected one in detail: its question, each agent's answers (🏆 on the one the
//! turn chose, where the view opens), the votes with their reasons — those that counted,
//! then apart those a newer answer reset — the final answer and the cost per agent. Live
//! and resumed turns alike.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

use super::chrome::frame_for;
use super::costs::{usage_header, usage_row};
use crate::protocol::{AgentId, TurnOutcome};
use crate::tui::render::format::{cost, seconds};
use crate::tui::render::text::markdown_lines;
use crate::tui::render::wrap::{truncate, wrap};
use crate::tui::state::{TurnRecord, UiState, VoteGroup};
use crate::tui::theme::Theme;
use crate::tui::view::ModalKind;

pub fn lines(state: &UiState, theme: &Theme, width: usize, selected: usize) -> Vec<Line<'static>> {
    page(state, theme, width, selected).0
}

/// How far down `/inspect` opens on turn `selected` on a `screen` this size: on the answer
/// the turn chose.
pub fn inspect_scroll(state: &UiState, theme: &Theme, screen: Rect, selected: usize) -> usize {
    let kind = ModalKind::Turns { selected };
    let inner = Block::new()
        .borders(Borders::ALL)
        .inner(frame_for(kind, screen, Rect::default()));
    opening_scroll(
        state,
        theme,
        usize::from(inner.width),
        usize::from(inner.height),
        selected,
    )
}

/// How far down the view opens on turn `selected` in a `width` × `height` frame: at the
/// top when the chosen answer's first lines show there, else with it at the top.
fn opening_scroll(
    state: &UiState,
    theme: &Theme,
    width: usize,
    height: usize,
    selected: usize,
) -> usize {
    match page(state, theme, width, selected).1 {
        Some(chosen) if chosen + SHOWN_BELOW_IT >= height => chosen,
        Some(_) | None => 0,
    }
}

/// Lines of the chosen answer that must show below its heading for the view to open at
/// the top.
const SHOWN_BELOW_IT: usize = 4;

/// The view's lines, and where the chosen answer's heading is among them.
fn page(
    state: &UiState,
    theme: &Theme,
    width: usize,
    selected: usize,
) -> (Vec<Line<'static>>, Option<usize>) {
    if state.turns.is_empty() {
        return (
            vec![Line::styled("No finished turn yet.", theme.dim())],
            None,
        );
    }
    let selected = selected.min(state.turns.len() - 1);
    let mut lines = vec![Line::styled("← → choose a turn", theme.dim())];
    for (index, turn) in state.turns.iter().enumerate() {
        let text = format!(
            "turn {:<3} {:<9} {:>6} s {:>8} tok {:>10}  {}  {}",
            turn.turn,
            outcome_word(turn.outcome),
            seconds(turn.duration_ms),
            turn.spend.usage.total(),
            cost(&turn.spend),
            turn.winner
                .as_ref()
                .map(|winner| format!("won by {winner}"))
                .unwrap_or_default(),
            turn.question.replace('\n', " ")
        );
        let style = if index == selected {
            theme.selected()
        } else {
            theme.text()
        };
        lines.push(Line::styled(truncate(&text, width), style));
    }
    lines.push(Line::default());
    let detail = Detail {
        state,
        theme,
        width,
    };
    let chosen = detail.lines(&mut lines, &state.turns[selected]);
    (lines, chosen)
}

fn outcome_word(outcome: TurnOutcome) -> &'static str {
    match outcome {
        TurnOutcome::Completed => "done",
        TurnOutcome::TimedOut => "timed out",
        TurnOutcome::Cancelled => "cancelled",
        TurnOutcome::Failed => "failed",
    }
}

/// One turn in full.
struct Detail<'a> {
    state: &'a UiState,
    theme: &'a Theme,
    width: usize,
}

impl Detail<'_> {
    /// The turn in full after `lines`; where the chosen answer's heading went.
    fn lines(&self, lines: &mut Vec<Line<'static>>, turn: &TurnRecord) -> Option<usize> {
        let winner = turn
            .winner
            .as_ref()
            .map(|winner| format!(" · won by {winner}"))
            .unwrap_or_default();
        lines.push(Line::styled(
            format!(
                "Turn {} · {}{winner} · {} s",
                turn.turn,
                outcome_word(turn.outcome),
                seconds(turn.duration_ms)
            ),
            self.theme.accent().add_modifier(Modifier::BOLD),
        ));
        self.block(lines, &turn.question, self.theme.text());
        self.personas(lines, turn);
        let chosen = self.answers(lines, turn);
        self.votes(lines, turn);
        lines.push(self.heading("Final answer"));
        match &turn.final_answer {
            Some(answer) => {
                lines.push(Line::styled(
                    format!("{} by {}", answer.label, answer.agent),
                    self.agent_style(&answer.agent),
                ));
                self.markdown(lines, &answer.content);
            }
            None => lines.push(Line::styled("none was presented", self.theme.dim())),
        }
        self.costs(lines, turn);
        chosen
    }

    /// Every answer, 🏆 on the one the turn chose; where that one's heading went.
    fn answers(&self, lines: &mut Vec<Line<'static>>, turn: &TurnRecord) -> Option<usize> {
        lines.push(self.heading("Answers"));
        let chosen = turn.chosen_answer();
        let mut at = None;
        let mut any = false;
        for agent in &turn.agents {
            for (label, content) in &agent.answers {
                any = true;
                let trophy = if at.is_none() && chosen == Some((&agent.id, label)) {
                    at = Some(lines.len());
                    " 🏆"
                } else {
                    ""
                };
                lines.push(Line::styled(
                    format!("{} · {label}{trophy}", agent.id),
                    self.agent_style(&agent.id),
                ));
                self.markdown(lines, content);
            }
        }
        if !any {
            lines.push(Line::styled("no answers", self.theme.dim()));
        }
        at
    }

    /// The votes that counted, then apart and dimmed those that did not: reset by a newer
    /// answer, or void, each saying why.
    fn votes(&self, lines: &mut Vec<Line<'static>>, turn: &TurnRecord) {
        let groups: Vec<_> = VoteGroup::ALL
            .into_iter()
            .map(|group| (group, turn.votes_in(group)))
            .filter(|(_, votes)| !votes.is_empty())
            .collect();
        if groups.is_empty() {
            lines.push(self.heading("Votes"));
            lines.push(Line::styled("no votes", self.theme.dim()));
            lines.push(Line::default());
        }
        for (group, votes) in groups {
            lines.push(self.heading(&format!("{} · {}", group.title(), votes.len())));
            for (voter, vote) in votes {
                let text = format!("{voter} {}", vote.text());
                let style = match group {
                    VoteGroup::Counted | VoteGroup::Standing => self.agent_style(voter),
                    VoteGroup::Reset | VoteGroup::Void => self.theme.dim(),
                };
                lines.extend(
                    wrap(&text, self.width)
                        .into_iter()
                        .map(|line| Line::styled(line, style)),
                );
            }
            lines.push(Line::default());
        }
    }

    /// Each agent's generated persona in full, when the turn had any.
    fn personas(&self, lines: &mut Vec<Line<'static>>, turn: &TurnRecord) {
        if turn.agents.iter().all(|agent| agent.persona.is_none()) {
            return;
        }
        lines.push(self.heading("Personas"));
        for agent in &turn.agents {
            if let Some(persona) = &agent.persona {
                lines.push(Line::styled(
                    agent.id.to_string(),
                    self.agent_style(&agent.id),
                ));
                self.block(lines, persona, self.theme.text());
            }
        }
    }

    fn costs(&self, lines: &mut Vec<Line<'static>>, turn: &TurnRecord) {
        lines.push(self.heading("Cost"));
        lines.push(Line::styled(usage_header("agent"), self.theme.dim()));
        for agent in &turn.agents {
            lines.push(Line::styled(
                usage_row(agent.id.as_str(), &agent.spend),
                self.agent_style(&agent.id),
            ));
        }
        lines.push(Line::styled(
            usage_row("turn total", &turn.spend),
            self.theme.text().add_modifier(Modifier::BOLD),
        ));
    }

    fn heading(&self, title: &str) -> Line<'static> {
        Line::styled(
            title.to_string(),
            self.theme.dim().add_modifier(Modifier::BOLD),
        )
    }

    /// `text` wrapped, indented by two, followed by a blank line.
    fn block(&self, lines: &mut Vec<Line<'static>>, text: &str, style: Style) {
        for line in wrap(text, self.width.saturating_sub(2)) {
            lines.push(Line::styled(format!("  {line}"), style));
        }
        lines.push(Line::default());
    }

    /// An answer as markdown, indented by two, followed by a blank line.
    fn markdown(&self, lines: &mut Vec<Line<'static>>, text: &str) {
        for mut line in markdown_lines(text, self.width.saturating_sub(2), self.theme) {
            line.spans.insert(0, Span::raw("  "));
            lines.push(line);
        }
        lines.push(Line::default());
    }

    fn agent_style(&self, agent: &AgentId) -> Style {
        self.theme.agent(self.state.agent_index(agent).unwrap_or(0))
    }
}

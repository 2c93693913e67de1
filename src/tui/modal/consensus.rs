//! The consensus map (`C`, `/map`): one row per agent with its latest answer's label and
//! opening words and what it is doing, the standing votes as arrows folded by the answer
//! they back, the leader (or the winner once chosen), and who is working, waiting, done or
//! failed (a decomposition agent's `stop` is its own word, never a vote). Every count is
//! the votes view's: the tally's bars and `VoteTally::leader`.

use ratatui::text::{Line, Span};

use crate::protocol::{AgentId, AgentStatus, WinnerBasis};
use crate::text::{display_width, pad_to, plural, truncate, wrap};
use crate::tui::state::{AgentCard, CardItem, UiState};
use crate::tui::theme::Theme;

/// Where an agent stands in the turn, as the map groups it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Standing {
    Working,
    Waiting,
    Done,
    Failed,
}

const GROUPS: [(Standing, &str); 4] = [
    (Standing::Working, "working"),
    (Standing::Waiting, "waiting"),
    (Standing::Done, "done"),
    (Standing::Failed, "failed"),
];

/// Narrower than this, an agent's excerpt goes on a line of its own.
const EXCERPT_MIN: usize = 16;

pub(super) fn lines(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    if state.agents.is_empty() {
        return vec![Line::styled("No agents yet.", theme.dim())];
    }
    let mut lines = vec![headline(state, theme), Line::default()];
    lines.extend(nodes(state, theme, width));
    lines.push(Line::default());
    lines.extend(arrows(state, theme, width));
    lines.push(Line::default());
    lines.extend(groups(state, theme, width));
    lines
}

/// The winner once chosen, else the leader by the votes view's count, else how far the
/// answers are.
fn headline(state: &UiState, theme: &Theme) -> Line<'static> {
    if let Some(winner) = &state.turn.winner {
        let without_votes = match state.votes.final_basis {
            Some(WinnerBasis::Presenter) => Some("presents: it integrates every subtask"),
            Some(WinnerBasis::FirstAnswer) => Some("wins without votes: the first answer"),
            _ => None,
        };
        if let Some(how) = without_votes {
            return Line::styled(format!("🏆 {winner} {how}"), theme.winner());
        }
        let votes = state
            .votes
            .bars()
            .iter()
            .find(|bar| &bar.candidate == winner)
            .map_or(0, |bar| bar.votes);
        return Line::styled(
            format!(
                "🏆 {winner} wins with {}",
                plural(usize::try_from(votes).unwrap_or(0), "vote")
            ),
            theme.winner(),
        );
    }
    if let Some(leader) = state.votes.leader() {
        let votes = plural(usize::try_from(leader.votes).unwrap_or(0), "vote");
        let tie = if leader.tied {
            " (a tie: config order puts it first)"
        } else {
            ""
        };
        return Line::styled(
            format!("👑 {} leads with {votes}{tie}", leader.agent),
            theme.winner(),
        );
    }
    let answered = state.agents.iter().filter(|card| card.answers > 0).count();
    let text = match answered {
        0 => "No answers yet.".to_string(),
        count => format!(
            "{} of {} in, no votes yet.",
            plural(count, "answer"),
            state.agents.len()
        ),
    };
    Line::styled(text, theme.dim())
}

/// One row per agent: marker, name, latest answer's label, what it is doing, and the
/// answer's opening words (under the row when the frame is narrow).
fn nodes(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let leader = state.votes.leader().map(|leader| leader.agent);
    let rows: Vec<(usize, &AgentCard, String, String, String)> = state
        .agents
        .iter()
        .enumerate()
        .map(|(index, card)| {
            let (label, excerpt) = latest_answer(card);
            (index, card, label, doing(state, card), excerpt)
        })
        .collect();
    let name_width = column(rows.iter().map(|row| row.1.info.id.as_str()));
    let label_width = column(rows.iter().map(|row| row.2.as_str()));
    let doing_width = column(rows.iter().map(|row| row.3.as_str()));
    let used = 3 + name_width + label_width + doing_width;
    let mut lines = Vec::new();
    for (index, card, label, doing, excerpt) in rows {
        let marker = match () {
            () if card.is_winner => "🏆 ",
            () if state.turn.winner.is_none() && leader.as_ref() == Some(&card.info.id) => "👑 ",
            () => "•  ",
        };
        let mut spans = vec![
            Span::styled(marker, theme.winner()),
            Span::styled(
                pad_to(card.info.id.as_str(), name_width),
                theme.agent(index),
            ),
            Span::styled(pad_to(&label, label_width), theme.accent()),
            Span::styled(pad_to(&doing, doing_width), style_of(state, card, theme)),
        ];
        let room = width.saturating_sub(used);
        if excerpt.is_empty() {
            lines.push(Line::from(spans));
        } else if room >= EXCERPT_MIN {
            spans.push(Span::styled(truncate(&excerpt, room), theme.dim()));
            lines.push(Line::from(spans));
        } else {
            lines.push(Line::from(spans));
            lines.push(Line::styled(
                format!("   {}", truncate(&excerpt, width.saturating_sub(3))),
                theme.dim(),
            ));
        }
    }
    lines
}

/// The widest of `cells`, and two columns between.
fn column<'a>(cells: impl Iterator<Item = &'a str>) -> usize {
    cells.map(display_width).max().unwrap_or(0) + 2
}

/// The label of the agent's latest answer and its first line of prose (past a heading);
/// the label alone
/// (from the count) when its text is no longer kept.
fn latest_answer(card: &AgentCard) -> (String, String) {
    let latest = card.items.iter().rev().find_map(|item| match item {
        CardItem::Answer { label, content } => Some((label.to_string(), content.as_str())),
        _ => None,
    });
    match latest {
        Some((label, content)) => {
            let words = |line: &&str| !line.trim().is_empty();
            let prose = content
                .lines()
                .filter(words)
                .find(|line| !line.trim_start().starts_with('#'));
            let opening = prose
                .or_else(|| content.lines().find(words))
                .unwrap_or_default()
                .trim_start_matches(['#', ' ', '-', '*', '>'])
                .trim();
            (label, opening.to_string())
        }
        None if card.answers > 0 => (
            crate::protocol::AnswerLabel::answer(&card.info.anon_id, card.answers as usize)
                .to_string(),
            String::new(),
        ),
        None => ("—".to_string(), String::new()),
    }
}

/// The agent's standing vote, from the tally the votes view draws.
fn vote_of<'a>(state: &'a UiState, agent: &AgentId) -> Option<&'a AgentId> {
    state
        .votes
        .votes
        .iter()
        .find(|(voter, _, _)| voter == agent)
        .map(|(_, target, _)| target)
}

/// What the agent is doing, in a word or two; a vote as its arrow.
fn doing(state: &UiState, card: &AgentCard) -> String {
    if let Some(target) = vote_of(state, &card.info.id) {
        return format!("voted → {target}");
    }
    if let Some((lead, cap)) = card.held {
        return format!("held (lead {lead}/{cap})");
    }
    if let Some(status) = &card.stopped {
        return format!("stopped ({status})");
    }
    match card.status {
        AgentStatus::Waiting => "waiting",
        AgentStatus::Thinking | AgentStatus::Streaming | AgentStatus::Tool => "working",
        AgentStatus::Restarting => "restarting",
        AgentStatus::Answered => "answered",
        AgentStatus::Voted => "vote reset",
        AgentStatus::Presenting => "presenting",
        AgentStatus::Done => "done",
        AgentStatus::Error => "failed",
        AgentStatus::Cancelled => "cancelled",
        AgentStatus::TimedOut => "timed out",
    }
    .to_string()
}

/// A standing vote is done; a vote a new answer reset waits for the restart.
fn standing(state: &UiState, card: &AgentCard) -> Standing {
    if vote_of(state, &card.info.id).is_some() {
        return Standing::Done;
    }
    if card.held.is_some() {
        return Standing::Waiting;
    }
    // A blocked agent waits on its peers' work; a complete one is done until woken.
    match card.stopped.as_deref() {
        Some("blocked") => return Standing::Waiting,
        Some(_) => return Standing::Done,
        None => {}
    }
    match card.status {
        AgentStatus::Thinking
        | AgentStatus::Streaming
        | AgentStatus::Tool
        | AgentStatus::Restarting
        | AgentStatus::Presenting => Standing::Working,
        AgentStatus::Waiting | AgentStatus::Answered | AgentStatus::Voted => Standing::Waiting,
        AgentStatus::Done => Standing::Done,
        AgentStatus::Error | AgentStatus::Cancelled | AgentStatus::TimedOut => Standing::Failed,
    }
}

fn style_of(state: &UiState, card: &AgentCard, theme: &Theme) -> ratatui::style::Style {
    match standing(state, card) {
        Standing::Working => theme.accent(),
        Standing::Waiting => theme.dim(),
        Standing::Done => theme.good(),
        Standing::Failed => theme.bad(),
    }
}

/// The standing votes, one line per answer they back: `critic, scholar → scout (2)`,
/// most votes first (config order on a tie), so eight voters stay eight names on a
/// few lines.
fn arrows(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let mut lines = vec![Line::styled("Votes", theme.text())];
    let mut bars = state.votes.bars();
    bars.sort_by_key(|bar| std::cmp::Reverse(bar.votes));
    let mut any = false;
    for bar in bars.iter().filter(|bar| bar.votes > 0) {
        let voters = voters_of(state, &bar.candidate);
        let from = if voters.is_empty() {
            "(earlier voters)".to_string()
        } else {
            voters.join(", ")
        };
        let text = format!("{from} → {} ({})", bar.candidate, bar.votes);
        let index = state.agent_index(&bar.candidate).unwrap_or(0);
        for (row, line) in wrap(&text, width.saturating_sub(2).max(10))
            .into_iter()
            .enumerate()
        {
            let indent = if row == 0 { "  " } else { "    " };
            lines.push(Line::styled(format!("{indent}{line}"), theme.agent(index)));
        }
        any = true;
    }
    if !any {
        lines.push(Line::styled("  No standing votes.", theme.dim()));
    }
    lines
}

/// Who backs `candidate`: coordination's tally names them (the final one once the winner
/// is chosen); a log from before it did is read from the votes seen.
fn voters_of(state: &UiState, candidate: &AgentId) -> Vec<String> {
    let tally = state
        .votes
        .final_tally
        .as_ref()
        .or(state.votes.standing.as_ref());
    if let Some(count) = tally
        .into_iter()
        .flatten()
        .find(|count| &count.agent == candidate)
    {
        return count.voters.iter().map(ToString::to_string).collect();
    }
    state
        .votes
        .votes
        .iter()
        .filter(|(_, target, _)| target == candidate)
        .map(|(voter, _, _)| voter.to_string())
        .collect()
}

/// Who is working, waiting, done and failed, one group to a line.
fn groups(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (group, name) in GROUPS {
        let members: Vec<&str> = state
            .agents
            .iter()
            .filter(|card| standing(state, card) == group)
            .map(|card| card.info.id.as_str())
            .collect();
        if members.is_empty() {
            continue;
        }
        let text = format!("{name} ({}): {}", members.len(), members.join(", "));
        for line in wrap(&text, width.max(10)) {
            lines.push(Line::styled(line, theme.dim()));
        }
    }
    lines
}

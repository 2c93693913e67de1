//! `coordination_table.txt`: MassGen's coordination table as fixed-width text. A legend,
//! then an `Event` column (`E1`, `E2`, …) and one column per agent: the `USER` row with the
//! question, one row per coordination event in its agent's column, and totals per agent;
//! the winner and the outcome at the end.

use std::io::{self, Write};

use crate::protocol::symbols::{
    CONTEXT, ERROR, FINAL_ANSWER, NEW_ANSWER, REFUSED, RESTART, RESTART_DONE, RETRY, THINKING,
    UPDATE, VOTE, VOTE_IGNORED, WINNER,
};
use crate::protocol::{
    AgentId, AgentInfo, Event, EventMsg, TimeoutScope, TurnOutcome, VoteCount, WinnerBasis,
};
use crate::text::wrap;

use super::table_cells::{cell, votes_of};

use super::grid::Grid;

const EVENT_WIDTH: usize = 8;
const AGENT_WIDTH: usize = 30;

/// The whole table as text.
#[cfg(test)]
pub fn coordination_table(events: &[Event]) -> String {
    let mut text = Vec::new();
    let _ = write_coordination_table(events, &mut text);
    String::from_utf8_lossy(&text).into_owned()
}

/// Writes the table to `out`, a line at a time.
pub fn write_coordination_table(events: &[Event], out: &mut dyn Write) -> io::Result<()> {
    let mut table = Table::default();
    for event in events {
        table.apply(event);
    }
    table.write(out)
}

/// Lines written out, each ended by a newline.
struct Lines<'a>(&'a mut dyn Write);

impl Lines<'_> {
    fn one(&mut self, line: &str) -> io::Result<()> {
        self.0.write_all(line.as_bytes())?;
        self.0.write_all(b"\n")
    }

    fn all(&mut self, lines: Vec<String>) -> io::Result<()> {
        lines.iter().try_for_each(|line| self.one(line))
    }
}

#[derive(Default)]
struct Table {
    question: String,
    columns: Vec<Column>,
    rows: Vec<Row>,
    winner: Option<(AgentId, Vec<VoteCount>, WinnerBasis)>,
    outcome: Option<TurnOutcome>,
    /// The last timeout of the turn: it, not a failed presentation, is why a stored answer
    /// stands as the final answer.
    timed_out: Option<TimeoutScope>,
}

struct Column {
    info: AgentInfo,
    answers: Vec<String>,
    votes_cast: u32,
    restarts: u32,
}

/// One row: in one agent's column, or across all of them.
struct Row {
    column: Option<usize>,
    lines: Vec<String>,
}

impl Table {
    fn apply(&mut self, event: &Event) {
        if let EventMsg::TurnStarted {
            question, agents, ..
        } = &event.msg
        {
            self.question.clone_from(question);
            self.columns = agents.iter().cloned().map(Column::new).collect();
            return;
        }
        let column = event.agent.as_ref().and_then(|agent| {
            self.columns
                .iter()
                .position(|column| &column.info.id == agent)
        });
        self.count(column, &event.msg);
        if let EventMsg::Timeout { scope, .. } = &event.msg {
            self.timed_out = Some(*scope);
        }
        if let Some(lines) = cell(&event.msg, self.timed_out) {
            self.rows.push(Row { column, lines });
        }
    }

    /// Keeps the totals: answers, votes and restarts per agent; the winner; the outcome.
    fn count(&mut self, column: Option<usize>, msg: &EventMsg) {
        if let EventMsg::WinnerSelected {
            winner,
            tally,
            basis,
            ..
        } = msg
        {
            self.winner = Some((winner.clone(), tally.clone(), *basis));
        } else if let EventMsg::TurnFinished { outcome, .. } = msg {
            self.outcome = Some(*outcome);
        }
        let Some(column) = column.map(|index| &mut self.columns[index]) else {
            return;
        };
        if let EventMsg::AnswerSubmitted { label, .. } = msg {
            column.answers.push(label.to_string());
        } else if let EventMsg::VoteCast { .. } = msg {
            column.votes_cast += 1;
        } else if let EventMsg::AgentRestarted { .. } = msg {
            column.restarts += 1;
        }
    }
}

impl Table {
    /// Writes the table a line at a time: it is as wide as the team and as long as the
    /// turn's events, tens of megabytes for a large team, so it is never held whole.
    fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let grid = Grid::new(EVENT_WIDTH, self.columns.len(), AGENT_WIDTH);
        let rule = grid.rule();
        let mut lines = Lines(out);
        lines.one("COORDINATION TABLE")?;
        lines.all(wrap(&legend(), grid.total_width()))?;
        lines.one("")?;
        lines.one(&rule)?;
        let names: Vec<Vec<String>> = self.columns.iter().map(Column::heading).collect();
        lines.all(grid.row("Event", &names))?;
        lines.one(&rule)?;
        lines.all(grid.spanning_row("USER", std::slice::from_ref(&self.question)))?;
        lines.one(&rule)?;
        for (index, row) in self.rows.iter().enumerate() {
            let label = format!("E{}", index + 1);
            lines.all(match row.column {
                Some(column) => grid.row(&label, &self.only_in(column, &row.lines)),
                None => grid.spanning_row(&label, &row.lines),
            })?;
            lines.one(&rule)?;
        }
        let tally = self.winner.as_ref().map(|(_, tally, _)| tally.as_slice());
        lines.all(grid.row("Answers", &self.per_agent(Column::answers)))?;
        lines.all(grid.row("Votes", &self.per_agent(|column| column.votes(tally))))?;
        lines.all(grid.row("Restarts", &self.per_agent(Column::restarts)))?;
        lines.one(&rule)?;
        lines.one("")?;
        lines.all(self.summary())
    }

    /// One cell per agent, in column order.
    fn per_agent(&self, cell: impl Fn(&Column) -> String) -> Vec<Vec<String>> {
        self.columns
            .iter()
            .map(|column| vec![cell(column)])
            .collect()
    }

    /// `lines` in column `column`, every other agent's cell empty.
    fn only_in(&self, column: usize, lines: &[String]) -> Vec<Vec<String>> {
        (0..self.columns.len())
            .map(|index| {
                if index == column {
                    lines.to_vec()
                } else {
                    Vec::new()
                }
            })
            .collect()
    }

    /// The winner, how it won, the final tally and the turn's outcome.
    fn summary(&self) -> Vec<String> {
        let mut lines = Vec::new();
        match &self.winner {
            Some((winner, tally, basis)) => {
                let how = match basis {
                    WinnerBasis::Votes => "most votes",
                    WinnerBasis::TieBrokenByConfigOrder => "tie broken by config order",
                    WinnerBasis::FirstAnswer => "no votes, first agent with an answer",
                    WinnerBasis::Presenter => {
                        "decomposition: the presenter integrates every subtask"
                    }
                    WinnerBasis::Chairman => "council: the chairman synthesizes every answer",
                };
                lines.push(format!("{WINNER} Winner: {winner} ({how})"));
                let counts: Vec<String> = tally
                    .iter()
                    .map(|count| format!("{} {}", count.agent, count.votes))
                    .collect();
                lines.push(format!("Final tally: {}", counts.join(", ")));
            }
            None => lines.push("No winner.".into()),
        }
        let outcome = match self.outcome {
            Some(TurnOutcome::Completed) => "completed",
            Some(TurnOutcome::TimedOut) => "timed out",
            Some(TurnOutcome::Cancelled) => "cancelled",
            Some(TurnOutcome::Failed) => "failed: no agent produced an answer",
            None => "unfinished",
        };
        lines.push(format!("Outcome: {outcome}"));
        lines
    }
}

fn legend() -> String {
    format!(
        "Legend: {THINKING} started streaming  {CONTEXT} answers seen  {NEW_ANSWER} new answer  \
         {VOTE} vote  {THINKING} reason  {VOTE_IGNORED} vote ignored  {RESTART} restart \
         triggered  {RESTART_DONE} restart completed  {RETRY} retry  {REFUSED} tool refused  \
         {UPDATE} update received  {ERROR} error or timeout  {WINNER} winner selected  \
         {FINAL_ANSWER} final answer"
    )
}

impl Column {
    fn new(info: AgentInfo) -> Self {
        Self {
            info,
            answers: Vec::new(),
            votes_cast: 0,
            restarts: 0,
        }
    }

    fn heading(&self) -> Vec<String> {
        let info = &self.info;
        vec![
            info.id.to_string(),
            format!("{} ({})", info.model, info.anon_id),
        ]
    }

    fn answers(&self) -> String {
        if self.answers.is_empty() {
            return "0".into();
        }
        format!("{} ({})", self.answers.len(), self.answers.join(", "))
    }

    fn votes(&self, tally: Option<&[VoteCount]>) -> String {
        match tally {
            Some(tally) => format!(
                "{} cast, {} received",
                self.votes_cast,
                votes_of(tally, &self.info.id)
            ),
            None => format!("{} cast", self.votes_cast),
        }
    }

    fn restarts(&self) -> String {
        self.restarts.to_string()
    }
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;

//! `coordination_table.txt`: MassGen's coordination table as fixed-width text. A legend,
//! then an `Event` column (`E1`, `E2`, …) and one column per agent: the `USER` row with the
//! question, one row per coordination event in its agent's column, and totals per agent;
//! the winner and the outcome at the end.

use crate::protocol::symbols::{
    BLOCKED, CONTEXT, ERROR, EVALUATE, FINAL_ANSWER, NEW_ANSWER, PLANNING_MODE, QUESTION, REFUSED,
    REPLY, RESTART, RESTART_DONE, RETRY, THINKING, TIMER, UPDATE, VOTE, VOTE_IGNORED, WINNER,
};
use crate::protocol::{
    AgentId, AgentInfo, Event, EventMsg, PostEvaluationOutcome, RoundTimeStage, TimeoutScope,
    TurnOutcome, VoteCount, WinnerBasis,
};
use crate::text::{truncate, wrap};

use super::grid::Grid;

const EVENT_WIDTH: usize = 8;
const AGENT_WIDTH: usize = 30;
/// Columns of an answer's preview under its label.
const PREVIEW: usize = 60;

pub fn coordination_table(events: &[Event]) -> String {
    let mut table = Table::default();
    for event in events {
        table.apply(event);
    }
    table.render()
}

#[derive(Default)]
struct Table {
    question: String,
    columns: Vec<Column>,
    rows: Vec<Row>,
    winner: Option<(AgentId, Vec<VoteCount>, WinnerBasis)>,
    outcome: Option<TurnOutcome>,
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
        if let Some(lines) = cell(&event.msg) {
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
    fn render(&self) -> String {
        let grid = Grid::new(EVENT_WIDTH, self.columns.len(), AGENT_WIDTH);
        let mut out = vec!["COORDINATION TABLE".to_string()];
        out.extend(wrap(&legend(), grid.total_width()));
        out.push(String::new());
        out.push(grid.rule());
        let names: Vec<Vec<String>> = self.columns.iter().map(Column::heading).collect();
        out.extend(grid.row("Event", &names));
        out.push(grid.rule());
        out.extend(grid.spanning_row("USER", std::slice::from_ref(&self.question)));
        out.push(grid.rule());
        for (index, row) in self.rows.iter().enumerate() {
            let label = format!("E{}", index + 1);
            out.extend(match row.column {
                Some(column) => grid.row(&label, &self.only_in(column, &row.lines)),
                None => grid.spanning_row(&label, &row.lines),
            });
            out.push(grid.rule());
        }
        let tally = self.winner.as_ref().map(|(_, tally, _)| tally.as_slice());
        out.extend(grid.row("Answers", &self.per_agent(Column::answers)));
        out.extend(grid.row("Votes", &self.per_agent(|column| column.votes(tally))));
        out.extend(grid.row("Restarts", &self.per_agent(Column::restarts)));
        out.push(grid.rule());
        out.push(String::new());
        out.extend(self.summary());
        out.join("\n") + "\n"
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

/// What a coordination event shows in its cell, one entry per line before wrapping; `None`
/// for streaming, usage and other detail.
fn cell(msg: &EventMsg) -> Option<Vec<String>> {
    Some(match msg {
        EventMsg::RoundStarted {
            round,
            answers_seen,
            vote_only,
            ..
        } => {
            let head = if *round == 1 {
                format!("{THINKING} Started streaming")
            } else {
                format!("{RESTART_DONE} RESTART COMPLETED (round {round})")
            };
            let seen: Vec<String> = answers_seen.iter().map(ToString::to_string).collect();
            let only = if *vote_only { " (vote only)" } else { "" };
            vec![
                head,
                format!("{CONTEXT} Context: [{}]{only}", seen.join(", ")),
            ]
        }
        EventMsg::AgentRestarted { reason, .. } => {
            vec![format!("{RESTART} RESTART TRIGGERED"), reason.clone()]
        }
        EventMsg::AnswerSubmitted { label, content, .. } => vec![
            format!("{NEW_ANSWER} NEW ANSWER ({label})"),
            format!("\"{}\"", truncate(&flatten(content), PREVIEW)),
        ],
        EventMsg::VoteCast {
            target,
            target_label,
            reason,
            ..
        } => vec![
            format!("{VOTE} VOTE → {target} ({target_label})"),
            format!("{THINKING} {reason}"),
        ],
        EventMsg::VoteIgnored { target, why, .. } => vec![
            format!("{VOTE_IGNORED} VOTE IGNORED → {target}"),
            why.clone(),
        ],
        EventMsg::EnforcementRetry {
            attempt,
            max_attempts,
            detail,
            ..
        } => vec![
            format!("{RETRY} RETRY {attempt}/{max_attempts}"),
            detail.clone(),
        ],
        EventMsg::Retrying {
            attempt,
            max_retries,
            reason,
            ..
        } => vec![
            format!("{RETRY} MODEL CALL RETRY {attempt}/{max_retries}"),
            reason.clone(),
        ],
        EventMsg::ToolRefused { tool, reason, .. } => {
            vec![format!("{REFUSED} REFUSED {tool}"), reason.clone()]
        }
        EventMsg::HumanInputDelivered { text } => {
            vec![format!("{UPDATE} UPDATE RECEIVED"), flatten(text)]
        }
        EventMsg::UpdateInjected { labels } => {
            let labels: Vec<String> = labels.iter().map(ToString::to_string).collect();
            vec![
                format!("{UPDATE} UPDATE RECEIVED"),
                format!("new answers: {}", labels.join(", ")),
            ]
        }
        EventMsg::RoundTimeLimitReached {
            stage,
            elapsed_secs,
        } => vec![
            match stage {
                RoundTimeStage::WrapUp => format!("{TIMER} ROUND TIME LIMIT: wrap up"),
                RoundTimeStage::Blocked => format!("{TIMER} ROUND TIME LIMIT: tools blocked"),
            },
            format!("after {elapsed_secs} s"),
        ],
        EventMsg::PostEvaluationStarted { .. } => {
            vec![format!("{EVALUATE} CHECKING THE FINAL ANSWER")]
        }
        EventMsg::PostEvaluationFinished { outcome } => match outcome {
            PostEvaluationOutcome::Submitted => vec![format!("{EVALUATE} SUBMITTED")],
            PostEvaluationOutcome::RestartRequested { reason, .. } => vec![
                format!("{RESTART} RESTART REQUESTED"),
                truncate(&flatten(reason), PREVIEW),
            ],
            PostEvaluationOutcome::Failed { message } => vec![
                format!("{ERROR} CHECK FAILED (answer kept)"),
                truncate(&flatten(message), PREVIEW),
            ],
        },
        EventMsg::OrchestrationRestarted {
            attempt,
            max_attempts,
            ..
        } => vec![format!(
            "{RESTART} ORCHESTRATION RESTART (attempt {attempt}/{max_attempts})"
        )],
        EventMsg::AgentError { message } => vec![format!("{ERROR} ERROR"), message.clone()],
        EventMsg::PlanningModeDecided {
            irreversible: false,
            ..
        } => vec![format!(
            "{PLANNING_MODE} PLANNING MODE: nothing irreversible"
        )],
        EventMsg::PlanningModeDecided {
            irreversible: true,
            blocked_tools,
        } => vec![
            format!("{PLANNING_MODE} PLANNING MODE: irreversible"),
            if blocked_tools.is_empty() {
                "every MCP tool blocked".to_string()
            } else {
                format!("blocked: {}", blocked_tools.join(", "))
            },
        ],
        EventMsg::ToolBlocked { tool, .. } => vec![format!("{BLOCKED} BLOCKED {tool}")],
        EventMsg::BroadcastAsked {
            target, questions, ..
        } => vec![
            format!("{QUESTION} ASKED {}", target.name()),
            questions
                .first()
                .map(|question| truncate(&flatten(&question.text), PREVIEW))
                .unwrap_or_default(),
        ],
        EventMsg::BroadcastAnswered { from, answer, .. } => vec![
            format!(
                "{REPLY} REPLY from {}",
                from.as_ref().map_or("the user", |agent| agent.as_str())
            ),
            format!("\"{}\"", truncate(&flatten(answer), PREVIEW)),
        ],
        EventMsg::BroadcastClosed {
            timed_out: true, ..
        } => vec![format!("{ERROR} QUESTION TIMED OUT")],
        EventMsg::AgentKilled { reason } => vec![format!("{ERROR} DROPPED"), reason.clone()],
        EventMsg::Timeout { scope, seconds } => {
            let clock = match scope {
                TimeoutScope::Orchestrator => "coordination",
                TimeoutScope::Presentation => "final presentation",
            };
            vec![format!("{ERROR} TIMEOUT: {clock} after {seconds} s")]
        }
        EventMsg::BudgetReached {
            budget_usd,
            spent_usd,
        } => vec![format!(
            "{ERROR} BUDGET: {} reached ({} spent)",
            crate::session::format_usd(*budget_usd),
            crate::session::format_usd(*spent_usd)
        )],
        EventMsg::Cancelled => vec![format!("{ERROR} CANCELLED by the user")],
        EventMsg::WinnerSelected { winner, tally, .. } => vec![
            format!("{WINNER} Winner selected"),
            format!("{} vote(s)", votes_of(tally, winner)),
        ],
        EventMsg::FinalPresentationDone {
            label, fallback, ..
        } => {
            let mut lines = vec![format!("{FINAL_ANSWER} FINAL ANSWER ({label})")];
            if *fallback {
                lines.push("its stored answer: the presentation failed".into());
            }
            lines
        }
        EventMsg::RunStarted { .. }
        | EventMsg::RunFinished
        | EventMsg::HistoryCleared
        | EventMsg::ReplayStarted { .. }
        | EventMsg::ReplayFinished { .. }
        | EventMsg::BroadcastClosed {
            timed_out: false, ..
        }
        | EventMsg::TaskPlanChanged { .. }
        | EventMsg::PlanUpdated { .. }
        | EventMsg::PlansListed { .. }
        | EventMsg::SessionResumed { .. }
        | EventMsg::TurnStarted { .. }
        | EventMsg::TurnFinished { .. }
        | EventMsg::AgentStatus { .. }
        | EventMsg::TextDelta { .. }
        | EventMsg::ReasoningDelta { .. }
        | EventMsg::ToolCallBegin { .. }
        | EventMsg::McpServerStatus { .. }
        | EventMsg::WorkspaceAssigned { .. }
        | EventMsg::WorkspaceSnapshot { .. }
        | EventMsg::ToolCallEnd { .. }
        | EventMsg::ProviderTool(_)
        | EventMsg::Usage { .. }
        | EventMsg::RoundUsage { .. }
        | EventMsg::FinalPresentationStarted { .. }
        | EventMsg::FinalPresentationDelta { .. }
        | EventMsg::HumanInputQueued { .. }
        | EventMsg::Warning { .. } => return None,
    })
}

fn votes_of(tally: &[VoteCount], agent: &AgentId) -> u32 {
    tally
        .iter()
        .find(|count| &count.agent == agent)
        .map_or(0, |count| count.votes)
}

/// `text` on one line: its lines joined by spaces.
fn flatten(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;

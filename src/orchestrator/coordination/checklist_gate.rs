//! Checklist-gated voting inside coordination: which agents are gated, each one's
//! `submit_checklist` calls and verdict this round, and the gate in front of `vote`.

use serde_json::{Value, json};

use super::bootstrap::{Bootstrap, Proposal};
use super::checklist::{self, Gate, Invalid, Submission};
use super::criteria::default_criteria;
use super::gap_report::Report;
use crate::protocol::{AgentId, ChecklistResult, ChecklistVerdict, EvalCriterion};

/// `voting_sensitivity: checklist_gated` and its knobs.
#[derive(Clone, Debug, PartialEq)]
pub struct ChecklistRules {
    /// The agents that must pass a checklist before they vote.
    pub gated: Vec<AgentId>,
    /// `voting_threshold` (0–10): higher asks fewer criteria to pass, at a lower score.
    pub voting_threshold: u32,
    /// `max_checklist_calls_per_round`: accepted `submit_checklist` calls per round.
    pub max_calls_per_round: u32,
    /// `checklist_first_answer`: `submit_checklist` is offered before the agent's first
    /// answer too.
    pub first_answer: bool,
    /// `checklist_require_gap_report`: a checklist needs a diagnostic report.
    pub gap_report_required: bool,
    /// `allow_midstream_peer_updates_before_checklist_submit`, resolved: under
    /// `defer_peer_updates_until_restart`, peers' answers still reach the agent mid-round
    /// until its first accepted checklist of the round.
    pub midstream_before_submit: bool,
    /// The criteria scored (MassGen's defaults until a turn sets its own).
    pub criteria: Vec<EvalCriterion>,
    /// `criteria_mode: bootstrap_*`: the criteria proposed during the turn.
    pub bootstrap: Option<Bootstrap>,
}

impl ChecklistRules {
    /// MassGen's defaults: threshold 5, one call per round, none before the first answer.
    pub fn for_agents(gated: Vec<AgentId>) -> Self {
        Self {
            gated,
            voting_threshold: 5,
            max_calls_per_round: 1,
            first_answer: false,
            gap_report_required: false,
            midstream_before_submit: false,
            criteria: default_criteria(),
            bootstrap: None,
        }
    }
}

/// The agent's latest `submit_checklist` this round, as `draft_approach` reads it.
#[derive(Clone, Debug, Default, PartialEq)]
enum Latest {
    #[default]
    None,
    Invalid,
    Accepted {
        verdict: ChecklistVerdict,
        failed: Vec<String>,
    },
}

/// One agent's checklist this round.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct ChecklistState {
    pub gated: bool,
    calls_this_round: u32,
    verdict: Option<ChecklistVerdict>,
    latest: Latest,
    /// The summed scores of the agent's accepted checklists this turn, oldest first.
    totals: Vec<i64>,
    /// Criteria it proposed that the next round start merges (bootstrap).
    pub proposals: Vec<Proposal>,
    /// How many criteria it scores this round when they grow during the turn (bootstrap).
    pub criteria_this_round: Option<usize>,
}

impl ChecklistState {
    pub fn gated(gated: bool) -> Self {
        Self {
            gated,
            ..Self::default()
        }
    }

    /// MassGen's convergence count: accepted checklists in a row, newest back, whose total
    /// gained at most one point on the one before.
    pub fn converging(&self) -> u32 {
        let steps = self.totals.windows(2).rev();
        let count = steps.take_while(|pair| pair[1] <= pair[0] + 1).count();
        u32::try_from(count).unwrap_or(u32::MAX)
    }

    /// A new round or a new answer: the next vote needs a new checklist.
    pub fn reset(&mut self) {
        self.calls_this_round = 0;
        self.verdict = None;
        self.latest = Latest::None;
    }

    /// How many criteria its checklists score now.
    pub fn criteria(&self, rules: &ChecklistRules) -> usize {
        self.criteria_this_round.unwrap_or(rules.criteria.len())
    }

    /// A checklist was accepted this round (for the current answer).
    pub fn submitted(&self) -> bool {
        self.calls_this_round > 0
    }

    /// The failing criteria `draft_approach` must plan for, or MassGen's refusal when the
    /// latest checklist did not ask for a new answer.
    pub fn failed_for_approach(&self) -> Result<&[String], String> {
        match &self.latest {
            Latest::Accepted {
                verdict: ChecklistVerdict::NewAnswer,
                failed,
            } => Ok(failed),
            Latest::Accepted { .. } => Err(
                "draft_approach is only available after submit_checklist returns an iterate \
                 verdict (new_answer)."
                    .into(),
            ),
            Latest::None | Latest::Invalid => Err(
                "draft_approach is unavailable because your latest submit_checklist result was \
                 a validation error. Fix and resubmit submit_checklist first."
                    .into(),
            ),
        }
    }
}

/// What a `submit_checklist` call got back.
#[derive(Clone, Debug, PartialEq)]
pub enum ChecklistReply {
    Accepted(ChecklistResult),
    /// The scores could not be judged; the agent fixes them and calls again.
    Invalid {
        invalid: Invalid,
        required: u32,
    },
    /// The call is not allowed now.
    Refused(String),
}

impl ChecklistReply {
    /// The tool result, in MassGen's JSON shapes.
    pub fn to_json(&self) -> Value {
        match self {
            Self::Accepted(result) => checklist::accepted_json(result),
            Self::Invalid { invalid, required } => invalid.to_json(*required),
            Self::Refused(message) => json!({ "error": message }),
        }
    }
}

/// Per-agent scores keyed by anonymous id (`agent2`, as agents see answers) are re-keyed
/// by that agent's latest answer label (`agent2.1`, as MassGen keys them).
pub(super) fn keyed_by_label(scores: &Value, seen: &[(&str, String)]) -> Value {
    let Value::Object(entries) = scores else {
        return scores.clone();
    };
    let keyed = entries
        .iter()
        .map(|(key, value)| {
            let label = seen
                .iter()
                .find(|(anon, _)| anon == key)
                .map_or_else(|| key.clone(), |(_, label)| label.clone());
            (label, value.clone())
        })
        .collect();
    Value::Object(keyed)
}

/// What the agent has when it calls `submit_checklist`.
pub(super) struct Caller<'a> {
    pub own_answers: usize,
    pub max_answers: Option<u32>,
    pub labels: &'a [String],
    /// What it passed as `report_path`.
    pub report: &'a Report,
}

pub(super) fn submit(
    rules: Option<&ChecklistRules>,
    state: &mut ChecklistState,
    caller: &Caller<'_>,
    scores: &Value,
) -> ChecklistReply {
    let Some(rules) = rules.filter(|_| state.gated) else {
        return ChecklistReply::Refused(
            "submit_checklist is only available under `voting_sensitivity: checklist_gated`."
                .into(),
        );
    };
    if caller.own_answers == 0 && !rules.first_answer {
        return ChecklistReply::Refused(
            "submit_checklist is not available before your first answer is submitted. Build \
             your initial answer, verify it, then call the `new_answer` workflow tool. \
             Checklist evaluation begins from round 2."
                .into(),
        );
    }
    let max_calls = rules.max_calls_per_round.max(1);
    if state.calls_this_round >= max_calls {
        return ChecklistReply::Refused(format!(
            "submit_checklist already called {} time(s) this round (max: {max_calls}). You \
             already have your improvement plan. Implement those improvements, verify your \
             changes, then call the `new_answer` workflow tool to submit your completed work. \
             Do not call `submit_checklist` again.",
            state.calls_this_round
        ));
    }
    let criteria = state.criteria(rules);
    let gate = Gate::from_budget(
        rules.voting_threshold,
        caller.max_answers,
        caller.own_answers,
        criteria,
    );
    let submission = Submission {
        criteria,
        gate,
        has_own_answer: caller.own_answers > 0,
        labels: caller.labels,
    };
    // The report is judged after the scores (nothing to diagnose before an own answer).
    let judged =
        checklist::judge(scores, &submission).and_then(|result| match caller.report.problem() {
            Some(problem) if rules.gap_report_required && caller.own_answers > 0 => {
                Err(Report::invalid(&problem))
            }
            _ => Ok(result),
        });
    match judged {
        Ok(result) => {
            state.calls_this_round += 1;
            state.verdict = Some(result.verdict);
            state.latest = Latest::Accepted {
                verdict: result.verdict,
                failed: result
                    .scores
                    .iter()
                    .filter(|item| !item.passed)
                    .map(|item| item.id.clone())
                    .collect(),
            };
            state
                .totals
                .push(result.scores.iter().map(|item| item.score).sum());
            ChecklistReply::Accepted(result)
        }
        Err(invalid) => {
            state.latest = Latest::Invalid;
            ChecklistReply::Invalid {
                invalid,
                required: gate.required,
            }
        }
    }
}

/// Why a gated agent may not vote yet; `None` when it may. An agent out of answers is not
/// held back: it could not act on a `new_answer` verdict.
pub(super) fn vote_refusal(
    rules: Option<&ChecklistRules>,
    state: &ChecklistState,
    own_answers: usize,
    vote_only: bool,
) -> Option<String> {
    if !state.gated || vote_only {
        return None;
    }
    let first_answer = rules.is_some_and(|rules| rules.first_answer);
    match state.verdict {
        Some(ChecklistVerdict::Vote) => None,
        None if own_answers == 0 && !first_answer => Some(
            "Under checklist-gated voting your first step is an answer of your own: submit it              with `new_answer`. Checklist evaluation, and with it voting, begins from round 2."
                .into(),
        ),
        None => Some(
            "You must call `submit_checklist` with your scores of the current answers before \
             you vote (voting_sensitivity: checklist_gated). Its verdict decides whether you \
             may vote or must improve the answer and submit it with `new_answer`."
                .into(),
        ),
        Some(ChecklistVerdict::NewAnswer) => Some(
            "Your checklist verdict this round is `new_answer`: the current answers do not pass \
             enough criteria. Improve the answer on the failing criteria and submit it with \
             `new_answer`; you may vote after a checklist that passes."
                .into(),
        ),
    }
}

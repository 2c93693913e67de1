//! The checklist's calls on coordination: the turn's criteria, and judging a
//! `submit_checklist` against the answers the agent saw when its round began.

use serde_json::Value;

use super::Coordination;
use super::checklist_gate::{self, Caller, ChecklistReply};
use super::gap_report::Report;
use crate::protocol::{AgentId, AnswerLabel, EvalCriterion};

impl Coordination {
    /// The criteria this turn's checklists score (set before the first round).
    pub fn set_criteria(&mut self, criteria: Vec<EvalCriterion>) {
        if let Some(checklist) = self.rules.checklist.as_mut() {
            checklist.criteria = criteria;
        }
    }

    /// Judges a `submit_checklist` call's `scores` against the answers the agent saw when
    /// its round began.
    pub fn submit_checklist(
        &mut self,
        agent: &AgentId,
        scores: &Value,
        report: &Report,
    ) -> ChecklistReply {
        let Some(index) = self.index(agent) else {
            return ChecklistReply::Refused(format!("unknown agent {agent}"));
        };
        let seen: Vec<(&str, String)> = self.states[index]
            .seen
            .iter()
            .zip(&self.states)
            .filter(|(count, _)| **count > 0)
            .map(|(count, peer)| {
                let label = AnswerLabel::answer(&peer.anon, *count).to_string();
                (peer.anon.as_str(), label)
            })
            .collect();
        let scores = checklist_gate::keyed_by_label(scores, &seen);
        let labels: Vec<String> = seen.into_iter().map(|(_, label)| label).collect();
        let caller = Caller {
            own_answers: self.states[index].answers.len(),
            max_answers: self.rules.max_new_answers_per_agent,
            labels: &labels,
            report,
        };
        checklist_gate::submit(
            self.rules.checklist.as_ref(),
            &mut self.states[index].checklist,
            &caller,
            &scores,
        )
    }
}

//! The turn's checklist criteria, settled before the first round and announced with
//! `CriteriaSet`: the user's (inline or `--eval-criteria`), else the generator's for this
//! task, else a named preset's, else MassGen's defaults (MassGen's order). Only under
//! checklist-gated voting. Under `criteria_mode: bootstrap_inline` the agents' proposed
//! criteria join them as rounds start, announced again with `CriteriaSet` (source
//! bootstrap); under `bootstrap_subagent` a critic's do, asked once per new set of latest
//! answers before any round starts.

use serde_json::Value;
use tokio::sync::mpsc;

use super::side_call::SideCall;
use super::{Driver, Phase};
use crate::orchestrator::coordination::bootstrap::CriticBrief;
use crate::orchestrator::coordination::criteria::default_criteria;
use crate::orchestrator::model_call::ModelLink;
use crate::orchestrator::{criteria_critic, criteria_generator};
use crate::protocol::{AgentId, CriteriaSource, EvalCriterion, EventMsg, Op};

impl Driver<'_> {
    /// Settles the criteria. Ops that arrive during the generator's call are handled;
    /// returns false when the turn ended (cancelled) before the call did.
    pub(super) async fn settle_criteria(&mut self, ops: &mut mpsc::Receiver<Op>) -> bool {
        if self.settings.rules.checklist.is_none() {
            return true;
        }
        let coordination = &self.run.config.orchestrator.coordination;
        let (source, criteria) = if let Some(given) = &coordination.checklist_criteria {
            (given.source, given.criteria.clone())
        } else if let Some(counts) = coordination.criteria_generator {
            match self.generate_criteria(counts, ops).await {
                Some(Ok(criteria)) => (CriteriaSource::Generated, criteria),
                Some(Err(why)) => {
                    let message = format!(
                        "evaluation_criteria_generator: {why}; the checklist scores MassGen's \
                         default criteria instead"
                    );
                    self.emit(None, EventMsg::Warning { message });
                    (CriteriaSource::Default, default_criteria())
                }
                None => return false,
            }
        } else if let Some(preset) = &coordination.checklist_criteria_preset {
            (preset.source, preset.criteria.clone())
        } else {
            (CriteriaSource::Default, default_criteria())
        };
        self.use_criteria(source, criteria);
        true
    }

    /// The first agent's model writes the criteria; `None` when the turn ended first.
    async fn generate_criteria(
        &mut self,
        counts: crate::config::CriteriaGenerator,
        ops: &mut mpsc::Receiver<Op>,
    ) -> Option<Result<Vec<EvalCriterion>, String>> {
        let Some(model) = self.first_agent_model() else {
            return Some(Err("no agent to ask".into()));
        };
        let task = self.request.prompt.clone();
        let asking = criteria_generator::ask(&model, &task, counts);
        match self.side_call(asking, ops).await {
            SideCall::Replied(result) => Some(result),
            SideCall::OutOfTime => Some(Err("the turn ran out of time before the reply".into())),
            SideCall::TurnEnded => None,
        }
    }

    /// A link to the first agent's model, which writes and criticises the criteria.
    fn first_agent_model(&self) -> Option<ModelLink> {
        let agent = self.coordination.agents().first()?;
        let index = self.agent_index(agent)?;
        Some(self.model_link(agent, index))
    }

    /// `bootstrap_subagent`: rounds wait while the critic has a new answer set to judge.
    pub(super) fn critic_holds_rounds(&self) -> bool {
        self.coordination.critic_due().is_some()
    }

    /// `bootstrap_subagent`: when the latest answers form a new set, the first agent's
    /// model criticises them before rounds start again (MassGen awaits its critic too);
    /// running rounds go on meanwhile. Its criteria reach each agent at its next round
    /// start; a failed call leaves the criteria as they are, with a warning.
    pub(super) async fn run_critic_if_due(&mut self, ops: &mut mpsc::Receiver<Op>) {
        if !matches!(self.phase, Phase::Coordinating) {
            return;
        }
        let Some(brief) = self.coordination.critic_due() else {
            return;
        };
        let signature = brief.signature;
        let result = self.ask_critic(brief, ops).await;
        self.coordination.critic_asked(signature);
        match result {
            Some(Ok(criteria)) => {
                let added = self.coordination.add_critic_criteria(&criteria);
                tracing::info!(added, "[bootstrap_criteria] critic proposed criteria");
            }
            Some(Err(why)) => {
                let message = format!(
                    "criteria_mode bootstrap_subagent: the critic proposed no criteria ({why}); \
                     the checklist keeps the criteria it has"
                );
                self.emit(None, EventMsg::Warning { message });
            }
            None => return,
        }
        self.start_due_rounds();
    }

    /// The critic's call; `None` when the turn ended first.
    async fn ask_critic(
        &mut self,
        brief: CriticBrief,
        ops: &mut mpsc::Receiver<Op>,
    ) -> Option<Result<Vec<EvalCriterion>, String>> {
        let Some(model) = self.first_agent_model() else {
            return Some(Err("no agent to ask".into()));
        };
        let task = self.request.prompt.clone();
        let asking = criteria_critic::ask(&model, &task, &brief.answers, &brief.proposed);
        match self.side_call(asking, ops).await {
            SideCall::Replied(result) => Some(result),
            SideCall::OutOfTime => Some(Err("the turn ran out of time before the reply".into())),
            SideCall::TurnEnded => None,
        }
    }

    /// An accepted checklist's `proposed_criteria` (and per-agent scores, for the spread)
    /// wait for the next round start.
    pub(super) fn keep_proposed_criteria(
        &mut self,
        agent: &AgentId,
        (scores, proposed): (&Value, &Value),
    ) {
        let Some(kept) = self.coordination.propose_criteria(agent, scores, proposed) else {
            return;
        };
        if kept.dropped > 0 {
            tracing::info!(
                agent = %agent,
                dropped = kept.dropped,
                "[bootstrap_criteria] per-agent cap ({}) reached; older proposals dropped",
                kept.pending
            );
        }
    }

    /// Before `agent`'s round: merged proposals become the criteria it scores; a change is
    /// announced.
    pub(super) fn merge_proposed_criteria(&mut self, agent: &AgentId) {
        let Some(criteria) = self.coordination.merge_proposed_criteria(agent) else {
            return;
        };
        if let Some(checklist) = self.settings.rules.checklist.as_mut() {
            checklist.criteria = criteria.clone();
        }
        let source = CriteriaSource::Bootstrap;
        self.emit(None, EventMsg::CriteriaSet { source, criteria });
    }

    fn use_criteria(&mut self, source: CriteriaSource, criteria: Vec<EvalCriterion>) {
        if let Some(checklist) = self.settings.rules.checklist.as_mut() {
            checklist.criteria = criteria.clone();
        }
        self.coordination.set_criteria(criteria.clone());
        self.coordination
            .keep_own_criteria(source == CriteriaSource::Default);
        self.emit(None, EventMsg::CriteriaSet { source, criteria });
    }
}

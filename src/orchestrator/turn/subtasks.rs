//! Decomposition mode at the start of a turn: each agent's subtask, from the config or,
//! when the config gives none, from one decomposer call to the presenter's model; announced
//! once (`SubtasksAssigned`) for every front end and kept for the agents' prompts.

use tokio::sync::mpsc;

use super::Driver;
use super::side_call::SideCall;
use crate::orchestrator::prompts::decomposition::SubtaskWork;
use crate::orchestrator::task_decomposer::{self, Member};
use crate::protocol::{AgentId, EventMsg, Op, SubtaskSource};

impl Driver<'_> {
    /// Decides the subtasks, if the turn runs in decomposition mode. Ops that arrive
    /// meanwhile are handled; returns false when the turn ended before the reply came.
    pub(super) async fn assign_subtasks(&mut self, ops: &mut mpsc::Receiver<Op>) -> bool {
        let Some(presenter) = self.settings.rules.presenter.clone() else {
            return true;
        };
        let run = self.run;
        let agents = &run.config.agents;
        self.subtasks = agents.iter().map(|agent| agent.subtask.clone()).collect();
        let source = if self.subtasks.iter().any(Option::is_some) {
            SubtaskSource::Config
        } else {
            let Some(index) = self.agent_index(&presenter) else {
                return true;
            };
            let members: Vec<Member<'_>> = agents
                .iter()
                .map(|agent| Member {
                    id: agent.id.as_str(),
                    system_message: agent.system_message.as_deref(),
                })
                .collect();
            let model = self.model_link(&presenter, index);
            let task = self.request.prompt.clone();
            let asking = task_decomposer::decompose(&model, &task, &members);
            let (subtasks, source) = match self.side_call(asking, ops).await {
                SideCall::Replied(written) => written,
                SideCall::OutOfTime => {
                    (task_decomposer::fallback(&members), SubtaskSource::Fallback)
                }
                SideCall::TurnEnded => return false,
            };
            self.subtasks = subtasks.into_iter().map(Some).collect();
            source
        };
        let subtasks: Vec<(AgentId, String)> = agents
            .iter()
            .zip(&self.subtasks)
            .filter_map(|(agent, subtask)| Some((agent.id.clone(), subtask.clone()?)))
            .collect();
        self.emit(None, EventMsg::SubtasksAssigned { subtasks, source });
        true
    }

    /// Decomposition mode: every answered agent's subtask, stop summary and latest answer,
    /// for the presenter (`None` in voting mode).
    pub(super) fn subtask_work<'s>(
        &'s self,
        answers: &'s [(AgentId, &'s str)],
    ) -> Option<Vec<SubtaskWork<'s>>> {
        if !self.coordination.is_decomposition() {
            return None;
        }
        let work = answers
            .iter()
            .map(|(agent, answer)| SubtaskWork {
                agent: agent.as_str(),
                subtask: self
                    .agent_index(agent)
                    .and_then(|index| self.subtask(index)),
                stop_summary: self.coordination.stop_summary(agent),
                answer,
            })
            .collect();
        Some(work)
    }

    /// The subtask of the agent at config `index`, once assigned.
    pub(super) fn subtask(&self, index: usize) -> Option<&str> {
        self.subtasks.get(index)?.as_deref()
    }
}

//! The turn's workspace moments: saving an agent's workspace when its answer is accepted,
//! and when the turn ends, keeping the final answer and the winner's workspace in the log —
//! or, when it ends without a winner's answer (cancelled, timed out, failed), every agent's
//! workspace, so no work is lost. In memory mode, every agent's memories are merged into
//! the winner's workspace before it presents.

use super::Driver;
use crate::protocol::{AgentId, EventMsg};
use crate::session::write_atomic;

impl Driver<'_> {
    /// Saves the agent's workspace in the background; rounds that start meanwhile wait
    /// for it, so they see the work behind the answer they are shown.
    pub(super) fn snapshot_after_answer(&self, agent: &AgentId) {
        let (Some(workspaces), Some(index)) = (&self.run.workspaces, self.agent_index(agent))
        else {
            return;
        };
        let Some(save) = workspaces.request_snapshot(index) else {
            return;
        };
        let sink = crate::orchestrator::channel::AgentSink::new(agent.clone(), self.tx.clone());
        tokio::spawn(async move {
            match save.await {
                Ok(report) => sink.event(EventMsg::WorkspaceSnapshot {
                    files: report.files,
                    bytes: report.bytes,
                    skipped: report.skipped,
                }),
                Err(error) => sink.event(EventMsg::Warning {
                    message: format!("the workspace could not be saved: {error}"),
                }),
            }
        });
    }

    /// In memory mode, merges every other agent's memories into the winner's workspace
    /// (MassGen does so before the final presentation); `None` when there is nothing to do.
    pub(super) fn memory_merge(
        &self,
        winner: &AgentId,
    ) -> Option<impl Future<Output = ()> + Send + 'static> {
        if !self
            .run
            .config
            .orchestrator
            .coordination
            .enable_memory_filesystem_mode
        {
            return None;
        }
        let workspaces = std::sync::Arc::clone(self.run.workspaces.as_ref()?);
        let index = self.agent_index(winner)?;
        workspaces.dirs(index)?;
        let sink = crate::orchestrator::channel::AgentSink::new(winner.clone(), self.tx.clone());
        Some(async move {
            if let Err(error) = workspaces.merge_memories(index).await {
                sink.event(EventMsg::Warning {
                    message: format!("the agents' memories could not be merged: {error}"),
                });
            }
        })
    }

    /// Merges the memories at the end of the turn, unless the presentation already did.
    pub(super) async fn merge_memories_if_pending(&mut self) {
        if self.ending.memory_merged {
            return;
        }
        let merge = self
            .ending
            .winner
            .as_ref()
            .and_then(|winner| self.memory_merge(winner));
        if let Some(merge) = merge {
            self.ending.memory_merged = true;
            merge.await;
        }
    }

    /// Writes `final/<winner>/answer.txt` on the blocking pool: the write ends with an
    /// `fsync` (milliseconds) that must not stall the async workers.
    pub(super) async fn save_final_answer(&mut self) {
        let (Some(log), Some(winner), Some(content)) = (
            self.emitter.log(),
            &self.ending.winner,
            &self.ending.final_answer,
        ) else {
            return;
        };
        let path = log.final_answer_path(winner);
        let content = content.clone();
        let saved = tokio::task::spawn_blocking(move || write_atomic(&path, content.as_bytes()))
            .await
            .unwrap_or_else(|error| Err(std::io::Error::other(error)));
        match saved {
            Ok(()) => {}
            Err(error) if self.emitter.log_failed() => {
                tracing::warn!(%error, "the final answer was not saved either");
            }
            Err(error) => self.emit(
                None,
                EventMsg::Warning {
                    message: format!("could not save the final answer: {error}"),
                },
            ),
        }
    }

    /// Copies the winner's workspace to `final/<winner>/workspace/` in the turn's log.
    pub(super) async fn save_final_workspace(&mut self) {
        let (Some(workspaces), Some(winner), Some(log)) = (
            &self.run.workspaces,
            &self.ending.winner,
            self.emitter.log(),
        ) else {
            return;
        };
        let Some(index) = self.agent_index(winner) else {
            return;
        };
        let saved = std::sync::Arc::clone(workspaces)
            .save_final(index, winner.to_string(), log.dir().to_path_buf())
            .await;
        if let Err(error) = saved {
            let winner = winner.clone();
            self.emit(
                Some(&winner),
                EventMsg::Warning {
                    message: format!(
                        "the winner's workspace could not be copied to the log: {error}"
                    ),
                },
            );
        }
    }

    /// Copies every agent's workspace to `workspaces/<agent>/` in the turn's log.
    pub(super) async fn save_partial_workspaces(&mut self) {
        let (Some(workspaces), Some(log)) = (&self.run.workspaces, self.emitter.log()) else {
            return;
        };
        let root = log.dir().join("workspaces");
        let mut failures = Vec::new();
        for agent in self.coordination.agents() {
            let Some(index) = self.agent_index(agent) else {
                continue;
            };
            let saved = std::sync::Arc::clone(workspaces)
                .save_copy(index, root.join(agent.as_str()))
                .await;
            if let Err(error) = saved {
                failures.push((agent.clone(), error));
            }
        }
        for (agent, error) in failures {
            self.emit(
                Some(&agent),
                EventMsg::Warning {
                    message: format!("the workspace could not be kept in the log: {error}"),
                },
            );
        }
    }
}

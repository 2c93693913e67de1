//! Post-evaluation and orchestration restarts (`coordination.max_orchestration_restarts`):
//! the winner checks its presented answer and either submits it or sends the turn back;
//! the next attempt starts coordination afresh, logs to `attempt_N/`, and every agent
//! reads the winner's feedback first.

use std::sync::Arc;

use tokio::time::Instant;

use super::{Driver, Phase, Running};
use crate::orchestrator::coordination::Coordination;
use crate::orchestrator::post_evaluation::{self, EvaluationTask};
use crate::orchestrator::prompts::post_evaluation::{attempt_feedback, post_evaluation_messages};
use crate::protocol::{AgentStatus, EventMsg, PostEvaluationOutcome};
use crate::session::{TurnLog, derived};

/// What the winner sent back.
pub(super) struct Restart {
    reason: String,
    instructions: String,
    previous_answer: String,
}

/// This turn's attempt (1 until the winner sends an answer back) and how many it may have
/// (`1 + coordination.max_orchestration_restarts`).
pub(super) struct Attempts {
    number: u32,
    max: u32,
    /// `<PREVIOUS ATTEMPT FEEDBACK>` for every round of a later attempt.
    pub(super) feedback: Option<String>,
    /// The winner sent the answer back; the next attempt starts once the event loop turns.
    pub(super) pending_restart: Option<Restart>,
}

impl Attempts {
    pub(super) fn new(max_restarts: u32) -> Self {
        Self {
            number: 1,
            max: max_restarts.saturating_add(1),
            feedback: None,
            pending_restart: None,
        }
    }

    fn another_allowed(&self) -> bool {
        self.number < self.max
    }

    /// Counts the next attempt, whose rounds read the winner's feedback first.
    fn begin_next(&mut self, restart: &Restart) {
        self.number += 1;
        self.feedback = Some(attempt_feedback(
            &restart.reason,
            &restart.instructions,
            Some(&restart.previous_answer),
        ));
    }
}

impl Driver<'_> {
    /// The winner checks its answer when another attempt could still follow, and the turn
    /// was neither cut short by its timeout or budget nor cancelled.
    pub(super) fn post_evaluation_due(&self) -> bool {
        self.attempts.another_allowed()
            && !self.ending.timed_out
            && !self.ending.answered_now
            && self.ending.outcome.is_none()
            && !self.budget.is_reached()
    }

    pub(super) fn start_post_evaluation(&mut self, content: String, fallback: bool) {
        let Phase::Presenting { winner, label, .. } =
            std::mem::replace(&mut self.phase, Phase::Done)
        else {
            return;
        };
        let deadline = self.presentation_deadline();
        self.phase = Phase::Evaluating {
            winner: winner.clone(),
            label,
            content: content.clone(),
            fallback,
            deadline,
        };
        let Some(index) = self.agent_index(&winner) else {
            self.on_evaluated(PostEvaluationOutcome::Failed {
                message: "the winner is not among the configured agents".into(),
            });
            return;
        };
        self.emit(
            Some(&winner),
            EventMsg::PostEvaluationStarted {
                attempt: self.attempts.number,
                max_attempts: self.attempts.max,
            },
        );
        // `debug_final_answer` replaces the answer judged on the first attempt, to
        // exercise restarts.
        let judged = self
            .run
            .config
            .orchestrator
            .debug_final_answer
            .clone()
            .filter(|_| self.attempts.number == 1)
            .unwrap_or(content);
        let messages = post_evaluation_messages(&self.prompt_context(index), &judged);
        let link = self.closing_link(&winner, index);
        let sink = link.sink().clone();
        let task = EvaluationTask {
            link,
            messages: Arc::new(messages),
        };
        self.presentation = Some(Running::spawn(post_evaluation::run(task), move |result| {
            sink.evaluated(
                result.unwrap_or_else(|message| PostEvaluationOutcome::Failed { message }),
            );
        }));
    }

    pub(super) fn on_evaluated(&mut self, outcome: PostEvaluationOutcome) {
        let Phase::Evaluating {
            winner,
            content,
            fallback,
            ..
        } = &self.phase
        else {
            return;
        };
        let (winner, content, fallback) = (winner.clone(), content.clone(), *fallback);
        self.emit(
            Some(&winner),
            EventMsg::PostEvaluationFinished {
                outcome: outcome.clone(),
            },
        );
        match outcome {
            PostEvaluationOutcome::RestartRequested {
                reason,
                instructions,
            } => {
                self.phase = Phase::Done;
                self.status(&winner, AgentStatus::Restarting);
                self.attempts.pending_restart = Some(Restart {
                    reason,
                    instructions,
                    previous_answer: content,
                });
            }
            PostEvaluationOutcome::Submitted | PostEvaluationOutcome::Failed { .. } => {
                self.deliver_final_answer(content, fallback);
            }
        }
    }

    /// Starts the next attempt from nothing: no answers, votes or winner; a fresh
    /// orchestrator timeout; the winner's feedback in front of every round's message.
    pub(super) async fn begin_next_attempt(&mut self, restart: Restart) {
        self.attempts.begin_next(&restart);
        self.rotate_log().await;
        self.emit(
            None,
            EventMsg::OrchestrationRestarted {
                attempt: self.attempts.number,
                max_attempts: self.attempts.max,
                reason: restart.reason,
                instructions: restart.instructions,
                log_dir: self.emitter.log().map(|log| log.dir().to_path_buf()),
            },
        );
        self.coordination = Coordination::among(
            self.coordination.mapping().clone(),
            self.settings.participants.clone(),
            self.settings.rules.clone(),
        );
        self.stop_rounds();
        self.rounds.clear_for_next_attempt();
        self.ending.clear_for_next_attempt();
        self.deadline = super::deadline_after(Instant::now(), self.timeout());
        self.phase = Phase::Coordinating;
        for agent in self.coordination.agents().to_vec() {
            self.status(&agent, AgentStatus::Waiting);
        }
        self.start_due_rounds();
    }

    /// Closes this attempt's log (writing its derived files) and opens the next one's,
    /// `attempt_N/` beside it.
    async fn rotate_log(&mut self) {
        let Some(previous) = self.emitter.swap_log(None) else {
            return;
        };
        let next = previous
            .dir()
            .with_file_name(format!("attempt_{}", self.attempts.number));
        let previous = previous.close().await;
        let opened = tokio::task::spawn_blocking(move || {
            if let (_, Err(error)) = derived::write_derived(&previous) {
                tracing::warn!(%error, "the attempt's derived log files were not written");
            }
            TurnLog::open(next)
        })
        .await
        .unwrap_or_else(|error| Err(std::io::Error::other(error)));
        match opened {
            Ok(mut log) => {
                log.keep_status_current();
                self.emitter.swap_log(Some(log));
            }
            Err(error) => self.emit(
                None,
                EventMsg::Warning {
                    message: format!(
                        "the next attempt is not logged: its log directory could not be \
                         created ({error})"
                    ),
                },
            ),
        }
    }
}

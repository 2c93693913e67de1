//! The end of a turn: the winner, the final presentation (or its fallback), timeout,
//! cancellation and the closing `TurnFinished`.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::{Driver, Phase, Running, TurnReport};
use crate::orchestrator::coordination::{Candidates, WinnerDecision};
use crate::orchestrator::presentation::{self, PresentationTask};
use crate::orchestrator::prompts::presentation::{Presentation, presentation_messages};
use crate::protocol::{
    AgentId, AgentStatus, AnswerLabel, EventMsg, FinalAnswerStrategy, PostEvaluationOutcome,
    TimeoutScope, TurnOutcome,
};

/// The least time a winner gets to present, even when coordination ended near the deadline.
const PRESENTATION_GRACE: Duration = Duration::from_secs(30);

/// How the turn is ending, as far as it has got: the winner and the final answer, and
/// whether it was cancelled, timed out or asked to shut down.
#[derive(Default)]
pub(super) struct Ending {
    pub(super) winner: Option<AgentId>,
    pub(super) final_answer: Option<String>,
    /// The winner's presentation call produced the final answer (not its stored answer).
    pub(super) presented_live: bool,
    /// How the turn ended when that was decided outright (cancelled).
    pub(super) outcome: Option<TurnOutcome>,
    pub(super) timed_out: bool,
    /// The user asked for the answer now: no post-evaluation sends it back.
    pub(super) answered_now: bool,
    /// The front end asked to stop the runtime during this turn.
    pub(super) shutdown: bool,
    /// The plan a planning turn left ready, when one did.
    pub(super) ready_plan: Option<String>,
    /// Memory mode: the agents' memories were merged into the winner's workspace.
    pub(super) memory_merged: bool,
}

impl Ending {
    /// How the turn ends: as recorded (cancelled), else by its timeout and final answer.
    pub(super) fn outcome(&self) -> TurnOutcome {
        self.outcome.unwrap_or(if self.timed_out {
            TurnOutcome::TimedOut
        } else if self.final_answer.is_some() {
            TurnOutcome::Completed
        } else {
            TurnOutcome::Failed
        })
    }

    /// Forgets the attempt's winner and final answer for the next one.
    pub(super) fn clear_for_next_attempt(&mut self) {
        self.winner = None;
        self.final_answer = None;
        self.presented_live = false;
    }
}

impl Driver<'_> {
    pub(super) fn cancel(&mut self) {
        let mut interrupted = self.stop_rounds();
        if let Some(running) = self.presentation.take() {
            running.stop();
            interrupted.extend(self.ending.winner.clone());
        }
        self.emit(None, EventMsg::Cancelled);
        for agent in self.coordination.agents().to_vec() {
            if interrupted.contains(&agent) {
                self.status(&agent, AgentStatus::Cancelled);
            }
        }
        self.ending.outcome = Some(TurnOutcome::Cancelled);
        self.phase = Phase::Done;
    }

    pub(super) fn on_timeout(&mut self) {
        let seconds = self.timeout().as_secs();
        self.ending.timed_out = true;
        self.emit(
            None,
            EventMsg::Timeout {
                scope: TimeoutScope::Orchestrator,
                seconds,
            },
        );
        self.stop_rounds();
        for agent in self.coordination.unfinished_agents() {
            self.status(&agent, AgentStatus::TimedOut);
        }
        if self.council.is_some() {
            self.council_timed_out();
            return;
        }
        let message = format!(
            "no answers available: the orchestrator timed out after {seconds} s before any \
             agent answered"
        );
        self.choose_winner(Candidates::PreferLive, true, message);
    }

    /// `skip_coordination_rounds` (a debug setting): no rounds; the first agent presents.
    pub(super) fn skip_coordination(&mut self) {
        let Some(first) = self.coordination.agents().first().cloned() else {
            self.phase = Phase::Done;
            return;
        };
        self.emit(
            None,
            EventMsg::Warning {
                message: "skip_coordination_rounds is on: no coordination; the first agent \
                          presents at once"
                    .into(),
            },
        );
        let decision = WinnerDecision {
            winner: first,
            tally: Vec::new(),
            is_tie: false,
            basis: crate::protocol::WinnerBasis::FirstAnswer,
        };
        self.announce_winner(decision, false);
    }

    pub(super) fn conclude_coordination(&mut self) {
        if self.council.is_some() {
            self.advance_council();
            return;
        }
        let message = "no agent produced an answer, so there is nothing to present".to_string();
        self.choose_winner(Candidates::AllAnswers, false, message);
    }

    /// Picks the winner among `candidates` and starts the presentation, or ends the turn
    /// with `no_answer` when nobody answered.
    pub(super) fn choose_winner(
        &mut self,
        candidates: Candidates,
        stored_answer_only: bool,
        no_answer: String,
    ) {
        match self.coordination.decide_winner(candidates) {
            Some(decision) => self.announce_winner(decision, stored_answer_only),
            None => {
                self.emit(None, EventMsg::Warning { message: no_answer });
                self.phase = Phase::Done;
            }
        }
    }

    /// Emits the winner and starts the presentation; `stored_answer_only` skips the model
    /// call and presents the winner's latest answer (used after a timeout).
    pub(super) fn announce_winner(&mut self, decision: WinnerDecision, stored_answer_only: bool) {
        let winner = decision.winner.clone();
        let Some(winner_anon) = self.coordination.mapping().anon(&winner).cloned() else {
            self.phase = Phase::Done;
            return;
        };
        self.ending.winner = Some(winner.clone());
        self.emit(
            Some(&winner),
            EventMsg::WinnerSelected {
                winner: winner.clone(),
                winner_anon: winner_anon.clone(),
                tally: decision.tally.clone(),
                is_tie: decision.is_tie,
                basis: decision.basis,
            },
        );
        let label = AnswerLabel::final_presentation(&winner_anon);
        let strategy = self.final_answer_strategy(stored_answer_only);
        self.emit(
            Some(&winner),
            EventMsg::FinalPresentationStarted {
                label: label.clone(),
                strategy,
            },
        );
        self.status(&winner, AgentStatus::Presenting);
        self.phase = Phase::Presenting {
            winner: winner.clone(),
            label,
            started: Instant::now(),
            deadline: self.presentation_deadline(),
        };
        let index = self.agent_index(&winner);
        let reuse = strategy == FinalAnswerStrategy::WinnerReuse;
        match index {
            Some(index)
                if !stored_answer_only && !reuse && !self.coordination.is_killed(&winner) =>
            {
                self.spawn_presentation(index, &winner, &decision, strategy);
            }
            // `winner_reuse`: the winner's answer is the final answer by design.
            Some(_) if reuse && !stored_answer_only => self.present_stored_answer_as(false),
            _ => self.present_stored_answer(),
        }
    }

    /// How this turn's final answer is made. `winner_reuse` presents after all when a
    /// context path may be written (only a presentation can write it, as in MassGen); a
    /// stored answer presented after a timeout is the winner's answer reused.
    fn final_answer_strategy(&self, stored_answer_only: bool) -> FinalAnswerStrategy {
        match self.settings.final_answer {
            _ if stored_answer_only => FinalAnswerStrategy::WinnerReuse,
            FinalAnswerStrategy::WinnerReuse if self.presentation_must_write() => {
                FinalAnswerStrategy::WinnerPresent
            }
            strategy => strategy,
        }
    }

    /// Several agents worked and a context path may be written: only a presentation can
    /// write it, so `winner_reuse` does not apply (as in MassGen).
    fn presentation_must_write(&self) -> bool {
        self.coordination.agents().len() > 1
            && self
                .task_kit
                .context_paths()
                .iter()
                .any(|path| path.permission == crate::config::Permission::Write)
    }

    pub(super) fn spawn_presentation(
        &mut self,
        index: usize,
        winner: &AgentId,
        decision: &WinnerDecision,
        strategy: FinalAnswerStrategy,
    ) {
        let feedback = self.coordination.feedback_for(winner);
        let answers = self.coordination.latest_answers();
        let work = self.subtask_work(&answers);
        let messages = presentation_messages(
            &self.prompt_context(index),
            &Presentation {
                winner,
                feedback: &feedback,
                tie_broken: decision.is_tie,
                answers: &answers,
                strategy,
                voted: decision.tally.iter().any(|count| count.votes > 0),
                decomposition: work.as_deref(),
            },
        );
        let link = self.closing_link(winner, index);
        let sink = link.sink().clone();
        let task = PresentationTask {
            link,
            messages: Arc::new(messages),
        };
        let merge = self.memory_merge(winner);
        self.ending.memory_merged |= merge.is_some();
        let work = async move {
            if let Some(merge) = merge {
                merge.await;
            }
            presentation::run(task).await
        };
        self.presentation = Some(Running::spawn(work, move |result| {
            sink.presented(result.and_then(|presented| presented));
        }));
    }

    pub(super) fn on_presented(&mut self, result: Result<String, String>) {
        if self.presentation.take().is_none() {
            return;
        }
        if self.council.is_some() {
            self.on_chairman_finished(result);
            return;
        }
        match result {
            Ok(content) => {
                self.ending.presented_live = true;
                self.complete_presentation(content, false);
            }
            Err(reason) => {
                self.emit(
                    None,
                    EventMsg::Warning {
                        message: format!(
                            "the final presentation failed ({reason}); presenting the winner's \
                             latest answer instead"
                        ),
                    },
                );
                self.present_stored_answer();
            }
        }
    }

    /// The turn's own deadline, but never less than a short grace from now, so a winner
    /// that is chosen just before the deadline still gets to present.
    pub(super) fn presentation_deadline(&self) -> Instant {
        let grace = self.timeout().min(PRESENTATION_GRACE);
        self.deadline
            .max(super::deadline_after(Instant::now(), grace))
    }

    pub(super) fn on_presentation_timeout(&mut self) {
        if let Some(running) = self.presentation.take() {
            running.stop();
        }
        let seconds = match &self.phase {
            Phase::Presenting { started, .. } => started.elapsed().as_secs(),
            Phase::Evaluating { .. } => {
                self.on_evaluated(PostEvaluationOutcome::Failed {
                    message: "the check ran out of time".into(),
                });
                return;
            }
            Phase::Coordinating | Phase::Done => 0,
        };
        self.emit(
            None,
            EventMsg::Timeout {
                scope: TimeoutScope::Presentation,
                seconds,
            },
        );
        self.present_stored_answer();
    }

    /// The winner's latest answer becomes the final answer because presenting failed or
    /// could not be done.
    pub(super) fn present_stored_answer(&mut self) {
        self.present_stored_answer_as(true);
    }

    fn present_stored_answer_as(&mut self, fallback: bool) {
        let Phase::Presenting { winner, .. } = &self.phase else {
            return;
        };
        if let Some(content) = self.council_stored_answer() {
            self.complete_presentation(content, fallback);
            return;
        }
        let content = self
            .coordination
            .latest_answer(winner)
            .map(|(_, content)| content.to_string())
            .unwrap_or_default();
        self.complete_presentation(content, fallback);
    }

    /// The final answer is ready: the winner checks it first when another attempt may
    /// follow, else it goes to the user.
    pub(super) fn complete_presentation(&mut self, content: String, fallback: bool) {
        if self.post_evaluation_due() {
            self.start_post_evaluation(content, fallback);
        } else {
            self.deliver_final_answer(content, fallback);
        }
    }

    pub(super) fn deliver_final_answer(&mut self, content: String, fallback: bool) {
        let (winner, label) = match std::mem::replace(&mut self.phase, Phase::Done) {
            Phase::Presenting { winner, label, .. } | Phase::Evaluating { winner, label, .. } => {
                (winner, label)
            }
            Phase::Coordinating | Phase::Done => return,
        };
        self.emit(
            Some(&winner),
            EventMsg::FinalPresentationDone {
                label,
                content: content.clone(),
                fallback,
            },
        );
        self.status(&winner, AgentStatus::Done);
        self.ending.final_answer = Some(content);
    }

    pub(super) fn finish(mut self) -> TurnReport {
        self.stop_rounds();
        if let Some(running) = self.presentation.take() {
            running.stop();
        }
        let outcome = self.ending.outcome();
        let duration_ms = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let winner = self
            .ending
            .winner
            .clone()
            .filter(|_| outcome != TurnOutcome::Cancelled);
        self.emit(
            None,
            EventMsg::TurnFinished {
                outcome,
                winner: winner.clone(),
                duration_ms,
            },
        );
        TurnReport {
            winner,
            final_answer: self.ending.final_answer,
            ready_plan: self.ending.ready_plan,
            outcome,
            shutdown: self.ending.shutdown,
            answers: self.coordination.all_answers(),
        }
    }
}

//! The chairman of a council or a debate in the turn driver: it synthesizes the final
//! answer from every answer and the aggregate ranking (or the debate's thread); when its
//! call fails the next member in order takes over, and when none can, the best-ranked (or
//! standing) answer is the final answer.

use std::sync::Arc;

use tokio::time::Instant;

use super::{Driver, Phase, Running};
use crate::backend::Message;
use crate::orchestrator::presentation::{self, PresentationTask};
use crate::orchestrator::prompts::council::synthesis_messages;
use crate::orchestrator::prompts::debate::debate_synthesis_messages;
use crate::protocol::{
    AgentId, AgentStatus, AnswerLabel, ChairmanBasis, EventMsg, FinalAnswerStrategy, Stage,
    StrategyEvent, WinnerBasis,
};

impl Driver<'_> {
    pub(super) fn start_chairman(&mut self, chairman: AgentId, basis: ChairmanBasis) {
        let (Some(index), Some(anon)) = (
            self.agent_index(&chairman),
            self.coordination.mapping().anon(&chairman).cloned(),
        ) else {
            self.council_without_chairman();
            return;
        };
        let messages = self.chairman_messages(index);
        let Some(run) = self.council.as_mut() else {
            return;
        };
        run.chairman = Some((chairman.clone(), basis.clone()));
        self.strategy_event(
            Some(&chairman),
            StrategyEvent::ChairmanChosen {
                chairman: chairman.clone(),
                basis,
            },
        );
        self.stage(Some(&chairman), Stage::Synthesis);
        self.ending.winner = Some(chairman.clone());
        self.emit(
            Some(&chairman),
            EventMsg::WinnerSelected {
                winner: chairman.clone(),
                winner_anon: anon.clone(),
                tally: Vec::new(),
                is_tie: false,
                basis: WinnerBasis::Chairman,
            },
        );
        let label = AnswerLabel::final_presentation(&anon);
        self.emit(
            Some(&chairman),
            EventMsg::FinalPresentationStarted {
                label: label.clone(),
                strategy: FinalAnswerStrategy::Synthesize,
            },
        );
        self.status(&chairman, AgentStatus::Presenting);
        self.phase = Phase::Presenting {
            winner: chairman.clone(),
            label,
            started: Instant::now(),
            deadline: self.presentation_deadline(),
        };
        let link = self.closing_link(&chairman, index);
        let sink = link.sink().clone();
        let task = PresentationTask {
            link,
            messages: Arc::new(messages),
        };
        self.presentation = Some(Running::spawn(presentation::run(task), move |result| {
            sink.presented(result.and_then(|presented| presented));
        }));
    }

    /// The chairman's synthesis ended: the final answer (with the footer), or the next
    /// chairman takes over.
    pub(super) fn on_chairman_finished(&mut self, result: Result<String, String>) {
        let Some(run) = self.council.as_mut() else {
            return;
        };
        let Some((chairman, _)) = run.chairman.clone() else {
            return;
        };
        let Some(council) = run.deliberation_mut() else {
            return;
        };
        match result {
            Ok(content) => {
                let footer = council.footer();
                // Displays that show the streamed answer get the footer streamed too.
                if let Some(footer) = &footer {
                    self.emit(
                        Some(&chairman),
                        EventMsg::FinalPresentationDelta {
                            text: format!("\n\n{footer}"),
                        },
                    );
                }
                self.ending.presented_live = true;
                self.deliver_final_answer(with_footer(content, footer), false);
                self.write_strategy_log();
            }
            Err(reason) => {
                council.member_failed(&chairman, &format!("as chairman: {reason}"));
                let next = council
                    .chairman_order(self.run.config.orchestrator.council.chairman.as_ref())
                    .into_iter()
                    .next();
                self.emit(
                    Some(&chairman),
                    EventMsg::AgentError {
                        message: reason.clone(),
                    },
                );
                self.status(&chairman, AgentStatus::Error);
                match next {
                    Some(next) => {
                        self.emit(
                            None,
                            EventMsg::Warning {
                                message: format!(
                                    "the chairman {chairman} failed ({reason}); {next} takes over"
                                ),
                            },
                        );
                        let basis = ChairmanBasis::Fallback {
                            failed: chairman,
                            reason,
                        };
                        self.start_chairman(next, basis);
                    }
                    None => self.council_without_chairman(),
                }
            }
        }
    }

    /// No chairman could synthesize: the best-ranked answer is the final answer.
    pub(super) fn council_without_chairman(&mut self) {
        let Some(run) = self.council.as_ref() else {
            return;
        };
        let standing = if run.debate.is_some() {
            "standing"
        } else {
            "best-ranked"
        };
        let Some(council) = run.deliberation() else {
            return;
        };
        let Some((best, content)) = council.best_answer() else {
            self.phase = Phase::Done;
            return;
        };
        let content = with_footer(content, council.footer());
        self.emit(
            None,
            EventMsg::Warning {
                message: format!(
                    "no chairman synthesized the answers; the {standing} answer ({best}'s) is the \
                     final answer"
                ),
            },
        );
        if !matches!(self.phase, Phase::Presenting { .. }) {
            let label = self
                .coordination
                .mapping()
                .anon(&best)
                .map(AnswerLabel::final_presentation);
            let Some(label) = label else {
                self.phase = Phase::Done;
                return;
            };
            self.ending.winner = Some(best.clone());
            self.phase = Phase::Presenting {
                winner: best,
                label,
                started: Instant::now(),
                deadline: self.presentation_deadline(),
            };
        }
        self.deliver_final_answer(content, true);
        self.write_strategy_log();
    }

    /// The final answer when the synthesis cannot run (its time is up): the best-ranked
    /// answer with the footer.
    pub(super) fn council_stored_answer(&self) -> Option<String> {
        let council = self.council.as_ref()?.deliberation()?;
        let (_, content) = council.best_answer()?;
        Some(with_footer(content, council.footer()))
    }

    /// The chairman's messages: the council's ranked answers, or the debate's thread.
    fn chairman_messages(&self, index: usize) -> Vec<Message> {
        let context = self.prompt_context(index);
        let Some(run) = self.council.as_ref() else {
            return Vec::new();
        };
        match (&run.debate, &run.state) {
            (Some(debate), _) => debate
                .state
                .as_ref()
                .map(|state| {
                    debate_synthesis_messages(
                        &context,
                        &state.final_answers(),
                        &state.last_critiques(),
                    )
                })
                .unwrap_or_default(),
            (None, Some(council)) => synthesis_messages(&context, &council.ranked_answers()),
            (None, None) => Vec::new(),
        }
    }

    /// The strategy's own log file: `rankings.json` or `debate.json`.
    pub(super) fn write_strategy_log(&mut self) {
        if self
            .council
            .as_ref()
            .is_some_and(|run| run.debate.is_some())
        {
            self.write_debate_log();
        } else {
            self.write_rankings();
        }
    }
}

pub(super) fn with_footer(content: String, footer: Option<String>) -> String {
    match footer {
        Some(footer) => format!("{}\n\n{footer}", content.trim_end()),
        None => content,
    }
}

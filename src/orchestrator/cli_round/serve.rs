//! The calls an agent CLI makes through its bridge during a round, run on the agent's task:
//! workflow calls judged by the driver, other tools run by the router with the round's time
//! limit and peers' new answers applied as for any agent.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use super::bridge::BridgeCall;
use crate::backend::{ToolCall, ToolSpec};
use crate::mcp::bridge::BridgeReply;
use crate::orchestrator::agent_link::AgentLink;
use crate::orchestrator::broadcast::is_broadcast_tool;
use crate::orchestrator::channel::{RoundEnd, RoundUpdate, Verdict};
use crate::orchestrator::prompts::updates;
use crate::orchestrator::round_clock::{RoundClock, ToolTime};
use crate::orchestrator::round_task::MAX_ATTEMPTS;
use crate::protocol::{EventMsg, RoundTimeStage};
use crate::tools::workflow::{self, WorkflowCall};
use crate::workspace::Workspaces;

/// How long a CLI may go on after its workflow call was accepted before it is stopped.
pub const WIND_DOWN: Duration = Duration::from_secs(20);

const RECORDED: &str = "Recorded. Your work for this round is done: make no more tool calls \
                        and end your turn now.";

pub struct Served<'a> {
    pub link: &'a AgentLink,
    pub clock: &'a mut RoundClock,
    pub answers_version: &'a mut watch::Receiver<u64>,
    pub workspace: Option<(Arc<Workspaces>, usize)>,
    pub round: u32,
    pub tools: &'a [ToolSpec],
    accepted: Option<RoundEnd>,
    rejections: u32,
}

/// What one call led to.
struct Handled {
    reply: BridgeReply,
    /// The round ends now (the CLI is stopped).
    end: Option<RoundEnd>,
}

impl<'a> Served<'a> {
    pub fn new(
        link: &'a AgentLink,
        clock: &'a mut RoundClock,
        answers_version: &'a mut watch::Receiver<u64>,
        workspace: Option<(Arc<Workspaces>, usize)>,
        round: u32,
        tools: &'a [ToolSpec],
    ) -> Self {
        Self {
            link,
            clock,
            answers_version,
            workspace,
            round,
            tools,
            accepted: None,
            rejections: 0,
        }
    }

    /// How the round ended if a workflow call was accepted before the CLI finished.
    pub fn take_accepted(&mut self) -> Option<RoundEnd> {
        self.accepted.take()
    }

    /// Serves calls until the round must end, and says how it ends.
    pub async fn serve(&mut self, calls: &mut mpsc::Receiver<BridgeCall>) -> RoundEnd {
        // Past its limit and grace the CLI is stopped: it may be deep in a tool of its own
        // and never call one of massgen's to be refused.
        let hard_limit = self
            .clock
            .limit()
            .map(|limit| (limit.soft + limit.grace).saturating_sub(self.clock.elapsed()));
        let hard_stop = sleep_or_never(hard_limit);
        tokio::pin!(hard_stop);
        loop {
            let wind_down = sleep_or_never(self.accepted.is_some().then_some(WIND_DOWN));
            tokio::select! {
                call = calls.recv() => {
                    let Some(BridgeCall { call, reply }) = call else {
                        std::future::pending::<()>().await;
                        continue;
                    };
                    let handled = self.handle(call).await;
                    let _ = reply.send(handled.reply);
                    if let Some(end) = handled.end {
                        return end;
                    }
                }
                () = wind_down => {
                    if let Some(end) = self.accepted.take() {
                        return end;
                    }
                }
                () = &mut hard_stop => {
                    self.link.sink().event(EventMsg::RoundTimeLimitReached {
                        stage: RoundTimeStage::Blocked,
                        elapsed_secs: self.clock.elapsed().as_secs(),
                    });
                    return self.accepted.take().unwrap_or(RoundEnd::TimedOut {
                        denials: self.clock.denials(),
                    });
                }
            }
        }
    }

    async fn handle(&mut self, call: ToolCall) -> Handled {
        let name = super::names::agent_name(self.tools, &call.name);
        let call = ToolCall { name, ..call };
        if workflow::is_workflow_tool(&call.name) {
            self.judge(&call).await
        } else {
            self.run_tool(&call).await
        }
    }

    async fn judge(&mut self, call: &ToolCall) -> Handled {
        if self.accepted.is_some() {
            return reply(RECORDED, false);
        }
        let parsed = match workflow::parse_call(call) {
            Ok(parsed) => parsed,
            Err(message) => return self.rejected(message, call),
        };
        let is_vote = matches!(
            parsed,
            WorkflowCall::Vote { .. }
                | WorkflowCall::Stop { .. }
                | WorkflowCall::Rank { .. }
                | WorkflowCall::Critique { .. }
        );
        match self.link.sink().propose(parsed).await {
            None => Handled {
                reply: BridgeReply {
                    text: "The turn has ended.".into(),
                    is_error: true,
                },
                end: Some(RoundEnd::Cancelled),
            },
            Some(Verdict::Accepted) => {
                self.accepted = Some(if is_vote {
                    RoundEnd::Voted
                } else {
                    RoundEnd::Answered
                });
                reply(RECORDED, false)
            }
            Some(Verdict::Ignored) => {
                self.accepted = Some(RoundEnd::VoteIgnored);
                reply(
                    "Not counted: coordination has moved on. End your turn now.",
                    false,
                )
            }
            Some(Verdict::Rejected { reason, message }) => {
                self.rejections += 1;
                if self.rejections >= MAX_ATTEMPTS {
                    return Handled {
                        reply: BridgeReply {
                            text: message.clone(),
                            is_error: true,
                        },
                        end: Some(RoundEnd::Exhausted {
                            reason,
                            detail: message,
                        }),
                    };
                }
                self.link.sink().event(EventMsg::EnforcementRetry {
                    attempt: self.rejections + 1,
                    max_attempts: MAX_ATTEMPTS,
                    reason,
                    detail: message.clone(),
                });
                reply(&message, true)
            }
        }
    }

    fn rejected(&mut self, message: String, call: &ToolCall) -> Handled {
        self.rejections += 1;
        let reason = crate::protocol::EnforcementReason::InvalidArguments;
        let end = (self.rejections >= MAX_ATTEMPTS).then(|| RoundEnd::Exhausted {
            reason,
            detail: message.clone(),
        });
        tracing::debug!(tool = %call.name, "a CLI's workflow call was malformed: {message}");
        Handled {
            reply: BridgeReply {
                text: message,
                is_error: true,
            },
            end,
        }
    }

    async fn run_tool(&mut self, call: &ToolCall) -> Handled {
        let time = self.clock.tool_time();
        if time == ToolTime::Blocked {
            return self.refuse(call);
        }
        let (mut text, is_error) = self.link.run_bridged(call).await;
        if time == ToolTime::WrapUp
            && let Some(limit) = self.clock.limit()
        {
            self.clock.mark_notified();
            text.push_str(&updates::wrap_up_notice(
                self.round,
                self.clock.elapsed(),
                limit.soft,
                limit.grace,
            ));
            self.link.sink().event(EventMsg::RoundTimeLimitReached {
                stage: RoundTimeStage::WrapUp,
                elapsed_secs: self.clock.elapsed().as_secs(),
            });
        }
        let end = self.news(call, &mut text).await;
        Handled {
            reply: BridgeReply { text, is_error },
            end,
        }
    }

    /// Peers' new answers since the last look: a restart, or their text added to `text`.
    async fn news(&mut self, call: &ToolCall, text: &mut String) -> Option<RoundEnd> {
        if is_broadcast_tool(&call.name) || !self.answers_version.has_changed().unwrap_or(false) {
            return None;
        }
        self.answers_version.borrow_and_update();
        match self
            .link
            .sink()
            .check_update(self.clock.allows_injection())
            .await
        {
            None => Some(RoundEnd::Cancelled),
            Some(RoundUpdate::None) => None,
            Some(RoundUpdate::Restart) => Some(RoundEnd::NewAnswersSeen),
            Some(RoundUpdate::Inject {
                text: injected,
                labels,
            }) => {
                if let Some((workspaces, index)) = &self.workspace
                    && let Err(error) = Arc::clone(workspaces).prepare_round(*index).await
                {
                    tracing::warn!("peers' work could not be copied: {error}");
                }
                text.push_str(&injected);
                self.link.sink().event(EventMsg::UpdateInjected { labels });
                None
            }
        }
    }

    fn refuse(&mut self, call: &ToolCall) -> Handled {
        let (message, ended) = self.link.refuse_past_limit(self.clock, call);
        Handled {
            reply: BridgeReply {
                text: message,
                is_error: true,
            },
            end: ended.then(|| RoundEnd::TimedOut {
                denials: self.clock.denials(),
            }),
        }
    }
}

fn reply(text: &str, is_error: bool) -> Handled {
    Handled {
        reply: BridgeReply {
            text: text.to_string(),
            is_error,
        },
        end: None,
    }
}

async fn sleep_or_never(duration: Option<Duration>) {
    match duration {
        Some(duration) => tokio::time::sleep(duration).await,
        None => std::future::pending().await,
    }
}

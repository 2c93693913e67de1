//! One agent round: call the model, run its tools, and end with exactly one accepted
//! workflow action, or fail after three attempts.

use std::sync::Arc;

use super::channel::{RoundEnd, RoundUpdate, Verdict};
use super::model_call::TextRole;
use super::prompts::{enforcement_message, memory, updates};
use super::round_clock::ToolTime;
use crate::backend::{AssistantTurn, BackendError, Message, ToolCall};
use crate::protocol::{EnforcementReason, EventMsg, RoundTimeStage};
use crate::tools::workflow::{self, WorkflowCall};

pub use super::round_task::{DebateReply, MAX_ATTEMPTS, MAX_TOOL_ROUNDS, RoundTask};

/// What to do after one model response.
enum Step {
    Done(RoundEnd),
    /// The response was refused; retry with this feedback already appended.
    Retry {
        reason: EnforcementReason,
        detail: String,
    },
    /// Tools ran; call the model again within the same attempt.
    Continue,
}

pub async fn run(mut task: RoundTask) -> RoundEnd {
    // Waits for the snapshot of the agent's last answer first: the plan file is part of it.
    copy_peers_work(&task).await;
    if task.memory {
        show_memories(&mut task).await;
    }
    if let Some(tools) = task.reset_plan.take() {
        for event in tools.reset(None).await {
            task.link.sink().event(event);
        }
    }
    let backend = task.link.model.backend();
    let end = match backend.agent_loop() {
        Some(agent_loop) => super::cli_round::attempts(&mut task, agent_loop).await,
        None => attempts(&mut task).await,
    };
    task.link.model.report_spent();
    end
}

async fn attempts(task: &mut RoundTask) -> RoundEnd {
    let mut attempt = 1;
    let mut tool_rounds = 0;
    let mut recovered = false;
    loop {
        task.context
            .before_call(task.link.sink(), &mut task.messages, &task.tools);
        let turn = match task
            .link
            .model
            .call_model(&task.messages, &task.tools, TextRole::Coordination)
            .await
        {
            Ok(turn) => turn,
            // Like MassGen, one compression and one retry; a second refusal drops the agent.
            Err(error @ BackendError::ContextLength { .. })
                if !std::mem::replace(&mut recovered, true) =>
            {
                if task
                    .context
                    .recover(&task.link.model, &mut task.messages, &task.tools)
                    .await
                {
                    continue;
                }
                return RoundEnd::Failed {
                    message: error.to_string(),
                };
            }
            Err(error) => {
                return RoundEnd::Failed {
                    message: error.to_string(),
                };
            }
        };
        task.context.after_call(task.link.sink(), &turn.usage);
        let step = match classify(&turn) {
            Response::Workflow(calls) => judge(task, &turn, &calls).await,
            Response::Tools if tool_rounds < MAX_TOOL_ROUNDS => {
                tool_rounds += 1;
                run_tools_in_time(task, &turn).await
            }
            Response::Tools => {
                tool_rounds = 0;
                nudge(task, &turn.text, "");
                Step::Retry {
                    reason: EnforcementReason::ToolLoop,
                    detail: format!(
                        "more than {MAX_TOOL_ROUNDS} tool round-trips without a workflow call"
                    ),
                }
            }
            Response::Nothing if task.ranking.is_some() => ranked_in_text(task, &turn).await,
            Response::Nothing if task.debate.is_some() => debated_in_text(task, &turn).await,
            Response::Nothing => {
                nudge(task, &turn.text, &turn.text);
                Step::Retry {
                    reason: EnforcementReason::NoWorkflowTool,
                    detail: "the reply called neither `vote` nor `new_answer`".into(),
                }
            }
        };
        match step {
            Step::Done(end) => return end,
            Step::Continue => {}
            Step::Retry { reason, detail } => {
                // Like MassGen, each new attempt first checks for answers that arrived
                // meanwhile; the agent restarts with them instead of retrying blind.
                if task.answers_version.has_changed().unwrap_or(false)
                    && task.link.sink().check_update(false).await == Some(RoundUpdate::Restart)
                {
                    return RoundEnd::NewAnswersSeen;
                }
                if attempt >= MAX_ATTEMPTS {
                    return RoundEnd::Exhausted { reason, detail };
                }
                attempt += 1;
                task.link.sink().event(EventMsg::EnforcementRetry {
                    attempt,
                    max_attempts: MAX_ATTEMPTS,
                    reason,
                    detail,
                });
            }
        }
    }
}

/// Runs the reply's tools, unless the round's time is up (they are refused), then tells
/// the agent what changed meanwhile: its time limit, peers' new answers.
async fn run_tools_in_time(task: &mut RoundTask, turn: &AssistantTurn) -> Step {
    let time = task.clock.tool_time();
    if time == ToolTime::Blocked {
        return refuse_tools(task, turn);
    }
    task.link
        .run_tools(Arc::make_mut(&mut task.messages), turn)
        .await;
    if time == ToolTime::WrapUp
        && let Some(limit) = task.clock.limit()
    {
        task.clock.mark_notified();
        let notice =
            updates::wrap_up_notice(task.round, task.clock.elapsed(), limit.soft, limit.grace);
        append_to_last_tool_result(Arc::make_mut(&mut task.messages).as_mut_slice(), &notice);
        task.link.sink().event(EventMsg::RoundTimeLimitReached {
            stage: RoundTimeStage::WrapUp,
            elapsed_secs: task.clock.elapsed().as_secs(),
        });
    }
    // Replies to a question are read before restarting for new answers: a restart would
    // throw them away and the agent would ask again.
    let asked = turn
        .tool_calls
        .iter()
        .any(|call| super::broadcast::is_broadcast_tool(&call.name));
    if asked || !task.answers_version.has_changed().unwrap_or(false) {
        return Step::Continue;
    }
    task.answers_version.borrow_and_update();
    match task
        .link
        .sink()
        .check_update(task.clock.allows_injection())
        .await
    {
        None => Step::Done(RoundEnd::Cancelled),
        Some(RoundUpdate::None) => Step::Continue,
        Some(RoundUpdate::Restart) => Step::Done(RoundEnd::NewAnswersSeen),
        Some(RoundUpdate::Inject { text, labels }) => {
            copy_peers_work(task).await;
            append_to_last_tool_result(Arc::make_mut(&mut task.messages).as_mut_slice(), &text);
            task.link.sink().event(EventMsg::UpdateInjected { labels });
            Step::Continue
        }
    }
}

/// Past the grace period every tool call is refused; after too many in a row the round
/// ends.
fn refuse_tools(task: &mut RoundTask, turn: &AssistantTurn) -> Step {
    Arc::make_mut(&mut task.messages).push(Message::Assistant {
        content: turn.text.clone(),
        tool_calls: turn.tool_calls.clone(),
        reasoning: turn.reasoning_blocks.clone(),
    });
    let mut ended = false;
    for call in &turn.tool_calls {
        let (message, last) = task.link.refuse_past_limit(&mut task.clock, call);
        ended |= last;
        Arc::make_mut(&mut task.messages).push(Message::Tool {
            call_id: call.id.clone(),
            name: call.name.clone(),
            content: message,
            is_error: true,
        });
    }
    if ended {
        Step::Done(RoundEnd::TimedOut {
            denials: task.clock.denials(),
        })
    } else {
        Step::Continue
    }
}

fn append_to_last_tool_result(messages: &mut [Message], text: &str) {
    if let Some(Message::Tool { content, .. }) = messages
        .iter_mut()
        .rev()
        .find(|message| matches!(message, Message::Tool { .. }))
    {
        content.push_str(text);
    }
}

/// Fills the agent's temporary workspace with its peers' latest work.
async fn copy_peers_work(task: &RoundTask) {
    if let Some((workspaces, index)) = task.workspace.clone()
        && let Err(error) = workspaces.prepare_round(index).await
    {
        task.link.sink().event(EventMsg::Warning {
            message: format!(
                "peers' work could not be copied into the temporary workspace: {error}"
            ),
        });
    }
}

/// Adds the memory section (own and peers' memories) to the round's system prompt.
async fn show_memories(task: &mut RoundTask) {
    let Some((workspaces, index)) = task.workspace.clone() else {
        return;
    };
    match workspaces.memory_view(index).await {
        Ok(view) => {
            memory::add_to_system_prompt(Arc::make_mut(&mut task.messages).as_mut_slice(), &view);
        }
        Err(error) => task.link.sink().event(EventMsg::Warning {
            message: format!("the memory files could not be read: {error}"),
        }),
    }
}

/// Records a reply that made no workflow call and asks the model to make one, quoting
/// `partial_text` back if there is any.
fn nudge(task: &mut RoundTask, reply: &str, partial_text: &str) {
    Arc::make_mut(&mut task.messages).push(Message::assistant(reply, Vec::new()));
    Arc::make_mut(&mut task.messages).push(Message::user(enforcement_message(
        task.vote_only,
        partial_text,
    )));
}

/// A ranking round's reply in text: its "FINAL RANKING:" list goes to the driver as a
/// `rank` from text; with none, the model is asked again.
async fn ranked_in_text(task: &mut RoundTask, turn: &AssistantTurn) -> Step {
    let labels = task.ranking.clone().unwrap_or_default();
    let Some(ranking) = super::coordination::ranking::parse_text_ranking(&turn.text, &labels)
    else {
        Arc::make_mut(&mut task.messages).push(Message::assistant(&turn.text, Vec::new()));
        Arc::make_mut(&mut task.messages).push(Message::user(
            super::prompts::council::ranking_reminder(&turn.text, &labels),
        ));
        return Step::Retry {
            reason: EnforcementReason::NoWorkflowTool,
            detail: "the reply neither called `rank` nor ended with a FINAL RANKING: list".into(),
        };
    };
    let call = WorkflowCall::Rank {
        ranking,
        reasoning: turn.text.clone(),
        source: crate::protocol::RankingSource::Text,
    };
    propose_from_text(task, turn, call).await
}

/// A debate round's reply in text: a critique of every peer shown, or the revised answer;
/// an empty reply is asked again.
async fn debated_in_text(task: &mut RoundTask, turn: &AssistantTurn) -> Step {
    let text = turn.text.trim();
    let call = match task.debate.clone() {
        Some(DebateReply::Critique { peers }) if text.is_empty() => {
            Arc::make_mut(&mut task.messages).push(Message::assistant(&turn.text, Vec::new()));
            Arc::make_mut(&mut task.messages).push(Message::user(
                super::prompts::debate::critique_reminder(&peers),
            ));
            return Step::Retry {
                reason: EnforcementReason::NoWorkflowTool,
                detail: "the reply neither called `critique` nor critiqued in text".into(),
            };
        }
        Some(DebateReply::Critique { peers }) => WorkflowCall::Critique {
            critiques: peers
                .into_iter()
                .map(|agent| crate::tools::critique::CritiqueEntry {
                    agent,
                    critique: text.to_string(),
                })
                .collect(),
            from_text: true,
        },
        Some(DebateReply::Revision) | None if text.is_empty() => {
            nudge(task, &turn.text, "");
            return Step::Retry {
                reason: EnforcementReason::NoWorkflowTool,
                detail: "the reply neither called `new_answer` nor wrote a revised answer".into(),
            };
        }
        Some(DebateReply::Revision) | None => WorkflowCall::NewAnswer {
            content: text.to_string(),
        },
    };
    propose_from_text(task, turn, call).await
}

/// Proposes a workflow call read from a reply's text; a refusal is told to the model.
async fn propose_from_text(task: &mut RoundTask, turn: &AssistantTurn, call: WorkflowCall) -> Step {
    match task.link.sink().propose(call).await {
        None => Step::Done(RoundEnd::Cancelled),
        Some(Verdict::Accepted) => Step::Done(RoundEnd::Voted),
        Some(Verdict::Ignored) => Step::Done(RoundEnd::VoteIgnored),
        Some(Verdict::Rejected { reason, message }) => {
            Arc::make_mut(&mut task.messages).push(Message::assistant(&turn.text, Vec::new()));
            Arc::make_mut(&mut task.messages).push(Message::user(message.clone()));
            Step::Retry {
                reason,
                detail: message,
            }
        }
    }
}

enum Response {
    Workflow(Vec<ToolCall>),
    /// Only other tools: run them and call the model again.
    Tools,
    Nothing,
}

/// Workflow calls win over other tools in the same response.
fn classify(turn: &AssistantTurn) -> Response {
    let workflow_calls: Vec<ToolCall> = turn
        .tool_calls
        .iter()
        .filter(|call| workflow::is_workflow_tool(&call.name))
        .cloned()
        .collect();
    if !workflow_calls.is_empty() {
        Response::Workflow(workflow_calls)
    } else if !turn.tool_calls.is_empty() {
        Response::Tools
    } else {
        Response::Nothing
    }
}

/// Checks the shape of the workflow calls, then lets the driver judge the one call.
async fn judge(task: &mut RoundTask, turn: &AssistantTurn, calls: &[ToolCall]) -> Step {
    let refuse = |task: &mut RoundTask, reason: EnforcementReason, message: String| {
        Arc::make_mut(&mut task.messages).push(Message::Assistant {
            content: turn.text.clone(),
            tool_calls: calls.to_vec(),
            reasoning: turn.reasoning_blocks.clone(),
        });
        for call in calls {
            Arc::make_mut(&mut task.messages).push(Message::Tool {
                call_id: call.id.clone(),
                name: call.name.clone(),
                content: message.clone(),
                is_error: true,
            });
        }
        Step::Retry {
            reason,
            detail: message,
        }
    };
    let [call] = calls else {
        return refuse(
            task,
            EnforcementReason::MultipleWorkflowCalls,
            "Make exactly one workflow call per reply: either `vote` or `new_answer`, once.".into(),
        );
    };
    let parsed = match workflow::parse_call(call) {
        Ok(parsed) => parsed,
        Err(message) => return refuse(task, EnforcementReason::InvalidArguments, message),
    };
    let is_vote = matches!(
        parsed,
        WorkflowCall::Vote { .. } | WorkflowCall::Stop { .. } | WorkflowCall::Rank { .. }
    );
    match task.link.sink().propose(parsed).await {
        None => Step::Done(RoundEnd::Cancelled),
        Some(Verdict::Accepted) if is_vote => Step::Done(RoundEnd::Voted),
        Some(Verdict::Accepted) => Step::Done(RoundEnd::Answered),
        Some(Verdict::Ignored) => Step::Done(RoundEnd::VoteIgnored),
        Some(Verdict::Rejected { reason, message }) => refuse(task, reason, message),
    }
}

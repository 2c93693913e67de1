//! The winner's check of its final answer (MassGen's post-evaluation): a separate model
//! call with `submit` and `restart_orchestration` plus its usual tools. A call that ends
//! without a decision leaves the answer as it is, as in MassGen.

use std::sync::Arc;

use super::agent_link::AgentLink;
use super::agent_round::MAX_TOOL_ROUNDS;
use super::cli_round::plain;
use super::model_call::TextRole;
use super::presentation::Presenting;
use crate::backend::Message;
use crate::mcp::bridge::BridgeReply;
use crate::protocol::PostEvaluationOutcome;
use crate::tools::post_evaluation::{
    Decision, is_post_evaluation_tool, parse_decision, post_evaluation_tools,
};

/// Malformed decisions allowed before the check gives up.
const MAX_BAD_DECISIONS: u32 = 3;

pub struct EvaluationTask {
    pub link: AgentLink,
    pub messages: Arc<Vec<Message>>,
}

pub async fn run(mut task: EvaluationTask) -> PostEvaluationOutcome {
    let router = Arc::clone(&task.link.router);
    // It checks the files the presentation wrote, with the presenter's access.
    router.set_presenting(true);
    let _presenting = Presenting(router);
    let outcome = evaluate(&mut task).await;
    task.link.model.report_spent();
    outcome
}

async fn evaluate(task: &mut EvaluationTask) -> PostEvaluationOutcome {
    let mut tools = post_evaluation_tools();
    tools.extend(task.link.turn_tools.specs(true));
    tools.extend(task.link.router.tools());
    let backend = task.link.model.backend();
    if let Some(agent_loop) = backend.agent_loop() {
        return evaluate_in_cli(task, agent_loop, &tools).await;
    }
    let mut bad_decisions = 0;
    for _ in 0..=MAX_TOOL_ROUNDS {
        let turn = match task
            .link
            .model
            .call_model(&task.messages, &tools, TextRole::Quiet)
            .await
        {
            Ok(turn) => turn,
            Err(error) => {
                return PostEvaluationOutcome::Failed {
                    message: error.to_string(),
                };
            }
        };
        let Some(call) = turn
            .tool_calls
            .iter()
            .find(|call| is_post_evaluation_tool(&call.name))
        else {
            if turn.tool_calls.is_empty() {
                return PostEvaluationOutcome::Failed {
                    message: "it called neither `submit` nor `restart_orchestration`".into(),
                };
            }
            task.link
                .run_tools(Arc::make_mut(&mut task.messages), &turn)
                .await;
            continue;
        };
        match parse_decision(call) {
            Ok(Decision::Submit) => return PostEvaluationOutcome::Submitted,
            Ok(Decision::Restart {
                reason,
                instructions,
            }) => {
                return PostEvaluationOutcome::RestartRequested {
                    reason,
                    instructions,
                };
            }
            Err(message) => {
                bad_decisions += 1;
                if bad_decisions >= MAX_BAD_DECISIONS {
                    return PostEvaluationOutcome::Failed { message };
                }
                Arc::make_mut(&mut task.messages).push(Message::Assistant {
                    content: turn.text.clone(),
                    tool_calls: turn.tool_calls.clone(),
                    reasoning: turn.reasoning_blocks.clone(),
                });
                for other in &turn.tool_calls {
                    Arc::make_mut(&mut task.messages).push(Message::Tool {
                        call_id: other.id.clone(),
                        name: other.name.clone(),
                        content: message.clone(),
                        is_error: true,
                    });
                }
            }
        }
    }
    PostEvaluationOutcome::Failed {
        message: format!("more than {MAX_TOOL_ROUNDS} tool round-trips without a decision"),
    }
}

/// The check by an agent CLI: its decision arrives through the bridge and is taken here;
/// the first well-formed one counts.
async fn evaluate_in_cli(
    task: &EvaluationTask,
    agent_loop: &dyn crate::backend::AgentLoop,
    tools: &[crate::backend::ToolSpec],
) -> PostEvaluationOutcome {
    let decided: std::sync::Mutex<Option<Decision>> = std::sync::Mutex::new(None);
    let intercept = |call: &crate::backend::ToolCall| {
        if !is_post_evaluation_tool(&call.name) {
            return None;
        }
        Some(match parse_decision(call) {
            Ok(decision) => {
                if let Ok(mut slot) = decided.lock() {
                    slot.get_or_insert(decision);
                }
                BridgeReply {
                    text: "Recorded. End your turn now.".into(),
                    is_error: false,
                }
            }
            Err(message) => BridgeReply {
                text: message,
                is_error: true,
            },
        })
    };
    let called = plain::call(
        &task.link,
        agent_loop,
        &task.messages,
        tools,
        TextRole::Quiet,
        &intercept,
    )
    .await;
    let decision = decided.lock().ok().and_then(|mut slot| slot.take());
    match (decision, called) {
        (Some(Decision::Submit), _) => PostEvaluationOutcome::Submitted,
        (
            Some(Decision::Restart {
                reason,
                instructions,
            }),
            _,
        ) => PostEvaluationOutcome::RestartRequested {
            reason,
            instructions,
        },
        (None, Err(error)) => PostEvaluationOutcome::Failed {
            message: error.to_string(),
        },
        (None, Ok(_)) => PostEvaluationOutcome::Failed {
            message: "it called neither `submit` nor `restart_orchestration`".into(),
        },
    }
}

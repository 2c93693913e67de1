//! One round of an agent CLI: the CLI runs its own loop, and the calls it makes to massgen's
//! tools arrive through the bridge and run here — workflow calls judged by the driver as
//! any agent's, other tools run by the agent's router. The round ends when a workflow call
//! is accepted (the CLI is given a moment to finish, then stopped), when peers' answers
//! call for a restart, at the round's hard time limit, or after three starts without one.

pub mod bridge;
mod names;
pub mod plain;
mod serve;

use std::sync::Arc;

use self::names::bridged_tools;
use self::serve::Served;
use super::agent_link::AgentLink;
use super::channel::{RoundEnd, RoundUpdate};
use super::model_call::TextRole;
use super::prompts::enforcement_message;
use super::round_task::{MAX_ATTEMPTS, RoundTask};
use crate::backend::{AgentLoop, Message};
use crate::protocol::{EnforcementReason, EventMsg};

/// The round of an agent whose backend runs its own loop.
pub async fn attempts(task: &mut RoundTask, agent_loop: &dyn AgentLoop) -> RoundEnd {
    let tools = bridged_tools(&task.tools);
    let confinement = task.link.router.process_plan(true);
    let mut open = match bridge::open(agent_loop, tools, confinement).await {
        Ok(open) => open,
        Err(error) => {
            return RoundEnd::Failed {
                message: format!("the tool bridge for the agent's CLI could not start: {error}"),
            };
        }
    };
    let mut attempt = 1;
    loop {
        let RoundTask {
            link,
            messages,
            tools,
            clock,
            answers_version,
            workspace,
            round,
            ..
        } = &mut *task;
        let link: &AgentLink = link;
        let mut served = Served::new(
            link,
            clock,
            answers_version,
            workspace.clone(),
            *round,
            tools,
        );
        let call = link
            .model
            .call_model(messages, tools, TextRole::Coordination);
        let result = tokio::select! {
            result = call => Some(result),
            end = served.serve(&mut open.calls) => return end,
        };
        if let Some(end) = served.take_accepted() {
            return end;
        }
        let turn = match result {
            Some(Ok(turn)) => turn,
            Some(Err(error)) => {
                return RoundEnd::Failed {
                    message: error.to_string(),
                };
            }
            None => return RoundEnd::Cancelled,
        };
        if task.answers_version.has_changed().unwrap_or(false)
            && task.link.sink().check_update(false).await == Some(RoundUpdate::Restart)
        {
            return RoundEnd::NewAnswersSeen;
        }
        let detail = "the CLI finished without calling `vote` or `new_answer`".to_string();
        if attempt >= MAX_ATTEMPTS {
            return RoundEnd::Exhausted {
                reason: EnforcementReason::NoWorkflowTool,
                detail,
            };
        }
        attempt += 1;
        let messages = Arc::make_mut(&mut task.messages);
        messages.push(Message::assistant(turn.text.clone(), Vec::new()));
        messages.push(Message::user(enforcement_message(
            task.vote_only,
            &turn.text,
        )));
        task.link.sink().event(EventMsg::EnforcementRetry {
            attempt,
            max_attempts: MAX_ATTEMPTS,
            reason: EnforcementReason::NoWorkflowTool,
            detail,
        });
    }
}

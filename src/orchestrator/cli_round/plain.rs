//! A call of an agent CLI outside coordination (the final presentation, the winner's check
//! of it): its tools served through a bridge and run by the agent's router, except those
//! the caller takes itself (the check's decision).

use std::sync::Arc;

use tokio::sync::mpsc;

use super::bridge::{self, BridgeCall};
use crate::backend::{AgentLoop, AssistantTurn, BackendError, Message, ToolCall, ToolSpec};
use crate::mcp::bridge::BridgeReply;
use crate::orchestrator::agent_link::AgentLink;
use crate::orchestrator::model_call::TextRole;

/// What the caller does with a call it takes itself: the reply to give the CLI.
pub type Intercept<'a> = &'a (dyn Fn(&ToolCall) -> Option<BridgeReply> + Sync);

/// One start of the CLI with `messages`; its text is the turn's. A call `intercept`
/// answers is not run.
pub async fn call(
    link: &AgentLink,
    agent_loop: &dyn AgentLoop,
    messages: &Arc<Vec<Message>>,
    tools: &[ToolSpec],
    role: TextRole,
    intercept: Intercept<'_>,
) -> Result<AssistantTurn, BackendError> {
    let confinement = link.router.process_plan(true);
    let mut open = bridge::open(agent_loop, super::names::bridged_tools(tools), confinement)
        .await
        .map_err(|error| BackendError::Failed {
            message: format!("the tool bridge for the agent's CLI could not start: {error}"),
        })?;
    let call = link.model.call_model(messages, tools, role);
    tokio::select! {
        result = call => result,
        never = serve(link, tools, intercept, &mut open.calls) => match never {},
    }
}

async fn serve(
    link: &AgentLink,
    tools: &[ToolSpec],
    intercept: Intercept<'_>,
    calls: &mut mpsc::Receiver<BridgeCall>,
) -> std::convert::Infallible {
    loop {
        let Some(BridgeCall { call, reply }) = calls.recv().await else {
            return std::future::pending().await;
        };
        let call = ToolCall {
            name: super::names::agent_name(tools, &call.name),
            ..call
        };
        if let Some(taken) = intercept(&call) {
            let _ = reply.send(taken);
            continue;
        }
        let (text, is_error) = link.run_bridged(&call).await;
        let _ = reply.send(BridgeReply { text, is_error });
    }
}

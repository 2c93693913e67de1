//! A call of an agent CLI outside coordination (the final presentation): its tools served
//! through a bridge and run by the agent's router, with no workflow tools.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::bridge::{self, BridgeCall};
use crate::backend::{AgentLoop, AssistantTurn, BackendError, Message, ToolCall, ToolSpec};
use crate::mcp::bridge::BridgeReply;
use crate::orchestrator::agent_link::AgentLink;
use crate::orchestrator::model_call::TextRole;

/// One start of the CLI with `messages`; its text is the turn's.
pub async fn call(
    link: &AgentLink,
    agent_loop: &dyn AgentLoop,
    messages: &Arc<Vec<Message>>,
    tools: &[ToolSpec],
    role: TextRole,
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
        never = serve(link, tools, &mut open.calls) => match never {},
    }
}

async fn serve(
    link: &AgentLink,
    tools: &[ToolSpec],
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
        let (text, is_error) = link.run_bridged(&call).await;
        let _ = reply.send(BridgeReply { text, is_error });
    }
}

//! The winner's final presentation: a separate model call without workflow tools.

use std::sync::Arc;

use super::channel::AgentSink;
use super::inbox::HumanInbox;
use super::model_call::{TextRole, assistant_message, call_model, run_tools};
use crate::backend::{Backend, ChatRequest, Message};
use crate::tools::ToolRouter;

use super::agent_round::MAX_TOOL_ROUNDS;

pub struct PresentationTask {
    pub sink: AgentSink,
    pub backend: Arc<dyn Backend>,
    pub router: Arc<dyn ToolRouter>,
    pub inbox: HumanInbox,
    pub messages: Vec<Message>,
}

/// The presented text, or why there is none.
pub async fn run(mut task: PresentationTask) -> Result<String, String> {
    let tools = task.router.tools();
    for _ in 0..=MAX_TOOL_ROUNDS {
        let request = ChatRequest {
            messages: task.messages.clone(),
            tools: tools.clone(),
        };
        let turn = call_model(
            task.backend.as_ref(),
            request,
            &task.sink,
            TextRole::FinalPresentation,
        )
        .await
        .map_err(|error| error.to_string())?;
        if turn.tool_calls.is_empty() {
            return if turn.text.trim().is_empty() {
                Err("the model returned an empty presentation".into())
            } else {
                Ok(turn.text)
            };
        }
        task.messages.push(assistant_message(&turn));
        let results = run_tools(
            task.router.as_ref(),
            &turn.tool_calls,
            &task.sink,
            &task.inbox,
        )
        .await;
        task.messages.extend(results);
    }
    Err(format!(
        "more than {MAX_TOOL_ROUNDS} tool round-trips during the presentation"
    ))
}

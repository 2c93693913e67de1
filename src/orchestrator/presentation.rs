//! The winner's final presentation: a separate model call without workflow tools.

use std::sync::Arc;

use super::agent_link::AgentLink;
use super::agent_round::MAX_TOOL_ROUNDS;
use super::cli_round::plain;
use super::model_call::TextRole;
use crate::backend::Message;
use crate::tools::ToolRouter;

pub struct PresentationTask {
    pub link: AgentLink,
    pub messages: Arc<Vec<Message>>,
}

/// The presented text, or why there is none.
pub async fn run(mut task: PresentationTask) -> Result<String, String> {
    let router = Arc::clone(&task.link.router);
    router.set_presenting(true);
    // Write access to context paths ends with the presentation, even a cancelled one.
    let _presenting = Presenting(router);
    let presented = present(&mut task).await;
    task.link.model.report_spent();
    presented
}

/// Write access to context paths while held; it ends when dropped, even on cancel.
pub(super) struct Presenting(pub(super) Arc<dyn ToolRouter>);

impl Drop for Presenting {
    fn drop(&mut self) {
        self.0.set_presenting(false);
    }
}

async fn present(task: &mut PresentationTask) -> Result<String, String> {
    let mut tools = task.link.turn_tools.specs(true);
    tools.extend(task.link.router.tools());
    let backend = task.link.model.backend();
    if let Some(agent_loop) = backend.agent_loop() {
        let turn = plain::call(
            &task.link,
            agent_loop,
            &task.messages,
            &tools,
            TextRole::FinalPresentation,
            &|_| None,
        )
        .await
        .map_err(|error| error.to_string())?;
        return presented_text(turn.text);
    }
    for _ in 0..=MAX_TOOL_ROUNDS {
        let turn = task
            .link
            .model
            .call_model(&task.messages, &tools, TextRole::FinalPresentation)
            .await
            .map_err(|error| error.to_string())?;
        if turn.tool_calls.is_empty() {
            return presented_text(turn.text);
        }
        task.link
            .run_tools(Arc::make_mut(&mut task.messages), &turn)
            .await;
    }
    Err(format!(
        "more than {MAX_TOOL_ROUNDS} tool round-trips during the presentation"
    ))
}

fn presented_text(text: String) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("the model returned an empty presentation".into())
    } else {
        Ok(text)
    }
}

//! `enable_multimodal_tools` as MassGen's cli/backends.py reads it: an agent's backend
//! key, else the orchestrator's, inherited. massgen offers `read_media` for it; the load
//! says once that MassGen's `generate_media` is not offered.

use super::Note;
use crate::config::backend_kind::BackendKind;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::provider_options::Api;
use crate::config::schema::AgentConfig;
use crate::config::yaml_node::Node;

/// Gives every agent whose backend does not set `enable_multimodal_tools` the
/// orchestrator's value, and notes what enabling it does not give.
pub(super) fn inherit_multimodal_tools(
    top: &Fields<'_>,
    agents: &mut [(AgentConfig, &Node)],
    notes: &mut Vec<Note>,
) -> Result<(), Problem> {
    let orchestrator = top
        .get("orchestrator")
        .and_then(|node| Fields::of(node, "orchestrator").ok());
    let inherited = match &orchestrator {
        Some(fields) => fields.bool("enable_multimodal_tools")?,
        None => None,
    };
    for (agent, node) in agents.iter_mut() {
        let sets_its_own = Fields::of(node, "agent")
            .ok()
            .and_then(|fields| fields.get("backend"))
            .and_then(|backend| Fields::of(backend, "backend").ok())
            .is_some_and(|backend| backend.get("enable_multimodal_tools").is_some());
        if !sets_its_own && let Some(enabled) = inherited {
            agent.backend.tools.multimodal_tools = enabled;
        }
    }
    if !agents
        .iter()
        .any(|(agent, _)| agent.backend.tools.multimodal_tools)
    {
        return Ok(());
    }
    notes.push(Note {
        loc: None,
        message: "enable_multimodal_tools: massgen offers MassGen's `read_media` (the agent's \
                  own model reads an image, PDF or audio file from its workspace); MassGen's \
                  `generate_media` (making images, video and audio) is not offered by massgen"
            .into(),
        ignored: None,
    });
    for (index, (agent, _)) in agents.iter_mut().enumerate().filter(|(_, (agent, _))| {
        agent.backend.tools.multimodal_tools && !offers_read_media(agent.backend.kind)
    }) {
        agent.backend.tools.multimodal_tools = false;
        let path = format!("agents[{index}].backend.enable_multimodal_tools");
        notes.push(Note {
            loc: None,
            message: format!(
                "ignored: {path} — agent `{}`'s {} backend runs its own agent loop and reads \
                 files with its own tools; massgen's `read_media` needs a model API to send \
                 the file to",
                agent.id,
                agent.backend.kind.name()
            ),
            ignored: Some(path),
        });
    }
    Ok(())
}

/// Whether an agent of `kind` gets `read_media`: model APIs (and the offline scripted
/// backend) do, agent CLIs do not.
fn offers_read_media(kind: BackendKind) -> bool {
    Api::of(kind).is_some() || kind == BackendKind::Scripted
}

#[cfg(test)]
#[path = "multimodal_tests.rs"]
mod tests;

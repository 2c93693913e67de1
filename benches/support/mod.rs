//! What the benches share: three agents and the start of a turn for them.

use massgen::protocol::{AgentId, AgentInfo, EventMsg, Mode};

pub fn agents() -> Vec<AgentInfo> {
    AgentInfo::roster(
        ["scout", "scholar", "critic"]
            .map(|id| (AgentId::new(id), "openai".to_string(), "gpt-5".to_string())),
    )
}

/// The turn every bench runs: one question to `agents`.
pub fn turn_started(agents: &[AgentInfo]) -> EventMsg {
    EventMsg::TurnStarted {
        question: "Compare three designs for the cache layer".into(),
        mode: Mode::Normal,
        agents: agents.to_vec(),
        log_dir: None,
        options: Default::default(),
    }
}

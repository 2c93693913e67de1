//! Groups of `EventMsg` variants that the log writers and displays pass over together,
//! as patterns: a `match` names a group in one line and stays exhaustive. A variant added
//! to a group is passed over by every `match` that names the group.

/// The run's own events, outside any turn's story: the run starting and stopping, the
/// agents replaced, the history cleared, a replay starting and ending, the saved plans and the
/// skills listed.
macro_rules! run_events {
    () => {
        $crate::protocol::EventMsg::RunStarted { .. }
            | $crate::protocol::EventMsg::RunFinished
            | $crate::protocol::EventMsg::AgentsReplaced { .. }
            | $crate::protocol::EventMsg::HistoryCleared
            | $crate::protocol::EventMsg::ReplayStarted { .. }
            | $crate::protocol::EventMsg::ReplayFinished { .. }
            | $crate::protocol::EventMsg::PlansListed { .. }
            | $crate::protocol::EventMsg::SkillsListed { .. }
    };
}

/// Tokens and cost: one model call's, and one round's.
macro_rules! usage_events {
    () => {
        $crate::protocol::EventMsg::Usage { .. } | $crate::protocol::EventMsg::RoundUsage { .. }
    };
}

/// An agent's workspace given and saved.
macro_rules! workspace_events {
    () => {
        $crate::protocol::EventMsg::WorkspaceAssigned { .. }
            | $crate::protocol::EventMsg::WorkspaceSnapshot { .. }
    };
}

/// Streamed text: an agent's answer and reasoning, and the final answer.
macro_rules! stream_deltas {
    () => {
        $crate::protocol::EventMsg::TextDelta { .. }
            | $crate::protocol::EventMsg::ReasoningDelta { .. }
            | $crate::protocol::EventMsg::FinalPresentationDelta { .. }
    };
}

/// A tool call starting and ending, and a tool the provider ran itself.
macro_rules! tool_calls {
    () => {
        $crate::protocol::EventMsg::ToolCallBegin { .. }
            | $crate::protocol::EventMsg::ToolCallEnd { .. }
            | $crate::protocol::EventMsg::ProviderTool(_)
    };
}

pub(crate) use {run_events, stream_deltas, tool_calls, usage_events, workspace_events};

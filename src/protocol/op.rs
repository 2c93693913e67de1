//! What a front end can ask of the orchestrator.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::approval::ApprovalAnswer;
use super::ids::{AgentId, AnswerLabel};
use super::plan::{QuestionReply, TurnOptions};

/// The interaction mode a question is submitted in (cycled with Shift+Tab in the TUI).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    #[default]
    Normal,
    Planning,
    Execute,
}

/// A path the user attached to a question (`@path` reads, `@path:w` may be written).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextPath {
    #[serde(serialize_with = "super::lossy_path::serialize")]
    pub path: PathBuf,
    pub writable: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// Start a turn on this question.
    Submit {
        text: String,
        mode: Mode,
        context_paths: Vec<ContextPath>,
        /// Depth, broadcast, plan to execute, single agent, refinement.
        #[serde(default)]
        options: TurnOptions,
    },
    /// Stop the running turn; whatever exists is kept.
    Cancel,
    /// End refinement now (MassGen's "Answer Now"): running rounds stop, everything already
    /// produced is kept, and the vote leader presents the best answer so far. Before any
    /// agent has answered, the turn goes on and a warning says why.
    AnswerNow,
    /// Text the user typed while a turn runs (or a steering message from `--inbox-dir`),
    /// delivered with each agent's next tool result: to `targets` only, or to every agent
    /// when `targets` is empty.
    InjectHumanInput {
        text: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<AgentId>,
    },
    /// The user's answer to a tool call waiting for approval (`ApprovalEvent::Asked`).
    AnswerApproval {
        request_id: String,
        answer: ApprovalAnswer,
    },
    /// The user's reply to an agent's `ask_others` question (`BroadcastAsked`), one entry
    /// per question; no entries means the user declined to answer.
    AnswerQuestion {
        request_id: String,
        replies: Vec<QuestionReply>,
    },
    /// List the saved plans (`PlansListed` answers).
    ListPlans,
    /// Forget the conversation so far: the next turn starts without history. Refused
    /// while a turn runs.
    ClearHistory,
    /// Finish the running turn's cancellation and stop the runtime.
    Shutdown,
    /// Replay only (`massgen replay --step`): play the next step of the recorded events.
    /// An orchestrator ignores it.
    Step,
    /// The user picks the answer `label` (e.g. `agent2.1`) as the final answer once voting
    /// is done: a running presentation stops and presents it instead; after the turn, the
    /// last turn's final answer in the conversation history becomes it.
    OverrideFinal { label: AnswerLabel },
    /// Between turns: run the next turns with the agents of this config (YAML, as the
    /// agents view writes it). Agents whose id and backend type stay keep their other
    /// settings; the orchestrator's settings stay. Refused while a turn runs.
    ReplaceAgents { yaml: String },
}

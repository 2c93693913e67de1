//! The language every part of massgen speaks: `Op`s go in, `Event`s come out.
//!
//! Plain serde data only. The orchestrator emits [`Event`]s; every front end, the session
//! log and replay consume the same stream. A new feature starts by adding a variant here.

mod approach;
mod approval;
mod attachment;
mod attachment_summary;
mod checklist;
mod criteria;
mod event;
mod event_kind;
mod event_parts;
mod ids;
mod lossy_path;
mod op;
mod plan;
mod plan_outcome;
mod provider_tool;
mod skill;
mod strategy;
pub mod symbols;
mod usage;

pub use approach::{DraftedApproach, Impact, PlannedImprovement, Preserved};
pub use approval::{
    Action, ApprovalAnswer, ApprovalEvent, ApprovalRecord, ApprovalRequest, Decider, GrantScope,
    Risk, Verdict,
};
pub use attachment::{
    Attachment, AttachmentContent, MediaKind, media_type_of_name, sendable, sniff,
};
pub use attachment_summary::{describe as describe_attachments, folded as folded_attachments};
pub use checklist::{ChecklistResult, ChecklistVerdict, CriterionScore};
pub use criteria::{CriteriaSource, EvalCriterion, category_of, criteria_from_list};
pub use event::{
    AgentInfo, AgentStatus, CompressionReason, EnforcementReason, Event, EventMsg,
    FAIRNESS_RELEASED_LINE, FinalAnswerStrategy, McpServerState, PostEvaluationOutcome,
    ResumedTurn, RoundTimeLimit, RoundTimeStage, SubtaskSource, TimeoutScope, TurnOutcome,
    VoteCount, WinnerBasis, compression_line, fairness_hold_line,
};
pub(crate) use event_kind::{
    run_events, stream_deltas, tool_calls, usage_events, workspace_events,
};
pub use ids::{AgentId, AnonId, AnonymousMapping, AnswerLabel};
pub use op::{ContextPath, Mode, Op};
pub use plan::{
    BroadcastTarget, PlanDepth, PlanInfo, PlanStatus, Question, QuestionOption, QuestionReply,
    TaskPriority, TaskProgress, TaskStatus, TaskView, TurnOptions, current_task,
};
pub use plan_outcome::{OpenTask, PlanOutcome};
pub use provider_tool::{ProviderToolCall, Source};
pub use skill::{SkillInfo, SkillSource};
pub use strategy::{ChairmanBasis, RankedStanding, RankingSource, Stage, Strategy, StrategyEvent};
pub use usage::{CallTiming, Spend, Usage};

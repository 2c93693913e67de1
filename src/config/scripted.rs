//! Options of the offline `scripted` backend, read from its `backend:` block.
//!
//! ```yaml
//! backend:
//!   type: scripted
//!   model: scripted-fast          # shown in the UI (default "scripted")
//!   tokens_per_second: 60         # 0 = as fast as possible
//!   first_token_ms: 300           # latency before the first token
//!   reasoning: "Let me think…"    # streamed as reasoning each round
//!   text: "Working on {question}" # streamed as text before acting each round
//!   answers: ["first", "better"]  # successive new_answer contents; {question} is filled in
//!   final_answer: "…"             # the final presentation (default: latest answer)
//!   vote_for: agent_b             # real id to vote for when it has an answer
//!   vote_reason: "most complete"
//!   tool_calls: [{name: search, arguments: {q: "x"}}]   # made once, before the first answer
//!   tool_call_rounds: 3           # instead: make tool_calls 3 times (one per response) in
//!                                 # every round, before answering or voting
//!   final_tool_calls: [...]       # made once, at the start of the final presentation
//!   post_evaluation: [{restart: "why", instructions: "what"}, submit]   # its decision
//!                                 # each time it checks its final answer (default submit)
//!   report_usage: false           # send no token usage, like many local servers
//!   fail: error                   # or {mode: error|no_workflow|hang|invalid_vote|truncate,
//!                                 #     after_tokens: 5, times: 2, message: "…"}
//!   planning_analysis: "IRREVERSIBLE: NO\nBLOCKED_TOOLS:"   # reply to the irreversibility
//!                                 # question of config planning mode (this is the default)
//!   personas: "{\"personas\": …}"  # reply to the persona generator (default: a
//!                                 # persona for each agent it names)
//!   criteria_reply: '{"criteria": [...]}'   # reply to evaluation_criteria_generator's
//!                                 # request (default: none, so the defaults are used)
//!   critic_reply: ['{"criteria": [...]}', …]   # criteria_mode bootstrap_subagent: the
//!                                 # critic's reply, the nth to its nth call (the last
//!                                 # repeats; default: none, so it proposes nothing)
//!   plan:                         # tasks written to project_plan.json in planning mode
//!     - "Sketch the layout"       # text = a description (id T001, T002, … by position)
//!     - {id: T2, description: "Build it", depends_on: [T001], priority: high,
//!        metadata: {verification: "it runs"}}   # default: five tasks from the question
//!   ask: "Which colour?"          # one ask_others question before the first answer, or
//!                                 # {question: "…", options: [{id: a, label: "A",
//!                                 #  description: "…"}, "B"], multi_select: false};
//!                                 # answers, final_answer and text may use {reply}
//!   with_reply: "Delivered as you chose: {reply}."   # added to its answers and final
//!                                 # answer once someone replied to its `ask` question
//!   checklist:                    # checklist-gated voting: submit_checklist scores, one
//!     - {E1: 9, E2: 8, E3: 6, E4: 7}   # per answer of its own; it answers again or votes
//!                                 # as the verdict says
//!   checklist_report: tasks/diagnostic_report.md   # its report_path for submit_checklist
//!   proposed_criteria:            # criteria_mode: bootstrap_inline: the proposed_criteria
//!     - [{text: "Cites sources", category: primary}]   # sent with the checklist of its
//!                                 # first answer, and so on (none after the list's end)
//!   approach: {plan: {E2: [{plan: "…", sources: [fresh], impact: structural}]}}
//!                                 # draft_approach arguments, sent after each new_answer
//!                                 # verdict before it answers again
//!   quiz: {answers: @examples/eval-demo, accuracy: 0.7, seed: 3}
//!                                 # answer from an answer key, right with that chance
//!                                 # (see `quiz`); votes with the peers' majority
//! ```

mod evaluation;
mod modes;
mod quiz;
mod strategy_roles;
#[cfg(test)]
mod tests;

use super::error::Problem;
use super::fields::Fields;
use crate::config::yaml_node::Value;
use crate::protocol::AgentId;

pub use quiz::QuizOptions;
pub use strategy_roles::{CouncilScript, DebateScript};

#[derive(Clone, Debug, PartialEq)]
pub struct ScriptedOptions {
    /// Streaming speed; 0 means no delay at all.
    pub tokens_per_second: f64,
    pub first_token_ms: u64,
    pub reasoning: Option<String>,
    pub text: Option<String>,
    /// The contents of successive `new_answer` calls. Never empty.
    pub answers: Vec<String>,
    pub final_answer: Option<String>,
    pub vote_for: Option<AgentId>,
    pub vote_reason: Option<String>,
    pub tool_calls: Vec<ScriptedToolCall>,
    /// `tool_calls` are made this many times in every round (one response each) before
    /// answering or voting; `None` = once, before the first answer.
    pub tool_call_rounds: Option<u32>,
    /// Made once when it presents the final answer as the winner.
    pub final_tool_calls: Vec<ScriptedToolCall>,
    /// Its decision at each post-evaluation, in order (`None`: no decision); past the end,
    /// `submit`.
    pub post_evaluation: Vec<Option<ScriptedToolCall>>,
    pub failure: Option<ScriptedFailure>,
    /// Whether each call ends with a usage report (local servers often send none).
    pub report_usage: bool,
    /// The plain-text reply to the irreversibility question of config planning mode.
    pub planning_analysis: String,
    /// The reply to the persona generator's request; `None` = a persona for each agent.
    pub personas: Option<String>,
    /// The plain-text reply to `evaluation_criteria_generator`'s request.
    pub criteria_reply: String,
    /// The replies to `criteria_mode: bootstrap_subagent`'s critic, one per call in order
    /// (the last repeats); empty = a reply with no criteria.
    pub critic_replies: Vec<String>,
    /// The tasks written to `project_plan.json` in planning mode: JSON objects with at
    /// least `id` and `description`. Empty = a default five-task plan from the question.
    pub plan: Vec<serde_json::Value>,
    /// The arguments of the one `ask_others` call made before the first answer:
    /// `{"question": …}` or `{"questions": [{"text", "options", "multiSelect"}]}`.
    pub ask: Option<serde_json::Value>,
    /// A paragraph added to its answers and final answer once its `ask` question got a
    /// reply, so the reply visibly shapes them; may use `{reply}`.
    pub with_reply: Option<String>,
    /// Under checklist-gated voting, the `scores` of its `submit_checklist` calls: the
    /// first while its first answer is its newest, and so on (the last one after that).
    pub checklist: Vec<serde_json::Value>,
    /// The `report_path` its `submit_checklist` calls pass.
    pub checklist_report: Option<String>,
    /// The `proposed_criteria` lists its `submit_checklist` calls send, by answer as
    /// `checklist` (none past the end).
    pub proposed_criteria: Vec<serde_json::Value>,
    /// The arguments of the `draft_approach` call it makes after a `new_answer` verdict.
    pub approach: Option<serde_json::Value>,
    /// How it behaves in a council's ranking round and as its chairman.
    pub council: CouncilScript,
    /// Answers questions from an answer key with a set accuracy (offline evals).
    pub quiz: Option<QuizOptions>,
    /// How it behaves in a debate's rounds.
    pub debate: DebateScript,
}

impl Default for ScriptedOptions {
    /// 40 tokens per second, no latency, one answer that repeats the question.
    fn default() -> Self {
        Self {
            tokens_per_second: 40.0,
            first_token_ms: 0,
            reasoning: None,
            text: None,
            answers: vec![DEFAULT_ANSWER.to_string()],
            final_answer: None,
            vote_for: None,
            vote_reason: None,
            tool_calls: Vec::new(),
            tool_call_rounds: None,
            final_tool_calls: Vec::new(),
            post_evaluation: Vec::new(),
            failure: None,
            report_usage: true,
            planning_analysis: DEFAULT_PLANNING_ANALYSIS.to_string(),
            personas: None,
            criteria_reply: String::new(),
            critic_replies: Vec::new(),
            plan: Vec::new(),
            ask: None,
            with_reply: None,
            checklist: Vec::new(),
            checklist_report: None,
            proposed_criteria: Vec::new(),
            approach: None,
            council: CouncilScript::default(),
            quiz: None,
            debate: DebateScript::default(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ScriptedToolCall {
    pub name: String,
    pub arguments: serde_json::Value,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ScriptedFailure {
    pub mode: FailureMode,
    /// Tokens streamed before the failure shows.
    pub after_tokens: usize,
    /// Fail only on the first N calls; `None` = every call.
    pub times: Option<u32>,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureMode {
    /// The stream fails with an error.
    Error,
    /// The response never calls `vote` or `new_answer`.
    NoWorkflow,
    /// The stream stops sending and never ends.
    Hang,
    /// Votes for an agent that does not exist.
    InvalidVote,
    /// The stream ends without its finish marker.
    Truncate,
}

impl FailureMode {
    const NAMES: [&'static str; 5] = ["error", "no_workflow", "hang", "invalid_vote", "truncate"];

    fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().replace('-', "_").as_str() {
            "error" => Some(Self::Error),
            "no_workflow" => Some(Self::NoWorkflow),
            "hang" => Some(Self::Hang),
            "invalid_vote" => Some(Self::InvalidVote),
            "truncate" => Some(Self::Truncate),
            _ => None,
        }
    }
}

/// Keys a scripted block may hold besides the common backend keys.
pub const SCRIPTED_KEYS: [&str; 33] = [
    "post_evaluation",
    "tokens_per_second",
    "first_token_ms",
    "reasoning",
    "text",
    "answer",
    "answers",
    "final_answer",
    "vote_for",
    "vote_reason",
    "tool_calls",
    "tool_call_rounds",
    "final_tool_calls",
    "fail",
    "report_usage",
    "planning_analysis",
    "personas",
    "criteria_reply",
    "critic_reply",
    "plan",
    "ask",
    "with_reply",
    "checklist",
    "checklist_report",
    "proposed_criteria",
    "approach",
    "rank_as_text",
    "rank_garbage",
    "fail_as_chairman",
    "quiz",
    "critique_as_text",
    "adopt_majority",
    "fail_in_debate",
];

/// Slowest and fastest streaming speeds (tokens per second) besides 0 (no delay).
const MIN_SPEED: f64 = 0.1;
const MAX_SPEED: f64 = 1_000_000.0;

const DEFAULT_ANSWER: &str = "This is a scripted answer to: {question}";

/// Nothing irreversible, nothing blocked.
const DEFAULT_PLANNING_ANALYSIS: &str = "IRREVERSIBLE: NO\nBLOCKED_TOOLS:";

pub fn parse(backend: &Fields<'_>) -> Result<ScriptedOptions, Problem> {
    let defaults = ScriptedOptions::default();
    let tokens_per_second = backend
        .number("tokens_per_second")?
        .unwrap_or(defaults.tokens_per_second);
    let valid = tokens_per_second == 0.0 || (MIN_SPEED..=MAX_SPEED).contains(&tokens_per_second);
    if !valid {
        return Err(Problem::at(
            backend
                .get("tokens_per_second")
                .map_or(backend.loc(), |node| node.loc),
            format!(
                "`{}` must be 0, or between {MIN_SPEED} and {MAX_SPEED}",
                backend.key_path("tokens_per_second")
            ),
        )
        .help("0 streams as fast as possible; 40 is a typical model speed"));
    }
    let mut answers = backend.strings("answers")?;
    if let Some(answer) = backend.string("answer")? {
        answers.insert(0, answer);
    }
    if answers.is_empty() {
        answers = defaults.answers;
    }
    Ok(ScriptedOptions {
        tokens_per_second,
        first_token_ms: backend.unsigned("first_token_ms")?.unwrap_or(0),
        reasoning: backend.string("reasoning")?,
        text: backend.string("text")?,
        answers,
        final_answer: backend.string("final_answer")?,
        vote_for: backend.string("vote_for")?.map(AgentId::new),
        vote_reason: backend.string("vote_reason")?,
        tool_calls: parse_tool_calls(backend, "tool_calls")?,
        tool_call_rounds: backend
            .unsigned("tool_call_rounds")?
            .map(|rounds| u32::try_from(rounds).unwrap_or(u32::MAX)),
        final_tool_calls: parse_tool_calls(backend, "final_tool_calls")?,
        post_evaluation: evaluation::parse_post_evaluation(backend)?,
        failure: parse_failure(backend)?,
        report_usage: backend.bool("report_usage")?.unwrap_or(true),
        planning_analysis: backend
            .string("planning_analysis")?
            .unwrap_or(defaults.planning_analysis),
        personas: backend.string("personas")?,
        criteria_reply: backend.string("criteria_reply")?.unwrap_or_default(),
        critic_replies: backend.strings("critic_reply")?,
        plan: modes::parse_plan(backend)?,
        ask: modes::parse_ask(backend)?,
        with_reply: backend.string("with_reply")?,
        checklist: modes::parse_checklist(backend)?,
        checklist_report: backend.string("checklist_report")?,
        proposed_criteria: modes::parse_proposed_criteria(backend)?,
        approach: modes::parse_approach(backend)?,
        council: CouncilScript::parse(backend)?,
        quiz: quiz::parse_quiz(backend)?,
        debate: DebateScript::parse(backend)?,
    })
}

fn parse_tool_calls(backend: &Fields<'_>, key: &str) -> Result<Vec<ScriptedToolCall>, Problem> {
    let Some(node) = backend.get(key) else {
        return Ok(Vec::new());
    };
    let Value::Seq(items) = &node.value else {
        return Err(backend.wrong_type(
            key,
            node,
            "a list",
            &format!("{key}: [{{name: search, arguments: {{query: \"x\"}}}}]"),
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let call = Fields::of(item, format!("{}[{index}]", backend.key_path(key)))?;
            let arguments = call
                .get("arguments")
                .map_or_else(|| serde_json::json!({}), |node| node.to_json());
            if !arguments.is_object() {
                return Err(Problem::at(
                    call.get("arguments").map_or(call.loc(), |node| node.loc),
                    format!("`{}` must be a mapping", call.key_path("arguments")),
                ));
            }
            Ok(ScriptedToolCall {
                name: call.required_string("name", "search")?,
                arguments,
            })
        })
        .collect()
}

fn parse_failure(backend: &Fields<'_>) -> Result<Option<ScriptedFailure>, Problem> {
    let Some(node) = backend.get("fail") else {
        return Ok(None);
    };
    if let Value::Str(_) = node.value {
        let mode = backend.choice("fail", &FailureMode::NAMES, FailureMode::from_name)?;
        return Ok(mode.map(|mode| ScriptedFailure {
            mode,
            after_tokens: 0,
            times: None,
            message: default_failure_message(mode),
        }));
    }
    let fail = Fields::of(node, backend.key_path("fail"))?;
    let Some(mode) = fail.choice("mode", &FailureMode::NAMES, FailureMode::from_name)? else {
        return Err(Problem::at(
            fail.loc(),
            format!("`{}` is missing", fail.key_path("mode")),
        )
        .help(format!(
            "add `mode: error` (one of {})",
            FailureMode::NAMES.join(", ")
        )));
    };
    let times = fail
        .unsigned("times")?
        .map(|times| u32::try_from(times).unwrap_or(u32::MAX));
    Ok(Some(ScriptedFailure {
        mode,
        after_tokens: usize::try_from(fail.unsigned("after_tokens")?.unwrap_or(0))
            .unwrap_or(usize::MAX),
        times,
        message: fail
            .string("message")?
            .unwrap_or_else(|| default_failure_message(mode)),
    }))
}

fn default_failure_message(mode: FailureMode) -> String {
    match mode {
        FailureMode::Error => "scripted failure: the model service returned an error".into(),
        FailureMode::NoWorkflow => "scripted failure: never calls a workflow tool".into(),
        FailureMode::Hang => "scripted failure: the stream stalls".into(),
        FailureMode::InvalidVote => "scripted failure: votes for an unknown agent".into(),
        FailureMode::Truncate => "scripted failure: the stream is cut off".into(),
    }
}

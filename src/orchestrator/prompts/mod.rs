//! The messages agents receive: the coordination system prompt, the tagged user message
//! with the current answers, enforcement nudges, and the final-presentation call.

use crate::backend::agent_cli::session::{HISTORY_CLOSE, HISTORY_OPEN};
use std::fmt::Write as _;

use crate::backend::Message;
use crate::config::{AfterFirstAnswer, NoveltyInjection, Sensitivity};
use crate::protocol::{AnonId, Attachment, EvalCriterion, TaskProgress};
use crate::workspace::skills::Skill;

use super::broadcast;
use super::coordination::{RoundView, answer_order};
use super::turn_tools::BroadcastSettings;

mod checklist;
mod code_tools;
pub mod council;
pub mod debate;
pub mod decomposition;
mod fast_iteration;
mod filesystem;
mod final_answer;
pub mod memory;
mod multimodal;
mod novelty_pressure;
mod permissions;
pub mod post_evaluation;
pub mod presentation;
mod skills;
pub mod updates;

pub use fast_iteration::RoundKnobs;
pub use filesystem::FilesystemView;
use filesystem::filesystem_instructions;
use skills::skills_instructions;

use crate::mcp::code_tools::CodeTools;

/// A finished earlier turn of this conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    pub question: String,
    pub answer: String,
}

/// What prompt building needs to know beyond the round itself.
pub struct PromptContext<'a> {
    pub question: &'a str,
    /// Images and files sent with the question (its `@path`s).
    pub attachments: &'a [Attachment],
    pub history: &'a [HistoryEntry],
    pub system_message: Option<&'a str>,
    /// The agent's persona (generated, else its `persona`), put before its system message.
    pub persona: Option<&'a str>,
    /// What becomes of the persona once a peer's answer is visible.
    pub persona_after_peers: AfterFirstAnswer,
    /// The agent's own anonymous id: answers under it are not a peer's.
    pub own_anon: Option<&'a AnonId>,
    /// The agent's `voting_sensitivity`, or the orchestrator's.
    pub voting_sensitivity: Sensitivity,
    /// Checklist-gated voting: the criteria the agent scores the answers against with
    /// `submit_checklist`.
    pub checklist: Option<&'a [EvalCriterion]>,
    pub novelty: Sensitivity,
    /// `novelty_injection`: pressure to question the approach in later rounds.
    pub novelty_injection: NoveltyInjection,
    /// Today's date as the agents should see it (`2026-11-22`).
    pub today: &'a str,
    /// The agent's workspace and the paths it may read, when it has a workspace.
    pub filesystem: Option<FilesystemView<'a>>,
    /// Filesystem memory mode, for an agent with a workspace: the presenter consolidates
    /// the memories (the rounds' memory section is added once their peers' work is copied).
    pub memory: bool,
    /// `enable_code_based_tools`: where the agent's MCP tools are as Python modules.
    pub code_tools: Option<&'a CodeTools>,
    /// `enable_multimodal_tools`: the agent has `read_media`.
    pub multimodal: bool,
    /// `use_skills`: the skills the agent can read with its file tools.
    pub skills: &'a [Skill],
    /// Planning mode blocks tools this turn: what agents are told to do instead.
    pub planning_instruction: Option<&'a str>,
    /// Agents may ask with `ask_others`.
    pub broadcast: Option<BroadcastSettings>,
    /// Task progress of the agents with answers (anonymous id, progress at their answer).
    pub progress: Vec<(String, TaskProgress)>,
    /// `<PREVIOUS ATTEMPT FEEDBACK>`, on attempts after an orchestration restart.
    pub attempt_feedback: Option<&'a str>,
    /// `fast_iteration_mode`, its round limits and the gap report.
    pub round_knobs: RoundKnobs,
    /// `coordination_mode: decomposition`: `Some` with the agent's subtask, if it has one.
    pub decomposition: Option<Option<&'a str>>,
    /// The agent's `permissions:` block, when its tool calls are checked.
    pub permissions: Option<&'a crate::config::PermissionsConfig>,
}

/// `[system, user]` for a coordination round.
pub fn round_messages(context: &PromptContext<'_>, view: &RoundView) -> Vec<Message> {
    vec![
        Message::system(coordination_system_prompt(context, view)),
        Message::user_with(
            round_user_message(context, view),
            context.attachments.to_vec(),
        ),
    ]
}

fn coordination_system_prompt(context: &PromptContext<'_>, view: &RoundView) -> String {
    let vote_only = view.vote_only;
    let mut prompt = String::from("<system_prompt>\n");
    let peers_answered = view
        .answers
        .iter()
        .any(|answer| Some(&answer.anon) != context.own_anon);
    let persona = context
        .persona
        .and_then(|persona| persona_text(persona, peers_answered, context.persona_after_peers));
    let identity: Vec<&str> = [persona.as_deref(), context.system_message.map(str::trim)]
        .into_iter()
        .flatten()
        .filter(|text| !text.is_empty())
        .collect();
    if !identity.is_empty() {
        section(
            &mut prompt,
            "agent_identity",
            "critical",
            &identity.join("\n\n"),
        );
    }
    let coordination = if let Some(subtask) = context.decomposition {
        decomposition::instructions(subtask)
    } else if vote_only {
        vote_only_instructions(context)
    } else if let Some(criteria) = context.checklist {
        evaluation_instructions(context)
            + &checklist::instructions(criteria)
            + &fast_iteration::checklist_extras(&context.round_knobs)
    } else {
        evaluation_instructions(context)
    };
    section(
        &mut prompt,
        "massgen_coordination",
        "critical",
        &coordination,
    );
    if !context.skills.is_empty() {
        section(
            &mut prompt,
            "skills",
            "critical",
            &skills_instructions(context.skills),
        );
    }
    section(&mut prompt, "core_behaviors", "critical", CORE_BEHAVIORS);
    if let Some(config) = context.permissions {
        let text = permissions::guardrail(config);
        section(&mut prompt, "tool_permissions", "high", &text);
    }
    if let Some(text) = fast_iteration::guidance(&context.round_knobs.fast_iteration) {
        section(&mut prompt, "fast_iteration", "high", &text);
    }
    if let Some(settings) = context.broadcast.filter(|_| !vote_only) {
        section(
            &mut prompt,
            "broadcast_communication",
            "high",
            &broadcast::guidance(settings.target, settings.wait_by_default),
        );
    }
    if let Some(filesystem) = &context.filesystem {
        section(
            &mut prompt,
            "filesystem",
            "high",
            &filesystem_instructions(filesystem, false),
        );
    }
    if let Some(code) = context.code_tools {
        let workspace = context.filesystem.as_ref().map(|view| view.workspace);
        section(
            &mut prompt,
            "code_based_tools",
            "medium",
            &code_tools::code_tools_instructions(code, workspace),
        );
    }
    if context.multimodal {
        let text = multimodal::MULTIMODAL_INSTRUCTIONS;
        section(&mut prompt, "evidence_based_verification", "medium", text);
    }
    let novelty = novelty_pressure::body(
        context.novelty_injection,
        view.round,
        view.converging_checklists,
    );
    if let Some(body) = novelty {
        section(&mut prompt, "novelty_pressure", "medium", &body);
    }
    if let Some(instruction) = context.planning_instruction {
        section(&mut prompt, "planning_mode", "medium", instruction.trim());
    }
    prompt.push_str("</system_prompt>");
    prompt
}

/// The persona as MassGen phases it: in full while the agent has seen no peer's answer
/// (exploration), then as `after_first_answer` says: gone, a preference it weighs against
/// the peers' answers, or still in full.
fn persona_text(persona: &str, peers_answered: bool, after: AfterFirstAnswer) -> Option<String> {
    let persona = persona.trim();
    match (peers_answered, after) {
        (true, AfterFirstAnswer::Drop) => None,
        (true, AfterFirstAnswer::Soften) => Some(format!(
            "You started from this perspective:\n{persona}\n\nYou have now seen other agents' \
             answers: hold your perspective as a preference, not a position to defend. Cover the \
             whole task, judge every approach on its merits, and build the best overall answer \
             from the strongest ideas."
        )),
        (false, _) | (true, AfterFirstAnswer::Keep) => Some(persona.to_string()),
    }
}

fn section(prompt: &mut String, tag: &str, priority: &str, body: &str) {
    let _ = write!(
        prompt,
        "<{tag} priority=\"{priority}\">\n{body}\n</{tag}>\n"
    );
}

fn evaluation_instructions(context: &PromptContext<'_>) -> String {
    let criteria = match context.voting_sensitivity {
        Sensitivity::Lenient => {
            "If the best current answer already addresses the original message well, vote for it."
        }
        Sensitivity::Balanced => {
            "Examine the answers critically: check their reasoning, any files or outputs they \
             mention, and what they leave out. Vote only if you cannot add meaningful value by \
             combining, correcting or extending them."
        }
        Sensitivity::Strict => {
            "Be skeptical and hold the answers to a reference standard: check accuracy, edge \
             cases and completeness. Vote only if an answer is excellent and cannot be improved."
        }
    };
    let novelty = match context.novelty {
        Sensitivity::Lenient => "",
        Sensitivity::Balanced => {
            "\nA new answer must differ meaningfully from every existing answer; rewording one \
             is rejected."
        }
        Sensitivity::Strict => {
            "\nA new answer must be substantially different from every existing answer (a new \
             approach or significant additions); small edits are rejected."
        }
    };
    format!(
        "You are one of several agents working on the same request at the same time. The \
         latest answer of every agent is shown to you in <CURRENT ANSWERS>, under anonymous ids \
         (agent1, agent2, …); one of them may be your own earlier answer.\n\n\
         Read the ORIGINAL MESSAGE and every current answer, then do exactly one of these:\n\
         - {criteria} Call `vote` with that agent's id and a short reason.\n\
         - Otherwise write a better answer: keep the strengths of the existing answers, fix \
         their mistakes, fill their gaps. Submit the complete answer, able to stand on its own, \
         with `new_answer`.{novelty}\n\n\
         Always finish by calling `vote` or `new_answer`; a reply without one of them does not \
         count.\n\
         Today's date: {today}.",
        today = context.today
    )
}

fn vote_only_instructions(context: &PromptContext<'_>) -> String {
    format!(
        "You are one of several agents working on the same request at the same time, and you \
         have already submitted as many answers as allowed. Read the ORIGINAL MESSAGE and every \
         answer in <CURRENT ANSWERS>, then call `vote` with the id of the agent whose answer \
         best serves the user, and a short reason. You must call `vote`.\n\
         Today's date: {}.",
        context.today
    )
}

const CORE_BEHAVIORS: &str = "\
- Act instead of describing what you would do.
- When several tool calls do not depend on each other, make them in parallel.
- Never guess a tool's parameters; if something is unknown, find it out first.";

fn round_user_message(context: &PromptContext<'_>, view: &RoundView) -> String {
    let mut message = context.attempt_feedback.unwrap_or_default().to_string();
    message.push_str(&history_block(context.history));
    let _ = write!(
        message,
        "<ORIGINAL MESSAGE> {} <END OF ORIGINAL MESSAGE>\n\n<CURRENT ANSWERS from the agents>\n",
        context.question
    );
    if view.answers.is_empty() {
        message.push_str("(no answers available yet)\n");
    }
    let answers = match context.own_anon {
        Some(own) => answer_order::for_voter(view.answers.clone(), own),
        None => view.answers.clone(),
    };
    for answer in &answers {
        let content = match &context.filesystem {
            Some(filesystem) => filesystem.localise(&answer.content),
            None => answer.content.clone(),
        };
        let _ = writeln!(message, "<{0}> {content} <end of {0}>", answer.anon);
    }
    message.push_str("<END OF CURRENT ANSWERS>");
    if !context.progress.is_empty() {
        message.push_str("\n\n<TASK PROGRESS of the agents>\n");
        for (anon, progress) in &context.progress {
            let _ = writeln!(message, "[{anon}] {}", crate::plan::progress_line(progress));
        }
        message.push_str(
            "⚠️  Note: Progress stats are INFORMATIONAL - evaluate the DELIVERABLE quality, not \
             task count\n<END OF TASK PROGRESS>",
        );
    }
    message
}

pub(super) fn history_block(history: &[HistoryEntry]) -> String {
    if history.is_empty() {
        return String::new();
    }
    let mut block = String::from(HISTORY_OPEN);
    for entry in history {
        let _ = write!(
            block,
            "User: {}\nAssistant: {}\n",
            entry.question, entry.answer
        );
    }
    block.push_str(HISTORY_CLOSE);
    block
}

/// The nudge after a reply that called no workflow tool.
pub fn enforcement_message(vote_only: bool, partial_text: &str) -> String {
    let mut message = String::new();
    if !partial_text.trim().is_empty() {
        let _ = write!(
            message,
            "<incomplete_response>\n{}\n</incomplete_response>\n\n",
            partial_text.trim()
        );
    }
    if vote_only {
        message.push_str(
            "Finish your work above by making a tool call of `vote`. Make sure you actually call \
             the tool.",
        );
    } else {
        message.push_str(
            "Finish your work above by making a tool call of `vote` or `new_answer`. Make sure \
             you actually call the tool.",
        );
    }
    message
}

#[cfg(test)]
mod tests;

//! The messages agents receive: the coordination system prompt, the tagged user message
//! with the current answers, enforcement nudges, and the final-presentation call.

use std::fmt::Write as _;

use crate::backend::Message;
use std::path::Path;

use crate::config::{Permission, Sensitivity};
use crate::protocol::AgentId;
use crate::workspace::ContextRootSpec;

use super::coordination::{Feedback, RoundView};

/// A finished earlier turn of this conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    pub question: String,
    pub answer: String,
}

/// What prompt building needs to know beyond the round itself.
pub struct PromptContext<'a> {
    pub question: &'a str,
    pub history: &'a [HistoryEntry],
    pub system_message: Option<&'a str>,
    pub voting_sensitivity: Sensitivity,
    pub novelty: Sensitivity,
    /// Today's date as the agents should see it (`2026-11-22`).
    pub today: &'a str,
    /// The agent's workspace and the paths it may read, when it has a workspace.
    pub filesystem: Option<FilesystemView<'a>>,
}

/// The directories an agent works with, for the filesystem section of its prompts.
pub struct FilesystemView<'a> {
    pub workspace: &'a Path,
    pub temp: &'a Path,
    pub context: &'a [ContextRootSpec],
    /// Every agent's anonymous id and workspace: paths to a workspace in an answer are
    /// shown as the reader's copy of it (`<temp>/agent2/…`).
    pub peers: Vec<(&'a str, &'a Path)>,
}

impl FilesystemView<'_> {
    fn localise(&self, answer: &str) -> String {
        let mut text = answer.to_string();
        for (anon, workspace) in &self.peers {
            let from = workspace.display().to_string();
            if !from.is_empty() && text.contains(&from) {
                text = text.replace(&from, &self.temp.join(anon).display().to_string());
            }
        }
        text
    }
}

/// `[system, user]` for a coordination round.
pub fn round_messages(context: &PromptContext<'_>, view: &RoundView) -> Vec<Message> {
    vec![
        Message::system(coordination_system_prompt(context, view.vote_only)),
        Message::user(round_user_message(context, view)),
    ]
}

fn coordination_system_prompt(context: &PromptContext<'_>, vote_only: bool) -> String {
    let mut prompt = String::from("<system_prompt>\n");
    if let Some(identity) = context
        .system_message
        .filter(|text| !text.trim().is_empty())
    {
        section(&mut prompt, "agent_identity", "critical", identity.trim());
    }
    let coordination = if vote_only {
        vote_only_instructions(context)
    } else {
        evaluation_instructions(context)
    };
    section(
        &mut prompt,
        "massgen_coordination",
        "critical",
        &coordination,
    );
    section(&mut prompt, "core_behaviors", "critical", CORE_BEHAVIORS);
    if let Some(filesystem) = &context.filesystem {
        section(
            &mut prompt,
            "filesystem",
            "high",
            &filesystem_instructions(filesystem, false),
        );
    }
    prompt.push_str("</system_prompt>");
    prompt
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
    let mut message = history_block(context.history);
    let _ = write!(
        message,
        "<ORIGINAL MESSAGE> {} <END OF ORIGINAL MESSAGE>\n\n<CURRENT ANSWERS from the agents>\n",
        context.question
    );
    if view.answers.is_empty() {
        message.push_str("(no answers available yet)\n");
    }
    for answer in &view.answers {
        let content = match &context.filesystem {
            Some(filesystem) => filesystem.localise(&answer.content),
            None => answer.content.clone(),
        };
        let _ = writeln!(message, "<{0}> {content} <end of {0}>", answer.anon);
    }
    message.push_str("<END OF CURRENT ANSWERS>");
    message
}

fn history_block(history: &[HistoryEntry]) -> String {
    if history.is_empty() {
        return String::new();
    }
    let mut block = String::from("<CONVERSATION_HISTORY>\n");
    for entry in history {
        let _ = write!(
            block,
            "User: {}\nAssistant: {}\n",
            entry.question, entry.answer
        );
    }
    block.push_str("<END OF CONVERSATION_HISTORY>\n\n");
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

/// What the final presentation call needs.
pub struct Presentation<'a> {
    pub winner: &'a AgentId,
    pub feedback: &'a Feedback,
    pub tie_broken: bool,
    /// Every agent's latest answer, real ids, config order.
    pub answers: &'a [(AgentId, &'a str)],
}

/// `[system, user]` for the winner's final presentation.
pub fn presentation_messages(
    context: &PromptContext<'_>,
    presentation: &Presentation<'_>,
) -> Vec<Message> {
    let mut system = String::new();
    if let Some(identity) = context
        .system_message
        .filter(|text| !text.trim().is_empty())
    {
        system.push_str(identity.trim());
        system.push_str("\n\n");
    }
    system.push_str(
        "You have been selected as the winning presenter. Several agents worked on the user's \
         request; present the final answer now, combining the strengths of all participants' \
         answers into one complete, polished response. Speak to the user directly and do not \
         mention agents, votes or this selection process.",
    );
    if let Some(filesystem) = &context.filesystem {
        system.push_str("\n\n");
        system.push_str(&filesystem_instructions(filesystem, true));
    }

    let mut user = history_block(context.history);
    let _ = write!(
        user,
        "<ORIGINAL MESSAGE> {} <END OF ORIGINAL MESSAGE>\n\nVOTING RESULTS:\n",
        context.question
    );
    let reasons: Vec<&str> = presentation
        .feedback
        .iter()
        .map(|(_, reason)| reason.as_str())
        .filter(|reason| !reason.trim().is_empty())
        .collect();
    let _ = write!(user, "You received {} vote(s)", presentation.feedback.len());
    if presentation.tie_broken {
        user.push_str(" (tie-broken by registration order)");
    }
    if reasons.is_empty() {
        user.push_str(".\n");
    } else {
        let _ = writeln!(user, " with feedback: {}", reasons.join("; "));
    }
    user.push_str("\nAll answers provided during coordination:\n");
    for (agent, answer) in presentation.answers {
        let mine = if agent == presentation.winner {
            " (YOUR ANSWER)"
        } else {
            ""
        };
        let _ = writeln!(user, "{agent}: \"{answer}\"{mine}");
    }
    user.push_str(
        "\nPresent your final answer to the original message, building on the best of the \
         answers above.",
    );
    vec![Message::system(system), Message::user(user)]
}

/// Where the agent works and what else it may read (or, presenting, write).
fn filesystem_instructions(view: &FilesystemView<'_>, presenting: bool) -> String {
    let mut text = format!(
        "Your workspace is {workspace}: create and edit files there with your file tools; \
         relative paths are taken from it. Other agents' work from their latest answers is \
         in {temp}, one folder per agent under the same anonymous ids as <CURRENT ANSWERS> \
         (read only). Mention the files your answer relies on by their paths.",
        workspace = view.workspace.display(),
        temp = view.temp.display(),
    );
    for context in view.context {
        let access = match (context.permission, presenting) {
            (Permission::Write, true) => "read and write: put the final result here",
            (Permission::Write, false) => {
                "read only for now; the agent chosen to present may write it at the end"
            }
            (Permission::Read, true | false) => "read only",
        };
        let _ = write!(
            text,
            "\nContext path {} ({access}).",
            context.path.display()
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orchestrator::coordination::VisibleAnswer;
    use crate::protocol::{AnonymousMapping, AnswerLabel};

    fn context<'a>(history: &'a [HistoryEntry]) -> PromptContext<'a> {
        PromptContext {
            question: "What is the capital of France?",
            history,
            system_message: Some("You are terse."),
            voting_sensitivity: Sensitivity::Strict,
            novelty: Sensitivity::Balanced,
            today: "2026-11-22",
            filesystem: None,
        }
    }

    #[test]
    fn round_message_uses_massgen_tags() {
        let ids = [AgentId::new("a"), AgentId::new("b")];
        let mapping = AnonymousMapping::new(&ids);
        let (anon, _) = mapping.pairs().nth(1).unwrap();
        let view = RoundView {
            round: 2,
            answers: vec![VisibleAnswer {
                anon: anon.clone(),
                label: AnswerLabel::answer(anon, 1),
                content: "Paris.".into(),
            }],
            vote_options: vec![anon.clone()],
            vote_only: false,
        };
        let history = [HistoryEntry {
            question: "Hi".into(),
            answer: "Hello".into(),
        }];
        let messages = round_messages(&context(&history), &view);
        let Message::System { content: system } = &messages[0] else {
            panic!()
        };
        assert!(system.starts_with(
            "<system_prompt>\n<agent_identity priority=\"critical\">\nYou are terse."
        ));
        assert!(system.contains("reference standard"), "strict voting text");
        assert!(
            system.contains("rewording one is rejected"),
            "balanced novelty text"
        );
        let user = messages[1].content();
        assert_eq!(
            user,
            "<CONVERSATION_HISTORY>\nUser: Hi\nAssistant: Hello\n<END OF CONVERSATION_HISTORY>\n\n\
             <ORIGINAL MESSAGE> What is the capital of France? <END OF ORIGINAL MESSAGE>\n\n\
             <CURRENT ANSWERS from the agents>\n<agent2> Paris. <end of agent2>\n<END OF CURRENT ANSWERS>"
        );
    }

    #[test]
    fn with_a_workspace_the_prompt_says_where_files_are_and_answers_point_at_copies() {
        let ids = [AgentId::new("a"), AgentId::new("b")];
        let mapping = AnonymousMapping::new(&ids);
        let (anon, _) = mapping.pairs().nth(1).unwrap();
        let view = RoundView {
            round: 2,
            answers: vec![VisibleAnswer {
                anon: anon.clone(),
                label: AnswerLabel::answer(anon, 1),
                content: "Wrote /p/.massgen/workspaces/ws_b/app.py".into(),
            }],
            vote_options: vec![anon.clone()],
            vote_only: false,
        };
        let context_paths = [ContextRootSpec {
            path: "/home/u/project".into(),
            permission: Permission::Write,
            protected: Vec::new(),
        }];
        let mut context = context(&[]);
        context.filesystem = Some(FilesystemView {
            workspace: Path::new("/p/.massgen/workspaces/ws_a"),
            temp: Path::new("/p/.massgen/temp_workspaces/t1"),
            context: &context_paths,
            peers: vec![("agent2", Path::new("/p/.massgen/workspaces/ws_b"))],
        });
        let messages = round_messages(&context, &view);
        let system = messages[0].content();
        assert!(system.contains("<filesystem priority=\"high\">"));
        assert!(system.contains("Your workspace is /p/.massgen/workspaces/ws_a"));
        assert!(system.contains("/home/u/project (read only for now"));
        assert!(messages[1].content().contains(
            "<agent2> Wrote /p/.massgen/temp_workspaces/t1/agent2/app.py <end of agent2>"
        ));
        let presenting = filesystem_instructions(context.filesystem.as_ref().unwrap(), true);
        assert!(presenting.contains("/home/u/project (read and write"));
    }

    #[test]
    fn no_answers_yet_is_said_explicitly() {
        let view = RoundView {
            round: 1,
            answers: vec![],
            vote_options: vec![],
            vote_only: false,
        };
        let messages = round_messages(&context(&[]), &view);
        assert!(messages[1].content().contains("(no answers available yet)"));
    }

    #[test]
    fn presentation_lists_votes_and_marks_the_winners_answer() {
        let winner = AgentId::new("b");
        let feedback = vec![
            (AgentId::new("a"), "clear".to_string()),
            (AgentId::new("b"), "complete".to_string()),
        ];
        let answers = vec![(AgentId::new("a"), "A."), (winner.clone(), "B.")];
        let messages = presentation_messages(
            &context(&[]),
            &Presentation {
                winner: &winner,
                feedback: &feedback,
                tie_broken: true,
                answers: &answers,
            },
        );
        let user = messages[1].content();
        assert!(user.contains("You received 2 vote(s) (tie-broken by registration order) with feedback: clear; complete"));
        assert!(user.contains("a: \"A.\"\nb: \"B.\" (YOUR ANSWER)"));
        assert!(messages[0].content().contains("winning presenter"));
    }

    #[test]
    fn enforcement_quotes_partial_text() {
        let message = enforcement_message(false, "I think");
        assert!(message.starts_with("<incomplete_response>\nI think\n</incomplete_response>"));
        assert!(enforcement_message(true, "").contains("tool call of `vote`."));
    }
}

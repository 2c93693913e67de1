//! The in-test model's script for whole turns, the same for every CLI: what it does next,
//! read from the conversation it is sent.

use serde_json::json;

/// What the CLI writes in its answer; seeing it among the current answers means it has
/// answered.
pub const ANSWER_MARK: &str = "CLI-ANSWER-42";
pub const PRESENTED: &str = "Presented by the CLI: 6 times 7 is 42.";

/// What the model decides, from the request it got: present when asked to; stop once its
/// workflow call was recorded; vote for its own answer (agent1) once it is among the
/// current answers; before that, run the shell, then the MCP `echo` tool, then answer.
/// `window` is the conversation since massgen's latest round prompt, as text (a resumed
/// session holds earlier turns before it).
pub enum Move {
    Shell,
    Echo,
    Answer,
    Vote,
    Present,
    Done,
}

pub fn decide(window: &str) -> Move {
    if window.contains("VOTING RESULTS:") {
        Move::Present
    } else if window.contains("Your work for this round is done") {
        Move::Done
    } else if window.contains(&answer_mark(window)) {
        Move::Vote
    } else if !window.contains("shell-ok") {
        Move::Shell
    } else if !window.contains("echo-from-the-cli") {
        Move::Echo
    } else {
        Move::Answer
    }
}

/// The items of a conversation from the last one carrying massgen's round prompt on, as
/// text.
pub fn window_of(items: &[serde_json::Value]) -> String {
    let start = items
        .iter()
        .rposition(|item| item.to_string().contains("<ORIGINAL MESSAGE>"))
        .unwrap_or(0);
    serde_json::Value::Array(items[start..].to_vec()).to_string()
}

/// What the model does next, in provider-neutral form: call a tool (named as massgen or
/// the CLI names it) or say something.
pub enum Act {
    Call(String, serde_json::Value),
    Say(String),
}

/// [`decide`] as an act, with the CLI's own shell tool and the name of its command
/// argument.
pub fn act(window: &str, shell_tool: &str, command_key: &str) -> Act {
    match decide(window) {
        Move::Shell => Act::Call(
            shell_tool.into(),
            json!({ command_key: "echo shell-ok > shell.txt" }),
        ),
        Move::Echo => Act::Call("echo".into(), echo_arguments()),
        Move::Answer => Act::Call("new_answer".into(), answer_arguments(window)),
        Move::Vote => Act::Call("vote".into(), vote_arguments()),
        Move::Present => Act::Say(PRESENTED.into()),
        Move::Done => Act::Say("done.".into()),
    }
}

pub fn vote_arguments() -> serde_json::Value {
    json!({"agent_id": "agent1", "reason": "it ran the shell and the echo tool"})
}

/// The answer names the question it answers, so a later turn's rounds tell it apart.
pub fn answer_mark(window: &str) -> String {
    let question = window
        .split("<ORIGINAL MESSAGE>")
        .nth(1)
        .and_then(|rest| rest.split("<END OF ORIGINAL MESSAGE>").next())
        .unwrap_or_default()
        .trim();
    format!("{ANSWER_MARK} for [{question}]")
}

pub fn answer_arguments(window: &str) -> serde_json::Value {
    json!({"content": format!("{}: 42.", answer_mark(window))})
}

pub fn echo_arguments() -> serde_json::Value {
    json!({"message": "echo-from-the-cli"})
}

//! Every slash command under its full name, with its short forms, its arguments and a line
//! saying what it does: the one table that completion, `/help` and the completion popup's
//! descriptions read.

/// One slash command as completion and `/help` show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlashCommand {
    /// The full name, with its slash: `/vote`.
    pub name: &'static str,
    /// Other names the app takes for it, without the slash (`v`, `votes`).
    pub aliases: &'static [&'static str],
    /// What may follow the name, as `/help` shows it (`[N|all]`), or empty.
    pub arguments: &'static str,
    /// What it does, in one line.
    pub about: &'static str,
}

const fn command(
    name: &'static str,
    aliases: &'static [&'static str],
    arguments: &'static str,
    about: &'static str,
) -> SlashCommand {
    SlashCommand {
        name,
        aliases,
        arguments,
        about,
    }
}

/// In the order completion offers them.
pub const SLASH_COMMANDS: [SlashCommand; 34] = [
    command("/help", &["h", "?"], "", "every key and command"),
    command(
        "/quit",
        &["q"],
        "",
        "quit (while a turn runs, typed twice: it cancels the turn)",
    ),
    command("/exit", &[], "", "the same as /quit"),
    command(
        "/cancel",
        &[],
        "",
        "cancel the running turn (its work is saved)",
    ),
    command("/status", &[], "", "system status"),
    command(
        "/vote",
        &["votes", "v"],
        "",
        "the votes: who voted for whom, and why",
    ),
    command(
        "/map",
        &["consensus"],
        "",
        "the consensus map: each agent's latest answer, the vote arrows, the leader",
    ),
    command("/cost", &["costs", "c"], "", "tokens and costs"),
    command("/answers", &["b"], "", "every answer, one at a time"),
    command("/timeline", &["t"], "", "the whole timeline"),
    command("/table", &["r"], "", "the coordination table"),
    command(
        "/clear",
        &[],
        "",
        "forget the conversation (typed twice to confirm); the next question starts afresh",
    ),
    command("/reset", &[], "", "the same as /clear"),
    command(
        "/inspect",
        &["i"],
        "[N|all]",
        "the session's turns: winner, time, cost, answers, votes, final answer",
    ),
    command(
        "/events",
        &["o"],
        "[N|all]",
        "coordination events of the last N turns (default 1)",
    ),
    command(
        "/config",
        &[],
        "",
        "open the config file in its desktop application",
    ),
    command(
        "/mcp",
        &["p"],
        "",
        "MCP servers: state, tools, failed calls",
    ),
    command(
        "/workspace",
        &["w"],
        "",
        "files: each agent's workspace, snapshot, peers' work, final",
    ),
    command("/files", &[], "", "the same as /workspace"),
    command("/plan", &[], "", "planning options, or the plan to execute"),
    command("/tasks", &[], "", "the focused agent's task plan"),
    command(
        "/agents",
        &[],
        "",
        "add, remove and change agents between turns; save them as a config",
    ),
    command(
        "/refine",
        &[],
        "",
        "refinement on or off (off: each agent answers once)",
    ),
    command(
        "/strategy",
        &[],
        "[NAME]",
        "how agents reach the answer: vote, council or debate (no name: the next)",
    ),
    command(
        "/debate",
        &[],
        "",
        "a debate turn as a thread per round: critiques, then revisions",
    ),
    command(
        "/context",
        &[],
        "",
        "the paths agents may read and write, and how to change them",
    ),
    command(
        "/metrics",
        &["m"],
        "",
        "model calls, tokens, time to first token, tool time",
    ),
    command("/history", &[], "", "the conversation so far"),
    command(
        "/approvals",
        &[],
        "",
        "this session's decisions about tool calls: allowed or denied, by whom, why",
    ),
    command(
        "/export",
        &[],
        "[N] [path]",
        "a finished turn as Markdown (default .massgen/exports/turn_N.md)",
    ),
    command(
        "/single",
        &[],
        "",
        "agents: all of them, or each one alone in turn",
    ),
    command("/final", &["f"], "", "the final answer in full"),
    command(
        "/copy",
        &[],
        "",
        "copy the final answer to the clipboard (OSC 52)",
    ),
    command(
        "/skills",
        &[],
        "",
        "the skills agents are told about: name, description, source, SKILL.md",
    ),
];

/// The full names alone, in the table's order.
pub const SLASH_NAMES: [&str; SLASH_COMMANDS.len()] = {
    let mut names = [""; SLASH_COMMANDS.len()];
    let mut at = 0;
    while at < SLASH_COMMANDS.len() {
        names[at] = SLASH_COMMANDS[at].name;
        at += 1;
    }
    names
};

/// The command `name` (without its slash) stands for, under its full name or a short form.
pub fn find(name: &str) -> Option<&'static SlashCommand> {
    SLASH_COMMANDS.iter().find(|command| {
        command.name.strip_prefix('/') == Some(name) || command.aliases.contains(&name)
    })
}

/// `/help`'s row for `command`: `/inspect [N|all]` and what it does, its short forms after.
pub fn help_row(command: &SlashCommand) -> (String, String) {
    let usage = if command.arguments.is_empty() {
        command.name.to_string()
    } else {
        format!("{} {}", command.name, command.arguments)
    };
    let about = if command.aliases.is_empty() {
        command.about.to_string()
    } else {
        let aliases: Vec<String> = command
            .aliases
            .iter()
            .map(|alias| format!("/{alias}"))
            .collect();
        format!("{} (also {})", command.about, aliases.join(" "))
    };
    (usage, about)
}

//! What an agent CLI reported, one line of its JSON stream at a time, in CLI-neutral form.

use crate::protocol::Usage;

/// The MCP server name massgen registers with every CLI for the agent's own tools (the
/// coordination tools, its config's MCP servers and custom tools). A CLI's report of a
/// call to it is dropped: the bridge reports those calls itself.
pub const BRIDGE_SERVER: &str = "massgen";

/// One thing a CLI reported.
#[derive(Clone, Debug, PartialEq)]
pub enum CliEvent {
    /// The CLI's id for this conversation, to resume it later (`--resume <id>`).
    Session(String),
    /// Answer text, as a delta or a whole block (whichever the CLI streams; never both).
    Text(String),
    /// Thinking / reasoning text.
    Reasoning(String),
    /// One of the CLI's own tools started (Bash, Edit, a web search, an MCP tool…).
    /// `server` names the MCP server when the tool is an MCP tool.
    ToolStarted {
        id: String,
        name: String,
        server: Option<String>,
        input: String,
    },
    /// That tool finished.
    ToolFinished {
        id: String,
        name: String,
        server: Option<String>,
        output: String,
        ok: bool,
    },
    /// Tokens the CLI's model calls used so far in this run (one report per model call,
    /// or one total at the end: the dialect says which by `total`), with the cost the CLI
    /// computed itself, if it reports one.
    Usage {
        usage: Usage,
        cost_usd: Option<f64>,
        total: bool,
    },
    /// The CLI reported a failure (an API error, a refused login); the run is over.
    Failed(String),
}

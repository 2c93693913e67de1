//! The code-based tools section of an agent's system prompt (MassGen's
//! `CodeBasedToolsSection`): where the generated tool modules are, how to find a tool and
//! read its docstring, and how to import and call it from a script.

use std::fmt::Write as _;
use std::path::Path;

use crate::mcp::code_tools::CodeTools;

pub(super) fn code_tools_instructions(code: &CodeTools, workspace: Option<&Path>) -> String {
    let location = code.location.display();
    let work_dir = workspace.map_or_else(|| location.to_string(), |dir| dir.display().to_string());
    let mut text = String::from(
        "## Available Tools (Code-Based Access)\n\nTools are available as **Python code** in \
         your workspace filesystem. Discover and call them like regular Python modules (search \
         them with `ls`, `rg` or `grep`).",
    );
    if code.shared {
        let _ = write!(
            text,
            "\n\n**Note**: Tools are in a shared read-only location (`{location}`) accessible \
             to all agents; `servers/` and `custom_tools/` in your workspace link to it."
        );
    }
    let _ = write!(
        text,
        "\n\n**Directory Structure:**\n```\n{location}/\n├── servers/              # MCP tool \
         wrappers (auto-generated, read-only)\n│   ├── __init__.py      # Package marker \
         (import from here)\n│   └── <server>/\n│       ├── __init__.py  # Exports the \
         server's tools\n│       └── <tool>.py\n└── custom_tools/         # Python tools you \
         may add (read-only when shared)\n\nYour workspace/\n└── utils/               # CREATE \
         THIS - for your scripts (workflows, async, filtering)\n```"
    );
    if !code.servers.is_empty() {
        let servers: Vec<String> = code
            .servers
            .iter()
            .map(|server| format!("- **{server}**"))
            .collect();
        let _ = write!(
            text,
            "\n\n**Available MCP Servers:**\n{}",
            servers.join("\n")
        );
    }
    let _ = write!(
        text,
        "\n\n**Important:** All tools and servers listed here are already configured and ready \
         to use. Tools are not offered as direct tool calls: call them from Python.\n\n**Tool \
         Discovery (Efficient Patterns):**\n```bash\n# List servers and functions\nls servers/ \
         && ls servers/<server_name>/\n\n# Get a function's docstring (first 25 lines)\nhead -n \
         25 servers/<server_name>/<function>.py\n\n# Search functions by name or keyword\nrg -i \
         '<keyword>' servers/ -l\n```\n\n**Usage Pattern:**\n```python\n# Import MCP tools from \
         servers/\nfrom servers.<server_name> import <function>\n\nresult = <function>(...)  # \
         the tool's text result\nprint(result)\n```\n\n**Important:**\n- A tool that fails \
         raises `RuntimeError` with the server's message.\n- **CRITICAL**: When running Python \
         scripts that import from `servers/` or `custom_tools/`, always run them with \
         `work_dir=\"{work_dir}\"` in your execute_command call: the tools are importable from \
         your main workspace, not from temporary snapshot directories.\n\n**Creating Workflows \
         (utils/):**\nWrite scripts in `utils/` to combine several tools, filter large results \
         before reading them, or run calls in a loop:\n\n```python\n# utils/report.py\nfrom \
         servers.<server_name> import <function>\n\nif __name__ == \"__main__\":\n    \
         print(<function>(...))\n```\n\nThen execute: `python utils/report.py`"
    );
    text
}

//! Code-based tools (`enable_code_based_tools`): an agent's MCP tools written as Python
//! modules in its workspace or a shared directory, called from code it runs, with
//! `direct_mcp_servers` kept as direct tools.

use std::fs;
use std::path::{Path, PathBuf};

use crate::scenarios::tool_results;
use crate::support::{Scenario, outcome};
use massgen::protocol::{Event, EventMsg, TurnOutcome};

fn workspace_of(events: &[Event], agent: &str) -> PathBuf {
    events
        .iter()
        .find_map(|event| match (&event.msg, &event.agent) {
            (EventMsg::WorkspaceAssigned { workspace, .. }, Some(id)) if id.as_str() == agent => {
                Some(workspace.clone())
            }
            _ => None,
        })
        .unwrap()
}

/// Runs the code the agent would write: the generated `add` of the `calc` server.
const CALL_ADD: &str = "python3 -c 'from servers.calc import add; print(add(40, b=2))'";

fn peer_server(name: &str, python: &Path) -> String {
    let script = crate::harness::peers().join("mcp_peer.py");
    format!(
        "      - {{name: {name}, type: stdio, command: \"{}\", args: [\"{}\", stdio]}}\n",
        python.display(),
        script.display()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_tools_become_python_modules_the_agent_calls_and_direct_servers_stay_tools() {
    let Some(python) = crate::harness::peer(".venv/bin/python") else {
        return;
    };
    let yaml = format!(
        r#"
agents:
  - id: solo
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace
      enable_mcp_command_line: true
      enable_code_based_tools: true
      direct_mcp_servers: [docs]
      mcp_servers:
{calc}{docs}      answers: ["done"]
      tool_calls:
        - {{name: mcp__command_line__execute_command, arguments: {{command: "{CALL_ADD}"}}}}
        - {{name: mcp__calc__add, arguments: {{a: 1, b: 1}}}}
        - {{name: mcp__docs__add, arguments: {{a: 2, b: 3}}}}
"#,
        calc = peer_server("calc", &python),
        docs = peer_server("docs", &python),
    );
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let mut events = Vec::new();
    while let Ok(event) = scenario.handle.events.try_recv() {
        events.push(event);
    }
    events.extend(scenario.handle.run_turn("Add with your tools").await);
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    let workspace = workspace_of(&events, "solo");

    // The calc server's tool as a module: typed signature and docstring from its schema.
    let add = fs::read_to_string(workspace.join("servers/calc/add.py")).unwrap();
    assert!(add.contains("def add(a: int, b: int) -> str:"), "{add}");
    assert!(add.contains("    \"\"\"Add two integers.\n"), "{add}");
    assert!(add.contains("        a (int): \n"), "{add}");
    let init = fs::read_to_string(workspace.join("servers/calc/__init__.py")).unwrap();
    assert!(init.contains("from .add import add\n"), "{init}");
    assert!(workspace.join("servers/__init__.py").is_file());
    assert!(workspace.join("custom_tools/__init__.py").is_file());
    assert!(workspace.join(".mcp/client.py").is_file());
    let servers: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(workspace.join(".mcp/servers.json")).unwrap())
            .unwrap();
    assert_eq!(servers["calc"]["type"], "stdio");
    assert!(servers.get("docs").is_none(), "{servers}");
    // The direct server gets no code.
    assert!(!workspace.join("servers/docs").exists());

    // The code the agent ran reached the server; calc is no longer a direct tool, docs is.
    let results = tool_results(&events);
    assert_eq!(results.len(), 3, "{results:?}");
    assert!(results[0].1 && results[0].2.contains("42"), "{results:?}");
    assert!(!results[1].1, "{results:?}");
    assert!(results[2].1 && results[2].2.contains('5'), "{results:?}");
    let first = &scenario.requests_of("solo")[0];
    let offered: Vec<&str> = first.tools.iter().map(|tool| tool.name.as_str()).collect();
    assert!(offered.contains(&"mcp__docs__add"), "{offered:?}");
    assert!(
        !offered.iter().any(|name| name.starts_with("mcp__calc__")),
        "{offered:?}"
    );
    // The agent is told where the tools are and how to call them.
    let system = first.messages[0].content();
    assert!(
        system.contains("## Available Tools (Code-Based Access)"),
        "{system}"
    );
    assert!(
        system.contains("**Available MCP Servers:**\n- **calc**"),
        "{system}"
    );
    assert!(
        system.contains(&format!("{}/\n├── servers/", workspace.display())),
        "{system}"
    );
    // The presenter is told too, as MassGen tells it.
    let requests = scenario.requests_of("solo");
    let presenting = requests.last().unwrap().messages[0].content();
    assert!(presenting.contains("winning presenter"), "{presenting}");
    assert!(
        presenting.contains("## Available Tools (Code-Based Access)"),
        "{presenting}"
    );
    scenario.handle.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_tools_directory_holds_the_code_once_for_every_agent() {
    let Some(python) = crate::harness::peer(".venv/bin/python") else {
        return;
    };
    let agent = |id: &str| {
        format!(
            r#"  - id: {id}
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace
      enable_mcp_command_line: true
      enable_code_based_tools: true
      shared_tools_directory: shared_tools
      mcp_servers:
  {calc}      answers: ["done"]
      tool_calls:
        - {{name: mcp__command_line__execute_command, arguments: {{command: "{CALL_ADD}"}}}}
"#,
            calc = peer_server("calc", &python),
        )
    };
    let yaml = format!("agents:\n{}{}", agent("alice"), agent("bob"));
    let dir = tempfile::tempdir().unwrap();
    let shared = dir.path().join("shared_tools");
    let mut scenario = Scenario::start_with_tools(dir, &yaml);
    let mut events = Vec::new();
    while let Ok(event) = scenario.handle.events.try_recv() {
        events.push(event);
    }
    events.extend(scenario.handle.run_turn("Add with your tools").await);
    assert_eq!(outcome(&events), TurnOutcome::Completed);

    // One subdirectory for this set of servers, generated once.
    let generated: Vec<PathBuf> = fs::read_dir(&shared)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(generated.len(), 1, "{generated:?}");
    let location = &generated[0];
    assert!(location.join("servers/calc/add.py").is_file());
    assert!(location.join(".mcp/client.py").is_file());
    let mut tokens = Vec::new();
    for agent in ["alice", "bob"] {
        let workspace = workspace_of(&events, agent);
        // The workspace links to the shared code and has its own bridge address.
        assert_eq!(
            fs::read_link(workspace.join("servers")).unwrap(),
            location.join("servers")
        );
        assert!(!workspace.join("servers/calc/add.py").is_symlink());
        let bridge: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(workspace.join(".mcp/bridge.json")).unwrap())
                .unwrap();
        tokens.push(bridge["token"].as_str().unwrap().to_string());
        let requests = scenario.requests_of(agent);
        let system = requests[0].messages[0].content();
        assert!(
            system.contains(&format!(
                "shared read-only location (`{}`)",
                location.display()
            )),
            "{system}"
        );
    }
    assert_ne!(tokens[0], tokens[1]);
    // Both agents' code reached their own servers (an agent may run its script again in a
    // later round).
    let results = tool_results(&events);
    assert!(
        results
            .iter()
            .all(|(_, ok, output)| *ok && output.contains("\n42\n")),
        "{results:?}"
    );
    for agent in ["alice", "bob"] {
        let workspace = workspace_of(&events, agent).display().to_string();
        assert!(
            results
                .iter()
                .any(|(_, _, output)| output.contains(&workspace)),
            "{results:?}"
        );
    }
    scenario.handle.shutdown().await;
}

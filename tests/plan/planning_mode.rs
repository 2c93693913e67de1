//! Scenario tests of config planning mode (`coordination.enable_planning_mode`): one agent
//! judges whether the question is irreversible, and the MCP tools it names (or all of
//! them) are blocked until the winner presents; `planning_mode_instruction` replaces the
//! default instruction in the system prompt.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::plans::{two_agents, walk};
use crate::support::{Scenario, assert_completed, outcome, run_once};
use massgen::protocol::{Event, EventMsg, Mode, TurnOptions, TurnOutcome};

/// `(tool, ok)` of every tool call that ran, and the tools planning mode blocked.
fn tool_calls(events: &[Event], agent: &str) -> (Vec<(String, bool)>, Vec<String>) {
    let mine = |event: &&Event| event.agent.as_ref().is_some_and(|id| id.as_str() == agent);
    let ran = events
        .iter()
        .filter(mine)
        .filter_map(|event| match &event.msg {
            EventMsg::ToolCallEnd { tool, ok, .. } => Some((tool.clone(), *ok)),
            _ => None,
        })
        .collect();
    let blocked = events
        .iter()
        .filter(mine)
        .filter_map(|event| match &event.msg {
            EventMsg::ToolBlocked { tool, message, .. } => {
                assert!(message.contains("blocked during coordination"), "{message}");
                Some(tool.clone())
            }
            _ => None,
        })
        .collect();
    (ran, blocked)
}

const TOOLS: &str = "      tool_calls:\n        - {name: mcp__filesystem__write_file, arguments: {path: draft.txt, content: draft}}\n        - {name: mcp__filesystem__list_directory, arguments: {path: .}}\n      final_tool_calls:\n        - {name: mcp__filesystem__write_file, arguments: {path: final.txt, content: final}}\n";

async fn planning_mode_turn(analysis: &str) -> (Vec<Event>, Scenario) {
    let extra = format!("{TOOLS}      planning_analysis: \"{analysis}\"\n");
    let yaml = two_agents(&extra, "  coordination: {enable_planning_mode: true}\n");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit("Tidy the notes", Mode::Normal, TurnOptions::default())
        .await;
    (events, scenario)
}

#[tokio::test]
async fn planning_mode_blocks_exactly_the_listed_tools_and_never_the_presenter() {
    let (events, scenario) =
        planning_mode_turn("IRREVERSIBLE: YES\\nBLOCKED_TOOLS: mcp__filesystem__write_file").await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    let decided = events.iter().find_map(|event| match &event.msg {
        EventMsg::PlanningModeDecided {
            irreversible,
            blocked_tools,
        } => Some((*irreversible, blocked_tools.clone())),
        _ => None,
    });
    assert_eq!(
        decided,
        Some((true, vec!["mcp__filesystem__write_file".to_string()]))
    );
    for agent in ["alpha", "beta"] {
        let (ran, blocked) = tool_calls(&events, agent);
        assert!(
            blocked
                .iter()
                .all(|tool| tool == "mcp__filesystem__write_file")
                && !blocked.is_empty(),
            "{agent}: {blocked:?}"
        );
        assert!(
            ran.contains(&("mcp__filesystem__list_directory".to_string(), true)),
            "{agent} reads while writes are blocked: {ran:?}"
        );
    }
    // The winner presents with every tool: its write ran, and only then.
    let (ran, _) = tool_calls(&events, "alpha");
    assert!(
        ran.contains(&("mcp__filesystem__write_file".to_string(), true)),
        "{ran:?}"
    );
    let workspaces = scenario.dir.path().join(".massgen").join("workspaces");
    let written: Vec<String> = walk(&workspaces)
        .into_iter()
        .filter_map(|path| Some(path.file_name()?.to_string_lossy().into_owned()))
        .collect();
    assert!(written.contains(&"final.txt".to_string()), "{written:?}");
    assert!(!written.contains(&"draft.txt".to_string()), "{written:?}");
    // The system prompt told the agents what planning mode wants of them.
    let requests = scenario.requests_of("beta");
    let round = requests
        .iter()
        .find(|request| request.tools.iter().any(|tool| tool.name == "vote"))
        .unwrap();
    let system = round.messages[0].content();
    assert!(system.contains("<planning_mode"), "{system}");
}

#[tokio::test]
async fn an_empty_block_list_blocks_every_mcp_tool_until_the_presentation() {
    let (events, _scenario) = planning_mode_turn("IRREVERSIBLE: YES\\nBLOCKED_TOOLS:").await;
    for agent in ["alpha", "beta"] {
        let (ran, blocked) = tool_calls(&events, agent);
        assert!(
            blocked.contains(&"mcp__filesystem__list_directory".to_string())
                && blocked.contains(&"mcp__filesystem__write_file".to_string()),
            "{agent}: {blocked:?}"
        );
        let coordination_calls = ran
            .iter()
            .filter(|(tool, _)| tool != "mcp__filesystem__write_file");
        assert_eq!(coordination_calls.count(), 0, "{agent}: {ran:?}");
    }
    let (ran, _) = tool_calls(&events, "alpha");
    assert_eq!(ran, vec![("mcp__filesystem__write_file".to_string(), true)]);
}

#[tokio::test]
async fn nothing_irreversible_blocks_nothing() {
    let (events, _scenario) = planning_mode_turn("IRREVERSIBLE: NO").await;
    for agent in ["alpha", "beta"] {
        let (ran, blocked) = tool_calls(&events, agent);
        assert!(blocked.is_empty(), "{agent}: {blocked:?}");
        assert!(ran.iter().all(|(_, ok)| *ok) && ran.len() >= 2, "{ran:?}");
    }
}

#[tokio::test(start_paused = true)]
async fn planning_mode_instruction_replaces_the_default_in_the_system_prompt() {
    async fn system_prompt(coordination: &str) -> String {
        let yaml = format!(
            "agents:\n\
             \x20 - {{id: a, backend: {{type: scripted, tokens_per_second: 0, answer: mine,\n\
             \x20     planning_analysis: \"IRREVERSIBLE: YES\\nBLOCKED_TOOLS:\"}}}}\n\
             \x20 - {{id: b, backend: {{type: scripted, tokens_per_second: 0, answer: theirs, vote_for: a,\n\
             \x20     planning_analysis: \"IRREVERSIBLE: YES\\nBLOCKED_TOOLS:\"}}}}\n\
             orchestrator:\n  coordination: {coordination}\n"
        );
        let (events, scenario) = run_once(&yaml, "Delete the old records").await;
        assert_completed(&events);
        let round = scenario
            .requests_of("b")
            .into_iter()
            .find(|request| request.tools.iter().any(|tool| tool.name == "vote"))
            .unwrap();
        round.messages[0].content().to_string()
    }
    let custom = system_prompt(
        "{enable_planning_mode: true, planning_mode_instruction: Describe the deletions only.}",
    )
    .await;
    assert!(custom.contains("Describe the deletions only."), "{custom}");
    assert!(
        !custom.contains("without actually executing actions"),
        "{custom}"
    );

    let default = system_prompt("{enable_planning_mode: true}").await;
    assert!(
        default.contains("without actually executing actions"),
        "{default}"
    );
    assert!(!default.contains("Describe the deletions only."));
}

//! MassGen's `coordination_mode: decomposition`: each agent owns its `subtask` (told in
//! its system prompt), publishes with `new_answer` and says `stop` when done; nobody votes,
//! and the presenter (`presenter_agent`, else the last agent) integrates every answer.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::coordination_keys::common::count;
use crate::support::{Scenario, assert_completed, final_answer, run_once, winner};
use massgen::backend::ChatRequest;
use massgen::protocol::{EventMsg, SubtaskSource, WinnerBasis};

fn agent(id: &str, delay: u32, subtask: Option<&str>, extra: &str) -> String {
    let subtask = subtask.map_or(String::new(), |text| format!("    subtask: \"{text}\"\n"));
    format!(
        "  - id: {id}\n{subtask}    backend: {{type: scripted, tokens_per_second: 0, \
         first_token_ms: {delay}, answer: \"part by {id}\", final_answer: \"integrated by \
         {id}\"{extra}}}\n"
    )
}

fn team(orchestrator: &str, extra_b: &str) -> String {
    format!(
        "agents:\n{}{}{}orchestrator:\n  coordination_mode: decomposition\n{orchestrator}",
        agent("api", 10, Some("Build the REST API"), ""),
        agent("ui", 20, Some("Build the web UI"), extra_b),
        agent("docs", 30, None, ""),
    )
}

fn system_prompt(request: &ChatRequest) -> String {
    request.messages[0].content().to_string()
}

fn coordination_requests(scenario: &Scenario, agent: &str) -> Vec<ChatRequest> {
    scenario
        .requests_of(agent)
        .into_iter()
        .filter(|request| request.tools.iter().any(|tool| tool.name == "stop"))
        .collect()
}

#[tokio::test(start_paused = true)]
async fn each_agent_gets_its_subtask_and_stops_then_the_presenter_integrates_every_answer() {
    let (events, scenario) = run_once(&team("  presenter_agent: ui\n", ""), "build it").await;
    assert_completed(&events);
    let api = coordination_requests(&scenario, "api");
    assert!(!api.is_empty());
    let first = system_prompt(&api[0]);
    assert!(
        first.contains("**YOUR ASSIGNED SUBTASK:**\nBuild the REST API"),
        "{first}"
    );
    assert!(system_prompt(&coordination_requests(&scenario, "ui")[0]).contains("Build the web UI"));
    let docs = system_prompt(&coordination_requests(&scenario, "docs")[0]);
    assert!(docs.contains("decomposed team") && !docs.contains("YOUR ASSIGNED SUBTASK"));
    assert!(api[0].tools.iter().all(|tool| tool.name != "vote"));
    // Every agent answered once, then stopped; nobody voted.
    assert_eq!(
        count(&events, |msg| matches!(
            msg,
            EventMsg::AnswerSubmitted { .. }
        )),
        3
    );
    assert!(count(&events, |msg| matches!(msg, EventMsg::AgentStopped { .. })) >= 3);
    assert_eq!(
        count(&events, |msg| matches!(msg, EventMsg::VoteCast { .. })),
        0
    );
    // The configured presenter, not a vote winner, presents, with every answer before it.
    assert_eq!(winner(&events).as_deref(), Some("ui"));
    assert_eq!(
        count(&events, |msg| matches!(
            msg,
            EventMsg::WinnerSelected {
                basis: WinnerBasis::Presenter,
                ..
            }
        )),
        1
    );
    let presentation = scenario.requests_of("ui").pop().expect("presentation");
    let user = presentation.messages[1].content();
    for part in ["part by api", "part by ui", "part by docs"] {
        assert!(user.contains(part), "{user}");
    }
    assert!(
        user.starts_with("ORIGINAL TASK:\nbuild it\n\nAGENT WORK SUMMARIES:\n"),
        "{user}"
    );
    assert!(user.contains("**api** (subtask: Build the REST API)\nStop summary: My subtask is done.\nWork: part by api"), "{user}");
    assert!(
        user.contains("**docs** (subtask: No specific subtask assigned)"),
        "{user}"
    );
    assert_eq!(
        final_answer(&events).map(|(text, _)| text).as_deref(),
        Some("integrated by ui")
    );
}

#[tokio::test(start_paused = true)]
async fn without_presenter_agent_the_last_agent_presents() {
    let (events, _) = run_once(&team("", ""), "build it").await;
    assert_completed(&events);
    assert_eq!(winner(&events).as_deref(), Some("docs"));
}

#[tokio::test(start_paused = true)]
async fn a_failed_subtask_agent_does_not_block_the_turn() {
    let failing = ", fail: {mode: error, after_tokens: 1, message: \"upstream returned 500\"}";
    let (events, scenario) = run_once(&team("  presenter_agent: api\n", failing), "q").await;
    assert_completed(&events);
    assert_eq!(
        count(&events, |msg| matches!(msg, EventMsg::AgentKilled { .. })),
        1
    );
    assert_eq!(winner(&events).as_deref(), Some("api"));
    let presentation = scenario.requests_of("api").pop().expect("presentation");
    let user = presentation.messages[1].content();
    assert!(
        user.contains("part by docs") && !user.contains("part by ui"),
        "{user}"
    );
}

#[tokio::test(start_paused = true)]
async fn max_new_answers_global_leaves_only_stop() {
    let (events, scenario) = run_once(&team("  max_new_answers_global: 2\n", ""), "q").await;
    assert_completed(&events);
    assert_eq!(
        count(&events, |msg| matches!(
            msg,
            EventMsg::AnswerSubmitted { .. }
        )),
        2
    );
    let docs = coordination_requests(&scenario, "docs");
    let last = docs.last().expect("a docs round");
    let names: Vec<&str> = last.tools.iter().map(|tool| tool.name.as_str()).collect();
    assert!(
        names.contains(&"stop") && !names.contains(&"new_answer"),
        "{names:?}"
    );
    assert!(count(&events, |msg| matches!(msg, EventMsg::AgentStopped { .. })) >= 3);
}

#[tokio::test(start_paused = true)]
async fn without_subtasks_in_the_config_the_presenters_model_writes_them() {
    let yaml = format!(
        "agents:\n{}{}orchestrator:\n  coordination_mode: decomposition\n  presenter_agent: a\n",
        agent("a", 10, None, ""),
        agent("b", 20, None, ""),
    );
    let (events, scenario) = run_once(&yaml, "Build a shop").await;
    assert_completed(&events);
    let assigned = events.iter().find_map(|event| match &event.msg {
        EventMsg::SubtasksAssigned { subtasks, source } => Some((subtasks.clone(), *source)),
        _ => None,
    });
    let (subtasks, source) = assigned.expect("subtasks announced");
    assert_eq!(source, SubtaskSource::Decomposer);
    assert_eq!(subtasks.len(), 2);
    assert_eq!(
        subtasks[1].1,
        "Part 2 of 2 of \"Build a shop\", owned by b."
    );
    // The presenter's model was asked first, with MassGen's decomposition prompt.
    let first = &scenario.requests_of("a")[0];
    assert!(first.tools.is_empty());
    assert!(
        first.messages[0]
            .content()
            .starts_with("Create a decomposition plan for 2 agents.")
    );
    let b = system_prompt(&coordination_requests(&scenario, "b")[0]);
    assert!(b.contains("**YOUR ASSIGNED SUBTASK:**\nPart 2 of 2"), "{b}");
}

#[tokio::test(start_paused = true)]
async fn config_subtasks_are_announced_once_for_every_front_end() {
    let (events, scenario) = run_once(&team("", ""), "q").await;
    let assigned: Vec<_> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::SubtasksAssigned { subtasks, source } => Some((subtasks.clone(), *source)),
            _ => None,
        })
        .collect();
    assert_eq!(assigned.len(), 1);
    assert_eq!(assigned[0].1, SubtaskSource::Config);
    let owners: Vec<&str> = assigned[0]
        .0
        .iter()
        .map(|(agent, _)| agent.as_str())
        .collect();
    assert_eq!(owners, ["api", "ui"], "docs has no subtask of its own");
    // No decomposer call: every agent's first request is a coordination round.
    assert!(!scenario.requests_of("docs")[0].tools.is_empty());
}

#[tokio::test(start_paused = true)]
async fn the_example_config_runs_offline() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/configs/scripted/decomposition.yaml"
    );
    let yaml = std::fs::read_to_string(path).unwrap();
    let (events, _) = run_once(&yaml, "a todo app").await;
    assert_completed(&events);
    assert_eq!(winner(&events).as_deref(), Some("integrator"));
    // Early stoppers are woken by later answers and stop again.
    assert!(count(&events, |msg| matches!(msg, EventMsg::AgentStopped { .. })) >= 3);
    // A stop reset by a peer's new answer is not called a vote.
    let restarts: Vec<&str> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::AgentRestarted { reason, .. } => Some(reason.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        restarts
            .iter()
            .any(|reason| reason.contains("its stop was reset")),
        "{restarts:?}"
    );
    assert!(
        !restarts.iter().any(|reason| reason.contains("vote")),
        "{restarts:?}"
    );
    assert_eq!(
        final_answer(&events).map(|(text, _)| text).as_deref(),
        Some("The assembled deliverable for a todo app: endpoints, pages, tests and a README")
    );
}

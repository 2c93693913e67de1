//! MassGen 0.1.97's checklist-round knobs in whole turns: `draft_approach` after a
//! `new_answer` verdict, the diagnostic gap report `submit_checklist` requires under
//! `checklist_require_gap_report`, and the prompts of `fast_iteration_mode`,
//! `max_verifications_per_round` and `max_internal_fix_loops`.

use crate::support::{Scenario, run_once, transcript};
use massgen::protocol::{EventMsg, Mode, TurnOptions};

/// The `submit_checklist` results `agent` got: (ok, output).
fn checklist_results(events: &[massgen::protocol::Event], agent: &str) -> Vec<(bool, String)> {
    events
        .iter()
        .filter(|event| event.agent.as_ref().is_some_and(|id| id.as_str() == agent))
        .filter_map(|event| match &event.msg {
            EventMsg::ToolCallEnd {
                tool, ok, output, ..
            } if tool == "submit_checklist" => Some((*ok, output.clone())),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_new_answer_verdict_is_followed_by_the_agents_approach_then_its_new_answer() {
    let yaml = r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answers: ["Paris.", "Paris, on the Seine."]
    checklist:
      - {E1: 9, E2: 3, E3: 3, E4: 9}
      - {E1: 9, E2: 9, E3: 8, E4: 8}
    approach:
      vision: "A precise answer with its context"
      plan:
        E2: [{plan: "name the river", sources: [agent1.1], impact: structural}]
        E3: ["add one fact"]
      preserve: {E1: {what: "the right city", source: agent1.1}}
orchestrator:
  voting_sensitivity: checklist_gated
"#;
    let (events, _scenario) = run_once(yaml, "Capital of France?").await;
    assert_eq!(
        transcript(&events),
        [
            "turn started",
            "solo round 1 sees []",
            "solo answers agent1.1",
            "solo round 2 sees [agent1.1]",
            "solo checklist new_answer",
            "solo approach E2 structural, E3 incremental; keeps E1 — vision: A precise answer \
             with its context",
            "solo answers agent1.2",
            "solo round 3 sees [agent1.2]",
            "solo checklist vote",
            "solo votes solo (agent1.2)",
            "winner solo by Votes",
            "solo presents agent1.final",
            "turn Completed",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn an_approach_that_misses_a_failing_criterion_is_refused_with_massgens_message() {
    let yaml = r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answers: ["Paris.", "Paris, on the Seine."]
    checklist:
      - {E1: 9, E2: 3, E3: 3, E4: 9}
      - {E1: 9, E2: 9, E3: 8, E4: 8}
    approach: {plan: {E2: [{plan: "name the river", impact: structural}]}, preserve: {E1: city}}
orchestrator:
  voting_sensitivity: checklist_gated
"#;
    let (events, _scenario) = run_once(yaml, "Capital of France?").await;
    let refused: Vec<String> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ToolCallEnd {
                tool,
                ok: false,
                output,
                ..
            } if tool == "draft_approach" => Some(output.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(refused.len(), 1, "{:?}", transcript(&events));
    assert!(
        refused[0].contains("Missing improvements for: E3"),
        "{}",
        refused[0]
    );
    assert!(
        !events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::ApproachDrafted { .. })),
        "no approach is reported"
    );
    assert!(
        transcript(&events).contains(&"solo answers agent1.2".to_string()),
        "the gate in front of new_answer does not ask for an approach, as in MassGen"
    );
}

/// A solo gated agent that must pass a gap report; `extra` adds scripted keys.
fn reporting_agent(extra: &str) -> String {
    format!(
        "agent:\n  id: solo\n  backend:\n    type: scripted\n    tokens_per_second: 0\n    \
         cwd: workspace\n    answers: [\"Paris.\", \"Paris, on the Seine.\"]\n    \
         checklist: [{{E1: 9, E2: 9, E3: 9, E4: 9}}]\n{extra}orchestrator:\n  \
         voting_sensitivity: checklist_gated\n  checklist_require_gap_report: true\n"
    )
}

#[tokio::test(start_paused = true)]
async fn a_required_gap_report_is_read_from_the_workspace() {
    let report = "## Failure patterns\\nNone left.\\n## Root causes\\nThe first draft named \
                  the city only.\\n## Goal alignment\\nThe answer now covers the question.";
    let yaml = reporting_agent(&format!(
        "    checklist_report: tasks/diagnostic_report.md\n    tool_calls:\n      - {{name: \
         mcp__filesystem__write_file, arguments: {{path: tasks/diagnostic_report.md, \
         content: \"{report}\"}}}}\n"
    ));
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit("Capital of France?", Mode::Normal, TurnOptions::default())
        .await;
    let results = checklist_results(&events, "solo");
    assert!(
        results.first().is_some_and(|(ok, _)| *ok),
        "{results:?} {:?}",
        transcript(&events)
    );
    assert!(transcript(&events).contains(&"solo checklist vote".to_string()));
}

#[tokio::test(start_paused = true)]
async fn a_checklist_without_a_required_gap_report_is_a_validation_error() {
    let (events, _scenario) = run_once(&reporting_agent(""), "Capital of France?").await;
    let results = checklist_results(&events, "solo");
    let (ok, output) = results.first().expect("a checklist was submitted");
    assert!(!ok);
    assert!(
        output.contains("\"error_code\":\"diagnostic_report_invalid\""),
        "{output}"
    );
    assert!(
        output.contains(
            "Diagnostic report is required before submitting scores. Write a markdown \
             diagnostic report covering Failure Patterns, Root Causes, and Goal Alignment, \
             then provide its path via report_path."
        ),
        "{output}"
    );
    assert!(
        !events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::ChecklistSubmitted { .. })),
        "{:?}",
        transcript(&events)
    );
}

#[tokio::test(start_paused = true)]
async fn fast_iteration_knobs_shape_the_system_prompt() {
    let yaml = |coordination: &str| {
        format!(
            "agents:\n  - id: a\n    backend: {{type: scripted, tokens_per_second: 0, answer: \
             A.}}\norchestrator:\n  voting_sensitivity: checklist_gated\n  coordination: \
             {coordination}\n"
        )
    };
    let fast = yaml(
        "{fast_iteration_mode: true, max_verifications_per_round: 1, max_internal_fix_loops: 0}",
    );
    let (_events, scenario) = run_once(&fast, "q").await;
    let system = scenario.requests_of("a")[0].messages[0]
        .content()
        .to_string();
    for words in [
        "FIX BROKEN, DEFER IMPERFECT",
        "at most 1 verification pass(es) per round",
        "NO FIX LOOPS",
        "QUICK IMPACT CHECK",
        "call `draft_approach` before you build",
    ] {
        assert!(system.contains(words), "{words}");
    }
    let (_events, scenario) = run_once(&yaml("{}"), "q").await;
    let plain = scenario.requests_of("a")[0].messages[0]
        .content()
        .to_string();
    assert!(!plain.contains("FIX BROKEN") && !plain.contains("QUICK IMPACT CHECK"));
    assert!(plain.contains("call `draft_approach` before you build"));
}

#[tokio::test(start_paused = true)]
async fn the_example_config_runs_offline_to_a_winner() {
    let yaml = include_str!("../../configs/scripted/fast_iteration.yaml");
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), yaml);
    let events = scenario
        .submit("Plan a city break", Mode::Normal, TurnOptions::default())
        .await;
    let lines = transcript(&events);
    for expected in [
        "analyst checklist new_answer",
        "analyst approach E2 structural, E3 incremental; keeps E1 — vision: An answer a \
         reader can act on without asking why",
        "analyst answers agent1.2",
        "reviewer checklist vote",
        "winner analyst by Votes",
    ] {
        assert!(
            lines.contains(&expected.to_string()),
            "{expected}: {lines:?}"
        );
    }
    assert_eq!(lines.last().map(String::as_str), Some("turn Completed"));
    let system = scenario.requests_of("analyst")[0].messages[0]
        .content()
        .to_string();
    assert!(system.contains("DIAGNOSTIC REPORT (REQUIRED)"));
    assert!(system.contains("NO FIX LOOPS"));
}

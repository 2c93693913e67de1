//! The offline demo shows what each mode did: Planning makes a plan as large as the chosen
//! depth asks, Execute finishes every task and its final answer reports them, and the
//! user's answer to an agent's question shows up and shapes that agent's answers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::plans::{execute, last_task_list, metadata, plan_dirs, planning, plans};
use crate::support::{Scenario, assert_completed, final_answer};
use massgen::protocol::{
    BroadcastTarget, Event, EventMsg, Mode, Op, PlanDepth, PlanStatus, QuestionReply, TaskStatus,
    TurnOptions,
};

/// The shipped demo config, as a newcomer runs it.
const DEMO: &str = include_str!("../../configs/demo/three_agents.yaml");

/// The demo with every agent streaming at full speed, for the tests that need no timing.
fn fast_demo() -> String {
    DEMO.lines()
        .map(|line| {
            let trimmed = line.trim_start();
            let indent = &line[..line.len() - trimmed.len()];
            if trimmed.starts_with("tokens_per_second:") {
                format!("{indent}tokens_per_second: 0")
            } else if trimmed.starts_with("first_token_ms:") {
                format!("{indent}first_token_ms: 0")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The lower and upper bound of the task counts the planning prompt names for `depth`
/// (`100-200+` has no upper bound).
fn target_range(depth: PlanDepth) -> (usize, Option<usize>) {
    let (low, high) = depth.target().split_once('-').unwrap();
    (low.parse().unwrap(), high.parse().ok())
}

fn ready_plan_size(events: &[Event]) -> usize {
    plans(events)
        .into_iter()
        .rev()
        .find(|(status, _, _)| *status == PlanStatus::Ready)
        .map(|(_, _, tasks)| tasks)
        .unwrap_or_else(|| panic!("no ready plan: {:?}", plans(events)))
}

#[tokio::test]
async fn each_planning_depth_makes_a_plan_within_the_range_it_names() {
    for depth in [PlanDepth::Shallow, PlanDepth::Medium, PlanDepth::Deep] {
        let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), &fast_demo());
        let events = scenario
            .submit(
                "Plan a picnic for twelve",
                Mode::Planning,
                planning(depth.name()),
            )
            .await;
        assert_completed(&events);
        let size = ready_plan_size(&events);
        let (low, high) = target_range(depth);
        assert!(
            size >= low && high.is_none_or(|high| size <= high),
            "{} depth asks for {} tasks, the demo planned {size}",
            depth.name(),
            depth.target()
        );
    }
}

/// The README's Execute: plan in the demo at its own speeds (peers' answers then reach
/// agents mid-task), carry the plan out, and read what the final answer says.
#[tokio::test(start_paused = true)]
async fn an_executed_plan_finishes_every_task_and_its_answer_names_them() {
    let mut scenario = Scenario::start_with_tools(tempfile::tempdir().unwrap(), DEMO);
    let planned = scenario
        .submit(
            "Plan a picnic for twelve",
            Mode::Planning,
            planning("shallow"),
        )
        .await;
    assert_completed(&planned);
    let events = scenario.submit("", Mode::Execute, execute("latest")).await;
    assert_completed(&events);

    let plan_dir = plan_dirs(scenario.dir.path()).pop().unwrap();
    let plan_id = plan_dir.file_name().unwrap().to_string_lossy().into_owned();
    let saved: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(plan_dir.join("workspace/tasks/plan.json")).unwrap(),
    )
    .unwrap();
    let tasks = saved["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 5, "{saved}");
    let open: Vec<String> = tasks
        .iter()
        .filter(|task| !matches!(task["status"].as_str(), Some("completed" | "verified")))
        .map(|task| format!("{} {}", task["id"], task["status"]))
        .collect();
    assert!(open.is_empty(), "the winner left tasks open: {open:?}");
    // Every agent finished its own copy of the plan, not only the winner.
    for agent in ["scout", "scholar", "critic"] {
        let last = last_task_list(&events, agent);
        assert_eq!(last.len(), 5, "{agent}: {last:?}");
        assert!(
            last.iter()
                .all(|task| matches!(task.status, TaskStatus::Completed | TaskStatus::Verified)),
            "{agent} left tasks open: {last:?}"
        );
    }
    assert_eq!(metadata(&plan_dir)["status"], "completed");

    let (answer, fallback) = final_answer(&events).unwrap();
    assert!(!fallback, "{answer}");
    assert!(
        answer.contains(&format!("Executed plan {plan_id}: 5 of 5 tasks done.")),
        "{answer}"
    );
    for task in tasks {
        let line = format!(
            "- {} {} ✓",
            task["id"].as_str().unwrap(),
            task["description"].as_str().unwrap()
        );
        assert!(answer.contains(&line), "{line:?} missing from\n{answer}");
    }
}

#[tokio::test]
async fn the_users_answer_to_the_question_shows_and_shapes_the_answers() {
    let mut scenario = Scenario::start_with_human(tempfile::tempdir().unwrap(), &fast_demo());
    let options = TurnOptions {
        broadcast: Some(BroadcastTarget::Human),
        ..planning("shallow")
    };
    let events = scenario
        .submit_answering(
            "Plan a picnic for twelve",
            Mode::Planning,
            options,
            |msg| match msg {
                EventMsg::BroadcastAsked {
                    request_id,
                    questions,
                    ..
                } => Some(Op::AnswerQuestion {
                    request_id: request_id.clone(),
                    replies: vec![QuestionReply {
                        selected: vec![questions[0].options[2].id.clone()],
                        text: String::new(),
                    }],
                }),
                _ => None,
            },
        )
        .await;
    assert_completed(&events);
    let answered: Vec<(Option<String>, String)> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::BroadcastAnswered {
                from: None, answer, ..
            } => Some((
                event.agent.as_ref().map(ToString::to_string),
                answer.clone(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        answered,
        [(Some("scholar".to_string()), "A checklist".to_string())]
    );
    let uses_it = "**Delivered as you chose:** A checklist.";
    let scholar_answers: Vec<&str> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::AnswerSubmitted { content, .. }
                if event
                    .agent
                    .as_ref()
                    .is_some_and(|id| id.as_str() == "scholar") =>
            {
                Some(content.as_str())
            }
            _ => None,
        })
        .collect();
    assert!(!scholar_answers.is_empty());
    for answer in &scholar_answers {
        assert!(
            answer.contains(uses_it),
            "the answer ignores the reply:\n{answer}"
        );
    }
    let (answer, _) = final_answer(&events).unwrap();
    assert!(answer.contains(uses_it), "{answer}");
}

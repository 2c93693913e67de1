//! The executed plan in the final presentation, as the scripted model reports it: it asks
//! `get_task_plan` for the tasks' final statuses, then lists what it did and what is open.

use std::fmt::Write as _;

use serde_json::{Value as Json, json};

use super::reading;
use super::tasks::{self, task_tool_prefix};
use crate::backend::{ChatRequest, Message};
use crate::config::ScriptedToolCall;

const PLAN: &str = "get_task_plan";
/// Done tasks listed one by one; past these, the rest are counted.
const LISTED_DONE: usize = 10;

/// The `get_task_plan` call to make first when presenting an executed plan: execution
/// mode, the task tools offered, and no look at the plan yet in this conversation.
pub fn check(request: &ChatRequest) -> Option<ScriptedToolCall> {
    if !reading::user_says(request, reading::EXECUTION_MODE) {
        return None;
    }
    let prefix = task_tool_prefix(request)?;
    let name = format!("{prefix}{PLAN}");
    (!reading::has_result_of(request, &name)).then(|| ScriptedToolCall {
        name,
        arguments: json!({}),
    })
}

/// What the plan's final statuses say: a heading with the count done, then the tasks;
/// `None` when no `get_task_plan` result came back.
pub fn report(request: &ChatRequest) -> Option<String> {
    let prefix = task_tool_prefix(request)?;
    let name = format!("{prefix}{PLAN}");
    let plan = reading::tool_results(request)
        .filter(|result| result.name == name)
        .last()
        .and_then(|result| tasks::outcome(&result))?;
    let tasks = plan["plan"]["tasks"].as_array()?;
    let is_done = |task: &Json| matches!(task["status"].as_str(), Some("completed" | "verified"));
    let done = tasks.iter().filter(|task| is_done(task)).count();
    let plan_name = plan_name(request).map_or_else(String::new, |name| format!(" {name}"));
    let mut text = format!(
        "**Executed plan{plan_name}: {done} of {} tasks done.**\n\n",
        tasks.len()
    );
    let line = |task: &Json| {
        format!(
            "{} {}",
            task["id"].as_str().unwrap_or("?"),
            task["description"].as_str().unwrap_or_default()
        )
    };
    for task in tasks.iter().filter(|task| is_done(task)).take(LISTED_DONE) {
        let _ = writeln!(text, "- {} ✓", line(task));
    }
    if done > LISTED_DONE {
        let _ = writeln!(text, "- … and {} more, each ✓", done - LISTED_DONE);
    }
    for task in tasks.iter().filter(|task| !is_done(task)) {
        let status = task["status"].as_str().unwrap_or("pending");
        let _ = writeln!(text, "- {} — still {status}", line(task));
    }
    Some(text)
}

/// `plan_…`, the saved plan's directory name, from the read-only context path of its
/// frozen copy that the prompt lists.
fn plan_name(request: &ChatRequest) -> Option<&str> {
    const MARKER: &str = "plans/plan_";
    request.messages.iter().find_map(|message| {
        let text = match message {
            Message::System { content } | Message::User { content, .. } => content.as_str(),
            Message::Assistant { .. } | Message::Tool { .. } => return None,
        };
        let start = text.find(MARKER)? + MARKER.len() - "plan_".len();
        let name = &text[start..];
        let end = name
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(name.len());
        Some(&name[..end])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::ToolSpec;

    const PREFIX: &str = "mcp__planning_agent_a__";

    fn presenting(system: &str) -> ChatRequest {
        ChatRequest {
            messages: vec![
                Message::system(system),
                Message::user(
                    "<ORIGINAL MESSAGE> # PLAN EXECUTION MODE\n\n## Your Task\nBuild a blog\n\
                     <END OF ORIGINAL MESSAGE>",
                ),
            ]
            .into(),
            tools: [PLAN, "get_ready_tasks"]
                .map(|tool| ToolSpec {
                    name: format!("{PREFIX}{tool}"),
                    description: String::new(),
                    parameters: json!({}),
                })
                .to_vec(),
        }
    }

    fn with_plan(mut request: ChatRequest, statuses: &[&str]) -> ChatRequest {
        let tasks: Vec<Json> = statuses
            .iter()
            .enumerate()
            .map(|(index, status)| {
                json!({"id": format!("T{:03}", index + 1), "description": format!("Step {}", index + 1),
                       "status": status})
            })
            .collect();
        let call = check(&request).expect("looks at the plan first");
        crate::backend::scripted::tests::reply_with(&mut request, &[call], |_| {
            (
                json!({"plan": {"tasks": tasks}, "summary": {}}).to_string(),
                false,
            )
        });
        request
    }

    #[test]
    fn the_report_names_every_task_and_its_final_status() {
        let request = with_plan(
            presenting("Read-only: /p/.massgen/plans/plan_20260101_120000_1/frozen (the plan)"),
            &["verified", "completed", "pending"],
        );
        assert_eq!(check(&request), None, "one look is enough");
        assert_eq!(
            report(&request).unwrap(),
            "**Executed plan plan_20260101_120000_1: 2 of 3 tasks done.**\n\n\
             - T001 Step 1 ✓\n- T002 Step 2 ✓\n- T003 Step 3 — still pending\n"
        );
    }

    #[test]
    fn a_long_plan_lists_ten_done_tasks_and_counts_the_rest() {
        let request = with_plan(presenting("no paths"), &["verified"; 100]);
        let report = report(&request).unwrap();
        assert!(report.starts_with("**Executed plan: 100 of 100 tasks done.**"));
        assert!(report.contains("- T010 Step 10 ✓\n- … and 90 more, each ✓\n"));
        assert!(!report.contains("T011"), "{report}");
    }

    #[test]
    fn only_when_presenting_an_executed_plan() {
        let mut request = presenting("");
        std::sync::Arc::make_mut(&mut request.messages)[1] =
            Message::user("<ORIGINAL MESSAGE> q <END OF ORIGINAL MESSAGE>");
        assert_eq!(check(&request), None, "not executing");
        let mut request = presenting("");
        request.tools.clear();
        assert_eq!(check(&request), None, "no task tools");
        assert_eq!(report(&presenting("")), None, "not looked at yet");
    }
}

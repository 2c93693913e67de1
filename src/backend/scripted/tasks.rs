//! Plan execution as the scripted model does it: ask the task tools which tasks are ready,
//! take each ready task through in_progress → completed → verified in one reply, and ask
//! again, until none is ready, a task tool fails, or the reply budget is spent.

use serde_json::{Value as Json, json};

use super::reading::{self, ToolResult};
use crate::backend::ChatRequest;
use crate::config::ScriptedToolCall;

/// The task tools are `mcp__planning_<agent id>__<tool>`.
const SERVER_PREFIX: &str = "mcp__planning_";
const READY: &str = "get_ready_tasks";
const UPDATE: &str = "update_task_status";
const TASK_TOOLS: [&str; 9] = [
    "create_task_plan",
    "add_task",
    UPDATE,
    "edit_task",
    "delete_task",
    "clear_task_plan",
    "get_task_plan",
    READY,
    "get_blocked_tasks",
];
/// Replies that use task tools in one conversation, at most; then the model answers.
pub const MAX_TASK_REPLIES: usize = 20;

/// The task-tool calls of the next reply, or `None` when the model is done with the plan
/// (or not executing one). The caller checks that the agent has no answer yet.
pub fn next(request: &ChatRequest, model: &str) -> Option<Vec<ScriptedToolCall>> {
    if !reading::user_says(request, reading::EXECUTION_MODE) {
        return None;
    }
    let prefix = task_tool_prefix(request)?;
    let is_task_tool = |name: &str| {
        name.strip_prefix(prefix.as_str())
            .is_some_and(|tool| TASK_TOOLS.contains(&tool))
    };
    let task_replies = reading::replies(request)
        .filter(|calls| calls.iter().any(|call| is_task_tool(&call.name)))
        .count();
    if task_replies >= MAX_TASK_REPLIES {
        return None;
    }
    let mut results = reading::tool_results(request)
        .filter(|result| is_task_tool(result.name))
        .peekable();
    if results.peek().is_none() {
        return Some(vec![call(&prefix, READY, json!({}))]);
    }
    if results.any(|result| outcome(&result).is_none()) {
        return None;
    }
    let ready_name = format!("{prefix}{READY}");
    let ready = reading::latest_results(request)
        .into_iter()
        .rev()
        .filter(|result| result.name == ready_name)
        .find_map(|result| outcome(&result))?;
    let ids: Vec<Json> = ready["ready_tasks"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(|task| task.get("id").filter(|id| !id.is_null()).cloned())
        .collect();
    let count = ready["count"].as_u64().unwrap_or(ids.len() as u64);
    if count == 0 || ids.is_empty() {
        return None;
    }
    let mut calls = Vec::with_capacity(ids.len() * 3 + 1);
    for id in ids {
        calls.push(call(
            &prefix,
            UPDATE,
            json!({"task_id": id, "status": "in_progress"}),
        ));
        calls.push(call(
            &prefix,
            UPDATE,
            json!({"task_id": id, "status": "completed", "completion_notes": format!("done by {model}")}),
        ));
        calls.push(call(
            &prefix,
            UPDATE,
            json!({"task_id": id, "status": "verified", "completion_notes": format!("checked by {model}")}),
        ));
    }
    calls.push(call(&prefix, READY, json!({})));
    Some(calls)
}

/// `mcp__planning_<agent id>__`, from the offered `get_ready_tasks` tool.
pub(super) fn task_tool_prefix(request: &ChatRequest) -> Option<String> {
    request.tools.iter().find_map(|tool| {
        let server = tool.name.strip_suffix(READY)?.strip_suffix("__")?;
        server
            .starts_with(SERVER_PREFIX)
            .then(|| format!("{server}__"))
    })
}

/// A successful result's JSON; `None` for an error, `"success": false`, or text that does
/// not start with JSON.
pub(super) fn outcome(result: &ToolResult<'_>) -> Option<Json> {
    if result.is_error {
        return None;
    }
    let json = reading::leading_object(result.content)?;
    (json["success"] != false).then_some(json)
}

fn call(prefix: &str, tool: &str, arguments: Json) -> ScriptedToolCall {
    ScriptedToolCall {
        name: format!("{prefix}{tool}"),
        arguments,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{Message, ToolSpec};

    const PREFIX: &str = "mcp__planning_agent_a__";

    fn spec(name: String) -> ToolSpec {
        ToolSpec {
            name,
            description: String::new(),
            parameters: json!({}),
        }
    }

    fn executing() -> ChatRequest {
        let workflow = ["vote", "new_answer"].map(|name| spec(name.into()));
        let task_tools =
            ["get_task_plan", READY, UPDATE].map(|tool| spec(format!("{PREFIX}{tool}")));
        ChatRequest {
            messages: vec![Message::user(
                "<ORIGINAL MESSAGE># PLAN EXECUTION MODE\n\n## Your Task\nBuild a blog\n\
                 <END OF ORIGINAL MESSAGE>",
            )]
            .into(),
            tools: workflow.into_iter().chain(task_tools).collect(),
        }
    }

    use crate::backend::scripted::tests::reply_with;

    fn ready(ids: &[&str]) -> (String, bool) {
        let tasks: Vec<Json> = ids.iter().map(|id| json!({"id": id})).collect();
        let result = json!({"success": true, "ready_tasks": tasks, "count": ids.len()});
        (result.to_string(), false)
    }

    fn ok(_: &ScriptedToolCall) -> (String, bool) {
        (json!({"success": true}).to_string(), false)
    }

    #[test]
    fn works_through_ready_batches_until_none_is_ready() {
        let mut request = executing();
        let mut calls = next(&request, "m").unwrap();
        assert_eq!(calls, vec![call(PREFIX, READY, json!({}))]);
        let batches: [&[&str]; 3] = [&["T001"], &["T002", "T003"], &[]];
        let mut replies = vec![calls.len()];
        for batch in batches {
            reply_with(&mut request, &calls, |call| {
                if call.name.ends_with(READY) {
                    ready(batch)
                } else {
                    ok(call)
                }
            });
            let Some(next_calls) = next(&request, "m") else {
                break;
            };
            calls = next_calls;
            replies.push(calls.len());
            if batch == ["T001"] {
                let status = |status: &str, notes: Option<&str>| {
                    let mut arguments = json!({"task_id": "T001", "status": status});
                    if let Some(notes) = notes {
                        arguments["completion_notes"] = notes.into();
                    }
                    call(PREFIX, UPDATE, arguments)
                };
                assert_eq!(
                    calls,
                    vec![
                        status("in_progress", None),
                        status("completed", Some("done by m")),
                        status("verified", Some("checked by m")),
                        call(PREFIX, READY, json!({})),
                    ]
                );
            }
        }
        assert_eq!(replies, [1, 4, 7], "ask; T001; T002 and T003; then answer");
    }

    #[test]
    fn peers_answers_appended_to_the_ready_list_do_not_end_the_work() {
        let mut request = executing();
        let calls = next(&request, "m").unwrap();
        reply_with(&mut request, &calls, |_| {
            let (ready, is_error) = ready(&["T001"]);
            let update = "\n====\n⚠️  IMPORTANT: NEW ANSWER RECEIVED - ACTION REQUIRED\n";
            (
                format!("{ready}{update}[UPDATE: agent2 submitted new answer(s)]"),
                is_error,
            )
        });
        let calls = next(&request, "m").expect("T001 is still worked on");
        assert_eq!(calls[0].arguments["task_id"], "T001");
    }

    #[test]
    fn a_task_tool_error_ends_the_work() {
        let failures = [
            (
                json!({"success": false, "error": "no such task"}).to_string(),
                false,
            ),
            ("Tool failed".to_string(), true),
            ("not json".to_string(), false),
        ];
        for failure in failures {
            let mut request = executing();
            let calls = next(&request, "m").unwrap();
            reply_with(&mut request, &calls, |_| ready(&["T001"]));
            let calls = next(&request, "m").unwrap();
            reply_with(&mut request, &calls, |call| {
                if call.name.ends_with(READY) {
                    ready(&["T002"])
                } else if call.arguments["status"] == "verified" {
                    failure.clone()
                } else {
                    ok(call)
                }
            });
            assert_eq!(next(&request, "m"), None, "{failure:?}");
        }
    }

    #[test]
    fn a_first_error_or_nothing_ready_means_no_task_work() {
        let first = [call(PREFIX, READY, json!({}))];
        let mut request = executing();
        reply_with(&mut request, &first, |_| ready(&[]));
        assert_eq!(next(&request, "m"), None);
        let mut request = executing();
        reply_with(&mut request, &first, |_| {
            (
                json!({"success": false, "error": "no plan"}).to_string(),
                false,
            )
        });
        assert_eq!(next(&request, "m"), None);
    }

    #[test]
    fn other_tools_after_the_task_work_do_not_restart_it() {
        let mut request = executing();
        reply_with(&mut request, &[call(PREFIX, READY, json!({}))], |_| {
            ready(&["T001"])
        });
        let search = ScriptedToolCall {
            name: "search".into(),
            arguments: json!({}),
        };
        reply_with(&mut request, &[search], ok);
        assert_eq!(
            next(&request, "m"),
            None,
            "the ready list is not the latest news"
        );
    }

    #[test]
    fn at_most_twenty_task_replies() {
        let mut request = executing();
        let mut replies = 0;
        while let Some(calls) = next(&request, "m") {
            replies += 1;
            assert!(replies <= MAX_TASK_REPLIES, "runaway loop");
            // A plan that never gets done: the same task is always ready.
            reply_with(&mut request, &calls, |call| {
                if call.name.ends_with(READY) {
                    ready(&["T001"])
                } else {
                    ok(call)
                }
            });
        }
        assert_eq!(replies, MAX_TASK_REPLIES);
    }

    #[test]
    fn only_in_execution_mode_with_the_task_tools() {
        let mut request = executing();
        request.tools.retain(|tool| !tool.name.ends_with(READY));
        assert_eq!(next(&request, "m"), None);
        let mut request = executing();
        request.messages = vec![Message::user(
            "<ORIGINAL MESSAGE>q<END OF ORIGINAL MESSAGE>",
        )]
        .into();
        assert_eq!(next(&request, "m"), None);
        let mut request = executing();
        for tool in &mut request.tools {
            tool.name = tool.name.replace("mcp__planning_", "mcp__other_");
        }
        assert_eq!(next(&request, "m"), None, "not a planning server");
    }
}

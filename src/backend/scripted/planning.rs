//! Planning as the scripted model does it: the reply to config planning mode's
//! irreversibility question, and writing `project_plan.json` once in task planning mode.

use serde_json::{Value as Json, json};

use super::{reading, sized_plan};
use crate::backend::ChatRequest;
use crate::config::ScriptedToolCall;

pub const WRITE_FILE: &str = "mcp__filesystem__write_file";
pub const PLAN_FILE: &str = "project_plan.json";
/// Tries at writing the plan before the model gives up and answers anyway.
const MAX_PLAN_WRITES: usize = 2;

/// Whether this is config planning mode's question: no tools, and the answer format in a
/// user message.
pub fn is_irreversibility_question(request: &ChatRequest) -> bool {
    request.tools.is_empty() && reading::user_says(request, reading::IRREVERSIBILITY)
}

/// The `write_file` call that saves the plan, while the prompt is in task planning mode,
/// the tool is offered, and no write of the plan has succeeded (or failed too often) yet.
/// The caller checks that the agent has no answer yet.
pub fn write_plan(
    request: &ChatRequest,
    plan: &[Json],
    question: &str,
) -> Option<ScriptedToolCall> {
    if !reading::user_says(request, reading::PLANNING_MODE) || !reading::offers(request, WRITE_FILE)
    {
        return None;
    }
    let writes: Vec<bool> = reading::replies(request)
        .flatten()
        .filter(|call| call.name == WRITE_FILE && writes_plan_file(&call.arguments))
        .map(|call| reading::result_of(request, &call.id).is_some_and(|result| !result.is_error))
        .collect();
    if writes.iter().any(|succeeded| *succeeded) || writes.len() >= MAX_PLAN_WRITES {
        return None;
    }
    let tasks = if plan.is_empty() {
        sized_plan::plan_of(sized_plan::requested_tasks(request), question)
    } else {
        plan.iter().map(complete_task).collect()
    };
    Some(ScriptedToolCall {
        name: WRITE_FILE.into(),
        arguments: json!({ "path": PLAN_FILE, "content": plan_file(&tasks) }),
    })
}

/// `{"tasks": [...]}` with one task a line: readable, and short enough to stream a
/// hundred tasks quickly.
fn plan_file(tasks: &[Json]) -> String {
    let lines: Vec<String> = tasks.iter().map(|task| format!("    {task}")).collect();
    format!("{{\n  \"tasks\": [\n{}\n  ]\n}}\n", lines.join(",\n"))
}

fn writes_plan_file(arguments: &str) -> bool {
    serde_json::from_str::<Json>(arguments)
        .ok()
        .and_then(|arguments| {
            arguments["path"]
                .as_str()
                .map(|path| path.ends_with(PLAN_FILE))
        })
        .unwrap_or(false)
}

/// A configured task with the fields a plan file has: `status`, `depends_on`, `priority`.
fn complete_task(task: &Json) -> Json {
    let mut task = task.clone();
    if let Json::Object(fields) = &mut task {
        fields.entry("status").or_insert_with(|| "pending".into());
        fields.entry("depends_on").or_insert_with(|| json!([]));
        fields.entry("priority").or_insert_with(|| "medium".into());
    }
    task
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{Message, ToolCall, ToolSpec};

    fn spec(name: &str) -> ToolSpec {
        ToolSpec {
            name: name.into(),
            description: String::new(),
            parameters: json!({}),
        }
    }

    fn planning() -> ChatRequest {
        ChatRequest {
            messages: vec![Message::user(
                "<ORIGINAL MESSAGE># TASK PLANNING MODE\n\nUSER'S REQUEST:\nBuild a blog\
                 <END OF ORIGINAL MESSAGE>",
            )]
            .into(),
            tools: vec![spec(WRITE_FILE), spec("vote")],
        }
    }

    fn write_result(request: &mut ChatRequest, id: &str, path: &str, is_error: bool) {
        std::sync::Arc::make_mut(&mut request.messages).push(Message::assistant(
            "",
            vec![ToolCall {
                id: id.into(),
                name: WRITE_FILE.into(),
                arguments: json!({"path": path, "content": "{}"}).to_string(),
                signature: None,
            }],
        ));
        std::sync::Arc::make_mut(&mut request.messages).push(Message::Tool {
            call_id: id.into(),
            name: WRITE_FILE.into(),
            content: if is_error { "denied" } else { "ok" }.into(),
            is_error,
        });
    }

    #[test]
    fn the_irreversibility_question_has_no_tools() {
        let mut request = ChatRequest {
            messages: vec![Message::user(
                "…Respond:\nIRREVERSIBLE: YES/NO\nBLOCKED_TOOLS: …",
            )]
            .into(),
            tools: vec![],
        };
        assert!(is_irreversibility_question(&request));
        request.tools.push(spec("vote"));
        assert!(!is_irreversibility_question(&request));
        assert!(!is_irreversibility_question(&planning()));
    }

    #[test]
    fn the_default_plan_is_five_tasks_in_a_small_dag() {
        let call = write_plan(&planning(), &[], "Build a blog").unwrap();
        assert_eq!(call.arguments["path"], PLAN_FILE);
        let text = call.arguments["content"].as_str().unwrap();
        assert!(
            text.contains("\n    {\"depends_on\":[],"),
            "one task a line: {text}"
        );
        let content: Json = serde_json::from_str(text).unwrap();
        let tasks = content["tasks"].as_array().unwrap();
        let ids: Vec<&str> = tasks.iter().map(|t| t["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["T001", "T002", "T003", "T004", "T005"]);
        assert_eq!(
            tasks[0]["description"],
            "Pin down what \"Build a blog\" must deliver"
        );
        let priorities: Vec<&str> = tasks
            .iter()
            .map(|t| t["priority"].as_str().unwrap())
            .collect();
        assert_eq!(priorities, ["high", "medium", "high", "medium", "low"]);
        assert_eq!(tasks[4]["depends_on"], json!(["T003", "T004"]));
        assert_eq!(tasks[1]["depends_on"], json!(["T001"]));
        assert_eq!(tasks[2]["metadata"]["verification_group"], "core");
    }

    #[test]
    fn the_default_plan_has_the_size_the_prompt_targets() {
        let mut request = planning();
        request.messages = vec![Message::user(
            "<ORIGINAL MESSAGE># TASK PLANNING MODE\n## Planning Size\n\n- Depth: medium\n\
             - Target tasks: 20-50\n\nUSER'S REQUEST:\nBuild a blog<END OF ORIGINAL MESSAGE>",
        )]
        .into();
        let call = write_plan(&request, &[], "Build a blog").unwrap();
        let content: Json =
            serde_json::from_str(call.arguments["content"].as_str().unwrap()).unwrap();
        assert_eq!(content["tasks"].as_array().unwrap().len(), 20);
    }

    #[test]
    fn a_configured_plan_is_written_with_plan_file_fields() {
        let plan = [json!({"id": "A", "description": "Do it", "priority": "high"})];
        let call = write_plan(&planning(), &plan, "q").unwrap();
        let content: Json =
            serde_json::from_str(call.arguments["content"].as_str().unwrap()).unwrap();
        assert_eq!(
            content,
            json!({"tasks": [{"id": "A", "description": "Do it", "priority": "high",
                              "status": "pending", "depends_on": []}]})
        );
    }

    #[test]
    fn the_plan_is_written_until_a_write_succeeds_or_twice_failed() {
        let mut request = planning();
        write_result(&mut request, "w0", "notes.md", false);
        assert!(
            write_plan(&request, &[], "q").is_some(),
            "another file does not count"
        );
        write_result(&mut request, "w1", "project_plan.json", true);
        assert!(
            write_plan(&request, &[], "q").is_some(),
            "one failure: try again"
        );
        let mut succeeded = request.clone();
        write_result(&mut succeeded, "w2", "deliverable/project_plan.json", false);
        assert_eq!(write_plan(&succeeded, &[], "q"), None, "written");
        write_result(&mut request, "w2", "project_plan.json", true);
        assert_eq!(
            write_plan(&request, &[], "q"),
            None,
            "two failures: give up"
        );
    }

    #[test]
    fn no_plan_outside_planning_mode_or_without_the_tool() {
        let mut request = planning();
        request.tools.retain(|tool| tool.name != WRITE_FILE);
        assert_eq!(write_plan(&request, &[], "q"), None);
        let mut request = planning();
        request.messages = vec![Message::user(
            "<ORIGINAL MESSAGE>q<END OF ORIGINAL MESSAGE>",
        )]
        .into();
        assert_eq!(write_plan(&request, &[], "q"), None);
    }
}

//! Whole decisions of the scripted model over fake conversations: the irreversibility
//! reply, asking, writing the plan, the task loop, and what comes after each.

use serde_json::json;

use super::*;
use crate::backend::{Message, ToolSpec};
use crate::protocol::AgentId;

const PLANNING: &str = "<ORIGINAL MESSAGE># TASK PLANNING MODE\n\nPlan it.\n\n\
                        USER'S REQUEST:\nBuild a blog<END OF ORIGINAL MESSAGE>";
const EXECUTION: &str = "<ORIGINAL MESSAGE># PLAN EXECUTION MODE\n\n## Your Task\nBuild a blog\
                         \n\n## Getting Started\n<END OF ORIGINAL MESSAGE>";
const READY: &str = "mcp__planning_a__get_ready_tasks";
const UPDATE: &str = "mcp__planning_a__update_task_status";

fn spec(name: &str) -> ToolSpec {
    let parameters = if name == "vote" {
        json!({"properties": {"agent_id": {"enum": ["agent1"]}}})
    } else {
        json!({})
    };
    ToolSpec {
        name: name.into(),
        description: String::new(),
        parameters,
    }
}

fn round(user: &str, tools: &[&str]) -> ChatRequest {
    let workflow = ["new_answer", "vote"];
    ChatRequest {
        messages: vec![Message::system("sys"), Message::user(user)].into(),
        tools: workflow
            .iter()
            .chain(tools)
            .map(|name| spec(name))
            .collect(),
    }
}

struct Agent {
    options: ScriptedOptions,
    own: AnonId,
    mapping: AnonymousMapping,
}

impl Agent {
    fn new(options: ScriptedOptions) -> Self {
        let id = AgentId::new("a");
        let mapping = AnonymousMapping::new([&id]);
        Self {
            options,
            own: mapping.anon(&id).cloned().unwrap(),
            mapping,
        }
    }

    fn decide(&self, request: &ChatRequest) -> Plan {
        self.decide_with(
            request,
            crate::backend::scripted::ask::reply(request, self.options.ask.as_ref()).as_deref(),
        )
    }

    fn decide_with(&self, request: &ChatRequest, reply: Option<&str>) -> Plan {
        plan(&Context {
            options: &self.options,
            own_anon: Some(&self.own),
            mapping: &self.mapping,
            request,
            failure: None,
            model: "scripted-x",
            reply,
            evaluation: None,
            critic: None,
        })
    }
}

/// Appends the reply that made `calls`, and their results from `answer`.
fn play(
    request: &mut ChatRequest,
    action: &Action,
    answer: impl Fn(&ScriptedToolCall) -> (String, bool),
) {
    let Action::CallTools(calls) = action else {
        panic!("expected tool calls, got {action:?}");
    };
    crate::backend::scripted::tests::reply_with(request, calls, answer);
}

fn ok(_: &ScriptedToolCall) -> (String, bool) {
    (json!({"success": true}).to_string(), false)
}

fn names(action: &Action) -> Vec<&str> {
    match action {
        Action::CallTools(calls) => calls.iter().map(|call| call.name.as_str()).collect(),
        Action::Answer(_)
        | Action::Vote { .. }
        | Action::Stop { .. }
        | Action::Present(_)
        | Action::Talk => Vec::new(),
    }
}

#[test]
fn the_irreversibility_question_gets_the_analysis_as_plain_text() {
    let question = ChatRequest {
        messages: vec![Message::user(
            "Is it irreversible?\nIRREVERSIBLE: YES/NO\nBLOCKED_TOOLS: …",
        )]
        .into(),
        tools: vec![],
    };
    let agent = Agent::new(ScriptedOptions {
        final_tool_calls: vec![ScriptedToolCall {
            name: "announce".into(),
            arguments: json!({}),
        }],
        ..ScriptedOptions::default()
    });
    let plan = agent.decide(&question);
    assert_eq!(
        plan.action,
        Action::Present("IRREVERSIBLE: NO\nBLOCKED_TOOLS:".into())
    );
    assert_eq!((plan.reasoning, plan.text), (None, None));
    let agent = Agent::new(ScriptedOptions {
        planning_analysis: "IRREVERSIBLE: YES\nBLOCKED_TOOLS: mcp__mail__send".into(),
        ..ScriptedOptions::default()
    });
    assert_eq!(
        agent.decide(&question).action,
        Action::Present("IRREVERSIBLE: YES\nBLOCKED_TOOLS: mcp__mail__send".into())
    );
}

#[test]
fn planning_writes_the_plan_once_then_answers() {
    let agent = Agent::new(ScriptedOptions {
        answers: vec!["Plan for {question} is in project_plan.json".into()],
        ..ScriptedOptions::default()
    });
    let mut request = round(PLANNING, &["mcp__filesystem__write_file"]);
    let first = agent.decide(&request);
    assert_eq!(names(&first.action), ["mcp__filesystem__write_file"]);
    assert_eq!(
        first.text.as_deref(),
        Some("Writing the plan to project_plan.json.")
    );
    play(&mut request, &first.action, |_| {
        ("Wrote project_plan.json".into(), false)
    });
    assert_eq!(
        agent.decide(&request).action,
        Action::Answer("Plan for Build a blog is in project_plan.json".into())
    );
    let answered = round(
        &format!(
            "{PLANNING}\n<CURRENT ANSWERS from the agents>\n<agent1> Plan for Build a blog is \
             in project_plan.json <end of agent1>\n<END OF CURRENT ANSWERS>"
        ),
        &["mcp__filesystem__write_file"],
    );
    assert!(
        matches!(agent.decide(&answered).action, Action::Vote { .. }),
        "with an answer of its own it writes no plan"
    );
}

#[test]
fn execution_works_through_the_tasks_then_answers() {
    let agent = Agent::new(ScriptedOptions::default());
    let mut request = round(EXECUTION, &[READY, UPDATE]);
    let batches: [&[&str]; 3] = [&["T001", "T002"], &["T003"], &[]];
    for batch in batches {
        let plan = agent.decide(&request);
        let ready = json!({"success": true, "count": batch.len(),
            "ready_tasks": batch.iter().map(|id| json!({"id": id})).collect::<Vec<_>>()});
        play(&mut request, &plan.action, |call| {
            if call.name == READY {
                (ready.to_string(), false)
            } else {
                ok(call)
            }
        });
    }
    let replies: Vec<Vec<&str>> = request
        .messages
        .iter()
        .filter_map(|message| match message {
            Message::Assistant { tool_calls, .. } => {
                Some(tool_calls.iter().map(|call| call.name.as_str()).collect())
            }
            Message::System { .. } | Message::User { .. } | Message::Tool { .. } => None,
        })
        .collect();
    assert_eq!(replies[0], [READY]);
    assert_eq!(replies[1].len(), 7);
    assert_eq!(replies[2], [UPDATE, UPDATE, UPDATE, READY]);
    assert_eq!(
        agent.decide(&request).action,
        Action::Answer("This is a scripted answer to: Build a blog".into())
    );
}

#[test]
fn a_task_tool_error_leads_straight_to_the_answer() {
    let agent = Agent::new(ScriptedOptions::default());
    let mut request = round(EXECUTION, &[READY, UPDATE]);
    let first = agent.decide(&request);
    assert_eq!(
        first.text.as_deref(),
        Some("Checking which tasks are ready.")
    );
    play(&mut request, &first.action, |_| {
        (
            json!({"success": false, "error": "no plan loaded"}).to_string(),
            false,
        )
    });
    assert!(matches!(agent.decide(&request).action, Action::Answer(_)));
}

fn structured_ask() -> serde_json::Value {
    json!({"questions": [{"text": "Which style?", "multiSelect": false, "options": [
        {"id": "opt1", "label": "Minimal", "description": ""},
        {"id": "opt2", "label": "Bold", "description": ""}]}]})
}

#[test]
fn asks_first_then_plans_then_answers_with_the_reply() {
    let agent = Agent::new(ScriptedOptions {
        ask: Some(structured_ask()),
        answers: vec!["A {reply} blog".into()],
        text: Some("Going {reply}.".into()),
        ..ScriptedOptions::default()
    });
    let mut request = round(PLANNING, &["ask_others", "mcp__filesystem__write_file"]);
    let asking = agent.decide(&request);
    assert_eq!(names(&asking.action), ["ask_others"]);
    let Action::CallTools(calls) = &asking.action else {
        unreachable!()
    };
    assert_eq!(calls[0].arguments, structured_ask(), "wait is left out");
    let human = json!({"status": "complete", "responses": [{"responder_id": "human",
        "content": [{"questionIndex": 0, "selectedOptions": ["opt2"], "otherText": ""}]}]});
    play(&mut request, &asking.action, |_| (human.to_string(), false));
    let writing = agent.decide(&request);
    assert_eq!(names(&writing.action), ["mcp__filesystem__write_file"]);
    play(&mut request, &writing.action, |_| ("ok".into(), false));
    let answer = agent.decide(&request);
    assert_eq!(answer.action, Action::Answer("A Bold blog".into()));
    assert_eq!(answer.text.as_deref(), Some("Going Bold."));
}

#[test]
fn a_timed_out_question_answers_with_no_reply_and_is_not_asked_again() {
    let agent = Agent::new(ScriptedOptions {
        ask: Some(json!({"question": "Any constraints?"})),
        answers: vec!["Done ({reply}).".into()],
        ..ScriptedOptions::default()
    });
    let mut request = round(
        "<ORIGINAL MESSAGE>q<END OF ORIGINAL MESSAGE>",
        &["ask_others"],
    );
    let asking = agent.decide(&request);
    let Action::CallTools(calls) = &asking.action else {
        unreachable!()
    };
    assert_eq!(calls[0].arguments, json!({"question": "Any constraints?"}));
    play(&mut request, &asking.action, |_| {
        (
            json!({"status": "timeout", "responses": []}).to_string(),
            false,
        )
    });
    assert_eq!(
        agent.decide(&request).action,
        Action::Answer("Done (no reply).".into())
    );
}

#[test]
fn the_final_presentation_uses_the_remembered_reply() {
    let agent = Agent::new(ScriptedOptions {
        final_answer: Some("Final: {reply}".into()),
        ..ScriptedOptions::default()
    });
    let presentation = ChatRequest {
        messages: vec![Message::user(
            "<ORIGINAL MESSAGE>q<END OF ORIGINAL MESSAGE>",
        )]
        .into(),
        tools: vec![],
    };
    assert_eq!(
        agent
            .decide_with(&presentation, Some("agent2: Blue."))
            .action,
        Action::Present("Final: agent2: Blue.".into())
    );
    assert_eq!(
        agent.decide_with(&presentation, None).action,
        Action::Present("Final: no reply".into())
    );
}

#[test]
fn configured_tool_calls_still_come_after_the_question() {
    let search = ScriptedToolCall {
        name: "search".into(),
        arguments: json!({"q": "x"}),
    };
    let agent = Agent::new(ScriptedOptions {
        ask: Some(json!({"question": "Which?"})),
        tool_calls: vec![search.clone()],
        ..ScriptedOptions::default()
    });
    let mut request = round(
        "<ORIGINAL MESSAGE>q<END OF ORIGINAL MESSAGE>",
        &["ask_others", "search"],
    );
    let asking = agent.decide(&request);
    play(&mut request, &asking.action, |_| ("Blue".into(), false));
    let searching = agent.decide(&request);
    assert_eq!(searching.action, Action::CallTools(vec![search]));
    play(&mut request, &searching.action, |_| ("found".into(), false));
    assert!(matches!(agent.decide(&request).action, Action::Answer(_)));
}

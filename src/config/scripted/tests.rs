//! The scripted options as configs write them, and their errors with line:col.

use serde_json::json;

use crate::config::{Env, ScriptedOptions, from_text};

const HEAD: &str = "agents:\n  - id: a\n    backend:\n      type: scripted\n";

fn options(body: &str) -> ScriptedOptions {
    let loaded = from_text(&format!("{HEAD}{body}"), "t.yaml", &Env::default()).unwrap();
    loaded.config.agents[0].backend.scripted.clone().unwrap()
}

fn error(body: &str) -> String {
    from_text(&format!("{HEAD}{body}"), "t.yaml", &Env::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn defaults_answer_no_irreversibility_and_plan_and_ask_nothing() {
    let options = options("");
    assert_eq!(
        options.planning_analysis,
        "IRREVERSIBLE: NO\nBLOCKED_TOOLS:"
    );
    assert!(options.plan.is_empty());
    assert_eq!(options.ask, None);
    assert_eq!(options, ScriptedOptions::default());
}

#[test]
fn plan_items_are_descriptions_or_tasks() {
    let options = options(
        "      planning_analysis: \"IRREVERSIBLE: YES\\nBLOCKED_TOOLS: mcp__mail__send\"\n      \
         plan:\n        - Sketch the layout\n        - {id: build, description: Build it, \
         depends_on: T001, priority: High, metadata: {verification: it runs}}\n        \
         - {description: Ship, status: pending}\n",
    );
    assert_eq!(
        options.planning_analysis,
        "IRREVERSIBLE: YES\nBLOCKED_TOOLS: mcp__mail__send"
    );
    assert_eq!(
        options.plan,
        vec![
            json!({"id": "T001", "description": "Sketch the layout"}),
            json!({"id": "build", "description": "Build it", "depends_on": ["T001"],
                   "priority": "high", "metadata": {"verification": "it runs"}}),
            json!({"id": "T003", "description": "Ship", "status": "pending"}),
        ]
    );
}

#[test]
fn ask_is_a_question_or_a_structured_question() {
    assert_eq!(
        options("      ask: Which colour?\n").ask,
        Some(json!({"question": "Which colour?"}))
    );
    let structured = options(
        "      ask:\n        question: Which colour?\n        options:\n          - Red\n          \
         - {id: blue, label: Blue, description: calmer}\n        multi_select: true\n",
    );
    assert_eq!(
        structured.ask,
        Some(json!({"questions": [{
            "text": "Which colour?",
            "options": [
                {"id": "opt1", "label": "Red", "description": ""},
                {"id": "blue", "label": "Blue", "description": "calmer"},
            ],
            "multiSelect": true,
        }]}))
    );
}

#[test]
fn a_plan_item_without_description_is_named_with_its_place() {
    let message = error("      plan:\n        - One\n        - Two\n        - {id: T3}\n");
    assert!(
        message.starts_with("t.yaml:8:11: `agents[0].backend.plan[2]` has no description"),
        "{message}"
    );
    let message = error("      plan:\n        - {description: \"  \"}\n");
    assert!(
        message.contains("t.yaml:6:11: `agents[0].backend.plan[0]` has no description"),
        "{message}"
    );
}

#[test]
fn a_plan_must_be_a_list_of_text_or_mappings() {
    let message = error("      plan: Build it\n");
    assert!(
        message.starts_with("t.yaml:5:13: `agents[0].backend.plan` must be a list of tasks"),
        "{message}"
    );
    let message = error("      plan: [42]\n");
    assert!(
        message.starts_with("t.yaml:5:14: `agents[0].backend.plan[0]` must be a task description"),
        "{message}"
    );
    let message = error("      plan: [{description: x, priority: urgent}]\n");
    assert!(
        message.contains("`agents[0].backend.plan[0].priority` cannot be \"urgent\""),
        "{message}"
    );
}

#[test]
fn ask_errors_name_the_key_and_its_place() {
    let message = error("      ask:\n        options: [Red]\n");
    assert!(
        message.starts_with("t.yaml:6:9: `agents[0].backend.ask.question` is missing"),
        "{message}"
    );
    let message = error("      ask: {question: Which?, options: Red}\n");
    assert!(
        message.starts_with("t.yaml:5:40: `agents[0].backend.ask.options` must be a list"),
        "{message}"
    );
    let message = error("      ask: [Which?]\n");
    assert!(
        message.starts_with("t.yaml:5:12: `agents[0].backend.ask` must be a question"),
        "{message}"
    );
    let message = error("      ask: {question: Which?, multiSelect: true}\n");
    assert!(
        message.contains("`agents[0].backend.ask.multiSelect` is not a key here")
            && message.contains("did you mean `multi_select`?"),
        "{message}"
    );
    let message = error("      ask: {question: Which?, options: [{id: x}]}\n");
    assert!(
        message.contains("`agents[0].backend.ask.options[0].label` is missing"),
        "{message}"
    );
}

#[test]
fn with_reply_is_a_paragraph_for_after_the_question() {
    let options =
        options("      ask: Which colour?\n      with_reply: \"In {reply}, as you chose.\"\n");
    assert_eq!(
        options.with_reply.as_deref(),
        Some("In {reply}, as you chose.")
    );
    assert!(error("      with_reply: [a]\n").contains("with_reply"));
}

#[test]
fn quiz_reads_its_answer_key_accuracy_and_seed_and_refuses_an_accuracy_above_one() {
    let options =
        options("      quiz: {answers: \"@examples/eval-demo\", accuracy: 0.65, seed: 7}\n");
    assert_eq!(
        options.quiz,
        Some(crate::config::QuizOptions {
            answers: "@examples/eval-demo".into(),
            accuracy: 0.65,
            seed: 7,
        })
    );
    let refused = error("      quiz: {answers: key.jsonl, accuracy: 1.5}\n");
    assert!(refused.contains("quiz.accuracy"), "{refused}");
    assert!(refused.contains("t.yaml:5"), "{refused}");
    let missing = error("      quiz: {accuracy: 0.5}\n");
    assert!(missing.contains("answers"), "{missing}");
}

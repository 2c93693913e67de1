//! The scripted options for planning and broadcast: the `plan` written in planning mode and
//! the question the model asks with `ask_others`.

use serde_json::{Map, Value as Json, json};

use crate::config::error::{Problem, did_you_mean};
use crate::config::fields::Fields;
use crate::config::yaml_node::{Node, Value};

const PRIORITIES: [&str; 3] = ["low", "medium", "high"];
const ASK_KEYS: [&str; 3] = ["question", "options", "multi_select"];
const OPTION_KEYS: [&str; 3] = ["id", "label", "description"];

/// `plan:`, a list of tasks: a string is a description, a mapping a whole task. Each task
/// comes out as a JSON object with an `id` (`T001`, `T002`, … by position unless given)
/// and a `description`; its other keys are kept as written.
pub(super) fn parse_plan(backend: &Fields<'_>) -> Result<Vec<Json>, Problem> {
    let Some(node) = backend.get("plan") else {
        return Ok(Vec::new());
    };
    let Value::Seq(items) = &node.value else {
        return Err(backend.wrong_type(
            "plan",
            node,
            "a list of tasks",
            "plan: [\"Sketch the layout\", {description: \"Build it\", depends_on: [T001]}]",
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            plan_task(
                &format!("{}[{index}]", backend.key_path("plan")),
                index,
                item,
            )
        })
        .collect()
}

fn plan_task(path: &str, index: usize, item: &Node) -> Result<Json, Problem> {
    let default_id = format!("T{:03}", index + 1);
    match &item.value {
        Value::Str(text) if !text.trim().is_empty() => {
            Ok(json!({ "id": default_id, "description": text }))
        }
        Value::Str(_) => Err(no_description(item, path)),
        Value::Map(_) => {
            let task = Fields::of(item, path)?;
            let description = task
                .string("description")?
                .filter(|text| !text.trim().is_empty())
                .ok_or_else(|| no_description(item, path))?;
            let mut object = match item.to_json() {
                Json::Object(object) => object,
                Json::Null | Json::Bool(_) | Json::Number(_) | Json::String(_) | Json::Array(_) => {
                    Map::new()
                }
            };
            let id = task
                .string("id")?
                .filter(|id| !id.trim().is_empty())
                .unwrap_or(default_id);
            object.insert("id".into(), id.into());
            object.insert("description".into(), description.into());
            if task.get("depends_on").is_some() {
                object.insert("depends_on".into(), task.strings("depends_on")?.into());
            }
            if let Some(priority) = task.choice("priority", &PRIORITIES, |name| {
                let name = name.trim().to_ascii_lowercase();
                PRIORITIES.contains(&name.as_str()).then_some(name)
            })? {
                object.insert("priority".into(), priority.into());
            }
            if let Some(metadata) = task.get("metadata")
                && !matches!(metadata.value, Value::Map(_))
            {
                return Err(task.wrong_type(
                    "metadata",
                    metadata,
                    "a mapping",
                    "metadata: {verification: \"it runs\", verification_group: core}",
                ));
            }
            Ok(Json::Object(object))
        }
        Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Seq(_) => {
            Err(Problem::at(
                item.loc,
                format!(
                    "`{path}` must be a task description or a mapping, found {}",
                    item.type_name()
                ),
            )
            .help("write it like `- \"Build it\"` or `- {id: T002, description: \"Build it\"}`"))
        }
    }
}

fn no_description(item: &Node, path: &str) -> Problem {
    Problem::at(item.loc, format!("`{path}` has no description")).help(
        "give the task text, e.g. `- \"Build it\"` or `- {id: T002, description: \"Build it\"}`",
    )
}

/// `ask:`, the question asked with `ask_others`, as the call's arguments: a string is one
/// free-text question (`{"question": …}`); a mapping is one structured question
/// (`{"questions": [{"text", "options", "multiSelect"}]}`).
pub(super) fn parse_ask(backend: &Fields<'_>) -> Result<Option<Json>, Problem> {
    let Some(node) = backend.get("ask") else {
        return Ok(None);
    };
    match &node.value {
        Value::Str(text) if !text.trim().is_empty() => Ok(Some(json!({ "question": text }))),
        Value::Str(_) => Err(Problem::at(
            node.loc,
            format!("`{}` is empty", backend.key_path("ask")),
        )
        .help("write the question, e.g. `ask: \"Which colour should it be?\"`")),
        Value::Map(_) => {
            let ask = Fields::of(node, backend.key_path("ask"))?;
            reject_unknown(&ask, &ASK_KEYS)?;
            let question = ask.required_string("question", "\"Which colour should it be?\"")?;
            let options = ask_options(&ask)?;
            let multi_select = ask.bool("multi_select")?.unwrap_or(false);
            Ok(Some(json!({
                "questions": [{
                    "text": question,
                    "options": options,
                    "multiSelect": multi_select,
                }]
            })))
        }
        Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Seq(_) => {
            Err(backend.wrong_type(
                "ask",
                node,
                "a question, or a mapping with `question`, `options` and `multi_select`",
                "ask: {question: \"Which colour?\", options: [Red, Blue]}",
            ))
        }
    }
}

/// The choices of a structured question: a string is a label (id `opt1`, `opt2`, … by
/// position), a mapping needs a `label`.
fn ask_options(ask: &Fields<'_>) -> Result<Vec<Json>, Problem> {
    let Some(node) = ask.get("options") else {
        return Ok(Vec::new());
    };
    let Value::Seq(items) = &node.value else {
        return Err(ask.wrong_type(
            "options",
            node,
            "a list",
            "options: [Red, {id: blue, label: Blue, description: \"calmer\"}]",
        ));
    };
    let mut options: Vec<Json> = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let path = format!("{}[{index}]", ask.key_path("options"));
        let default_id = format!("opt{}", index + 1);
        let (id, label, description) = match &item.value {
            Value::Str(label) if !label.trim().is_empty() => {
                (default_id, label.clone(), String::new())
            }
            Value::Map(_) => {
                let option = Fields::of(item, path.as_str())?;
                reject_unknown(&option, &OPTION_KEYS)?;
                let id = option
                    .string("id")?
                    .filter(|id| !id.trim().is_empty())
                    .unwrap_or(default_id);
                let label = option.required_string("label", "Blue")?;
                (id, label, option.string("description")?.unwrap_or_default())
            }
            Value::Str(_)
            | Value::Null
            | Value::Bool(_)
            | Value::Int(_)
            | Value::Float(_)
            | Value::Seq(_) => {
                return Err(Problem::at(
                    item.loc,
                    format!("`{path}` must be a label or a mapping with `id` and `label`"),
                )
                .help("write it like `- Blue` or `- {id: blue, label: Blue}`"));
            }
        };
        if options.iter().any(|option| option["id"] == id.as_str()) {
            return Err(
                Problem::at(item.loc, format!("`{path}` repeats the option id `{id}`"))
                    .help("give every option its own `id`"),
            );
        }
        options.push(json!({ "id": id, "label": label, "description": description }));
    }
    Ok(options)
}

fn reject_unknown(fields: &Fields<'_>, known: &[&str]) -> Result<(), Problem> {
    let Some(entry) = fields.unknown(known).next() else {
        return Ok(());
    };
    let problem = Problem::at(
        entry.key_loc,
        format!("`{}` is not a key here", fields.key_path(&entry.key)),
    );
    Err(match did_you_mean(&entry.key, known.iter().copied()) {
        Some(close) => problem.help(format!("did you mean `{close}`?")),
        None => problem.help(format!("keys here: {}", known.join(", "))),
    })
}

/// `checklist`: a list of score objects for `submit_checklist`.
pub(super) fn parse_checklist(backend: &Fields<'_>) -> Result<Vec<Json>, Problem> {
    let Some(node) = backend.get("checklist") else {
        return Ok(Vec::new());
    };
    let example = "checklist: [{E1: 9, E2: 8, E3: 6, E4: 7}]";
    let Value::Seq(items) = &node.value else {
        return Err(backend.wrong_type("checklist", node, "a list of scores", example));
    };
    items
        .iter()
        .map(|item| match item.to_json() {
            object @ Json::Object(_) => Ok(object),
            Json::Null | Json::Bool(_) | Json::Number(_) | Json::String(_) | Json::Array(_) => {
                Err(backend.wrong_type("checklist", item, "a mapping of scores", example))
            }
        })
        .collect()
}

/// `proposed_criteria`: a list of lists of `{text, category}`, one list per answer.
pub(super) fn parse_proposed_criteria(backend: &Fields<'_>) -> Result<Vec<Json>, Problem> {
    let Some(node) = backend.get("proposed_criteria") else {
        return Ok(Vec::new());
    };
    let example = "proposed_criteria: [[{text: \"Cites sources\", category: primary}]]";
    let Value::Seq(items) = &node.value else {
        return Err(backend.wrong_type("proposed_criteria", node, "a list of lists", example));
    };
    items
        .iter()
        .map(|item| match item.to_json() {
            list @ Json::Array(_) => Ok(list),
            Json::Null | Json::Bool(_) | Json::Number(_) | Json::String(_) | Json::Object(_) => {
                Err(backend.wrong_type("proposed_criteria", item, "a list of criteria", example))
            }
        })
        .collect()
}

/// `approach`: the arguments of its `draft_approach` call, a mapping.
pub(super) fn parse_approach(backend: &Fields<'_>) -> Result<Option<Json>, Problem> {
    let Some(node) = backend.get("approach") else {
        return Ok(None);
    };
    match node.to_json() {
        object @ Json::Object(_) => Ok(Some(object)),
        Json::Null | Json::Bool(_) | Json::Number(_) | Json::String(_) | Json::Array(_) => Err(
            backend.wrong_type(
                "approach",
                node,
                "a mapping of draft_approach arguments",
                "approach: {plan: {E2: [{plan: \"…\", impact: structural}]}, preserve: {E1: \"…\"}}",
            ),
        ),
    }
}

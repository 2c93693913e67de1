//! Asking with `ask_others` (broadcast): the one question the scripted model asks before
//! its first answer, and a readable summary of the replies for the `{reply}` placeholder.

use serde_json::Value as Json;

use super::reading;
use crate::backend::ChatRequest;
use crate::config::ScriptedToolCall;

pub const ASK_OTHERS: &str = "ask_others";
/// What `{reply}` becomes when nobody answered (or the question timed out).
pub const NO_REPLY: &str = "no reply";

/// The `ask_others` call to make, if `ask` is configured, the tool is offered and this
/// conversation has not asked yet. The caller checks that the agent has no answer yet.
pub fn call(request: &ChatRequest, ask: Option<&Json>) -> Option<ScriptedToolCall> {
    let arguments = ask?;
    (reading::offers(request, ASK_OTHERS) && !reading::has_result_of(request, ASK_OTHERS)).then(
        || ScriptedToolCall {
            name: ASK_OTHERS.into(),
            arguments: arguments.clone(),
        },
    )
}

/// A summary of the replies to this conversation's latest `ask_others` call, if it made
/// one: the labels of the chosen options and any text, per responder when several
/// answered; [`NO_REPLY`] when nobody did.
pub fn reply(request: &ChatRequest, ask: Option<&Json>) -> Option<String> {
    let result = reading::tool_results(request)
        .filter(|result| result.name == ASK_OTHERS)
        .last()?;
    if result.is_error {
        return Some(NO_REPLY.into());
    }
    let Some(json) = reading::leading_object(result.content) else {
        let text = result.content.trim();
        return Some(if text.is_empty() { NO_REPLY } else { text }.into());
    };
    let responses: Vec<(String, String)> = json["responses"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(|response| {
            let summary = summarize(&response["content"], ask);
            let responder = response["responder_id"].as_str().unwrap_or("someone");
            (!summary.is_empty()).then(|| (responder.to_string(), summary))
        })
        .collect();
    Some(match responses.as_slice() {
        [] => earlier_answer(&json, ask).unwrap_or_else(|| NO_REPLY.into()),
        [(_, summary)] => summary.clone(),
        several => several
            .iter()
            .map(|(responder, summary)| format!("{responder}: {summary}"))
            .collect::<Vec<_>>()
            .join("; "),
    })
}

/// A question asked again in the same turn is not put to the user twice: the result is
/// `deferred` with `human_qa_history: [{question, answer}]`. The answer to this question,
/// else every earlier answer.
fn earlier_answer(result: &Json, ask: Option<&Json>) -> Option<String> {
    let history = result["human_qa_history"].as_array()?;
    let asked = ask.and_then(|ask| {
        ask["question"]
            .as_str()
            .or_else(|| ask["questions"][0]["text"].as_str())
    });
    if let Some(answer) = history
        .iter()
        .filter(|entry| asked.is_some_and(|asked| entry["question"] == asked))
        .find_map(history_answer)
    {
        return Some(answer.to_string());
    }
    let answers: Vec<&str> = history.iter().filter_map(history_answer).collect();
    (!answers.is_empty()).then(|| answers.join("; "))
}

fn history_answer(entry: &Json) -> Option<&str> {
    entry["answer"]
        .as_str()
        .map(str::trim)
        .filter(|answer| !answer.is_empty())
}

/// One responder's reply: free text, or structured answers (one per question).
fn summarize(content: &Json, ask: Option<&Json>) -> String {
    match content {
        Json::String(text) => text.trim().to_string(),
        Json::Array(answers) => answers
            .iter()
            .map(|answer| summarize_answer(answer, ask))
            .filter(|summary| !summary.is_empty())
            .collect::<Vec<_>>()
            .join("; "),
        Json::Object(_) => summarize_answer(content, ask),
        Json::Null | Json::Bool(_) | Json::Number(_) => String::new(),
    }
}

/// `{"questionIndex", "selectedOptions": [ids], "otherText"}` as "Label, Label — text".
fn summarize_answer(answer: &Json, ask: Option<&Json>) -> String {
    let question = answer["questionIndex"]
        .as_u64()
        .and_then(|index| usize::try_from(index).ok())
        .unwrap_or(0);
    let labels: Vec<String> = answer["selectedOptions"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(|id| {
            let id = id.as_str()?;
            Some(label_of(ask, question, id).unwrap_or(id).to_string())
        })
        .collect();
    let text = answer["otherText"].as_str().unwrap_or_default().trim();
    match (labels.is_empty(), text.is_empty()) {
        (true, true) => String::new(),
        (true, false) => text.to_string(),
        (false, true) => labels.join(", "),
        (false, false) => format!("{} — {text}", labels.join(", ")),
    }
}

fn label_of<'a>(ask: Option<&'a Json>, question: usize, id: &str) -> Option<&'a str> {
    ask?["questions"][question]["options"]
        .as_array()?
        .iter()
        .find(|option| option["id"] == id)?["label"]
        .as_str()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::backend::{Message, ToolCall, ToolSpec};

    fn structured() -> Json {
        json!({"questions": [{"text": "Which colour?", "multiSelect": true, "options": [
            {"id": "opt1", "label": "Red", "description": ""},
            {"id": "blue", "label": "Blue", "description": "calmer"},
        ]}]})
    }

    fn asked(result: &str, is_error: bool) -> ChatRequest {
        ChatRequest {
            messages: vec![
                Message::user("q"),
                Message::assistant(
                    "",
                    vec![ToolCall {
                        id: "c1".into(),
                        name: ASK_OTHERS.into(),
                        arguments: "{}".into(),
                        signature: None,
                    }],
                ),
                Message::Tool {
                    call_id: "c1".into(),
                    name: ASK_OTHERS.into(),
                    content: result.into(),
                    is_error,
                },
            ]
            .into(),
            tools: vec![ToolSpec {
                name: ASK_OTHERS.into(),
                description: String::new(),
                parameters: json!({}),
            }],
        }
    }

    #[test]
    fn asks_once_when_offered_and_configured() {
        let mut fresh = asked("", false);
        std::sync::Arc::make_mut(&mut fresh.messages).truncate(1);
        let ask = structured();
        let call = call(&fresh, Some(&ask)).unwrap();
        assert_eq!((call.name.as_str(), &call.arguments), (ASK_OTHERS, &ask));
        assert_eq!(super::call(&fresh, None), None, "nothing configured");
        assert_eq!(
            super::call(&asked("{}", false), Some(&ask)),
            None,
            "asked already"
        );
        fresh.tools.clear();
        assert_eq!(super::call(&fresh, Some(&ask)), None, "not offered");
    }

    #[test]
    fn structured_human_replies_read_as_labels_and_text() {
        let result = json!({"status": "complete", "responses": [{"responder_id": "human",
            "content": [{"questionIndex": 0, "selectedOptions": ["opt1", "blue"],
                         "otherText": "keep it soft"}]}]});
        let request = asked(&result.to_string(), false);
        assert_eq!(
            reply(&request, Some(&structured())).as_deref(),
            Some("Red, Blue — keep it soft")
        );
        let unknown = json!({"status": "complete", "responses": [{"responder_id": "human",
            "content": [{"questionIndex": 0, "selectedOptions": ["green"]}]}]});
        assert_eq!(
            reply(&asked(&unknown.to_string(), false), Some(&structured())).as_deref(),
            Some("green"),
            "an id that is no option reads as itself"
        );
    }

    #[test]
    fn several_agents_reply_in_turn() {
        let result = json!({"status": "complete", "responses": [
            {"responder_id": "agent2", "content": "Blue, clearly."},
            {"responder_id": "agent3", "content": "  "},
            {"responder_id": "agent4", "content": "Red."},
        ]});
        assert_eq!(
            reply(&asked(&result.to_string(), false), None).as_deref(),
            Some("agent2: Blue, clearly.; agent4: Red.")
        );
        let one = json!({"status": "complete", "responses": [
            {"responder_id": "agent2", "content": "Blue."}]});
        assert_eq!(
            reply(&asked(&one.to_string(), false), None).as_deref(),
            Some("Blue.")
        );
    }

    #[test]
    fn a_question_asked_again_reads_the_earlier_answer() {
        let history = |entries: Json| {
            json!({"status": "deferred", "responses": [], "human_qa_history": entries,
                   "human_qa_note": "The human has already answered questions this turn."})
            .to_string()
        };
        let both = history(json!([
            {"question": "Which size?", "answer": "Small"},
            {"question": "Which colour?", "answer": "Blue, keep it soft"},
        ]));
        assert_eq!(
            reply(&asked(&both, false), Some(&structured())).as_deref(),
            Some("Blue, keep it soft"),
            "the answer to this question"
        );
        let free = json!({"question": "Something else?"});
        assert_eq!(
            reply(&asked(&both, false), Some(&free)).as_deref(),
            Some("Small; Blue, keep it soft"),
            "else every earlier answer"
        );
        assert_eq!(
            reply(&asked(&history(json!([])), false), None).as_deref(),
            Some(NO_REPLY)
        );
    }

    #[test]
    fn timeouts_errors_and_silence_are_no_reply() {
        let timeout = json!({"status": "timeout", "responses": []}).to_string();
        let deferred = json!({"status": "deferred"}).to_string();
        let declined = json!({"status": "complete", "responses": [
            {"responder_id": "human", "content": []}]})
        .to_string();
        for (content, is_error) in [
            (timeout.as_str(), false),
            (deferred.as_str(), false),
            (declined.as_str(), false),
            ("boom", true),
            ("", false),
        ] {
            assert_eq!(
                reply(&asked(content, is_error), Some(&structured())).as_deref(),
                Some(NO_REPLY),
                "{content}"
            );
        }
        let mut never = asked("", false);
        std::sync::Arc::make_mut(&mut never.messages).truncate(1);
        assert_eq!(reply(&never, None), None, "nothing asked, nothing to tell");
    }
}

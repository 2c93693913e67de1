//! An in-test Chat Completions provider for evals: each model answers a dataset's
//! questions right with its own known probability (seeded by the run, the model and the
//! question, so models err independently), answers with `new_answer`, votes for the answer
//! most answers agree with, and presents its own answer. It counts its calls per question.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use massgen::seeded::Seeded;
use serde_json::{Value, json};

use crate::mock_llm::{MockLlm, Recorded, Reply, data};

/// One question and its right answer.
#[derive(Clone, Debug)]
pub struct Question {
    pub id: String,
    pub text: String,
    pub answer: String,
}

/// `count` arithmetic questions with numeric answers.
pub fn questions(count: usize) -> Vec<Question> {
    (1..=count)
        .map(|n| Question {
            id: format!("q{n:03}"),
            text: format!("What is {n} plus {}?", n * 7),
            answer: (n * 8).to_string(),
        })
        .collect()
}

/// The questions as a JSONL dataset.
pub fn dataset(questions: &[Question]) -> String {
    questions
        .iter()
        .map(|q| {
            json!({"id": q.id, "question": q.text, "answer": q.answer, "scorer": "number"})
                .to_string()
                + "\n"
        })
        .collect()
}

pub struct QuizProvider {
    pub server: MockLlm,
    calls: Arc<Mutex<HashMap<String, usize>>>,
}

impl QuizProvider {
    /// `accuracy`: each model name's chance of answering right; `delay`: before each reply.
    pub async fn start(
        questions: Vec<Question>,
        accuracy: HashMap<String, f64>,
        seed: u64,
        delay: Duration,
    ) -> Self {
        let calls: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
        let counted = Arc::clone(&calls);
        let server = MockLlm::with_responder(move |request| {
            let reply = respond(request, &questions, &accuracy, seed, &counted);
            let Reply::Sse(chunks) = reply else {
                return reply;
            };
            let mut chunks = chunks;
            if let Some(first) = chunks.first_mut() {
                first.0 = delay;
            }
            Reply::Sse(chunks)
        })
        .await;
        Self { server, calls }
    }

    pub fn total_calls(&self) -> usize {
        self.calls.lock().unwrap().values().sum()
    }

    /// A config of one agent per model, all on this provider.
    pub fn config(&self, models: &[&str]) -> String {
        let mut yaml = String::from("agents:\n");
        for (index, model) in models.iter().enumerate() {
            yaml.push_str(&format!(
                "  - id: agent_{index}\n    backend: {{type: chatcompletion, model: {model}, \
                 api_key: sk-test-0123456789, base_url: \"{}/v1\"}}\n",
                self.server.base_url
            ));
        }
        yaml.push_str(
            "orchestrator:\n  voting_sensitivity: lenient\n  max_new_answers_per_agent: 1\n",
        );
        yaml
    }
}

/// What `model` answers to `question`: right with its probability, else off by 1–1000.
pub fn model_answer(question: &Question, model: &str, accuracy: f64, seed: u64) -> String {
    let mut rng = Seeded::from_parts(&[&seed.to_string(), model, &question.text]);
    if rng.chance(accuracy) {
        question.answer.clone()
    } else {
        let right: i64 = question.answer.parse().unwrap();
        (right + 1 + rng.below(1000) as i64).to_string()
    }
}

fn respond(
    request: &Recorded,
    questions: &[Question],
    accuracy: &HashMap<String, f64>,
    seed: u64,
    calls: &Mutex<HashMap<String, usize>>,
) -> Reply {
    let model = request.body["model"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let text = all_text(&request.body);
    let Some(question) = questions
        .iter()
        .filter(|q| text.contains(&q.text))
        .max_by_key(|q| q.text.len())
    else {
        return Reply::status(400, r#"{"error":{"message":"no known question"}}"#);
    };
    *calls
        .lock()
        .unwrap()
        .entry(question.id.clone())
        .or_default() += 1;
    let own = model_answer(
        question,
        &model,
        accuracy.get(&model).copied().unwrap_or(0.5),
        seed,
    );
    let offers = |name: &str| tool_names(&request.body).iter().any(|tool| tool == name);
    let answers = current_answers(&text);
    if !offers("new_answer") {
        return text_reply(&format!("The sum is {own}.\nAnswer: {own}"));
    }
    let already = answers.iter().any(|(_, value)| *value == own);
    if !already || !offers("vote") {
        return tool_reply("new_answer", json!({"content": format!("Answer: {own}")}));
    }
    let count = |value: &str| answers.iter().filter(|(_, v)| v == value).count();
    let best = answers.iter().map(|(_, v)| count(v)).max().unwrap_or(0);
    let chosen = if count(&own) == best {
        own.clone()
    } else {
        answers
            .iter()
            .find(|(_, v)| count(v) == best)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let target = answers
        .iter()
        .find(|(_, v)| *v == chosen)
        .map(|(anon, _)| anon.clone())
        .unwrap_or_default();
    tool_reply(
        "vote",
        json!({"agent_id": target, "reason": "most answers agree"}),
    )
}

fn all_text(body: &Value) -> String {
    let mut text = String::new();
    for message in body["messages"].as_array().into_iter().flatten() {
        match &message["content"] {
            Value::String(content) => text.push_str(content),
            Value::Array(parts) => {
                for part in parts {
                    text.push_str(part["text"].as_str().unwrap_or_default());
                }
            }
            _ => {}
        }
        text.push('\n');
    }
    text
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|tool| tool["function"]["name"].as_str().map(str::to_string))
        .collect()
}

/// `(anonymous id, stated value)` of each answer in the prompt.
fn current_answers(text: &str) -> Vec<(String, String)> {
    let Some(start) = text.find("<CURRENT ANSWERS from the agents>") else {
        return Vec::new();
    };
    let block = &text[start..];
    let block = &block[..block
        .find("<END OF CURRENT ANSWERS>")
        .unwrap_or(block.len())];
    let mut answers = Vec::new();
    let mut rest = block;
    while let Some(open) = rest.find("<agent") {
        let after = &rest[open + 1..];
        let Some(name_end) = after.find('>') else {
            break;
        };
        let anon = after[..name_end].to_string();
        let close = format!("<end of {anon}>");
        let body = &after[name_end + 1..];
        let Some(body_end) = body.find(&close) else {
            break;
        };
        let value = body[..body_end]
            .rsplit_once("Answer:")
            .map(|(_, value)| value.trim().to_string())
            .unwrap_or_default();
        answers.push((anon, value));
        rest = &body[body_end + close.len()..];
    }
    answers
}

fn usage() -> Value {
    json!({"prompt_tokens": 120, "completion_tokens": 12, "total_tokens": 132})
}

fn text_reply(content: &str) -> Reply {
    Reply::sse(&[
        data(&json!({"choices": [{"index": 0, "delta": {"content": content}}]}).to_string()),
        data(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": usage()}).to_string()),
        "data: [DONE]\n\n".to_string(),
    ])
}

fn tool_reply(name: &str, arguments: Value) -> Reply {
    Reply::sse(&[
        data(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": "call_1", "type": "function",
             "function": {"name": name, "arguments": arguments.to_string()}}
        ]}}]}).to_string()),
        data(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}], "usage": usage()}).to_string()),
        "data: [DONE]\n\n".to_string(),
    ])
}

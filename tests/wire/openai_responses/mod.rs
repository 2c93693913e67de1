//! OpenAI Responses API (`type: openai`): the event stream exactly as OpenAI documents it
//! (named events, `type` and `sequence_number` in every payload, the final response
//! repeating the output), the request body, tool round-trips, errors and retries.
//! This module writes the protocol's bytes; the tests are in `streaming` (calls that
//! complete) and `errors` (calls that fail).

use massgen::config::BackendKind;
use serde_json::{Value, json};

use crate::harness::Protocol;
use crate::mock_llm::{Reply, typed};

mod errors;
mod options;
mod server_tools;
mod streaming;
mod x_search;

const RESPONSE_ID: &str = "resp_68af4030592c81938ec0a5fbab4a3e9f05438e46b5f69a3b";

/// A response object as the lifecycle events carry it.
fn response(status: &str, output: &[Value], usage: Value) -> Value {
    json!({
        "id": RESPONSE_ID, "object": "response", "created_at": 1756315696, "status": status,
        "background": false, "error": null, "incomplete_details": null,
        "instructions": "You are helpful.", "max_output_tokens": null, "max_tool_calls": null,
        "model": "gpt-5-2025-08-07", "output": output, "parallel_tool_calls": true,
        "previous_response_id": null, "prompt_cache_key": null,
        "reasoning": {"effort": "low", "summary": "auto"}, "safety_identifier": null,
        "service_tier": "auto", "store": true, "temperature": 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "low"}, "tool_choice": "auto",
        "tools": [], "top_logprobs": 0, "top_p": 1.0, "truncation": "disabled",
        "usage": usage, "user": null, "metadata": {}
    })
}

fn usage(input: u64, cached: u64, output: u64, reasoning: u64) -> Value {
    json!({
        "input_tokens": input, "input_tokens_details": {"cached_tokens": cached},
        "output_tokens": output, "output_tokens_details": {"reasoning_tokens": reasoning},
        "total_tokens": input + output
    })
}

/// Writes a Responses event stream the way OpenAI sends it: each event named on its
/// `event:` line and in its `type`, numbered by `sequence_number`, each output item
/// announced, streamed and repeated whole when done.
struct Script {
    events: Vec<String>,
    output: Vec<Value>,
    sequence: u64,
}

impl Script {
    fn new() -> Self {
        let mut script = Self {
            events: Vec::new(),
            output: Vec::new(),
            sequence: 0,
        };
        let start = response("in_progress", &[], Value::Null);
        script.event("response.created", json!({"response": start}));
        script.event("response.in_progress", json!({"response": start}));
        script
    }

    fn event(&mut self, kind: &str, mut data: Value) -> &mut Self {
        data["type"] = json!(kind);
        data["sequence_number"] = json!(self.sequence);
        self.sequence += 1;
        self.events.push(typed(&data));
        self
    }

    fn message(&mut self, id: &str, deltas: &[&str]) -> &mut Self {
        let index = self.output.len();
        let text = deltas.concat();
        let part = json!({"type": "output_text", "annotations": [], "logprobs": [], "text": text});
        self.event(
            "response.output_item.added",
            json!({"output_index": index, "item": {
                "id": id, "type": "message", "status": "in_progress", "content": [], "role": "assistant"
            }}),
        );
        self.event(
            "response.content_part.added",
            json!({"item_id": id, "output_index": index, "content_index": 0,
                   "part": {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}}),
        );
        for delta in deltas {
            self.event(
                "response.output_text.delta",
                json!({"item_id": id, "output_index": index, "content_index": 0, "delta": delta,
                       "logprobs": [], "obfuscation": "Ue4kz"}),
            );
        }
        self.event(
            "response.output_text.done",
            json!({"item_id": id, "output_index": index, "content_index": 0, "text": text, "logprobs": []}),
        );
        self.event(
            "response.content_part.done",
            json!({"item_id": id, "output_index": index, "content_index": 0, "part": part}),
        );
        let item = json!({"id": id, "type": "message", "status": "completed", "content": [part], "role": "assistant"});
        self.done(index, item)
    }

    fn reasoning(&mut self, id: &str, parts: &[&[&str]]) -> &mut Self {
        let index = self.output.len();
        self.event(
            "response.output_item.added",
            json!({"output_index": index, "item": {"id": id, "type": "reasoning", "summary": []}}),
        );
        let mut summary = Vec::new();
        for (summary_index, deltas) in parts.iter().enumerate() {
            let text = deltas.concat();
            self.event(
                "response.reasoning_summary_part.added",
                json!({"item_id": id, "output_index": index, "summary_index": summary_index,
                       "part": {"type": "summary_text", "text": ""}}),
            );
            for delta in *deltas {
                self.event(
                    "response.reasoning_summary_text.delta",
                    json!({"item_id": id, "output_index": index, "summary_index": summary_index,
                           "delta": delta, "obfuscation": "k3Rq"}),
                );
            }
            self.event(
                "response.reasoning_summary_text.done",
                json!({"item_id": id, "output_index": index, "summary_index": summary_index, "text": text}),
            );
            let part = json!({"type": "summary_text", "text": text});
            self.event(
                "response.reasoning_summary_part.done",
                json!({"item_id": id, "output_index": index, "summary_index": summary_index, "part": part}),
            );
            summary.push(part);
        }
        self.done(
            index,
            json!({"id": id, "type": "reasoning", "summary": summary}),
        )
    }

    fn function_call(
        &mut self,
        id: &str,
        call_id: &str,
        name: &str,
        fragments: &[&str],
    ) -> &mut Self {
        let index = self.output.len();
        let arguments = fragments.concat();
        self.event(
            "response.output_item.added",
            json!({"output_index": index, "item": {
                "id": id, "type": "function_call", "status": "in_progress", "arguments": "",
                "call_id": call_id, "name": name
            }}),
        );
        for fragment in fragments {
            self.event(
                "response.function_call_arguments.delta",
                json!({"item_id": id, "output_index": index, "delta": fragment, "obfuscation": "7n"}),
            );
        }
        self.event(
            "response.function_call_arguments.done",
            json!({"item_id": id, "output_index": index, "arguments": arguments}),
        );
        self.done(
            index,
            json!({"id": id, "type": "function_call", "status": "completed",
                   "arguments": arguments, "call_id": call_id, "name": name}),
        )
    }

    fn done(&mut self, index: usize, item: Value) -> &mut Self {
        self.event(
            "response.output_item.done",
            json!({"output_index": index, "item": item}),
        );
        self.output.push(item);
        self
    }

    /// The events so far, without an ending.
    fn cut(&self) -> Vec<String> {
        self.events.clone()
    }

    fn completed(&mut self, usage: Value) -> Vec<String> {
        let response = response("completed", &self.output, usage);
        self.event("response.completed", json!({"response": response}));
        self.events.clone()
    }
}

fn text_reply(deltas: &[&str]) -> Reply {
    Reply::sse(
        &Script::new()
            .message(
                "msg_68af403c3b3c8193a6f32bb4d2d0b0a305438e46b5f69a3b",
                deltas,
            )
            .completed(usage(37, 0, 11, 0)),
    )
}

pub(crate) const OPENAI: Protocol = Protocol {
    kind: BackendKind::Openai,
    model: "gpt-5",
    path: "/v1",
    text_reply,
};

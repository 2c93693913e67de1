//! A tool the provider ran (web search) inside an agent's turn: it reaches the event stream
//! as one `ProviderTool` event, is never run here nor answered, its blocks go back with the
//! agent's next request, and the turn goes on as usual.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};

use crate::support::{load, outcome, spawn_unlogged};
use massgen::backend::{
    Backend, ChatRequest, EventStream, Message, ProviderWire, ReasoningBlock, StreamEvent,
    build_backends,
};
use massgen::config::Env;
use massgen::protocol::{EventMsg, ProviderToolCall, Source, TurnOutcome};
use serde_json::json;

/// A scripted agent whose provider searched the web before its first answer.
struct Searches {
    inner: Arc<dyn Backend>,
    requests: Arc<Mutex<Vec<ChatRequest>>>,
}

fn search() -> ProviderToolCall {
    ProviderToolCall {
        call_id: "srvtoolu_01".into(),
        tool: "web_search".into(),
        input: "capital of France".into(),
        sources: vec![Source {
            title: "Paris - Wikipedia".into(),
            url: "https://en.wikipedia.org/wiki/Paris".into(),
        }],
        output: String::new(),
        ok: true,
    }
}

fn block() -> serde_json::Value {
    json!({"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search",
           "input": {"query": "capital of France"}})
}

impl Backend for Searches {
    fn kind(&self) -> massgen::config::BackendKind {
        self.inner.kind()
    }
    fn provider(&self) -> &str {
        self.inner.provider()
    }
    fn model(&self) -> &str {
        self.inner.model()
    }
    fn stream(&self, request: ChatRequest) -> EventStream {
        let first = {
            let mut requests = self.requests.lock().unwrap();
            requests.push(request.clone());
            requests.len() == 1
        };
        let inner = self.inner.stream(request);
        if !first {
            return inner;
        }
        let before = futures::stream::iter([
            Ok(StreamEvent::ProviderTool(search())),
            Ok(StreamEvent::ProviderBlock {
                wire: ProviderWire::Anthropic,
                item: block(),
            }),
        ]);
        Box::pin(futures::StreamExt::chain(before, inner))
    }
}

#[tokio::test(start_paused = true)]
async fn a_provider_search_is_reported_not_run_and_sent_back() {
    let config = load(
        "agents:\n  - id: a\n    backend: {type: scripted, tokens_per_second: 0, answer: \"Paris\", tool_calls: [{name: lookup, arguments: {}}]}\n",
    );
    let requests = Arc::new(Mutex::new(Vec::new()));
    let backends: Vec<Arc<dyn Backend>> = build_backends(&config, &Env::default())
        .unwrap()
        .into_iter()
        .map(|inner| {
            Arc::new(Searches {
                inner,
                requests: requests.clone(),
            }) as Arc<dyn Backend>
        })
        .collect();
    let mut handle = spawn_unlogged(config, backends);
    let events = handle.run_turn("What is the capital of France?").await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    let reported: Vec<_> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ProviderTool(call) => Some((event.agent.clone(), call.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(reported.len(), 1);
    assert_eq!(reported[0].0.as_ref().map(|id| id.as_str()), Some("a"));
    assert_eq!(reported[0].1, search());
    // Never run here: the only tool run is the agent's own call.
    let run: Vec<&str> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ToolCallBegin { tool, .. } => Some(tool.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(run, ["lookup"]);
    // The agent's next request carries the block back in its assistant message, before
    // the call it answers.
    let requests = requests.lock().unwrap();
    assert!(requests.len() >= 2, "{} requests", requests.len());
    let echoed = requests[1].messages.iter().any(|message| {
        matches!(message, Message::Assistant { reasoning, .. }
        if reasoning.contains(&ReasoningBlock::ProviderTool {
            wire: ProviderWire::Anthropic,
            item: block(),
        }))
    });
    assert!(echoed, "{:#?}", requests[1].messages);
    // events.jsonl records the event as it is.
    let line = serde_json::to_string(&reported[0].1).unwrap();
    assert!(
        line.contains("https://en.wikipedia.org/wiki/Paris"),
        "{line}"
    );
}

//! Whole turns with scripted agents: event sequences, winners and the files written.
//!
//! Most tests run on tokio's paused clock, so scripted delays order the agents exactly
//! and the tests take no real time.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::sync::Arc;

use massgen::backend::{
    Backend, BackendError, ChatRequest, EventStream, Message, StreamEvent, build_backends,
};
use massgen::protocol::{EventMsg, Op, TurnOutcome, WinnerBasis};
use massgen::session::read_events;
use support::{
    Scenario, attempt_dir, error_and_kill, final_answer, load, outcome, run_and_cancel_at,
    run_once, spawn_unlogged, transcript, transcript_of, winner, with_presentation,
};

#[tokio::test(start_paused = true)]
async fn a_single_agent_answers_confirms_and_presents() {
    let yaml = r#"
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answer: "Paris is the capital of France."
    final_answer: "Paris."
"#;
    let (events, scenario) = run_once(yaml, "What is the capital of France?").await;
    assert_eq!(
        transcript(&events),
        [
            "turn started",
            "solo round 1 sees []",
            "solo answers agent1.1",
            "solo round 2 sees [agent1.1]",
            "solo votes solo (agent1.1)",
            "winner solo by Votes",
            "solo presents agent1.final",
            "turn Completed",
        ]
    );
    assert_eq!(final_answer(&events), Some(("Paris.".to_string(), false)));

    let dir = attempt_dir(scenario.dir.path(), 1);
    let logged = read_events(&dir.join("events.jsonl")).unwrap();
    let turn_events: Vec<_> = events
        .iter()
        .filter(|event| event.turn == 1)
        .cloned()
        .collect();
    assert_eq!(
        logged, turn_events,
        "events.jsonl holds exactly the turn's events"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("final/solo/answer.txt")).unwrap(),
        "Paris."
    );
}

#[tokio::test(start_paused = true)]
async fn three_agents_restart_on_new_answers_and_ignore_stale_votes() {
    // a answers at 100 ms, b at 170 ms, c at 500 ms; every call of an agent takes as long.
    let yaml = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 100, answer: "Answer from a", vote_for: b}
  - id: b
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 170, answer: "Answer from b", vote_for: b}
  - id: c
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 500, answer: "Answer from c", vote_for: b}
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    assert_eq!(
        transcript(&events),
        [
            "turn started",
            "a round 1 sees []",
            "b round 1 sees []",
            "c round 1 sees []",
            "a answers agent1.1",
            "a round 2 sees [agent1.1]",
            "b answers agent2.1",
            "b round 2 sees [agent1.1,agent2.1]",
            "a vote for a ignored",
            "a round 3 sees [agent1.1,agent2.1]",
            "a votes b (agent2.1)",
            "b votes b (agent2.1)",
            "c answers agent3.1",
            "a round 4 sees [agent1.1,agent2.1,agent3.1]",
            "b round 3 sees [agent1.1,agent2.1,agent3.1]",
            "c round 2 sees [agent1.1,agent2.1,agent3.1]",
            "a votes b (agent2.1)",
            "b votes b (agent2.1)",
            "c votes b (agent2.1)",
            "winner b by Votes",
            "b presents agent2.final",
            "turn Completed",
        ]
    );
    // The vote tool only ever offers agents that have answers.
    let first = &scenario.requests_of("c")[0];
    let vote = first.tools.iter().find(|tool| tool.name == "vote").unwrap();
    assert!(
        vote.parameters["properties"]["agent_id"]
            .get("enum")
            .is_none()
    );
    let last = scenario.requests_of("c")[1].clone();
    let vote = last.tools.iter().find(|tool| tool.name == "vote").unwrap();
    assert_eq!(
        vote.parameters["properties"]["agent_id"]["enum"],
        serde_json::json!(["agent1", "agent2", "agent3"])
    );
    assert!(
        last.messages[1]
            .content()
            .contains("<agent2> Answer from b <end of agent2>")
    );
}

#[tokio::test(start_paused = true)]
async fn eight_agents_converge_on_one_winner() {
    let mut yaml = String::from("agents:\n");
    for index in 1..=8 {
        yaml.push_str(&format!(
            "  - id: agent_{index}\n    backend: {{type: scripted, tokens_per_second: 0, \
             first_token_ms: {}, answer: \"Answer number {index}\", vote_for: agent_5}}\n",
            index * 10
        ));
    }
    let (events, scenario) = run_once(&yaml, "q").await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    assert_eq!(winner(&events).as_deref(), Some("agent_5"));
    let answers: Vec<String> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::AnswerSubmitted { label, .. } => Some(label.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(answers.len(), 8, "{answers:?}");
    let tally = events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::WinnerSelected { tally, basis, .. } => Some((tally.clone(), *basis)),
            _ => None,
        })
        .unwrap();
    assert_eq!(tally.1, WinnerBasis::Votes);
    assert_eq!(tally.0.iter().map(|count| count.votes).sum::<u32>(), 8);
    for index in 1..=8 {
        let first = &scenario.requests_of(&format!("agent_{index}"))[0];
        assert!(
            first.messages[1]
                .content()
                .contains("(no answers available yet)")
        );
    }
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e.msg, EventMsg::TurnFinished { .. }))
            .count(),
        1
    );
}

#[tokio::test(start_paused = true)]
async fn an_agent_that_always_fails_is_dropped_and_the_others_finish() {
    let yaml = r#"
agents:
  - id: good
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 50, answer: "Good answer"}
  - id: broken
    backend:
      type: scripted
      tokens_per_second: 0
      text: "Starting to work"
      fail: {mode: error, after_tokens: 2, message: "upstream returned 500"}
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    assert_eq!(
        transcript(&events),
        [
            "turn started",
            "good round 1 sees []",
            "broken round 1 sees []",
            "broken error",
            "broken killed",
            "good answers agent2.1",
            "good round 2 sees [agent2.1]",
            "good votes good (agent2.1)",
            "winner good by Votes",
            "good presents agent2.final",
            "turn Completed",
        ]
    );
    let error = error_and_kill(&events).0.unwrap();
    assert_eq!(error, "upstream returned 500");
    // The partial text streamed before the failure reached the front end.
    assert!(events.iter().any(|event| matches!(&event.msg,
        EventMsg::TextDelta { text } if text.starts_with("Starting"))));
    assert_eq!(scenario.requests_of("broken").len(), 1);
}

#[tokio::test(start_paused = true)]
async fn an_agent_that_never_calls_a_workflow_tool_gets_three_attempts() {
    let yaml = r#"
agents:
  - id: good
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 10, answer: "Good answer"}
  - id: talker
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 100, text: "Let me ramble.", fail: no_workflow}
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    let talker = transcript_of(&events, "talker");
    assert_eq!(
        talker,
        [
            "talker round 1 sees []",
            "talker round 2 sees [agent1.1]",
            "talker retry 2 NoWorkflowTool",
            "talker retry 3 NoWorkflowTool",
            "talker killed",
        ]
    );
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    assert_eq!(winner(&events).as_deref(), Some("good"));
    // One call in round 1 (which restarts for good's answer), then three attempts.
    let requests = scenario.requests_of("talker");
    assert_eq!(requests.len(), 4);
    let nudge = requests[3].messages.last().unwrap().content();
    assert!(
        nudge.contains("<incomplete_response>\nLet me ramble.\n</incomplete_response>"),
        "{nudge}"
    );
    assert!(nudge.contains("Make sure you actually call the tool."));
    let killed = error_and_kill(&events).1.unwrap();
    assert!(killed.contains("after 3 attempts"), "{killed}");
}

#[tokio::test(start_paused = true)]
async fn a_timeout_presents_the_best_existing_answer() {
    let yaml = r#"
agents:
  - id: quick
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 100, answer: "Quick answer"}
  - id: stuck
    backend: {type: scripted, tokens_per_second: 0, fail: hang}
timeout_settings:
  orchestrator_timeout_seconds: 2
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    assert_eq!(
        transcript(&events),
        [
            "turn started",
            "quick round 1 sees []",
            "stuck round 1 sees []",
            "quick answers agent1.1",
            "quick round 2 sees [agent1.1]",
            "quick votes quick (agent1.1)",
            "timeout Orchestrator",
            "winner quick by Votes",
            "quick presents agent1.final (stored)",
            "turn TimedOut",
        ]
    );
    let finished = events.last().unwrap();
    let EventMsg::TurnFinished { duration_ms, .. } = finished.msg else {
        panic!()
    };
    assert!((2000..2100).contains(&duration_ms), "{duration_ms}");
    let dir = attempt_dir(scenario.dir.path(), 1);
    assert_eq!(
        std::fs::read_to_string(dir.join("final/quick/answer.txt")).unwrap(),
        "Quick answer"
    );
}

#[tokio::test(start_paused = true)]
async fn a_timeout_with_no_answers_ends_without_a_winner() {
    let yaml = r#"
agents:
  - id: stuck
    backend: {type: scripted, fail: hang}
timeout_settings:
  orchestrator_timeout_seconds: 0.5
"#;
    let (events, _scenario) = run_once(yaml, "q").await;
    assert_eq!(outcome(&events), TurnOutcome::TimedOut);
    assert_eq!(winner(&events), None);
    assert!(events.iter().any(|event| matches!(&event.msg,
        EventMsg::Warning { message } if message.contains("no answers available"))));
}

#[tokio::test(start_paused = true)]
async fn when_every_agent_fails_the_turn_fails() {
    let yaml = r#"
agents:
  - id: x
    backend: {type: scripted, fail: error}
  - id: y
    backend: {type: scripted, fail: truncate, text: "cut off here"}
"#;
    let (events, _scenario) = run_once(yaml, "q").await;
    assert_eq!(outcome(&events), TurnOutcome::Failed);
    assert_eq!(winner(&events), None);
    let errors: Vec<String> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::AgentError { message } => Some(message.clone()),
            _ => None,
        })
        .collect();
    assert!(
        errors.iter().any(|message| message.contains("cut off")),
        "{errors:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn after_the_answer_limit_an_agent_only_votes() {
    let yaml = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 10, answers: ["first", "second, better"]}
orchestrator:
  max_new_answers_per_agent: 1
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    assert_eq!(
        transcript(&events),
        [
            "turn started",
            "a round 1 sees []",
            "a answers agent1.1",
            "a round 2 sees [agent1.1] vote-only",
            "a votes a (agent1.1)",
            "winner a by Votes",
            "a presents agent1.final",
            "turn Completed",
        ]
    );
    let second = &scenario.requests_of("a")[1];
    let names: Vec<&str> = second.tools.iter().map(|tool| tool.name.as_str()).collect();
    assert_eq!(names, ["vote"]);
    assert!(
        second.messages[0]
            .content()
            .contains("already submitted as many answers as allowed")
    );
}

#[tokio::test(start_paused = true)]
async fn answers_too_close_to_an_existing_one_are_rejected() {
    let yaml = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 10, answer: "the capital of france is paris"}
  - id: b
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 50, answer: "The capital of France is Paris indeed", vote_for: a}
orchestrator:
  answer_novelty_requirement: balanced
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    let b = transcript_of(&events, "b");
    assert_eq!(
        b,
        [
            "b round 1 sees []",
            "b round 2 sees [agent1.1]",
            "b retry 2 AnswerNotNovel",
            "b votes a (agent1.1)"
        ]
    );
    let retry = &scenario.requests_of("b")[2];
    let Message::Tool {
        content, is_error, ..
    } = retry.messages.last().unwrap()
    else {
        panic!()
    };
    assert!(*is_error);
    assert!(content.contains("too similar to agent1"), "{content}");
    assert_eq!(winner(&events).as_deref(), Some("a"));
}

#[tokio::test(start_paused = true)]
async fn an_agent_that_keeps_voting_for_nobody_is_dropped() {
    let yaml = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 10, answer: "Answer a"}
  - id: bad
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 500, answer: "Answer bad", fail: invalid_vote}
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    let bad = transcript_of(&events, "bad");
    assert_eq!(
        bad,
        [
            "bad round 1 sees []",
            "bad answers agent2.1",
            "bad round 2 sees [agent1.1,agent2.1]",
            "bad retry 2 InvalidVote",
            "bad retry 3 InvalidVote",
            "bad killed",
        ]
    );
    let requests = scenario.requests_of("bad");
    let Message::Tool { content, .. } = requests[2].messages.last().unwrap() else {
        panic!()
    };
    assert_eq!(
        content,
        "Invalid agent_id 'agent99'. Valid agents: agent1, agent2"
    );
    assert_eq!(outcome(&events), TurnOutcome::Completed);
}

#[tokio::test(start_paused = true)]
async fn other_tool_calls_get_error_results_and_the_round_goes_on() {
    let yaml = r#"
agent:
  id: a
  backend:
    type: scripted
    tokens_per_second: 0
    tool_calls: [{name: web_search, arguments: {query: "capital of france"}}]
    answer: "Paris"
"#;
    let (events, scenario) = run_once(yaml, "q").await;
    let (begin, end) = (
        events.iter().position(
            |e| matches!(&e.msg, EventMsg::ToolCallBegin { tool, .. } if tool == "web_search"),
        ),
        events
            .iter()
            .position(|e| matches!(&e.msg, EventMsg::ToolCallEnd { ok: false, .. })),
    );
    assert!(begin.unwrap() < end.unwrap());
    let second = &scenario.requests_of("a")[1];
    let Message::Tool {
        name,
        is_error,
        content,
        ..
    } = second.messages.last().unwrap()
    else {
        panic!()
    };
    assert_eq!(name, "web_search");
    assert!(*is_error && content.contains("not available"));
    assert_eq!(outcome(&events), TurnOutcome::Completed);
}

#[tokio::test(start_paused = true)]
async fn human_input_reaches_each_agent_with_its_next_tool_result() {
    let yaml = r#"
agent:
  id: a
  backend:
    type: scripted
    tokens_per_second: 0
    first_token_ms: 100
    tool_calls: [{name: lookup, arguments: {}}]
    answer: "Paris"
"#;
    let mut scenario = Scenario::start(yaml);
    scenario
        .handle
        .ops
        .send(Op::Submit {
            options: Default::default(),
            text: "q".into(),
            mode: Default::default(),
            context_paths: vec![],
        })
        .await
        .unwrap();
    scenario
        .handle
        .ops
        .send(Op::InjectHumanInput {
            text: "focus on history".into(),
        })
        .await
        .unwrap();
    let events = scenario.handle.finish_turn().await;
    assert!(events.iter().any(
        |e| matches!(&e.msg, EventMsg::HumanInputQueued { text } if text == "focus on history")
    ));
    assert!(
        events
            .iter()
            .any(|e| matches!(&e.msg, EventMsg::HumanInputDelivered { .. }))
    );
    let second = &scenario.requests_of("a")[1];
    assert!(
        second
            .messages
            .last()
            .unwrap()
            .content()
            .ends_with("\n[Human Input]: focus on history\n")
    );
}

/// One agent whose answers repeat the question, to see what history it is given.
const ECHOING_AGENT: &str = r#"
agent:
  id: a
  backend: {type: scripted, tokens_per_second: 0, answer: "Answer to {question}", final_answer: "Final: {question}"}
"#;

#[tokio::test(start_paused = true)]
async fn a_second_turn_sees_the_first_in_its_history() {
    let mut scenario = Scenario::start(ECHOING_AGENT);
    let first = scenario.handle.run_turn("first question").await;
    assert_eq!(outcome(&first), TurnOutcome::Completed);
    let second = scenario.handle.run_turn("second question").await;
    assert_eq!(outcome(&second), TurnOutcome::Completed);
    assert!(second.iter().all(|event| event.turn == 2));
    let requests = scenario.requests_of("a");
    let turn_two = requests
        .iter()
        .find(|r| r.messages[1].content().contains("second question"))
        .unwrap();
    assert!(turn_two.messages[1].content().starts_with(
        "<CONVERSATION_HISTORY>\nUser: first question\nAssistant: Final: first question\n<END OF CONVERSATION_HISTORY>"
    ));
    assert!(
        attempt_dir(scenario.dir.path(), 2)
            .join("events.jsonl")
            .is_file()
    );
    let stopped = scenario.handle.shutdown().await;
    assert!(matches!(stopped.last().unwrap().msg, EventMsg::RunFinished));
}

#[tokio::test(start_paused = true)]
async fn a_continued_session_gives_its_turns_as_history_and_numbers_on() {
    use massgen::session::{PastTurn, SessionInfo};

    let dir = tempfile::tempdir().unwrap();
    let session = SessionInfo {
        id: "session_20261122_120000".into(),
        dir: dir.path().to_path_buf(),
        turns: vec![PastTurn {
            turn: 1,
            question: "first question".into(),
            winner: Some("a".into()),
            status: "complete".into(),
            answer: "Final: first question".into(),
            log_dir: None,
        }],
    };
    let mut scenario = Scenario::start_resumed(ECHOING_AGENT, session);
    let events = scenario.handle.run_turn("second question").await;
    let turns: Vec<u32> = events
        .iter()
        .map(|event| event.turn)
        .filter(|turn| *turn != 0)
        .collect();
    assert!(
        !turns.is_empty() && turns.iter().all(|turn| *turn == 2),
        "turns number on"
    );
    let request = scenario
        .requests_of("a")
        .into_iter()
        .find(|r| r.messages[1].content().contains("second question"))
        .unwrap();
    assert!(request.messages[1].content().starts_with(
        "<CONVERSATION_HISTORY>\nUser: first question\nAssistant: Final: first question\n"
    ));
    scenario.handle.shutdown().await;
    assert!(
        dir.path().join("turn_2/metadata.json").is_file(),
        "recorded in the same session"
    );
}

#[tokio::test(start_paused = true)]
async fn clearing_the_history_starts_the_next_turn_afresh() {
    let mut scenario = Scenario::start(ECHOING_AGENT);
    scenario.handle.run_turn("first question").await;
    scenario.handle.ops.send(Op::ClearHistory).await.unwrap();
    let cleared = scenario.handle.events.recv().await.unwrap();
    assert_eq!(cleared.msg, EventMsg::HistoryCleared);
    let second = scenario.handle.run_turn("second question").await;
    assert_eq!(outcome(&second), TurnOutcome::Completed);
    let requests = scenario.requests_of("a");
    let turn_two = requests
        .iter()
        .find(|r| r.messages[1].content().contains("second question"))
        .unwrap();
    assert!(
        !turn_two.messages[1].content().contains("first question"),
        "{}",
        turn_two.messages[1].content()
    );
    scenario.handle.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn cancelling_stops_the_turn_and_keeps_the_runtime_alive() {
    let yaml = r#"
agents:
  - id: slow
    backend: {type: scripted, fail: hang}
"#;
    let mut scenario = Scenario::start(yaml);
    let events = run_and_cancel_at(&mut scenario.handle, "q", |msg| {
        matches!(msg, EventMsg::RoundStarted { .. })
    })
    .await;
    assert_eq!(outcome(&events), TurnOutcome::Cancelled);
    assert!(events.iter().any(|e| matches!(e.msg, EventMsg::Cancelled)));
    // The runtime still takes questions.
    let stopped = scenario.handle.shutdown().await;
    assert!(matches!(stopped.last().unwrap().msg, EventMsg::RunFinished));
}

#[tokio::test(start_paused = true)]
async fn a_failed_presentation_falls_back_to_the_stored_answer() {
    let config = load(
        "agent:\n  id: a\n  backend: {type: scripted, tokens_per_second: 0, answer: \"Stored\"}\n",
    );
    let overloaded = [Err(BackendError::Failed {
        message: "overloaded".into(),
    })];
    let backends = with_presentation(&config, &overloaded);
    let mut handle = spawn_unlogged(config, backends);
    let events = handle.run_turn("q").await;
    assert_eq!(final_answer(&events), Some(("Stored".to_string(), true)));
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    assert!(events.iter().any(
        |e| matches!(&e.msg, EventMsg::Warning { message } if message.contains("overloaded"))
    ));
}

#[tokio::test(start_paused = true)]
async fn sequence_numbers_are_gap_free_and_text_streams_token_by_token() {
    let yaml = r#"
agent:
  id: a
  backend: {type: scripted, tokens_per_second: 20, reasoning: "one two three", text: "four five six", answer: "seven"}
"#;
    let (events, _scenario) = run_once(yaml, "q").await;
    for pair in events.windows(2) {
        assert_eq!(pair[1].seq, pair[0].seq + 1);
    }
    let deltas: Vec<&str> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .take(3)
        .collect();
    assert_eq!(deltas, ["four ", "five ", "six\n"]);
    let first_reasoning = events
        .iter()
        .position(|event| matches!(event.msg, EventMsg::ReasoningDelta { .. }))
        .unwrap();
    let first_text = events
        .iter()
        .position(|event| matches!(event.msg, EventMsg::TextDelta { .. }))
        .unwrap();
    assert!(
        first_reasoning < first_text,
        "reasoning streams before the text"
    );
}

/// A backend that panics on every call: a bug must cost one agent, not the turn.
struct Panics;

impl Backend for Panics {
    fn kind(&self) -> massgen::config::BackendKind {
        massgen::config::BackendKind::Scripted
    }
    fn provider(&self) -> &str {
        "test"
    }
    fn model(&self) -> &str {
        "panics"
    }
    fn stream(&self, _request: ChatRequest) -> EventStream {
        panic!("backend bug")
    }
}

#[tokio::test(start_paused = true)]
async fn a_panicking_backend_drops_its_agent_without_stalling_the_turn() {
    let config = load(
        "agents:\n  - id: good\n    backend: {type: scripted, tokens_per_second: 0, answer: \"fine\"}\n  - id: buggy\n    backend: {type: scripted}\n",
    );
    let mut backends = build_backends(&config, &massgen::config::Env::default()).unwrap();
    backends[1] = Arc::new(Panics);
    let mut handle = spawn_unlogged(config, backends);
    let events = handle.run_turn("q").await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    assert_eq!(winner(&events).as_deref(), Some("good"));
    let (error, killed) = error_and_kill(&events);
    assert!(error.unwrap().contains("backend bug"));
    assert!(killed.is_some());
    let EventMsg::TurnFinished { duration_ms, .. } = events.last().unwrap().msg else {
        panic!()
    };
    assert!(
        duration_ms < 1000,
        "the turn did not wait for a timeout: {duration_ms} ms"
    );
}

#[tokio::test(start_paused = true)]
async fn a_presentation_that_breaks_midway_presents_the_stored_answer() {
    let config = load(
        "agent:\n  id: a\n  backend: {type: scripted, tokens_per_second: 0, answer: \"FORTY-TWO\"}\n",
    );
    let breaks = [
        Ok(StreamEvent::TextDelta("The final answer is ".into())),
        Err(BackendError::Failed {
            message: "connection reset".into(),
        }),
    ];
    let backends = with_presentation(&config, &breaks);
    let mut handle = spawn_unlogged(config, backends);
    let events = handle.run_turn("q").await;
    assert_eq!(final_answer(&events), Some(("FORTY-TWO".to_string(), true)));
    // What a script reading `--display quiet` gets: the whole stored answer, nothing partial.
    let mut quiet = massgen::headless::QuietPrinter::new(Vec::new(), Vec::new());
    let mut plain =
        massgen::headless::PlainPrinter::new(Vec::new(), massgen::headless::Style::new(false));
    for event in &events {
        massgen::headless::Printer::print(&mut quiet, event).unwrap();
        massgen::headless::Printer::print(&mut plain, event).unwrap();
    }
    assert_eq!(
        String::from_utf8(quiet.into_inner().0).unwrap(),
        "FORTY-TWO\n"
    );
    let plain = String::from_utf8(plain.into_inner()).unwrap();
    assert!(
        plain.contains("The final answer is \n! the final presentation failed (connection reset)"),
        "{plain}"
    );
    assert!(
        plain.contains("(the winner's stored answer)\nFORTY-TWO\n──"),
        "{plain}"
    );
}

//! Whole turns with scripted agents: answers, votes, restarts and the winner they
//! converge on.
//!
//! Most tests run on tokio's paused clock, so scripted delays order the agents exactly
//! and the tests take no real time.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{
    attempt_dir, final_answer, outcome, run_once, transcript, transcript_of, winner,
};
use massgen::backend::Message;
use massgen::protocol::{EventMsg, TurnOutcome, WinnerBasis};
use massgen::session::read_events;

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

//! Scenario tests of agents asking questions (`ask_others`) of their peers and of the user,
//! and of MassGen's refine-off and single-agent presets.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{Scenario, assert_completed, outcome, transcript};
use massgen::protocol::{AgentId, EventMsg, Mode, Op, QuestionReply, TurnOptions, TurnOutcome};

const ASK: &str = "      ask:\n        question: Which format should the guide use?\n        options: [Markdown, PDF]\n";

fn config(ask: &str, broadcast: &str) -> String {
    format!(
        "agents:\n\
         \x20 - id: asker\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      answer: \"Guide as {{reply}}\"\n      vote_for: asker\n{ask}\
         \x20 - id: helper\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      answer: \"helper's guide\"\n      final_answer: \"helper presents\"\n      vote_for: asker\n\
         orchestrator:\n  coordination: {broadcast}\n"
    )
}

/// The JSON result of the asker's `ask_others` call.
fn ask_result(events: &[massgen::protocol::Event]) -> serde_json::Value {
    let output = events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::ToolCallEnd { tool, output, .. } if tool == "ask_others" => {
                Some(output.clone())
            }
            _ => None,
        })
        .expect("ask_others ran");
    serde_json::from_str(&output).unwrap()
}

fn answer_of(events: &[massgen::protocol::Event], agent: &str) -> String {
    events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::AnswerSubmitted { content, .. }
                if event.agent.as_ref().is_some_and(|id| id.as_str() == agent) =>
            {
                Some(content.clone())
            }
            _ => None,
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_question_to_the_agents_is_answered_by_each_peer() {
    let yaml = config(ASK, "{broadcast: agents}");
    let mut scenario = Scenario::start(&yaml);
    let events = scenario
        .submit("Write a guide", Mode::Normal, TurnOptions::default())
        .await;
    assert_completed(&events);
    let result = ask_result(&events);
    assert_eq!(result["status"], "complete", "{result}");
    let responses = result["responses"].as_array().unwrap();
    assert_eq!(responses.len(), 1);
    assert_eq!(
        responses[0]["responder_id"], "agent2",
        "peers stay anonymous"
    );
    assert_eq!(responses[0]["is_human"], false);
    assert!(!responses[0]["content"].as_str().unwrap().is_empty());
    let answered = events.iter().any(|event| {
        matches!(&event.msg, EventMsg::BroadcastAnswered { from: Some(from), .. } if from == &AgentId::new("helper"))
    });
    assert!(answered);
    // The helper answered from a side call, without tools, in broadcast response mode.
    let side = scenario
        .requests_of("helper")
        .into_iter()
        .find(|request| {
            request
                .messages
                .iter()
                .any(|message| message.content().contains("BROADCAST QUESTION FROM AGENT1"))
        })
        .expect("the helper was asked");
    assert!(side.tools.is_empty());
}

#[tokio::test]
async fn a_question_to_the_user_returns_the_users_choice_as_the_tool_result() {
    let yaml = config(ASK, "{broadcast: human}");
    let mut scenario = Scenario::start_with_human(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit_answering(
            "Write a guide",
            Mode::Normal,
            TurnOptions::default(),
            |msg| match msg {
                EventMsg::BroadcastAsked {
                    request_id,
                    questions,
                    ..
                } => {
                    assert_eq!(questions[0].options.len(), 2);
                    Some(Op::AnswerQuestion {
                        request_id: request_id.clone(),
                        replies: vec![QuestionReply {
                            selected: vec![questions[0].options[1].id.clone()],
                            text: "keep it short".into(),
                        }],
                    })
                }
                _ => None,
            },
        )
        .await;
    assert_completed(&events);
    let result = ask_result(&events);
    assert_eq!(result["status"], "complete", "{result}");
    assert_eq!(result["responses"][0]["responder_id"], "human");
    assert_eq!(
        result["responses"][0]["content"][0]["otherText"],
        "keep it short"
    );
    assert!(
        answer_of(&events, "asker").contains("PDF"),
        "{}",
        answer_of(&events, "asker")
    );
    let closed = events.iter().any(|event| {
        matches!(
            event.msg,
            EventMsg::BroadcastClosed {
                timed_out: false,
                responses: 1,
                ..
            }
        )
    });
    assert!(closed);
}

#[tokio::test]
async fn an_unanswered_question_times_out_and_the_agent_is_told() {
    let yaml = config(ASK, "{broadcast: human, broadcast_timeout: 0.3}");
    let mut scenario = Scenario::start_with_human(tempfile::tempdir().unwrap(), &yaml);
    let events = scenario
        .submit("Write a guide", Mode::Normal, TurnOptions::default())
        .await;
    assert_eq!(outcome(&events), TurnOutcome::Completed);
    let result = ask_result(&events);
    assert_eq!(result["status"], "timeout", "{result}");
    assert!(result["note"].as_str().unwrap().contains("Decide yourself"));
    assert!(events.iter().any(|event| matches!(
        event.msg,
        EventMsg::BroadcastClosed {
            timed_out: true,
            ..
        }
    )));
}

#[tokio::test]
async fn without_someone_to_answer_agents_are_not_offered_ask_others() {
    let yaml = config(ASK, "{broadcast: human}");
    let mut scenario = Scenario::start(&yaml);
    let events = scenario
        .submit("Write a guide", Mode::Normal, TurnOptions::default())
        .await;
    assert!(events.iter().any(|event| matches!(
        &event.msg,
        EventMsg::Warning { message } if message.contains("cannot ask you")
    )));
    let offered = scenario
        .requests_of("asker")
        .iter()
        .any(|request| request.tools.iter().any(|tool| tool.name == "ask_others"));
    assert!(!offered);
}

const TWO: &str = "agents:\n\
  - {id: a, backend: {type: scripted, tokens_per_second: 0, answers: [a1, a2], vote_for: b}}\n\
  - {id: b, backend: {type: scripted, tokens_per_second: 0, first_token_ms: 50, answers: [b1, b2], vote_for: b}}\n";

#[tokio::test]
async fn refine_off_with_one_agent_answers_once_with_no_vote_and_no_presentation() {
    let mut scenario = Scenario::start(TWO);
    let options = TurnOptions {
        refine: false,
        single_agent: Some(AgentId::new("a")),
        ..TurnOptions::default()
    };
    let events = scenario.submit("Q", Mode::Normal, options).await;
    assert_eq!(
        transcript(&events),
        vec![
            "turn started",
            "a round 1 sees []",
            "a answers agent1.1",
            "winner a by FirstAnswer",
            "a presents agent1.final",
            "turn Completed",
        ]
    );
    assert!(scenario.requests_of("b").is_empty(), "b does not take part");
    assert_eq!(scenario.requests_of("a").len(), 1, "no presentation call");
    assert_eq!(
        crate::support::final_answer(&events),
        Some(("a1".into(), false))
    );
}

#[tokio::test]
async fn refine_off_with_several_agents_answers_once_each_votes_then_synthesizes() {
    let mut scenario = Scenario::start(TWO);
    let options = TurnOptions {
        refine: false,
        ..TurnOptions::default()
    };
    let events = scenario.submit("Q", Mode::Normal, options).await;
    let lines = transcript(&events);
    assert_eq!(outcome(&events), TurnOutcome::Completed, "{lines:?}");
    // Nobody's round is cut short by the other's answer: each answers in its first round.
    assert!(
        !events.iter().any(|event| matches!(
            &event.msg,
            EventMsg::AgentRestarted { reason, .. } if reason.contains("new answers")
        )),
        "{lines:?}"
    );
    assert_eq!(
        lines[1..5]
            .iter()
            .filter(|line| line.contains("round 1"))
            .count(),
        2,
        "{lines:?}"
    );
    let answers: Vec<&String> = lines
        .iter()
        .filter(|line| line.contains("answers"))
        .collect();
    assert_eq!(answers.len(), 2, "{lines:?}");
    // Votes come only after both answered, in vote-only rounds that see both answers.
    let first_vote = lines
        .iter()
        .position(|line| line.contains("votes"))
        .unwrap();
    let last_answer = lines
        .iter()
        .rposition(|line| line.contains("answers"))
        .unwrap();
    assert!(first_vote > last_answer, "{lines:?}");
    assert!(
        lines.contains(&"a round 2 sees [agent1.1,agent2.1] vote-only".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"winner b by Votes".to_string()),
        "{lines:?}"
    );
    // MassGen's quick mode: the winner synthesizes from every answer (a scripted presenter
    // without `final_answer` writes the last of its `answers`).
    assert_eq!(
        crate::support::final_answer(&events),
        Some(("b2".into(), false))
    );
    let requests = scenario.requests_of("b");
    assert_eq!(
        requests.len(),
        3,
        "an answer round, a vote round and the synthesis"
    );
    let synthesis = requests[2].messages[1].content();
    assert!(
        synthesis.contains("a: \"a1\"") && synthesis.contains("b: \"b1\" (YOUR ANSWER)"),
        "{synthesis}"
    );
    assert!(synthesis.contains("selected as the best by your peers"));
}

#[tokio::test]
async fn a_single_agent_with_refine_on_still_votes_before_presenting() {
    let mut scenario = Scenario::start(TWO);
    let options = TurnOptions {
        single_agent: Some(AgentId::new("b")),
        ..TurnOptions::default()
    };
    let events = scenario.submit("Q", Mode::Normal, options).await;
    let lines = transcript(&events);
    // b keeps its anonymous id of the whole roster (agent2) while working alone.
    assert!(
        lines.contains(&"b round 1 sees []".to_string())
            && lines
                .iter()
                .any(|line| line.starts_with("b votes b (agent2.")),
        "{lines:?}"
    );
    assert!(scenario.requests_of("a").is_empty());
    let started = events.iter().find_map(|event| match &event.msg {
        EventMsg::TurnStarted { options, .. } => Some(options.single_agent.clone()),
        _ => None,
    });
    assert_eq!(started, Some(Some(AgentId::new("b"))));
}

/// A peer answers while the asker waits for the replies: the asker reads them before it
/// restarts for the new answer, so it asks once and the peer's model is asked once.
#[tokio::test(start_paused = true)]
async fn replies_are_read_before_restarting_for_a_peers_new_answer() {
    let yaml = r#"
agents:
  - id: asker
    backend: {type: scripted, first_token_ms: 100, tokens_per_second: 0,
              answer: "Guide as {reply}", ask: "Which format?"}
  - id: helper
    backend: {type: scripted, first_token_ms: 200, tokens_per_second: 0, answer: "helper's guide"}
orchestrator:
  coordination: {broadcast: agents}
"#;
    let mut scenario = Scenario::start(yaml);
    let events = scenario
        .submit("Write a guide", Mode::Normal, TurnOptions::default())
        .await;
    assert_completed(&events);
    let asked = events
        .iter()
        .filter(|event| matches!(event.msg, EventMsg::BroadcastAsked { .. }))
        .count();
    assert_eq!(asked, 1, "{:?}", transcript(&events));
    let side_calls = scenario
        .requests_of("helper")
        .iter()
        .filter(|request| request.tools.is_empty())
        .count();
    assert_eq!(side_calls, 1);
    assert!(!answer_of(&events, "asker").contains("no reply"));
}

/// Every peer is out of the turn: the question completes at once with no replies, and is
/// closed once.
#[tokio::test(start_paused = true)]
async fn a_question_with_every_peer_gone_completes_at_once_and_closes_once() {
    let yaml = r#"
agents:
  - id: asker
    backend: {type: scripted, first_token_ms: 200, tokens_per_second: 0, ask: "Anyone?"}
  - id: helper
    backend: {type: scripted, tokens_per_second: 0, fail: error}
orchestrator:
  coordination: {broadcast: agents}
"#;
    let mut scenario = Scenario::start(yaml);
    let events = scenario
        .submit("Write a guide", Mode::Normal, TurnOptions::default())
        .await;
    assert_completed(&events);
    let closed: Vec<bool> = events
        .iter()
        .filter_map(|event| match event.msg {
            EventMsg::BroadcastClosed { timed_out, .. } => Some(timed_out),
            _ => None,
        })
        .collect();
    assert_eq!(closed, vec![false]);
    let result = ask_result(&events);
    assert_eq!(result["status"], "complete", "{result}");
    assert_eq!(result["responses"], serde_json::json!([]));
}

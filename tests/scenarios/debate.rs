//! Debate turns with scripted members: they answer alone, critique their peers' answers
//! under anonymous ids, revise their own, then a chairman synthesizes from the thread or
//! the members vote; a failing member drops out and is named in the footer, a critique in
//! text counts for every peer shown, and the thread reaches the logs and displays.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{Scenario, assert_completed, final_answer, run_once};
use massgen::backend::ChatRequest;
use massgen::protocol::{ChairmanBasis, Event, EventMsg, Stage, StrategyEvent, WinnerBasis};

use crate::support::{
    displays, list_plans, scripted_member as member, strategy_events as strategy, user_text,
};

fn debate(members: &[String], orchestrator: &str) -> String {
    format!(
        "agents:\n{}orchestrator:\n  strategy: debate\n{orchestrator}",
        members.concat()
    )
}

fn three(extra_c: &str) -> Vec<String> {
    vec![
        member("a", "4", ""),
        member("b", "4", ""),
        member("c", "5", extra_c),
    ]
}

fn turn_stages(events: &[Event]) -> Vec<Stage> {
    strategy(events)
        .into_iter()
        .filter_map(|(agent, event)| match event {
            StrategyEvent::StageStarted { stage } if agent.is_none() => Some(stage),
            _ => None,
        })
        .collect()
}

/// (critic, round, targets, content) per `CritiqueSubmitted`.
fn critiques(events: &[Event]) -> Vec<(String, u32, Vec<String>, String)> {
    strategy(events)
        .into_iter()
        .filter_map(|(agent, event)| match event {
            StrategyEvent::CritiqueSubmitted {
                round,
                targets,
                content,
            } => Some((
                agent?,
                round,
                targets.iter().map(ToString::to_string).collect(),
                content,
            )),
            _ => None,
        })
        .collect()
}

/// (agent, content) per `AnswerSubmitted`, in order.
fn answers(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::AnswerSubmitted { content, .. } => {
                Some((event.agent.as_ref()?.to_string(), content.clone()))
            }
            _ => None,
        })
        .collect()
}

fn tools(request: &ChatRequest) -> Vec<String> {
    request.tools.iter().map(|tool| tool.name.clone()).collect()
}

#[tokio::test(start_paused = true)]
async fn two_rounds_of_critique_and_revision_then_the_chairman_synthesizes_from_the_thread() {
    let yaml = debate(&three(""), "  debate_rounds: 2\n");
    let (events, scenario) = run_once(&yaml, "What is 2+2?").await;
    assert_completed(&events);
    let critique = |round| Stage::Critique { round };
    let revision = |round| Stage::Revision { round };
    assert_eq!(
        turn_stages(&events),
        [
            Stage::Answering,
            critique(1),
            revision(1),
            critique(2),
            revision(2),
            Stage::Synthesis
        ]
    );
    // Every member enters every stage of the rounds, after the turn does.
    for stage in [critique(1), revision(1), critique(2), revision(2)] {
        let members: Vec<String> = strategy(&events)
            .into_iter()
            .filter_map(|(agent, event)| match event {
                StrategyEvent::StageStarted { stage: seen } if seen == stage => agent,
                _ => None,
            })
            .collect();
        assert_eq!(members, ["a", "b", "c"], "{stage:?}");
    }
    // Each member critiques both peers each round, by real id in the events.
    let thread = critiques(&events);
    assert_eq!(thread.len(), 12);
    for (critic, _, targets, content) in &thread {
        assert_eq!(targets.len(), 1);
        assert_ne!(&targets[0], critic);
        assert!(content.starts_with("My answer is «"), "{content}");
    }
    // A critique round shows the peers under their anonymous ids and offers `critique`.
    let a = scenario.requests_of("a");
    let critique_request = a.iter().find(|r| tools(r) == ["critique"]).unwrap();
    let text = user_text(critique_request);
    assert!(
        text.contains("<agent2>") && text.contains("<agent3>"),
        "{text}"
    );
    assert!(!text.contains("<agent1>"), "{text}");
    let spec = &critique_request.tools[0].parameters;
    assert_eq!(
        spec["properties"]["critiques"]["items"]["properties"]["agent"]["enum"],
        serde_json::json!(["agent2", "agent3"])
    );
    // A revision round shows the member's answer and the critiques of it by anonymous id.
    let c = scenario.requests_of("c");
    let revising = c
        .iter()
        .find(|r| user_text(r).contains("CRITIQUES OF YOUR ANSWER:"))
        .unwrap();
    assert_eq!(tools(revising), ["new_answer"]);
    let text = user_text(revising);
    assert!(text.contains("<your answer>\n5\n"), "{text}");
    assert!(text.contains("<critique by agent1>") && text.contains("<critique by agent2>"));
    // Revisions are answers: three first answers, then three per round; c defends its 5.
    let submitted = answers(&events);
    assert_eq!(submitted.len(), 9);
    assert_eq!(
        submitted.last().unwrap(),
        &("c".to_string(), "5".to_string())
    );
    // The first member chairs; its request carries the final answers and the last critiques.
    let chair: Vec<(String, ChairmanBasis)> = strategy(&events)
        .into_iter()
        .filter_map(|(_, event)| match event {
            StrategyEvent::ChairmanChosen { chairman, basis } => {
                Some((chairman.to_string(), basis))
            }
            _ => None,
        })
        .collect();
    assert_eq!(chair, [("a".to_string(), ChairmanBasis::FirstMember)]);
    let chairing = a.iter().find(|r| r.tools.is_empty()).unwrap();
    let text = user_text(chairing);
    for part in [
        "THE MEMBERS' FINAL ANSWERS:",
        "<agent3>\n5\n",
        "THE LAST ROUND'S CRITIQUES:",
    ] {
        assert!(text.contains(part), "{part}\n{text}");
    }
    assert!(
        text.contains("- agent3 on agent1: My answer is «5»"),
        "{text}"
    );
    let (answer, fallback) = final_answer(&events).unwrap();
    assert_eq!(answer, "agent1 holds up best.\n4");
    assert!(!fallback);
}

#[tokio::test(start_paused = true)]
async fn the_vote_finish_lets_every_member_vote_once_and_the_most_voted_presents() {
    let yaml = debate(&three(""), "  debate_rounds: 1\n  debate_finish: vote\n");
    let (events, scenario) = run_once(&yaml, "What is 2+2?").await;
    assert_completed(&events);
    assert_eq!(
        turn_stages(&events),
        [
            Stage::Answering,
            Stage::Critique { round: 1 },
            Stage::Revision { round: 1 },
            Stage::FinalVote
        ]
    );
    let votes: Vec<(String, String)> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::VoteCast { target, .. } => {
                Some((event.agent.as_ref()?.to_string(), target.to_string()))
            }
            _ => None,
        })
        .collect();
    // Each votes for the answer most final answers agree with, its own on a tie.
    assert_eq!(
        votes,
        [
            ("a".to_string(), "a".to_string()),
            ("b".to_string(), "b".to_string()),
            ("c".to_string(), "a".to_string())
        ]
    );
    let vote_request = scenario
        .requests_of("c")
        .into_iter()
        .find(|r| tools(r) == ["vote"])
        .unwrap();
    assert!(user_text(&vote_request).contains("THE FINAL ANSWERS:"));
    let (winner, tally, basis) = events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::WinnerSelected {
                winner,
                tally,
                basis,
                ..
            } => Some((winner.to_string(), tally.clone(), *basis)),
            _ => None,
        })
        .unwrap();
    assert_eq!(winner, "a");
    assert_eq!(basis, WinnerBasis::Votes);
    let counts: Vec<u32> = tally.iter().map(|count| count.votes).collect();
    assert_eq!(counts, [2, 1, 0]);
    assert_eq!(final_answer(&events).unwrap().0, "4");
    assert!(
        !strategy(&events)
            .iter()
            .any(|(_, event)| matches!(event, StrategyEvent::ChairmanChosen { .. }))
    );
}

#[tokio::test(start_paused = true)]
async fn a_member_failing_mid_debate_drops_out_and_is_named_in_the_footer() {
    let yaml = debate(&three(", fail_in_debate: true"), "");
    let (events, _) = run_once(&yaml, "What is 2+2?").await;
    assert_completed(&events);
    let thread = critiques(&events);
    assert!(thread.iter().all(|(critic, ..)| critic != "c"));
    // c answered, so a and b critique it in round 1; it is gone by round 2.
    assert!(
        thread
            .iter()
            .any(|(_, round, targets, _)| *round == 1 && targets == &["c"])
    );
    assert!(
        thread
            .iter()
            .filter(|(_, round, ..)| *round == 2)
            .all(|(_, _, targets, _)| targets != &["c"])
    );
    let revisers: Vec<String> = answers(&events)
        .into_iter()
        .skip(3)
        .map(|(agent, _)| agent)
        .collect();
    assert_eq!(revisers.len(), 4);
    assert!(revisers.iter().all(|agent| agent != "c"));
    let (answer, _) = final_answer(&events).unwrap();
    assert!(
        answer.ends_with(
            "— Debate: 2 of 3 members debated to the end; c failed: scripted debate failure"
        ),
        "{answer}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_critique_in_text_counts_as_one_critique_of_every_peer_shown() {
    let yaml = debate(&three(", critique_as_text: true"), "  debate_rounds: 1\n");
    let (events, _) = run_once(&yaml, "What is 2+2?").await;
    assert_completed(&events);
    let from_c: Vec<(u32, Vec<String>, String)> = critiques(&events)
        .into_iter()
        .filter(|(critic, ..)| critic == "c")
        .map(|(_, round, targets, content)| (round, targets, content))
        .collect();
    assert_eq!(from_c.len(), 1);
    assert_eq!(from_c[0].1, ["a", "b"]);
    assert!(
        from_c[0]
            .2
            .contains("My answer is «5»; this answer differs from mine.")
    );
    let a_heard = critiques(&events)
        .into_iter()
        .filter(|(_, _, targets, _)| targets.contains(&"a".to_string()))
        .count();
    assert_eq!(a_heard, 2);
}

#[tokio::test(start_paused = true)]
async fn adopting_the_majority_revises_to_it_and_the_log_says_the_answer_changed() {
    let yaml = debate(&three(", adopt_majority: true"), "  debate_rounds: 1\n");
    let mut scenario = Scenario::start(&yaml);
    let events = scenario.handle.run_turn("What is 2+2?").await;
    assert_completed(&events);
    assert_eq!(
        answers(&events).last().unwrap(),
        &("c".to_string(), "4".to_string())
    );
    list_plans(&mut scenario).await;
    let attempt = crate::support::attempt_dir(scenario.dir.path(), 1);
    let log: serde_json::Value =
        serde_json::from_slice(&std::fs::read(attempt.join("debate.json")).unwrap()).unwrap();
    assert_eq!(log["debate_rounds"], 1);
    assert_eq!(log["debate_finish"], "synthesize");
    let round = &log["rounds"][0];
    assert_eq!(round["round"], 1);
    assert_eq!(round["critiques"].as_array().unwrap().len(), 6);
    let c = round["revisions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|revision| revision["agent"] == "c")
        .unwrap();
    assert_eq!(c["content"], "4");
    assert_eq!(c["kept"], false);
    assert_eq!(log["chairman"], "a");
}

#[tokio::test(start_paused = true)]
async fn the_debate_reaches_the_logs_status_and_the_plain_and_automation_displays() {
    let yaml = debate(&three(""), "  debate_rounds: 1\n");
    let mut scenario = Scenario::start(&yaml);
    let events = scenario.handle.run_turn("What is 2+2?").await;
    let (plain, automation) = displays(&events);
    assert!(plain.contains("── Debate: critique 1 ──"), "{plain}");
    assert_eq!(plain.matches("✎ critiques ").count(), 6, "{plain}");
    for line in [
        "STAGE: critique 1",
        "STAGE: revision 1",
        "CRITIQUE: a -> b (round 1)",
        "CRITIQUE: c -> a (round 1)",
        "CHAIRMAN: a",
    ] {
        assert!(automation.contains(line), "{line}\n{automation}");
    }
    list_plans(&mut scenario).await;
    let attempt = crate::support::attempt_dir(scenario.dir.path(), 1);
    let coordination = std::fs::read_to_string(attempt.join("coordination_events.json")).unwrap();
    assert_eq!(coordination.matches("\"critique_submitted\"").count(), 6);
    let status: serde_json::Value =
        serde_json::from_slice(&std::fs::read(attempt.join("status.json")).unwrap()).unwrap();
    assert_eq!(status["coordination"]["stage"], "synthesis", "{status}");
    assert!(attempt.join("debate.json").exists());
    assert!(!attempt.join("rankings.json").exists());
}

#[test]
fn debate_rounds_outside_one_to_ten_are_refused_with_the_key_named() {
    for rounds in ["0", "11"] {
        let yaml = debate(&three(""), &format!("  debate_rounds: {rounds}\n"));
        let Err(error) = massgen::config::from_text(&yaml, "debate.yaml", &Default::default())
        else {
            panic!("debate_rounds: {rounds} loaded");
        };
        assert!(
            error
                .message
                .contains(&format!("`orchestrator.debate_rounds` cannot be {rounds}")),
            "{}",
            error.message
        );
    }
}

#[tokio::test(start_paused = true)]
async fn the_example_config_debates_offline_and_the_swayed_member_comes_round() {
    let yaml = include_str!("../../configs/scripted/debate.yaml");
    let (events, _) = run_once(yaml, "What is 2+2?").await;
    assert_completed(&events);
    assert_eq!(turn_stages(&events).len(), 6);
    let skeptic: Vec<usize> = critiques(&events)
        .into_iter()
        .filter(|(critic, ..)| critic == "skeptic")
        .map(|(_, _, targets, _)| targets.len())
        .collect();
    assert_eq!(skeptic, [3, 3]);
    assert_eq!(
        answers(&events).last().unwrap(),
        &("swayed".to_string(), "2 + 2 = 4.".to_string())
    );
    let (answer, _) = final_answer(&events).unwrap();
    assert!(answer.ends_with("2 + 2 = 4."), "{answer}");
}

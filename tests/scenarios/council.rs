//! Council turns with scripted members: they answer alone, rank each other's answers under
//! labels shuffled per ranker (their own left out unless `rank_own`), and a chairman
//! synthesizes; failures are named in the footer and a failed chairman is replaced.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{Scenario, final_answer, run_once};
use massgen::backend::Message;
use massgen::protocol::{
    AgentId, ChairmanBasis, Event, EventMsg, Mode, RankingSource, Stage, Strategy, StrategyEvent,
    TurnOptions,
};

fn member(id: &str, answer: &str, extra: &str) -> String {
    format!(
        "  - id: {id}\n    backend: {{type: scripted, tokens_per_second: 0, answer: \"{answer}\"{extra}}}\n"
    )
}

fn council(members: &[String], orchestrator: &str) -> String {
    format!(
        "agents:\n{}orchestrator:\n  strategy: council\n{orchestrator}",
        members.concat()
    )
}

fn strategy(events: &[Event]) -> Vec<(Option<String>, StrategyEvent)> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::Strategy(inner) => Some((
                event.agent.as_ref().map(|agent| agent.to_string()),
                inner.clone(),
            )),
            _ => None,
        })
        .collect()
}

struct Ballot {
    ranker: String,
    order: Vec<AgentId>,
    shown: Vec<(String, AgentId)>,
    source: RankingSource,
}

fn ballots(events: &[Event]) -> Vec<Ballot> {
    strategy(events)
        .into_iter()
        .filter_map(|(agent, event)| match event {
            StrategyEvent::RankingSubmitted {
                order,
                shown,
                source,
            } => Some(Ballot {
                ranker: agent?,
                order,
                shown,
                source,
            }),
            _ => None,
        })
        .collect()
}

fn chairmen(events: &[Event]) -> Vec<(String, ChairmanBasis)> {
    strategy(events)
        .into_iter()
        .filter_map(|(_, event)| match event {
            StrategyEvent::ChairmanChosen { chairman, basis } => {
                Some((chairman.to_string(), basis))
            }
            _ => None,
        })
        .collect()
}

fn turn_winner(events: &[Event]) -> Option<String> {
    events.iter().find_map(|event| match &event.msg {
        EventMsg::TurnFinished { winner, .. } => winner.as_ref().map(ToString::to_string),
        _ => None,
    })
}

fn last_aggregate(events: &[Event]) -> (Vec<String>, Vec<String>, bool) {
    strategy(events)
        .into_iter()
        .filter_map(|(_, event)| match event {
            StrategyEvent::RankingsAggregated {
                standings,
                missing,
                complete,
            } => Some((
                standings.iter().map(|s| s.agent.to_string()).collect(),
                missing.iter().map(|(agent, _)| agent.to_string()).collect(),
                complete,
            )),
            _ => None,
        })
        .last()
        .expect("an aggregate")
}

fn user_text(request: &massgen::backend::ChatRequest) -> String {
    request
        .messages
        .iter()
        .filter_map(|message| match message {
            Message::User { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_council_of_three_answers_alone_ranks_the_others_and_the_top_ranked_chairs() {
    let yaml = council(
        &[
            member("a", "4", ""),
            member("b", "4", ""),
            member("c", "5", ""),
        ],
        "",
    );
    let (events, scenario) = run_once(&yaml, "What is 2+2?").await;
    // Answering: nobody sees a peer's answer and only `new_answer` is offered.
    for id in ["a", "b", "c"] {
        let first = &scenario.requests_of(id)[0];
        let tools: Vec<&str> = first.tools.iter().map(|tool| tool.name.as_str()).collect();
        assert_eq!(tools, ["new_answer"]);
        assert!(!user_text(first).contains("<end of agent"), "{id}");
    }
    let turn_stages: Vec<Stage> = strategy(&events)
        .into_iter()
        .filter_map(|(agent, event)| match event {
            StrategyEvent::StageStarted { stage } if agent.is_none() => Some(stage),
            _ => None,
        })
        .collect();
    assert_eq!(
        turn_stages,
        [Stage::Answering, Stage::Ranking, Stage::Synthesis]
    );
    let ballots = ballots(&events);
    assert_eq!(ballots.len(), 3);
    for ballot in &ballots {
        assert_eq!(ballot.shown.len(), 2);
        assert!(
            ballot
                .shown
                .iter()
                .all(|(_, agent)| agent.as_str() != ballot.ranker)
        );
        assert_eq!(ballot.source, RankingSource::Tool);
    }
    // a and b agree, so each ranks the other first.
    let of = |ranker: &str| ballots.iter().find(|b| b.ranker == ranker).unwrap();
    assert_eq!(of("a").order[0].as_str(), "b");
    assert_eq!(of("b").order[0].as_str(), "a");
    let (standings, missing, complete) = last_aggregate(&events);
    assert!(complete && missing.is_empty());
    assert_ne!(standings[0], "c");
    let chair = chairmen(&events);
    assert_eq!(chair, [(standings[0].clone(), ChairmanBasis::TopRanked)]);
    assert_eq!(turn_winner(&events), Some(standings[0].clone()));
    let (answer, fallback) = final_answer(&events).unwrap();
    assert_eq!(answer, "Response A ranked first.\n4");
    assert!(!fallback && !answer.contains("Council:"));
    // rankings.json beside the events.
    let log_dir = events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::TurnStarted { log_dir, .. } => log_dir.clone(),
            _ => None,
        })
        .unwrap();
    let rankings: serde_json::Value =
        serde_json::from_slice(&std::fs::read(log_dir.join("rankings.json")).unwrap()).unwrap();
    assert_eq!(rankings["ballots"].as_array().unwrap().len(), 3);
    assert_eq!(rankings["chairman"], standings[0].as_str());
    assert_eq!(rankings["chairman_basis"]["basis"], "top_ranked");
}

#[tokio::test(start_paused = true)]
async fn a_council_of_five_ranking_its_own_sees_every_answer_in_orders_that_differ() {
    let members: Vec<String> = ["a", "b", "c", "d", "e"]
        .iter()
        .map(|id| member(id, &format!("answer {id}"), ""))
        .collect();
    let (events, _) = run_once(&council(&members, "  rank_own: true\n"), "q").await;
    let ballots = ballots(&events);
    assert_eq!(ballots.len(), 5);
    for ballot in &ballots {
        assert_eq!(ballot.shown.len(), 5);
        // Its own answer agrees with itself, so it ranks itself first.
        assert_eq!(ballot.order[0].as_str(), ballot.ranker);
    }
    let orders: Vec<Vec<AgentId>> = ballots
        .iter()
        .map(|ballot| {
            ballot
                .shown
                .iter()
                .map(|(_, agent)| agent.clone())
                .collect()
        })
        .collect();
    assert!(orders.iter().any(|order| order != &orders[0]), "{orders:?}");
    let (standings, _, complete) = last_aggregate(&events);
    assert!(complete);
    assert_eq!(standings.len(), 5);
}

#[tokio::test(start_paused = true)]
async fn a_failing_member_is_named_in_the_footer_and_the_rest_go_on() {
    let yaml = council(
        &[
            member("a", "4", ""),
            member("b", "4", ""),
            member("c", "5", ""),
            member(
                "d",
                "4",
                ", fail: {mode: error, message: \"401 Unauthorized\"}",
            ),
        ],
        "",
    );
    let (events, _) = run_once(&yaml, "What is 2+2?").await;
    let ballots = ballots(&events);
    assert_eq!(ballots.len(), 3);
    assert!(
        ballots
            .iter()
            .all(|ballot| ballot.shown.iter().all(|(_, agent)| agent.as_str() != "d"))
    );
    let (_, missing, complete) = last_aggregate(&events);
    assert!(complete);
    assert_eq!(missing, ["d"]);
    let (answer, _) = final_answer(&events).unwrap();
    assert!(
        answer.ends_with("— Council: 3 of 4 members ranked; d failed: 401 Unauthorized"),
        "{answer}"
    );
}

#[tokio::test(start_paused = true)]
async fn an_unparseable_ranking_is_missing_and_the_aggregate_goes_on_without_it() {
    let yaml = council(
        &[
            member("a", "4", ""),
            member("b", "4", ""),
            member("c", "5", ", rank_garbage: true"),
        ],
        "",
    );
    let (events, scenario) = run_once(&yaml, "What is 2+2?").await;
    let missing: Vec<(Option<String>, String)> = strategy(&events)
        .into_iter()
        .filter_map(|(agent, event)| match event {
            StrategyEvent::RankingMissing { reason } => Some((agent, reason)),
            _ => None,
        })
        .collect();
    assert_eq!(missing.len(), 1);
    assert_eq!(missing[0].0.as_deref(), Some("c"));
    assert!(missing[0].1.contains("FINAL RANKING"), "{}", missing[0].1);
    // Answering, then three attempts at ranking.
    assert_eq!(scenario.requests_of("c").len(), 4);
    assert_eq!(ballots(&events).len(), 2);
    let (_, aggregate_missing, complete) = last_aggregate(&events);
    assert!(complete);
    assert_eq!(aggregate_missing, ["c"]);
    let (answer, _) = final_answer(&events).unwrap();
    assert!(
        answer.contains("— Council: 2 of 3 members ranked; c ranked nothing usable"),
        "{answer}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_ranking_written_as_text_counts_with_source_text() {
    let yaml = council(
        &[
            member("a", "4", ""),
            member("b", "4", ""),
            member("c", "4", ", rank_as_text: true"),
        ],
        "",
    );
    let (events, _) = run_once(&yaml, "What is 2+2?").await;
    let ballots = ballots(&events);
    assert_eq!(ballots.len(), 3);
    let text = ballots.iter().find(|ballot| ballot.ranker == "c").unwrap();
    assert_eq!(text.source, RankingSource::Text);
    assert_eq!(text.order.len(), 2);
    assert!(
        final_answer(&events)
            .unwrap()
            .0
            .starts_with("Response A ranked first.")
    );
}

#[tokio::test(start_paused = true)]
async fn a_failing_chairman_hands_over_to_the_next_in_aggregate_order() {
    let yaml = council(
        &[
            member("a", "4", ", fail_as_chairman: true"),
            member("b", "4", ""),
            member("c", "5", ""),
        ],
        "  chairman: a\n",
    );
    let (events, _) = run_once(&yaml, "What is 2+2?").await;
    let chair = chairmen(&events);
    assert_eq!(chair.len(), 2, "{chair:?}");
    assert_eq!(chair[0], ("a".to_string(), ChairmanBasis::Configured));
    assert_eq!(chair[1].0, "b");
    assert!(
        matches!(&chair[1].1, ChairmanBasis::Fallback { failed, reason }
        if failed.as_str() == "a" && reason.contains("scripted chairman failure"))
    );
    assert_eq!(turn_winner(&events).as_deref(), Some("b"));
    let (answer, fallback) = final_answer(&events).unwrap();
    assert!(!fallback);
    assert!(
        answer.starts_with("Response A ranked first.\n4"),
        "{answer}"
    );
    assert!(answer.contains("a failed: as chairman"), "{answer}");
}

#[tokio::test(start_paused = true)]
async fn when_every_chairman_fails_the_best_ranked_answer_is_final_with_a_warning() {
    let failing = ", fail_as_chairman: true";
    let yaml = council(
        &[
            member("a", "4", failing),
            member("b", "4", failing),
            member("c", "5", failing),
        ],
        "",
    );
    let (events, _) = run_once(&yaml, "What is 2+2?").await;
    assert_eq!(chairmen(&events).len(), 3);
    let (answer, fallback) = final_answer(&events).unwrap();
    assert!(fallback);
    assert!(answer.starts_with("4\n\n— Council:"), "{answer}");
    assert!(!answer.contains("Unable to generate"));
    assert!(events.iter().any(|event| matches!(&event.msg,
        EventMsg::Warning { message } if message.contains("no chairman synthesized the answers"))));
}

#[tokio::test(start_paused = true)]
async fn the_turn_option_overrides_the_configured_strategy() {
    let members = [member("a", "4", ""), member("b", "5", "")];
    let voting = format!("agents:\n{}", members.concat());
    let mut scenario = Scenario::start(&voting);
    let options = TurnOptions {
        strategy: Some(Strategy::Council),
        ..TurnOptions::default()
    };
    let events = scenario.submit("What is 2+2?", Mode::Normal, options).await;
    assert_eq!(ballots(&events).len(), 2);
    assert_eq!(chairmen(&events).len(), 1);

    let mut scenario = Scenario::start(&council(&members, ""));
    let options = TurnOptions {
        strategy: Some(Strategy::Vote),
        ..TurnOptions::default()
    };
    let events = scenario.submit("What is 2+2?", Mode::Normal, options).await;
    assert!(strategy(&events).is_empty());
    assert!(
        events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::VoteCast { .. }))
    );
}

#[tokio::test(start_paused = true)]
async fn the_example_council_config_runs_offline_as_its_comment_says() {
    let yaml = include_str!("../../configs/scripted/council.yaml");
    let (events, _) = run_once(yaml, "What is 2+2?").await;
    let ballots = ballots(&events);
    assert_eq!(ballots.len(), 4);
    let skeptic = ballots
        .iter()
        .find(|ballot| ballot.ranker == "skeptic")
        .unwrap();
    assert_eq!(skeptic.source, RankingSource::Text);
    let chair = chairmen(&events);
    assert_eq!(chair[0], ("careful".to_string(), ChairmanBasis::Configured));
    assert!(
        matches!(&chair[1].1, ChairmanBasis::Fallback { failed, .. } if failed.as_str() == "careful")
    );
    let (answer, _) = final_answer(&events).unwrap();
    assert!(answer.contains("2 + 2 = 4."), "{answer}");
    assert!(
        answer.ends_with("careful failed: as chairman: scripted chairman failure"),
        "{answer}"
    );
}

#[tokio::test(start_paused = true)]
async fn the_council_reaches_the_logs_status_and_the_plain_and_automation_displays() {
    let yaml = council(
        &[
            member("a", "4", ""),
            member("b", "4", ""),
            member("c", "5", ", rank_garbage: true"),
        ],
        "",
    );
    let mut scenario = Scenario::start(&yaml);
    let events = scenario.handle.run_turn("What is 2+2?").await;
    let mut plain =
        massgen::headless::PlainPrinter::new(Vec::new(), massgen::headless::Style::new(false));
    let mut automation = massgen::headless::AutomationPrinter::new(Vec::new(), Vec::new());
    for event in &events {
        massgen::headless::Printer::print(&mut plain, event).unwrap();
        massgen::headless::Printer::print(&mut automation, event).unwrap();
    }
    let plain = String::from_utf8(plain.into_inner()).unwrap();
    assert!(plain.contains("── Council: ranking ──"), "{plain}");
    assert_eq!(plain.matches("⚖ ranks ").count(), 2, "{plain}");
    assert!(plain.contains("⚖ ranked nothing usable"), "{plain}");
    assert!(plain.contains("⚖ Aggregate (Borda): "), "{plain}");
    assert!(plain.contains("🪑 Chairman:"), "{plain}");
    // The footer reaches the streamed answer too.
    assert!(
        plain.contains("— Council: 2 of 3 members ranked"),
        "{plain}"
    );
    let automation = String::from_utf8(automation.into_inner().0).unwrap();
    for line in [
        "STAGE: answering",
        "STAGE: ranking",
        "STAGE: synthesis",
        "RANKING: a: b",
        "RANKING_MISSING: c: ",
        "AGGREGATE: ",
        "CHAIRMAN: ",
    ] {
        assert!(automation.contains(line), "{line}\n{automation}");
    }
    // The derived files are written once the turn is: the next op runs after that.
    scenario
        .handle
        .ops
        .send(massgen::protocol::Op::ListPlans)
        .await
        .unwrap();
    while let Some(event) = scenario.handle.events.recv().await {
        if matches!(event.msg, EventMsg::PlansListed { .. }) {
            break;
        }
    }
    let attempt = crate::support::attempt_dir(scenario.dir.path(), 1);
    let coordination = std::fs::read_to_string(attempt.join("coordination_events.json")).unwrap();
    for kind in [
        "stage_started",
        "ranking_submitted",
        "ranking_missing",
        "rankings_aggregated",
        "chairman_chosen",
    ] {
        assert!(coordination.contains(kind), "{kind}");
    }
    let status: serde_json::Value =
        serde_json::from_slice(&std::fs::read(attempt.join("status.json")).unwrap()).unwrap();
    assert_eq!(status["coordination"]["stage"], "synthesis", "{status}");
    assert_eq!(status["agents"]["c"]["stage"], "ranking", "{status}");
    assert!(attempt.join("rankings.json").exists());
}

#[tokio::test(start_paused = true)]
async fn a_chairman_with_its_own_backend_synthesizes_and_is_never_ranked() {
    let yaml = council(
        &[
            member("a", "4", ""),
            member("b", "4", ""),
            member("c", "5", ""),
        ],
        "  chairman: {id: judge, backend: {type: scripted, tokens_per_second: 0}}\n",
    );
    let (events, scenario) = run_once(&yaml, "What is 2+2?").await;
    let started = events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::TurnStarted { agents, .. } => Some(agents.len()),
            _ => None,
        })
        .unwrap();
    assert_eq!(started, 4, "the chairman has a card of its own");
    let ballots = ballots(&events);
    assert_eq!(ballots.len(), 3);
    assert!(ballots.iter().all(|ballot| {
        ballot.ranker != "judge"
            && ballot
                .shown
                .iter()
                .all(|(_, agent)| agent.as_str() != "judge")
    }));
    let (standings, _, _) = last_aggregate(&events);
    assert!(!standings.contains(&"judge".to_string()));
    assert_eq!(
        chairmen(&events),
        [("judge".to_string(), ChairmanBasis::Configured)]
    );
    assert_eq!(turn_winner(&events).as_deref(), Some("judge"));
    // One call: the synthesis, with every answer and the aggregate.
    let requests = scenario.requests_of("judge");
    assert_eq!(requests.len(), 1);
    assert!(user_text(&requests[0]).contains("AGGREGATE RANKING:"));
    assert!(events.iter().any(|event| {
        event
            .agent
            .as_ref()
            .is_some_and(|agent| agent.as_str() == "judge")
            && matches!(event.msg, EventMsg::Usage { .. })
    }));
    let (answer, _) = final_answer(&events).unwrap();
    assert_eq!(answer, "Response A ranked first.\n4");
}

#[tokio::test(start_paused = true)]
async fn when_the_turn_times_out_the_best_answer_so_far_is_final_and_the_silent_are_named() {
    let yaml = format!(
        "{}timeout_settings:\n  orchestrator_timeout_seconds: 30\n",
        council(
            &[
                member("a", "4", ""),
                member("b", "4", ""),
                member("c", "5", ", fail: hang"),
            ],
            "",
        )
    );
    let (events, _) = run_once(&yaml, "What is 2+2?").await;
    assert!(ballots(&events).is_empty());
    let (_, missing, complete) = last_aggregate(&events);
    assert!(complete);
    assert_eq!(missing, ["a", "b", "c"]);
    let (answer, fallback) = final_answer(&events).unwrap();
    assert!(fallback);
    assert!(answer.starts_with("4\n\n— Council: 0 of 3 members ranked; a ranked nothing usable: the turn timed out before it ranked"), "{answer}");
    assert!(answer.contains("c failed: gave no answer"), "{answer}");
}

#[tokio::test(start_paused = true)]
async fn a_council_left_with_one_answer_has_nothing_to_rank_and_its_author_chairs() {
    let yaml = council(
        &[
            member("a", "4", ""),
            member(
                "b",
                "5",
                ", fail: {mode: error, message: \"quota exceeded\"}",
            ),
        ],
        "",
    );
    let (events, _) = run_once(&yaml, "What is 2+2?").await;
    assert!(ballots(&events).is_empty());
    let (standings, missing, complete) = last_aggregate(&events);
    assert!(complete);
    assert_eq!(
        (standings, missing),
        (vec!["a".to_string()], vec!["b".to_string()])
    );
    assert_eq!(
        chairmen(&events),
        [("a".to_string(), ChairmanBasis::TopRanked)]
    );
    let (answer, _) = final_answer(&events).unwrap();
    assert!(
        answer.ends_with("— Council: 0 of 2 members ranked; b failed: quota exceeded"),
        "{answer}"
    );
}

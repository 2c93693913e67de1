//! A council's stages with scripted members: answering alone, ranking the others' answers
//! under labels shuffled per ranker (or every answer with `rank_own`), in text or with the
//! tool, and the chairman: the top-ranked member, a configured one or one of its own.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

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
    let yaml = include_str!("../../../configs/scripted/council.yaml");
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

//! A council whose members fail: a failed member, an unparseable ranking, a failing
//! chairman and its fallback, every chairman failing, a timeout and a lone answer; each is
//! named in the final answer's footer.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

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

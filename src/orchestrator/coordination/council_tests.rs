//! The council's pure state: self-exclusion, per-ranker shuffles, ballot checks, the
//! aggregate, the missing members, the chairman order and the footer.

use super::*;

fn ids(names: &[&str]) -> Vec<AgentId> {
    names.iter().map(|name| AgentId::new(*name)).collect()
}

fn council(names: &[&str], rank_own: bool) -> Council {
    let members = ids(names);
    let answers = members
        .iter()
        .map(|agent| (agent.clone(), format!("answer of {agent}")))
        .collect();
    Council::new("What is 2+2?", rank_own, members, answers, Vec::new())
}

#[test]
fn a_ranker_never_sees_its_own_answer_unless_rank_own() {
    let excluded = council(&["a", "b", "c"], false);
    for ranker in ids(&["a", "b", "c"]) {
        let shown = excluded.shown(&ranker);
        assert_eq!(shown.len(), 2);
        assert!(shown.iter().all(|answer| answer.agent != ranker));
        assert_eq!(shown[0].label, "Response A");
    }
    let included = council(&["a", "b", "c"], true);
    assert!(
        included
            .shown(&AgentId::new("a"))
            .iter()
            .any(|answer| answer.agent == AgentId::new("a"))
    );
}

#[test]
fn rankers_see_the_answers_in_different_orders_reproducibly() {
    let council = council(&["a", "b", "c", "d", "e"], true);
    let orders: Vec<Vec<AgentId>> = ids(&["a", "b", "c", "d", "e"])
        .iter()
        .map(|ranker| {
            council
                .shown(ranker)
                .into_iter()
                .map(|answer| answer.agent)
                .collect()
        })
        .collect();
    assert!(orders.iter().any(|order| order != &orders[0]), "{orders:?}");
    assert_eq!(
        council.shown(&AgentId::new("c")),
        council.shown(&AgentId::new("c"))
    );
}

#[test]
fn with_rank_own_no_question_lets_every_ranker_see_one_order() {
    for question in 0..200 {
        let members = ids(&["a", "b", "c"]);
        let answers = members
            .iter()
            .map(|agent| (agent.clone(), format!("answer of {agent}")))
            .collect();
        let council = Council::new(
            &format!("q{question}"),
            true,
            members.clone(),
            answers,
            Vec::new(),
        );
        let orders: Vec<Vec<AgentId>> = members
            .iter()
            .map(|ranker| {
                council
                    .shown(ranker)
                    .into_iter()
                    .map(|answer| answer.agent)
                    .collect()
            })
            .collect();
        assert!(
            orders.iter().any(|order| order != &orders[0]),
            "q{question}: {orders:?}"
        );
    }
}

#[test]
fn a_ballot_names_only_shown_labels_once_and_may_be_partial() {
    let mut council = council(&["a", "b", "c"], false);
    let a = AgentId::new("a");
    let unknown = council.submit(&a, &["Response D".into()], RankingSource::Tool, "");
    assert!(unknown.unwrap_err().contains("Response A, Response B"));
    let twice = council.submit(
        &a,
        &["Response A".into(), "response a".into()],
        RankingSource::Tool,
        "",
    );
    assert!(twice.unwrap_err().contains("twice"));
    let shown = council.shown(&a);
    let ballot = council
        .submit(
            &a,
            &["response b".into()],
            RankingSource::Text,
            "b is right",
        )
        .unwrap();
    assert_eq!(ballot.order, vec![shown[1].agent.clone()]);
    assert_eq!(ballot.source, RankingSource::Text);
    assert!(
        council
            .submit(&a, &["Response A".into()], RankingSource::Tool, "")
            .is_err()
    );
    assert_eq!(council.pending(), ids(&["b", "c"]).as_slice());
}

#[test]
fn the_aggregate_counts_usable_ballots_and_names_the_missing() {
    let members = ids(&["a", "b", "c", "d"]);
    let answers = ids(&["a", "b", "c"])
        .into_iter()
        .map(|agent| (agent.clone(), format!("answer of {agent}")))
        .collect();
    let failed = vec![(AgentId::new("d"), "401 Unauthorized".to_string())];
    let mut council = Council::new("q", false, members, answers, failed);
    assert_eq!(council.pending(), ids(&["a", "b", "c"]).as_slice());
    for ranker in ["a", "b"] {
        let ranker = AgentId::new(ranker);
        let shown = council.shown(&ranker);
        let order: Vec<String> = {
            let mut sorted = shown.clone();
            // Both rank c first when they see it.
            sorted.sort_by_key(|answer| answer.agent != AgentId::new("c"));
            sorted.into_iter().map(|answer| answer.label).collect()
        };
        council
            .submit(&ranker, &order, RankingSource::Tool, "")
            .unwrap();
    }
    assert!(!council.is_complete());
    council.ranking_missing(&AgentId::new("c"), "nothing parseable");
    assert!(council.is_complete());
    let standings = council.standings();
    assert_eq!(standings[0].agent, AgentId::new("c"));
    assert_eq!(standings[0].points, 2);
    assert_eq!(
        council.missing(),
        vec![
            (AgentId::new("c"), "nothing parseable".to_string()),
            (AgentId::new("d"), "401 Unauthorized".to_string()),
        ]
    );
    assert_eq!(
        council.footer().unwrap(),
        "— Council: 2 of 4 members ranked; c ranked nothing usable: nothing parseable; d failed: \
         401 Unauthorized"
    );
    assert_eq!(council.best_answer().unwrap().0, AgentId::new("c"));
}

#[test]
fn the_chairman_order_puts_the_configured_first_and_skips_failed_members() {
    let mut council = council(&["a", "b", "c"], true);
    for ranker in ["a", "b", "c"] {
        let ranker = AgentId::new(ranker);
        let order: Vec<String> = {
            let mut shown = council.shown(&ranker);
            shown.sort_by_key(|answer| answer.agent.as_str().to_string());
            shown.reverse();
            shown.into_iter().map(|answer| answer.label).collect()
        };
        council
            .submit(&ranker, &order, RankingSource::Tool, "")
            .unwrap();
    }
    assert_eq!(council.chairman_order(None), ids(&["c", "b", "a"]));
    assert_eq!(
        council.chairman_order(Some(&AgentId::new("a"))),
        ids(&["a", "c", "b"])
    );
    council.member_failed(&AgentId::new("c"), "timeout");
    assert_eq!(council.chairman_order(None), ids(&["b", "a"]));
    assert!(council.footer().unwrap().contains("c failed: timeout"));
    let ranked = council.ranked_answers();
    assert_eq!(ranked[0].0.label, "Response A");
    assert_eq!(ranked[0].0.agent, AgentId::new("c"));
}

#[test]
fn nobody_missing_means_no_footer_and_a_lone_answer_has_no_rankers() {
    let full = council(&["a", "b"], false);
    assert!(full.footer().is_none());
    let lone = Council::new(
        "q",
        false,
        ids(&["a", "b"]),
        vec![(AgentId::new("a"), "x".into())],
        vec![(AgentId::new("b"), "boom".into())],
    );
    assert!(lone.pending().is_empty());
    assert_eq!(label(27), "Response AB");
}

//! Council and debate news folded: each member's stage, the ballots and the latest
//! aggregate, the missing rankings, the chairman, the debate's rounds, the timeline's
//! entries, and a new turn starting empty.

use crate::protocol::{AgentId, ChairmanBasis, RankingSource, Stage, Strategy};
use crate::tui::state::{EntryKind, StrategyEntry};
use crate::tui::test_strategy::{COUNCIL, council_turn, debate_turn, turn_started};
use crate::tui::test_support::{event, fold};

#[test]
fn a_council_turn_keeps_every_ballot_the_latest_totals_and_the_chairman() {
    let state = fold(&council_turn());
    let strategy = &state.strategy;
    let ballots: Vec<(&str, Vec<&str>, RankingSource)> = strategy
        .ballots
        .iter()
        .map(|ballot| {
            (
                ballot.ranker.as_str(),
                ballot.order.iter().map(AgentId::as_str).collect(),
                ballot.source,
            )
        })
        .collect();
    assert_eq!(
        ballots,
        [
            ("alpha", vec!["beta", "gamma"], RankingSource::Tool),
            ("beta", vec!["alpha", "gamma"], RankingSource::Text),
        ]
    );
    assert_eq!(
        strategy.missing,
        [(
            AgentId::new("gamma"),
            "no ranking before the timeout".to_string()
        )]
    );
    let aggregate = strategy.aggregate.as_ref().unwrap();
    assert!(
        aggregate.complete,
        "the last aggregate replaced the live one"
    );
    assert_eq!(aggregate.standings[1].agent, AgentId::new("alpha"));
    assert_eq!(
        strategy.chairman,
        Some((AgentId::new("beta"), ChairmanBasis::TopRanked))
    );
    assert_eq!(
        strategy.stage_of(&AgentId::new("beta")),
        Some(Stage::Synthesis)
    );
    assert_eq!(
        strategy.stage_of(&AgentId::new("alpha")),
        Some(Stage::Ranking)
    );
    assert!(state.strategy.is_council(None), "its news say so");
    let entries: Vec<(Option<&str>, &StrategyEntry)> = state
        .timeline
        .iter()
        .filter_map(|entry| match &entry.kind {
            EntryKind::Strategy(kind) => Some((entry.agent.as_ref().map(AgentId::as_str), kind)),
            _ => None,
        })
        .collect();
    let who: Vec<Option<&str>> = entries.iter().map(|(agent, _)| *agent).collect();
    assert_eq!(
        who,
        [Some("alpha"), Some("beta"), Some("gamma"), None, None],
        "one entry per ballot, the complete aggregate only, the chairman: {entries:#?}"
    );
    assert!(matches!(
        entries[3].1,
        StrategyEntry::Aggregate { totals } if totals.len() == COUNCIL.len()
    ));
}

#[test]
fn a_new_turn_clears_the_stages_and_the_rankings() {
    let mut events = council_turn();
    events.push(event(99, None, turn_started(&COUNCIL, Strategy::Vote)));
    let state = fold(&events);
    assert_eq!(state.strategy, Default::default());
    assert_eq!(state.strategy.stage_of(&AgentId::new("beta")), None);
    assert!(!state.strategy.is_council(state.turn.options.strategy));
}

#[test]
fn a_debate_keeps_each_rounds_critiques_and_only_the_revised_answers() {
    let state = fold(&debate_turn());
    let rounds = &state.strategy.rounds;
    assert_eq!(
        rounds.iter().map(|round| round.round).collect::<Vec<_>>(),
        [1, 2]
    );
    for round in rounds {
        let critics: Vec<(&str, Vec<&str>)> = round
            .critiques
            .iter()
            .map(|critique| {
                (
                    critique.critic.as_str(),
                    critique.targets.iter().map(AgentId::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(critics, [("pro", vec!["con"]), ("con", vec!["pro"])]);
        let revisions: Vec<(&str, &str)> = round
            .revisions
            .iter()
            .map(|(agent, text)| (agent.as_str(), text.as_str()))
            .collect();
        let pro = format!("pro's answer, revised in round {}.", round.round);
        let con = format!("con's answer, revised in round {}.", round.round);
        assert_eq!(
            revisions,
            [("pro", pro.as_str()), ("con", con.as_str())],
            "the first answers are not revisions"
        );
    }
    assert!(!state.strategy.is_council(state.turn.options.strategy));
}

use super::*;
use crate::protocol::{AnonId, AnonymousMapping};

fn id(name: &str) -> AgentId {
    AgentId::new(name)
}

fn anon(name: &str) -> AnonId {
    let mapping = AnonymousMapping::new(&[id("a"), id("b"), id("c")]);
    mapping.anon(&id(name)).cloned().unwrap()
}

fn label(name: &str, ordinal: usize) -> AnswerLabel {
    AnswerLabel::answer(&anon(name), ordinal)
}

fn answer(name: &str, ordinal: usize, reset: Option<&[&str]>) -> EventMsg {
    EventMsg::AnswerSubmitted {
        label: label(name, ordinal),
        anon_id: anon(name),
        content: format!("{name} {ordinal}"),
        votes_reset: reset.map(|voters| voters.iter().map(|voter| id(voter)).collect()),
    }
}

fn vote(target: &str, ordinal: usize) -> EventMsg {
    EventMsg::VoteCast {
        target: id(target),
        target_anon: anon(target),
        target_label: label(target, ordinal),
        reason: format!("{target} is best"),
        standing: None,
    }
}

fn winner(counts: &[(&str, &[&str])]) -> EventMsg {
    EventMsg::WinnerSelected {
        winner: id(counts[0].0),
        winner_anon: anon(counts[0].0),
        tally: counts
            .iter()
            .map(|(agent, voters)| VoteCount {
                agent: id(agent),
                anon_id: anon(agent),
                votes: u32::try_from(voters.len()).unwrap(),
                voters: voters.iter().map(|voter| id(voter)).collect(),
            })
            .collect(),
        is_tie: false,
        basis: crate::protocol::WinnerBasis::Votes,
    }
}

fn fold(events: &[(&str, EventMsg)]) -> VoteLedger {
    let mut ledger = VoteLedger::default();
    for (agent, msg) in events {
        ledger.fold(Some(&id(agent)), msg);
    }
    ledger
}

fn fates(ledger: &VoteLedger) -> Vec<(String, VoteFate)> {
    ledger
        .votes()
        .iter()
        .map(|vote| {
            (
                format!("{}→{}", vote.voter, vote.target_label),
                vote.fate.clone(),
            )
        })
        .collect()
}

#[test]
fn an_answer_resets_the_votes_it_names_and_the_tally_counts_the_rest() {
    let ledger = fold(&[
        ("a", answer("a", 1, Some(&[]))),
        ("b", answer("b", 1, Some(&[]))),
        ("a", vote("b", 1)),
        ("b", answer("b", 2, Some(&["a"]))),
        ("a", vote("b", 2)),
        ("b", vote("b", 2)),
        ("b", winner(&[("b", &["a", "b"]), ("a", &[])])),
    ]);
    assert_eq!(
        fates(&ledger),
        [
            (
                format!("a→{}", label("b", 1)),
                VoteFate::Reset {
                    by: id("b"),
                    label: label("b", 2)
                }
            ),
            (format!("a→{}", label("b", 2)), VoteFate::Counted),
            (format!("b→{}", label("b", 2)), VoteFate::Counted),
        ]
    );
    assert_eq!(
        ledger.counts(&id("a")),
        VoteCounts {
            cast: 2,
            reset: 1,
            received: Some(0)
        }
    );
    assert_eq!(
        ledger.counts(&id("b")),
        VoteCounts {
            cast: 1,
            reset: 0,
            received: Some(2)
        }
    );
    assert_eq!(
        ledger.votes()[0].fate.note(),
        format!("reset by b's answer {}", label("b", 2))
    );
}

#[test]
fn a_log_without_reset_lists_resets_every_standing_vote_and_counts_what_stands() {
    let ledger = fold(&[
        ("a", answer("a", 1, None)),
        ("a", vote("a", 1)),
        ("b", answer("b", 1, None)),
        ("a", vote("b", 1)),
        ("b", vote("b", 1)),
        ("b", winner(&[("b", &[]), ("a", &[])])),
    ]);
    let kinds: Vec<&VoteFate> = ledger.votes().iter().map(|vote| &vote.fate).collect();
    assert!(matches!(kinds[0], VoteFate::Reset { .. }));
    assert_eq!(kinds[1..], [&VoteFate::Counted, &VoteFate::Counted]);
}

#[test]
fn votes_of_a_dropped_voter_or_a_restarted_attempt_do_not_count() {
    let ledger = fold(&[
        ("a", answer("a", 1, Some(&[]))),
        ("a", vote("a", 1)),
        ("b", vote("a", 1)),
        (
            "b",
            EventMsg::AgentKilled {
                reason: "gone".into(),
            },
        ),
        (
            "a",
            EventMsg::OrchestrationRestarted {
                attempt: 2,
                max_attempts: 2,
                reason: "again".into(),
                instructions: String::new(),
                log_dir: None,
            },
        ),
        ("c", answer("c", 1, Some(&[]))),
        ("a", vote("c", 1)),
        ("c", winner(&[("c", &["c"])])),
    ]);
    assert_eq!(
        ledger
            .votes()
            .iter()
            .map(|vote| vote.fate.note())
            .collect::<Vec<_>>(),
        [
            "coordination restarted",
            "its voter was dropped",
            "not in the final tally"
        ]
    );
    assert_eq!(ledger.counts(&id("c")).received, Some(1));
}

#[test]
fn without_a_winner_votes_stand_and_none_is_received() {
    let ledger = fold(&[("a", answer("a", 1, Some(&[]))), ("a", vote("a", 1))]);
    assert_eq!(ledger.votes()[0].fate, VoteFate::Standing);
    assert_eq!(ledger.counts(&id("a")).received, None);
    assert!(ledger.tally().is_none());
}

#[test]
fn events_logged_before_votes_were_recorded_still_read() {
    let answer: EventMsg = serde_json::from_str(
        r#"{"type":"answer_submitted","label":"agent1.1","anon_id":"agent1","content":"x"}"#,
    )
    .unwrap();
    assert!(matches!(
        answer,
        EventMsg::AnswerSubmitted {
            votes_reset: None,
            ..
        }
    ));
    let count: VoteCount =
        serde_json::from_str(r#"{"agent":"a","anon_id":"agent1","votes":2}"#).unwrap();
    assert!(count.voters.is_empty());
}

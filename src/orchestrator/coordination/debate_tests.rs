//! The debate's stages, shown peers, critiques, revisions, votes and footer.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

fn id(name: &str) -> AgentId {
    AgentId::new(name)
}

fn debate(rounds: u32) -> Debate {
    let members = ["a", "b", "c"]
        .iter()
        .enumerate()
        .map(|(index, name)| (id(name), format!("agent{}", index + 1)))
        .collect();
    let answers = vec![
        (id("a"), "4".into()),
        (id("b"), "4".into()),
        (id("c"), "5".into()),
    ];
    Debate::new(rounds, members, answers, Vec::new())
}

fn critique_all(debate: &mut Debate) {
    for member in ["a", "b", "c"] {
        let peers: Vec<(String, String)> = debate
            .peers_shown(&id(member))
            .into_iter()
            .map(|answer| (answer.label, format!("{member} doubts it")))
            .collect();
        debate.submit_critiques(&id(member), &peers, false).unwrap();
    }
}

#[test]
fn stages_run_critique_and_revision_per_round_then_the_finish() {
    let mut debate = debate(2);
    let mut seen = Vec::new();
    while let Some(stage) = debate.next_stage(true) {
        seen.push(stage);
        debate.enter(stage);
        for member in debate.pending().to_vec() {
            debate.round_missed(&member);
        }
    }
    assert_eq!(
        seen,
        [
            Stage::Critique { round: 1 },
            Stage::Revision { round: 1 },
            Stage::Critique { round: 2 },
            Stage::Revision { round: 2 },
            Stage::FinalVote,
        ]
    );
    assert_eq!(debate.next_stage(false), None);
    let mut synthesized = self::debate(1);
    synthesized.enter(Stage::Revision { round: 1 });
    assert_eq!(synthesized.next_stage(false), Some(Stage::Synthesis));
}

#[test]
fn critiques_name_shown_peers_only_and_reach_their_targets() {
    let mut debate = debate(1);
    debate.enter(Stage::Critique { round: 1 });
    let shown: Vec<String> = debate
        .peers_shown(&id("a"))
        .into_iter()
        .map(|answer| answer.label)
        .collect();
    assert_eq!(shown, ["agent2", "agent3"]);
    let own = debate.submit_critiques(&id("a"), &[("agent1".into(), "mine".into())], false);
    assert!(own.unwrap_err().contains("The peers: agent2, agent3."));
    assert!(
        debate
            .submit_critiques(&id("a"), &[], false)
            .unwrap_err()
            .contains("at least one")
    );
    let recorded = debate
        .submit_critiques(&id("a"), &[("agent3".into(), "2+2 is 4".into())], false)
        .unwrap();
    assert_eq!(recorded[0].target, id("c"));
    assert!(
        debate
            .submit_critiques(&id("a"), &[("agent3".into(), "again".into())], false)
            .is_err()
    );
    assert_eq!(
        debate.critiques_of(&id("c")),
        [("agent1".to_string(), "2+2 is 4".to_string())]
    );
}

#[test]
fn a_revision_replaces_the_answer_and_says_whether_it_was_kept() {
    let mut debate = debate(1);
    debate.enter(Stage::Critique { round: 1 });
    critique_all(&mut debate);
    debate.enter(Stage::Revision { round: 1 });
    assert!(debate.submit_revision(&id("a"), " 4 ").unwrap().kept);
    let changed = debate.submit_revision(&id("c"), "4").unwrap();
    assert!(!changed.kept);
    assert_eq!(debate.answer_of(&id("c")), Some("4"));
    assert_eq!(debate.rounds()[0].revisions.len(), 2);
    assert_eq!(debate.rounds()[0].critiques.len(), 6);
}

#[test]
fn a_failed_member_drops_out_and_is_named_in_the_footer() {
    let mut debate = debate(2);
    debate.enter(Stage::Critique { round: 1 });
    debate.member_failed(&id("b"), "401 Unauthorized\nmore");
    assert_eq!(debate.pending(), [id("a"), id("c")]);
    let shown: Vec<AgentId> = debate
        .peers_shown(&id("a"))
        .into_iter()
        .map(|answer| answer.agent)
        .collect();
    assert_eq!(shown, [id("c")]);
    assert_eq!(
        debate.footer().as_deref(),
        Some("— Debate: 2 of 3 members debated to the end; b failed: 401 Unauthorized")
    );
    assert_eq!(debate.chairman_order(Some(&id("b"))), [id("a"), id("c")]);
}

#[test]
fn the_vote_goes_to_the_most_voted_with_ties_in_config_order() {
    let mut debate = debate(1);
    debate.enter(Stage::FinalVote);
    debate.submit_vote(&id("a"), "agent3", "").unwrap();
    debate.submit_vote(&id("b"), "agent2", "").unwrap();
    assert!(debate.submit_vote(&id("c"), "agent9", "").is_err());
    let result = debate.vote_result().unwrap();
    assert_eq!(result.winner, id("b"));
    assert!(result.is_tie);
    debate.submit_vote(&id("c"), "agent3", "").unwrap();
    let result = debate.vote_result().unwrap();
    assert_eq!(result.winner, id("c"));
    assert!(!result.is_tie);
    assert_eq!(debate.best_answer(), Some((id("c"), "5".into())));
}

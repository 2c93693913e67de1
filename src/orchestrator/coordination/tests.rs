//! Unit tests of the coordination state machine.

use super::*;
use crate::config::Sensitivity;
use crate::protocol::{AnonId, WinnerBasis};

fn ids(names: &[&str]) -> Vec<AgentId> {
    names.iter().map(|name| AgentId::new(*name)).collect()
}

fn id(name: &str) -> AgentId {
    AgentId::new(name)
}

fn coordination(names: &[&str]) -> Coordination {
    Coordination::new(ids(names), Rules::default())
}

/// Runs a round for `agent` that ends in an answer.
fn answer(c: &mut Coordination, agent: &str, text: &str) -> AcceptedAnswer {
    c.begin_round(&id(agent)).unwrap();
    let accepted = c.submit_answer(&id(agent), text).unwrap();
    c.end_round(&id(agent));
    accepted
}

/// Runs a round for `agent` that ends in a vote for the anon id `target`.
fn vote(c: &mut Coordination, agent: &str, target: &str) -> VoteOutcome {
    c.begin_round(&id(agent)).unwrap();
    let outcome = c.submit_vote(&id(agent), target, "because").unwrap();
    c.end_round(&id(agent));
    outcome
}

#[test]
fn a_new_answer_resets_every_vote_and_schedules_restarts() {
    let mut c = coordination(&["a", "b", "c"]);
    answer(&mut c, "a", "first answer");
    assert!(matches!(
        vote(&mut c, "a", "agent1"),
        VoteOutcome::Accepted { .. }
    ));
    assert!(matches!(
        vote(&mut c, "b", "agent1"),
        VoteOutcome::Accepted { .. }
    ));
    assert!(!c.needs_round(&id("a")));

    let accepted = answer(&mut c, "c", "a different answer from c");
    assert_eq!(accepted.label.as_str(), "agent3.1");
    assert_eq!(accepted.votes_reset, ids(&["a", "b"]));
    assert!(c.feedback_for(&id("a")).is_empty());
    assert!(c.needs_round(&id("a")) && c.needs_round(&id("b")) && c.needs_round(&id("c")));
    assert!(!c.is_settled());
}

#[test]
fn a_vote_from_an_agent_with_a_pending_restart_is_ignored() {
    let mut c = coordination(&["a", "b"]);
    answer(&mut c, "a", "answer a");
    // b starts a round seeing a's answer, then a answers again before b votes.
    c.begin_round(&id("b")).unwrap();
    c.begin_round(&id("a")).unwrap();
    c.submit_answer(&id("a"), "a much better answer").unwrap();
    c.end_round(&id("a"));
    let outcome = c.submit_vote(&id("b"), "agent1", "ok").unwrap();
    c.end_round(&id("b"));
    assert_eq!(outcome, VoteOutcome::Ignored { target: id("a") });
    assert!(c.feedback_for(&id("a")).is_empty());
    assert!(c.needs_round(&id("b")));
}

#[test]
fn ties_go_to_config_order_not_anonymous_order() {
    // Config order z, y; anonymous order y=agent1, z=agent2.
    let mut c = coordination(&["z", "y"]);
    answer(&mut c, "z", "z's answer");
    answer(&mut c, "y", "y's answer");
    vote(&mut c, "z", "agent1"); // z votes y
    vote(&mut c, "y", "agent2"); // y votes z
    assert!(c.is_settled());
    let decision = c.decide_winner(Candidates::AllAnswers).unwrap();
    assert_eq!(decision.winner, id("z"));
    assert!(decision.is_tie);
    assert_eq!(decision.basis, WinnerBasis::TieBrokenByConfigOrder);
    assert!(decision.tally.iter().all(|count| count.votes == 1));
}

#[test]
fn most_votes_wins() {
    let mut c = coordination(&["a", "b", "c"]);
    answer(&mut c, "a", "answer a");
    answer(&mut c, "b", "answer b");
    for voter in ["a", "b", "c"] {
        vote(&mut c, voter, "agent2");
    }
    let decision = c.decide_winner(Candidates::AllAnswers).unwrap();
    assert_eq!(decision.winner, id("b"));
    assert_eq!(decision.basis, WinnerBasis::Votes);
    assert!(!decision.is_tie);
    let b = decision
        .tally
        .iter()
        .find(|count| count.agent == id("b"))
        .unwrap();
    assert_eq!(b.votes, 3);
    assert_eq!(
        b.voters,
        ids(&["a", "b", "c"]),
        "the tally names who counted"
    );
    assert_eq!(c.feedback_for(&id("b")).len(), 3);
}

#[test]
fn with_no_votes_the_first_agent_with_an_answer_wins() {
    let mut c = coordination(&["a", "b", "c"]);
    answer(&mut c, "c", "answer c");
    answer(&mut c, "b", "answer b");
    let decision = c.decide_winner(Candidates::AllAnswers).unwrap();
    assert_eq!(decision.winner, id("b"));
    assert_eq!(decision.basis, WinnerBasis::FirstAnswer);
    assert!(
        coordination(&["a"])
            .decide_winner(Candidates::AllAnswers)
            .is_none()
    );
}

#[test]
fn a_killed_agent_does_not_block_the_end() {
    let mut c = coordination(&["a", "b"]);
    answer(&mut c, "a", "answer a");
    c.begin_round(&id("b")).unwrap();
    c.kill(&id("b"));
    assert!(!c.needs_round(&id("b")));
    assert!(!c.is_settled());
    vote(&mut c, "a", "agent1");
    assert!(c.is_settled());
    assert_eq!(
        c.decide_winner(Candidates::AllAnswers).unwrap().winner,
        id("a")
    );
}

#[test]
fn all_agents_killed_settles_with_no_winner() {
    let mut c = coordination(&["a", "b"]);
    c.kill(&id("a"));
    c.kill(&id("b"));
    assert!(c.is_settled());
    assert!(c.decide_winner(Candidates::AllAnswers).is_none());
}

#[test]
fn votes_for_a_killed_agent_still_count_at_the_normal_end() {
    let mut c = coordination(&["a", "b", "c"]);
    answer(&mut c, "a", "answer a");
    answer(&mut c, "b", "answer b");
    vote(&mut c, "b", "agent1");
    vote(&mut c, "c", "agent1");
    c.begin_round(&id("a")).unwrap();
    c.kill(&id("a"));
    let decision = c.decide_winner(Candidates::AllAnswers).unwrap();
    assert_eq!(decision.winner, id("a"));
    assert_eq!(decision.basis, WinnerBasis::Votes);
}

#[test]
fn after_a_timeout_live_agents_are_preferred() {
    let mut c = coordination(&["a", "b"]);
    answer(&mut c, "a", "answer a");
    answer(&mut c, "b", "answer b");
    c.kill(&id("a"));
    assert_eq!(
        c.decide_winner(Candidates::PreferLive).unwrap().winner,
        id("b")
    );
    c.kill(&id("b"));
    assert_eq!(
        c.decide_winner(Candidates::PreferLive).unwrap().winner,
        id("a")
    );
}

#[test]
fn after_the_answer_limit_an_agent_may_only_vote() {
    let rules = Rules {
        max_new_answers_per_agent: Some(1),
        ..Rules::default()
    };
    let mut c = Coordination::new(ids(&["a", "b"]), rules);
    let view = c.begin_round(&id("a")).unwrap();
    assert!(!view.vote_only);
    c.submit_answer(&id("a"), "only answer").unwrap();
    c.end_round(&id("a"));
    let view = c.begin_round(&id("a")).unwrap();
    assert!(view.vote_only);
    let rejection = c.submit_answer(&id("a"), "another answer").unwrap_err();
    assert_eq!(rejection.reason, EnforcementReason::AnswerLimit);
    assert!(
        rejection.message.contains("maximum of 1"),
        "{}",
        rejection.message
    );
    assert!(matches!(
        c.submit_vote(&id("a"), "agent1", "mine").unwrap(),
        VoteOutcome::Accepted { .. }
    ));
}

#[test]
fn novelty_rejects_answers_too_close_to_an_existing_one() {
    let rules = Rules {
        novelty: Sensitivity::Balanced,
        ..Rules::default()
    };
    let mut c = Coordination::new(ids(&["a", "b"]), rules);
    answer(&mut c, "a", "the capital of france is paris");
    c.begin_round(&id("b")).unwrap();
    let rejection = c
        .submit_answer(&id("b"), "The capital of France is Paris indeed")
        .unwrap_err();
    assert_eq!(rejection.reason, EnforcementReason::AnswerNotNovel);
    assert!(
        rejection.message.contains("agent1"),
        "{}",
        rejection.message
    );
    assert!(
        c.submit_answer(
            &id("b"),
            "Paris, on the Seine, has been France's capital since 987"
        )
        .is_ok()
    );
}

#[test]
fn lenient_novelty_still_rejects_exact_duplicates() {
    let mut c = coordination(&["a", "b"]);
    answer(&mut c, "a", "Paris");
    c.begin_round(&id("b")).unwrap();
    let rejection = c.submit_answer(&id("b"), "  Paris ").unwrap_err();
    assert_eq!(rejection.reason, EnforcementReason::AnswerDuplicate);
    assert!(c.submit_answer(&id("b"), "Paris is the capital").is_ok());
}

#[test]
fn votes_must_name_an_agent_with_an_answer() {
    let mut c = coordination(&["a", "b"]);
    c.begin_round(&id("a")).unwrap();
    let rejection = c.submit_vote(&id("a"), "agent1", "x").unwrap_err();
    assert_eq!(rejection.reason, EnforcementReason::InvalidVote);
    assert!(rejection.message.contains("no answers"));
    c.submit_answer(&id("a"), "answer a").unwrap();
    c.end_round(&id("a"));
    c.begin_round(&id("b")).unwrap();
    let rejection = c.submit_vote(&id("b"), "agent2", "x").unwrap_err();
    assert_eq!(
        rejection.message,
        "Invalid agent_id 'agent2'. Valid agents: agent1"
    );
}

#[test]
fn a_single_agent_may_vote_for_its_own_answer() {
    let mut c = coordination(&["solo"]);
    answer(&mut c, "solo", "my answer");
    assert!(matches!(
        vote(&mut c, "solo", "agent1"),
        VoteOutcome::Accepted { .. }
    ));
    assert!(c.is_settled());
    assert_eq!(
        c.decide_winner(Candidates::AllAnswers).unwrap().winner,
        id("solo")
    );
}

#[test]
fn round_views_show_latest_answers_in_anonymous_order() {
    let mut c = coordination(&["zed", "amy"]);
    answer(&mut c, "zed", "zed v1");
    answer(&mut c, "zed", "zed v2");
    answer(&mut c, "amy", "amy v1");
    let view = c.begin_round(&id("zed")).unwrap();
    assert_eq!(view.round, 3);
    let labels: Vec<&str> = view.answers.iter().map(|a| a.label.as_str()).collect();
    assert_eq!(labels, vec!["agent1.2", "agent2.1"]);
    assert_eq!(view.answers[0].content, "zed v2");
    let options: Vec<&str> = view.vote_options.iter().map(AnonId::as_str).collect();
    assert_eq!(options, vec!["agent1", "agent2"]);
}

/// Refine OFF, one agent (MassGen's TUI preset): one answer and done, nobody votes.
#[test]
fn skip_voting_settles_once_everyone_answered() {
    let rules = Rules {
        max_new_answers_per_agent: Some(1),
        skip_voting: true,
        ..Rules::default()
    };
    let mut c = Coordination::new(ids(&["a"]), rules);
    assert!(c.needs_round(&id("a")));
    assert!(!c.is_settled());
    answer(&mut c, "a", "the only answer");
    assert!(!c.needs_round(&id("a")), "no vote-only round follows");
    assert!(c.is_settled());
    let decision = c.decide_winner(Candidates::AllAnswers).unwrap();
    assert_eq!(
        (decision.winner, decision.basis),
        (id("a"), WinnerBasis::FirstAnswer)
    );
}

/// Refine OFF, several agents: each answers once without being restarted; those done wait
/// until every agent has answered, then vote.
#[test]
fn without_injection_answers_restart_nobody_and_votes_wait_for_all_answers() {
    let rules = Rules {
        max_new_answers_per_agent: Some(1),
        disable_injection: true,
        defer_voting: true,
        ..Rules::default()
    };
    let mut c = Coordination::new(ids(&["a", "b"]), rules);
    c.begin_round(&id("b")).unwrap();
    answer(&mut c, "a", "answer of a");
    assert!(
        !c.needs_round(&id("a")),
        "a waits for b's answer before voting"
    );
    c.submit_answer(&id("b"), "answer of b").unwrap();
    c.end_round(&id("b"));
    assert!(c.needs_round(&id("a")) && c.needs_round(&id("b")));
    // b's round began before a answered: without injection its vote still counts.
    assert!(matches!(
        vote(&mut c, "b", "agent2"),
        VoteOutcome::Accepted { .. }
    ));
    assert!(matches!(
        vote(&mut c, "a", "agent2"),
        VoteOutcome::Accepted { .. }
    ));
    assert!(c.is_settled());
}

/// One agent of three working alone keeps its anonymous id of the whole roster.
#[test]
fn participants_keep_the_rosters_anonymous_ids() {
    let mapping = AnonymousMapping::new(&ids(&["a", "b", "c"]));
    let mut c = Coordination::among(mapping, ids(&["c"]), Rules::default());
    assert_eq!(c.agents(), ids(&["c"]).as_slice());
    let accepted = answer(&mut c, "c", "only c");
    assert_eq!(accepted.label.as_str(), "agent3.1");
    let view = c.begin_round(&id("c")).unwrap();
    assert_eq!(view.vote_options, vec![accepted.anon.clone()]);
    assert!(matches!(
        c.submit_vote(&id("c"), "agent3", "mine").unwrap(),
        VoteOutcome::Accepted { .. }
    ));
    assert!(c.submit_vote(&id("c"), "agent1", "not here").is_err());
}

#[test]
fn every_vote_carries_the_tally_standing_with_it_and_the_winner_gets_the_same() {
    let mut c = coordination(&["a", "b", "c"]);
    answer(&mut c, "a", "answer a");
    answer(&mut c, "b", "a different answer b");
    let standing = |outcome: VoteOutcome| match outcome {
        VoteOutcome::Accepted { standing, .. } => standing
            .into_iter()
            .map(|count| (count.agent, count.votes, count.voters))
            .collect::<Vec<_>>(),
        VoteOutcome::Ignored { .. } => panic!("the vote was ignored"),
    };
    assert_eq!(
        standing(vote(&mut c, "c", "agent2")),
        [(id("a"), 0, vec![]), (id("b"), 1, ids(&["c"]))]
    );
    vote(&mut c, "b", "agent2");
    let last = standing(vote(&mut c, "a", "agent1"));
    assert_eq!(
        last,
        [(id("a"), 1, ids(&["a"])), (id("b"), 2, ids(&["b", "c"]))]
    );
    let decision = c.decide_winner(Candidates::AllAnswers).unwrap();
    let tally: Vec<_> = decision
        .tally
        .into_iter()
        .map(|count| (count.agent, count.votes, count.voters))
        .collect();
    assert_eq!(tally, last);
}

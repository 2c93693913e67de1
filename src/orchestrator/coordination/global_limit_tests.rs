//! Unit tests of `max_new_answers_global`: the team's answer budget.

use super::*;

fn id(name: &str) -> AgentId {
    AgentId::new(name)
}

fn capped(names: &[&str], global: u32, rules: Rules) -> Coordination {
    let agents = names.iter().map(|name| id(name)).collect();
    Coordination::new(
        agents,
        Rules {
            max_new_answers_global: Some(global),
            ..rules
        },
    )
}

fn answer(c: &mut Coordination, agent: &str, text: &str) -> Result<AcceptedAnswer, Rejection> {
    c.begin_round(&id(agent));
    let result = c.submit_answer(&id(agent), text);
    c.end_round(&id(agent));
    result
}

#[test]
fn the_global_limit_counts_every_agents_answers_together() {
    let mut c = capped(&["a", "b", "c"], 2, Rules::default());
    assert!(answer(&mut c, "a", "first from a").is_ok());
    assert!(answer(&mut c, "a", "second from a").is_ok());
    // a used the team's two answers: b, which never answered, may only vote.
    let view = c.begin_round(&id("b")).unwrap_or_else(|| unreachable!());
    assert!(view.vote_only);
    let rejection = c.submit_answer(&id("b"), "an answer from b").unwrap_err();
    assert_eq!(rejection.reason, EnforcementReason::AnswerLimit);
    assert!(
        rejection.message.starts_with(
            "The global maximum of 2 new answer(s) has been reached across all agents"
        ),
        "{}",
        rejection.message
    );
    assert!(matches!(
        c.submit_vote(&id("b"), "agent1", "best"),
        Ok(VoteOutcome::Accepted { .. })
    ));
}

#[test]
fn below_the_global_limit_agents_answer_freely() {
    let mut c = capped(&["a", "b"], 3, Rules::default());
    assert!(answer(&mut c, "a", "first from a").is_ok());
    assert!(answer(&mut c, "b", "first from b").is_ok());
    let view = c.begin_round(&id("a")).unwrap_or_else(|| unreachable!());
    assert!(!view.vote_only);
    assert!(c.submit_answer(&id("a"), "second from a").is_ok());
}

#[test]
fn deferred_voting_stops_waiting_once_the_global_limit_is_reached() {
    let rules = Rules {
        max_new_answers_per_agent: Some(1),
        defer_voting: true,
        ..Rules::default()
    };
    let mut c = capped(&["a", "b", "c"], 2, rules);
    assert!(answer(&mut c, "a", "first from a").is_ok());
    // a is out of answers and c has none: a waits for the others.
    assert!(!c.needs_round(&id("a")));
    assert!(answer(&mut c, "b", "first from b").is_ok());
    // The team's budget is spent: nobody waits for c's answer any more.
    assert!(c.needs_round(&id("a")));
    assert!(c.needs_round(&id("c")));
}

#[test]
fn where_nobody_votes_an_agent_kept_from_answering_is_done_once_it_votes() {
    let rules = Rules {
        skip_voting: true,
        ..Rules::default()
    };
    let mut c = capped(&["a", "b"], 1, rules);
    assert!(answer(&mut c, "a", "the only answer").is_ok());
    assert!(!c.is_settled());
    c.begin_round(&id("b"));
    assert!(c.submit_vote(&id("b"), "agent1", "best").is_ok());
    c.end_round(&id("b"));
    assert!(c.is_settled());
}

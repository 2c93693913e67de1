//! Unit tests of how an agent in a round learns of peers' answers: restart or injection.

use super::*;

fn id(name: &str) -> AgentId {
    AgentId::new(name)
}

/// a answers; b, whose round began before, must hear of it. Returns the state with b
/// in a round and one update pending.
fn b_working_when_a_answers() -> Coordination {
    let mut c = Coordination::new(vec![id("a"), id("b")], Rules::default());
    c.begin_round(&id("b")).unwrap();
    c.begin_round(&id("a")).unwrap();
    c.submit_answer(&id("a"), "answer from a").unwrap();
    c.end_round(&id("a"));
    c
}

#[test]
fn the_first_update_of_a_turn_is_a_restart() {
    let mut c = b_working_when_a_answers();
    assert_eq!(c.take_update(&id("b"), true), Update::Restart);
}

#[test]
fn a_later_update_is_injected_unless_the_round_is_nearly_out_of_time() {
    let mut c = b_working_when_a_answers();
    // b restarts for a's first answer and works again; a revises its answer.
    c.end_round(&id("b"));
    c.begin_round(&id("b")).unwrap();
    c.begin_round(&id("a")).unwrap();
    c.submit_answer(&id("a"), "a quite different second answer from a")
        .unwrap();
    c.end_round(&id("a"));

    let mut near = c.clone();
    assert_eq!(near.take_update(&id("b"), false), Update::Restart);

    match c.take_update(&id("b"), true) {
        Update::Inject(fresh) => {
            assert_eq!(fresh.len(), 1, "{fresh:?}");
            assert_eq!(fresh[0].answer.anon.as_str(), "agent1");
            assert!(fresh[0].revised, "a had answered before");
        }
        other => panic!("expected an injection, got {other:?}"),
    }
    assert_eq!(
        c.take_update(&id("b"), true),
        Update::None,
        "the injected answers count as seen"
    );
}

#[test]
fn an_agent_not_in_a_round_gets_no_update() {
    let mut c = b_working_when_a_answers();
    c.end_round(&id("b"));
    assert_eq!(c.take_update(&id("b"), true), Update::None);
    assert_eq!(c.take_update(&id("nobody"), true), Update::None);
}

/// `a` and `b` gated; peers' answers wait for a restart; `midstream` is
/// `allow_midstream_peer_updates_before_checklist_submit`. b has restarted once for a's
/// first answer and works again when a revises it.
fn deferred_and_gated(midstream: bool) -> Coordination {
    let mut rules = Rules::default();
    rules.fairness.defer_peer_updates_until_restart = true;
    rules.checklist = Some(ChecklistRules {
        first_answer: true,
        midstream_before_submit: midstream,
        ..ChecklistRules::for_agents(vec![id("a"), id("b")])
    });
    let mut c = Coordination::new(vec![id("a"), id("b")], rules);
    c.begin_round(&id("b")).unwrap();
    c.begin_round(&id("a")).unwrap();
    c.submit_answer(&id("a"), "answer from a").unwrap();
    c.end_round(&id("a"));
    c.end_round(&id("b"));
    c.begin_round(&id("b")).unwrap();
    c.begin_round(&id("a")).unwrap();
    c.submit_answer(&id("a"), "a quite different second answer from a")
        .unwrap();
    c.end_round(&id("a"));
    c
}

#[test]
fn peers_answers_reach_a_gated_agent_before_its_checklist_only_when_allowed() {
    let mut allowed = deferred_and_gated(true);
    let mut after_checklist = allowed.clone();
    assert!(matches!(
        allowed.take_update(&id("b"), true),
        Update::Inject(_)
    ));

    let flat = serde_json::json!({"E1": 9, "E2": 9, "E3": 9, "E4": 9});
    let reply = after_checklist.submit_checklist(&id("b"), &flat, &Report::Missing);
    assert!(matches!(reply, ChecklistReply::Accepted(_)), "{reply:?}");
    assert_eq!(
        after_checklist.take_update(&id("b"), true),
        Update::None,
        "after an accepted checklist the answers wait for the restart"
    );

    let mut deferred = deferred_and_gated(false);
    assert_eq!(deferred.take_update(&id("b"), true), Update::None);
}

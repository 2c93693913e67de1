//! `draft_approach` judged as MassGen judges it: every failing criterion covered, a
//! preserve list unless everything is fresh, at least one bold change.

use serde_json::json;

use super::*;

fn failed() -> Vec<String> {
    vec!["E2".into(), "E3".into()]
}

#[test]
fn a_plan_covering_every_failing_criterion_with_a_bold_change_is_accepted() {
    let arguments = json!({
        "vision": "A page visitors remember",
        "plan": {
            "E2": [{"plan": "rethink the cards", "sources": ["agent2.1"], "impact": "structural"}],
            "E3": ["tighten the copy"],
        },
        "preserve": {"E1": {"what": "the hero section", "source": "agent1.2"}},
    });
    let approach = evaluate(&arguments, &failed(), 4).unwrap();
    assert_eq!(approach.vision.as_deref(), Some("A page visitors remember"));
    assert_eq!(approach.plan.len(), 2);
    assert_eq!(approach.plan[0].impact, Impact::Structural);
    assert_eq!(approach.plan[1].impact, Impact::Incremental);
    assert_eq!(approach.preserve[0].what, "the hero section");
    let result = accepted_json(&approach);
    assert_eq!(result["valid"], json!(true));
    assert_eq!(result["task_plan"].as_array().unwrap().len(), 4);
    assert!(result["message"].as_str().unwrap().contains("`new_answer`"));
}

#[test]
fn missing_and_empty_criteria_are_named() {
    let arguments = json!({"plan": {"E2": []}, "preserve": {"E1": "hero"}});
    let error = evaluate(&arguments, &failed(), 4).unwrap_err();
    assert_eq!(
        error["error"],
        json!("Missing improvements for: E3; Empty improvements for: E2")
    );
    assert_eq!(error["missing_criteria"], json!(["E3"]));
}

#[test]
fn preserve_is_required_unless_every_change_is_fresh() {
    let bold = json!({"plan": "x", "sources": ["agent1.1"], "impact": "transformative"});
    let arguments = json!({"plan": {"E2": [bold.clone()], "E3": [bold]}});
    let error = evaluate(&arguments, &failed(), 4).unwrap_err();
    assert_eq!(
        error["error"],
        json!(
            "Preserve is required: specify what to protect from regression. Criteria \
             available: E1, E2, E3, E4"
        )
    );
    let fresh = json!({"plan": "x", "sources": ["fresh"], "impact": "transformative"});
    let arguments = json!({"plan": {"E2": [fresh.clone()], "E3": [fresh]}});
    assert!(evaluate(&arguments, &failed(), 4).is_ok());
    let arguments = json!({"plan": {"E2": ["a"], "E3": ["b"]}, "preserve": {"E9": "x"}});
    let error = evaluate(&arguments, &failed(), 4).unwrap_err();
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .starts_with("Preserve key E9 is not")
    );
    let arguments = json!({"plan": {"E2": ["a"], "E3": ["b"]}, "preserve": {"E1": {"what": " "}}});
    let error = evaluate(&arguments, &failed(), 4).unwrap_err();
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .contains("has empty 'what'")
    );
}

#[test]
fn an_all_incremental_plan_is_not_bold_enough() {
    let arguments = json!({"plan": {"E2": ["a"], "E3": ["b"]}, "preserve": {"E1": "hero"}});
    let error = evaluate(&arguments, &failed(), 4).unwrap_err();
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .starts_with("Improvement impact requirements not met (non-incremental combined: 0/1)")
    );
    let error = evaluate(&json!({"plan": ["a"]}), &failed(), 4).unwrap_err();
    assert_eq!(
        error["error"],
        json!("improvements must be a dict mapping criterion IDs to lists")
    );
    let legacy = json!({"improvements": {"E2": [{"plan": "a", "impact": "structural"}], "E3": ["b"]}, "preserve": {"E1": "hero"}});
    assert!(evaluate(&legacy, &failed(), 4).is_ok());
}

/// A solo gated agent with one answer, in its second round.
fn solo_with_an_answer(gap_report_required: bool) -> Coordination {
    let agent = AgentId::new("solo");
    let rules = crate::orchestrator::coordination::Rules {
        checklist: Some(crate::orchestrator::coordination::ChecklistRules {
            gap_report_required,
            ..crate::orchestrator::coordination::ChecklistRules::for_agents(vec![agent.clone()])
        }),
        ..Default::default()
    };
    let mut c = Coordination::new(vec![agent.clone()], rules);
    c.begin_round(&agent).unwrap();
    c.submit_answer(&agent, "Paris.").unwrap();
    c.end_round(&agent);
    c.begin_round(&agent).unwrap();
    c
}

#[test]
fn draft_approach_follows_only_an_accepted_new_answer_verdict() {
    use crate::orchestrator::coordination::{ChecklistReply, Report};
    let agent = AgentId::new("solo");
    let fresh = json!([{"plan": "x", "sources": ["fresh"], "impact": "structural"}]);
    let plan = json!({"plan": {"E2": fresh, "E3": fresh}});
    let mut c = solo_with_an_answer(false);
    let ApproachReply::Rejected(before) = c.draft_approach(&agent, &plan) else {
        panic!("accepted before any checklist");
    };
    assert!(
        before["error"]
            .as_str()
            .unwrap()
            .contains("was a validation error")
    );

    let failing = json!({"E1": 9, "E2": 2, "E3": 2, "E4": 9});
    let reply = c.submit_checklist(&agent, &failing, &Report::Missing);
    assert!(matches!(reply, ChecklistReply::Accepted(_)), "{reply:?}");
    let approach = match c.draft_approach(&agent, &plan) {
        ApproachReply::Accepted(approach) => approach,
        ApproachReply::Rejected(payload) => panic!("refused after a new_answer verdict: {payload}"),
    };
    assert_eq!(approach.plan[0].criterion, "E2");

    let mut passing = solo_with_an_answer(false);
    let all_pass = json!({"E1": 9, "E2": 9, "E3": 9, "E4": 9});
    passing.submit_checklist(&agent, &all_pass, &Report::Missing);
    let ApproachReply::Rejected(after_vote) = passing.draft_approach(&agent, &plan) else {
        panic!("accepted after a vote verdict");
    };
    assert!(
        after_vote["error"]
            .as_str()
            .unwrap()
            .contains("iterate verdict (new_answer)")
    );
}

#[test]
fn a_required_gap_report_must_come_with_the_checklist() {
    use crate::orchestrator::coordination::{ChecklistReply, Report};
    let agent = AgentId::new("solo");
    let scores = json!({"E1": 9, "E2": 9, "E3": 9, "E4": 9});
    let mut c = solo_with_an_answer(true);
    let ChecklistReply::Invalid { invalid, .. } =
        c.submit_checklist(&agent, &scores, &Report::Missing)
    else {
        panic!("accepted without a report");
    };
    assert_eq!(invalid.code, "diagnostic_report_invalid");
    assert!(
        invalid
            .explanation
            .contains("Diagnostic report is required")
    );
    let report = Report::Text("## Failure patterns\n".repeat(10));
    assert!(matches!(
        c.submit_checklist(&agent, &scores, &report),
        ChecklistReply::Accepted(_)
    ));

    let mut optional = solo_with_an_answer(false);
    assert!(matches!(
        optional.submit_checklist(&agent, &scores, &Report::Missing),
        ChecklistReply::Accepted(_)
    ));
}

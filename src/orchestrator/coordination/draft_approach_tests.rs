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
    assert!(error["error"].as_str().unwrap().starts_with("Preserve key E9 is not"));
    let arguments = json!({"plan": {"E2": ["a"], "E3": ["b"]}, "preserve": {"E1": {"what": " "}}});
    let error = evaluate(&arguments, &failed(), 4).unwrap_err();
    assert!(error["error"].as_str().unwrap().contains("has empty 'what'"));
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

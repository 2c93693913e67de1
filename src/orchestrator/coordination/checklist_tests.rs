//! The gate's numbers and verdicts against MassGen 0.1.97's rules (values worked out with
//! its `ChecklistGate.from_budget` and `evaluate_checklist_submission`).

use serde_json::json;

use super::*;

fn gate(threshold: u32, max: u32, used: usize, criteria: usize) -> (u32, i64) {
    let gate = Gate::from_budget(threshold, Some(max), used, criteria);
    (gate.required, gate.cutoff)
}

#[test]
fn the_gate_follows_massgens_budget_rules() {
    // (voting_threshold, max answers, answers used, criteria) -> (required, cutoff)
    assert_eq!(gate(5, 5, 1, 4), (3, 8));
    assert_eq!(gate(2, 5, 1, 4), (4, 9));
    assert_eq!(gate(5, 3, 1, 4), (3, 6));
    assert_eq!(gate(10, 10, 1, 4), (2, 5));
    assert_eq!(gate(0, 5, 1, 4), (4, 10));
    assert_eq!(gate(5, 10, 6, 4), (3, 7));
    assert_eq!(gate(3, 5, 4, 6), (4, 7));
    assert_eq!(gate(8, 5, 4, 5), (3, 5));
    // Python's round sends 0.5 to 0: all ten criteria stay required.
    assert_eq!(gate(2, 5, 1, 10).0, 10);
    // No answer limit: MassGen's budget of five.
    assert_eq!(
        Gate::from_budget(5, None, 1, 4),
        Gate::from_budget(5, Some(5), 1, 4)
    );
}

fn submission(labels: &[String], has_own_answer: bool) -> Submission<'_> {
    Submission {
        criteria: 4,
        gate: Gate {
            required: 3,
            cutoff: 8,
        },
        has_own_answer,
        labels,
    }
}

fn scores(values: [i64; 4]) -> Value {
    json!({
        "E1": {"score": values[0], "reasoning": "r"},
        "E2": values[1],
        "E3": {"score": values[2]},
        "E4": {"score": values[3], "reasoning": "r"},
    })
}

#[test]
fn enough_passing_criteria_allow_the_vote() {
    let labels = vec!["agent1.1".to_string()];
    let result = judge(&scores([8, 9, 7, 10]), &submission(&labels, true)).unwrap();
    assert_eq!(result.verdict, ChecklistVerdict::Vote);
    assert_eq!((result.passed, result.required), (3, 3));
    assert_eq!(
        result.explanation,
        "3 of 4 items passed (required: 3). Verdict: vote."
    );
    assert!(!result.scores[2].passed);
}

#[test]
fn too_few_passing_criteria_ask_for_a_new_answer_naming_the_gaps() {
    let labels = vec!["agent1.1".to_string()];
    let result = judge(&scores([8, 6, 7, 10]), &submission(&labels, true)).unwrap();
    assert_eq!(result.verdict, ChecklistVerdict::NewAnswer);
    assert!(
        result
            .explanation
            .starts_with("2 of 4 items passed (required: 3). Verdict: new_answer. Items that need improvement: E2, E3."),
        "{}",
        result.explanation
    );
    let payload = accepted_json(&result);
    assert_eq!(payload["failed_criteria"], json!(["E2", "E3"]));
    assert_eq!(payload["verdict"], "new_answer");
}

#[test]
fn before_the_agents_own_answer_the_verdict_is_always_new_answer() {
    let result = judge(&json!({"E1": 10}), &submission(&[], false)).unwrap();
    assert_eq!(result.verdict, ChecklistVerdict::NewAnswer);
    assert!(result.explanation.starts_with("First answer"));
}

#[test]
fn per_agent_scores_judge_the_strongest_answer_ties_to_the_smallest_label() {
    let labels = vec!["agent1.2".to_string(), "agent2.1".to_string()];
    let payload = json!({
        "agent2.1": {"E1": 9, "E2": 9, "E3": 9, "E4": 3},
        "agent1.2": {"E1": 6, "E2": 8, "E3": 8, "E4": 8},
    });
    let result = judge(&payload, &submission(&labels, true)).unwrap();
    assert_eq!(result.best_answer.as_deref(), Some("agent1.2"));
    assert_eq!(result.verdict, ChecklistVerdict::Vote);
    assert_eq!(accepted_json(&result)["best_agent"], "agent1.2");
}

#[test]
fn incomplete_or_misshapen_submissions_are_sent_back() {
    let labels = vec!["agent1.1".to_string(), "agent2.1".to_string()];
    let code = |payload: Value| {
        judge(&payload, &submission(&labels, true))
            .unwrap_err()
            .code
    };
    assert_eq!(code(json!("E1: 9")), "scores_type_invalid");
    assert_eq!(code(scores([9, 9, 9, 9])), "flat_scores_disallowed");
    assert_eq!(
        code(json!({"agent1.1": {"E1": 9, "E2": 9, "E3": 9, "E4": 9}})),
        "missing_agent_scores"
    );
    assert_eq!(
        code(json!({"agent1.1": {"E1": 9}, "agent2.1": {"E1": 9, "E2": 9, "E3": 9, "E4": 9}})),
        "incomplete_agent_criteria"
    );
    let one = vec!["agent1.1".to_string()];
    let missing = judge(&json!({"E1": 9, "T2": 9}), &submission(&one, true)).unwrap_err();
    assert_eq!(missing.code, "missing_criteria_scores");
    assert!(missing.explanation.contains("missing scores for E3, E4"));
    assert_eq!(missing.to_json(3)["status"], "validation_error");
}

#[test]
fn scores_read_as_massgen_reads_them() {
    assert_eq!(score_of(Some(&json!(7.9))), 7);
    assert_eq!(score_of(Some(&json!({"score": 6}))), 6);
    assert_eq!(score_of(Some(&json!(true))), 0);
    assert_eq!(score_of(Some(&json!("9"))), 0);
    assert_eq!(score_of(None), 0);
}

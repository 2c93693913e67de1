//! The persona request per diversity mode, the reading of replies and the stock personas.

use super::*;

fn ids() -> Vec<String> {
    vec!["a".into(), "b".into()]
}

fn config(mode: DiversityMode) -> PersonaGeneratorConfig {
    PersonaGeneratorConfig {
        diversity_mode: mode,
        ..PersonaGeneratorConfig::default()
    }
}

#[test]
fn each_diversity_mode_asks_for_its_own_kind_of_difference() {
    let agents = vec![
        ("a".to_string(), Some("Be terse.".to_string())),
        ("b".into(), None),
    ];
    let perspective = request(&config(DiversityMode::Perspective), "Plan a trip", &agents);
    let implementation = request(
        &config(DiversityMode::Implementation),
        "Plan a trip",
        &agents,
    );
    let methodology = request(&config(DiversityMode::Methodology), "Plan a trip", &agents);
    assert!(perspective.contains("different PERSPECTIVE"));
    assert!(implementation.contains("different SOLUTION APPROACH"));
    assert!(methodology.contains("different WORKING APPROACH"));
    for prompt in [&perspective, &implementation, &methodology] {
        assert!(prompt.contains("## Task\nPlan a trip"));
        assert!(prompt.contains("- a: has its own instruction: Be terse."));
        assert!(prompt.contains("- b: no instruction of its own"));
        assert!(prompt.contains("Agent IDs: [\"a\",\"b\"]"));
        assert!(!prompt.contains("Additional guidelines"));
    }
    let guided = PersonaGeneratorConfig {
        guidelines: Some("Name a famous chef.".into()),
        ..PersonaGeneratorConfig::default()
    };
    assert!(
        request(&guided, "x", &agents).contains("## Additional guidelines\nName a famous chef.")
    );
}

#[test]
fn a_reply_is_read_whole_fenced_or_from_the_personas_object() {
    let body = r#"{"personas": {"a": {"persona_text": "Value speed.", "attributes": {"approach_summary": "speed first"}}, "b": {"persona_text": "Value care."}}}"#;
    for reply in [
        body.to_string(),
        format!("Here:\n```json\n{body}\n```\nDone."),
        format!("Sure! {body} Hope that helps."),
    ] {
        let personas = parse_reply(&reply, &ids()).unwrap_or_default();
        assert_eq!(personas.len(), 2, "{reply}");
        assert_eq!(personas[0].1.text, "Value speed.");
        assert_eq!(personas[0].1.summary.as_deref(), Some("speed first"));
        assert_eq!(personas[1].1.text, "Value care.");
        assert_eq!(personas[1].1.summary, None);
    }
}

#[test]
fn an_agent_the_reply_leaves_out_gets_massgens_default_and_junk_is_no_reply() {
    let personas =
        parse_reply(r#"{"personas": {"a": {"persona_text": "X"}}}"#, &ids()).unwrap_or_default();
    assert_eq!(personas[1].1.text, MISSING_PERSONA);
    assert_eq!(parse_reply("I cannot help with that.", &ids()), None);
    assert_eq!(parse_reply("{\"other\": 1}", &ids()), None);
}

#[test]
fn the_stock_personas_cycle_and_methodology_has_its_own() {
    let five: Vec<String> = (0..6).map(|n| format!("agent{n}")).collect();
    let stock = fallback(DiversityMode::Perspective, &five);
    assert_eq!(stock[0].1.summary.as_deref(), Some("analytical"));
    assert_eq!(stock[5].1, stock[0].1);
    let methodology = fallback(DiversityMode::Methodology, &ids());
    assert_eq!(methodology[0].1.summary.as_deref(), Some("top-down"));
    assert_eq!(methodology[1].1.summary.as_deref(), Some("risk-first"));
}

//! What a council leaves behind: the plain and `--automation` lines, `coordination_events.json`,
//! `status.json` and `rankings.json`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

#[tokio::test(start_paused = true)]
async fn the_council_reaches_the_logs_status_and_the_plain_and_automation_displays() {
    let yaml = council(
        &[
            member("a", "4", ""),
            member("b", "4", ""),
            member("c", "5", ", rank_garbage: true"),
        ],
        "",
    );
    let mut scenario = Scenario::start(&yaml);
    let events = scenario.handle.run_turn("What is 2+2?").await;
    let (plain, automation) = crate::support::displays(&events);
    assert!(plain.contains("── Council: ranking ──"), "{plain}");
    assert_eq!(plain.matches("⚖ ranks ").count(), 2, "{plain}");
    assert!(plain.contains("⚖ ranked nothing usable"), "{plain}");
    assert!(plain.contains("⚖ Aggregate (Borda): "), "{plain}");
    assert!(plain.contains("🪑 Chairman:"), "{plain}");
    // The footer reaches the streamed answer too.
    assert!(
        plain.contains("— Council: 2 of 3 members ranked"),
        "{plain}"
    );
    for line in [
        "STAGE: answering",
        "STAGE: ranking",
        "STAGE: synthesis",
        "RANKING: a: b",
        "RANKING_MISSING: c: ",
        "AGGREGATE: ",
        "CHAIRMAN: ",
    ] {
        assert!(automation.contains(line), "{line}\n{automation}");
    }
    // The derived files are written once the turn is: the next op runs after that.
    crate::support::list_plans(&mut scenario).await;
    let attempt = crate::support::attempt_dir(scenario.dir.path(), 1);
    let coordination = std::fs::read_to_string(attempt.join("coordination_events.json")).unwrap();
    for kind in [
        "stage_started",
        "ranking_submitted",
        "ranking_missing",
        "rankings_aggregated",
        "chairman_chosen",
    ] {
        assert!(coordination.contains(kind), "{kind}");
    }
    let status: serde_json::Value =
        serde_json::from_slice(&std::fs::read(attempt.join("status.json")).unwrap()).unwrap();
    assert_eq!(status["coordination"]["stage"], "synthesis", "{status}");
    assert_eq!(status["agents"]["c"]["stage"], "ranking", "{status}");
    assert!(attempt.join("rankings.json").exists());
}

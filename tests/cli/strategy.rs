//! `--strategy`: council and debate from the command line over a config that votes, with
//! their `--automation` lines; an unknown strategy is refused.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{RunArgs, assert_code, assert_stderr_contains};
use crate::support::sandbox::{Sandbox, text};

const PAIR: &str = "\
agents:
  - id: alpha
    backend: {type: scripted, tokens_per_second: 0, answers: [\"4\"]}
  - id: beta
    backend: {type: scripted, tokens_per_second: 0, answers: [\"5\"]}
";

/// The `--automation` output of one turn over [`PAIR`] with `--strategy <strategy>`.
fn automation_with(strategy: &str) -> String {
    let sandbox = Sandbox::new();
    sandbox.write("run.yaml", PAIR);
    let output = sandbox.run(&[
        "--automation",
        "--config",
        "run.yaml",
        "--strategy",
        strategy,
        "What is 2+2?",
    ]);
    assert_code(&output, 0);
    text(&output.stdout)
}

#[test]
fn strategy_council_runs_a_council_and_prints_its_lines() {
    let stdout = automation_with("council");
    for line in [
        "STAGE: answering",
        "STAGE: ranking",
        "RANKING: alpha: beta (tool)",
        "RANKING: beta: alpha (tool)",
        "AGGREGATE: alpha 0, beta 0",
        "CHAIRMAN: alpha (top_ranked)",
        "STAGE: synthesis",
        "WINNER: alpha",
        "ANSWER_PREVIEW: Response A ranked first. 4",
    ] {
        assert!(stdout.contains(line), "{line}\n{stdout}");
    }
}

#[test]
fn strategy_debate_runs_a_debate_and_prints_its_critiques() {
    let stdout = automation_with("debate");
    for line in [
        "STAGE: answering",
        "STAGE: critique 1",
        "CRITIQUE: alpha -> beta (round 1)",
        "CRITIQUE: beta -> alpha (round 1)",
        "STAGE: revision 1",
        "STAGE: critique 2",
        "STAGE: revision 2",
        "STAGE: synthesis",
        "CHAIRMAN: alpha",
    ] {
        assert!(stdout.contains(line), "{line}\n{stdout}");
    }
}

#[test]
fn an_unknown_strategy_is_refused() {
    let sandbox = Sandbox::new();
    sandbox.write("run.yaml", PAIR);
    let output = sandbox.run(&["--config", "run.yaml", "--strategy", "majority", "q"]);
    assert_ne!(output.status.code(), Some(0));
    assert_stderr_contains(
        &output,
        "`majority` is not a strategy; use vote, council or debate",
    );
}

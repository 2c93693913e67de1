//! `--strategy`: council from the command line over a config that votes, with its
//! `--automation` lines; debate is refused as not built yet, never silently replaced.

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

#[test]
fn strategy_council_runs_a_council_and_prints_its_lines() {
    let sandbox = Sandbox::new();
    sandbox.write("run.yaml", PAIR);
    let output = sandbox.run(&[
        "--automation",
        "--config",
        "run.yaml",
        "--strategy",
        "council",
        "What is 2+2?",
    ]);
    assert_code(&output, 0);
    let stdout = text(&output.stdout);
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
fn strategy_debate_is_refused_as_not_built_yet() {
    let sandbox = Sandbox::new();
    sandbox.write("run.yaml", PAIR);
    let output = sandbox.run(&["--config", "run.yaml", "--strategy", "debate", "q"]);
    assert_ne!(output.status.code(), Some(0));
    assert_stderr_contains(&output, "the debate strategy is not built yet");
    let output = sandbox.run(&["--config", "run.yaml", "--strategy", "majority", "q"]);
    assert_stderr_contains(&output, "`majority` is not a strategy; use vote or council");
}

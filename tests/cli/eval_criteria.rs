//! `--eval-criteria FILE`: checklist criteria from a JSON file replace the config's, are
//! announced with their source, and a bad file stops the run with the file and the fault
//! named (the config error's exit code).

use crate::common::{RunArgs, assert_code, assert_stderr_contains, assert_stdout_contains};
use crate::support::sandbox::Sandbox;

const GATED: &str = "\
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answers: [\"Paris.\", \"Paris, on the Seine.\"]
    checklist:
      - {E1: 9, E2: 9}
orchestrator:
  voting_sensitivity: checklist_gated
  coordination:
    checklist_criteria_inline:
      - {text: Inline criterion}
";

#[test]
fn a_criteria_file_replaces_the_inline_criteria_and_is_announced() {
    let sandbox = Sandbox::new();
    sandbox.write("gated.yaml", GATED);
    sandbox.write(
        "criteria.json",
        r#"{"criteria": [{"text": "Names the river", "category": "primary"},
                        {"name": "Is one sentence"}]}"#,
    );
    let output = sandbox.run(&[
        "--config",
        "gated.yaml",
        "--eval-criteria",
        "criteria.json",
        "--display",
        "plain",
        "Capital of France?",
    ]);
    assert_code(&output, 0);
    assert_stdout_contains(
        &output,
        "checklist criteria (file): E1 Names the river; E2 Is one sentence",
    );
}

#[test]
fn a_bad_criteria_file_is_named_with_its_fault() {
    let sandbox = Sandbox::new();
    sandbox.write("gated.yaml", GATED);
    sandbox.write("broken.json", "[{\"text\": ");
    sandbox.write(
        "textless.json",
        r#"[{"text": "ok"}, {"category": "primary"}]"#,
    );
    for (file, fault) in [
        ("broken.json", "is not valid JSON"),
        ("textless.json", "criterion 2 has no `text`"),
        ("absent.json", "cannot be read"),
    ] {
        let output = sandbox.run(&[
            "--config",
            "gated.yaml",
            "--eval-criteria",
            file,
            "--display",
            "plain",
            "q",
        ]);
        assert_code(&output, 1);
        assert_stderr_contains(&output, &format!("--eval-criteria file {file}: {fault}"));
    }
}

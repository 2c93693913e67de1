//! Tool approvals in a headless run through the file handshake: `APPROVALS:` names the
//! directory, each ask prints `APPROVAL_REQUEST:` and `APPROVAL_ANSWER_FILE:`, the test
//! answers in that `resp_<id>.json` (one approved, one denied), each decision prints
//! `APPROVAL:`, and the turn's `approvals.jsonl` and `massgen logs approvals` record both.

use std::io::BufRead;
use std::path::PathBuf;

use serde_json::Value;

use crate::common::{RunArgs, read_until_containing, spawn_reading};
use crate::support::sandbox::{Sandbox, text};

/// One agent that asks (in file mode) before each of two commands.
const ASKING: &str = "\
agents:
  - id: a
    backend:
      type: scripted
      tokens_per_second: 0
      cwd: workspace
      enable_mcp_command_line: true
      answers: [\"done\"]
      tool_calls:
        - {name: mcp__command_line__execute_command, arguments: {command: \"echo first\"}}
        - {name: mcp__command_line__execute_command, arguments: {command: \"echo second\"}}
      permissions:
        approval_mode: file
        approval_timeout: 60
        rules: {ask: [\"command(*)\"]}
";

/// Reads stdout lines until one starts with `prefix`; returns what follows it.
fn read_until(stdout: &mut impl BufRead, prefix: &str, seen: &mut String) -> String {
    loop {
        let line = read_until_containing(stdout, prefix, seen);
        if let Some(rest) = line.strip_prefix(prefix) {
            return rest.trim_end().to_string();
        }
    }
}

#[test]
fn file_answers_decide_the_calls_and_the_ledger_records_them() {
    let sandbox = Sandbox::new();
    sandbox.write("run.yaml", ASKING);
    let (mut child, mut stdout) =
        spawn_reading(&sandbox, &["--automation", "--config", "run.yaml", "q"]);
    let mut seen = String::new();
    let dir = PathBuf::from(read_until(&mut stdout, "APPROVALS: ", &mut seen));
    assert_eq!(dir, sandbox.root.join(".massgen/approvals"));
    let mut answered = Vec::new();
    for (expected, answer) in [
        ("echo first", r#"{"approved": true, "scope": "once"}"#),
        (
            "echo second",
            r#"{"approved": false, "feedback": "not that one"}"#,
        ),
    ] {
        let request = read_until(&mut stdout, "APPROVAL_REQUEST: ", &mut seen);
        let (id, about) = request.split_once(' ').unwrap();
        assert!(
            about.starts_with("a: ") && about.contains(expected),
            "{request}"
        );
        let answer_file = read_until(&mut stdout, "APPROVAL_ANSWER_FILE: ", &mut seen);
        let (same_id, path) = answer_file.split_once(' ').unwrap();
        assert_eq!(same_id, id);
        let path = PathBuf::from(path);
        assert!(path.starts_with(dir.join("a")), "{seen}");
        std::fs::write(&path, answer).unwrap();
        answered.push(id.to_string());
    }
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    let status = child.wait().unwrap();
    let all = format!("{seen}{rest}");
    assert_eq!(status.code(), Some(0), "{all}");
    assert!(all.contains("APPROVAL: a allowed by human: "), "{all}");
    assert!(all.contains("APPROVAL: a denied by human: "), "{all}");

    let ledger = sandbox
        .run_log_dir()
        .join("turn_1/attempt_1/approvals.jsonl");
    let lines: Vec<Value> = std::fs::read_to_string(&ledger)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let asked: Vec<&Value> = lines.iter().filter(|line| line["asked"] == true).collect();
    assert_eq!(asked.len(), 2, "{lines:?}");
    for (line, (id, decision)) in asked
        .iter()
        .zip([(&answered[0], "allow"), (&answered[1], "deny")])
    {
        assert_eq!(line["request_id"].as_str(), Some(id.as_str()));
        assert_eq!(line["decision"], decision);
        assert_eq!(line["operator"], "human");
        assert_eq!(line["source"], "provider");
        assert_eq!(line["agent_id"], "a");
    }
    let feedback = asked[1]["feedback"].as_str().unwrap_or_default();
    assert!(feedback.contains("not that one"), "{feedback}");

    let listed = sandbox.run(&["logs", "approvals", "--json"]);
    assert_eq!(listed.status.code(), Some(0));
    let listed: Vec<Value> = text(&listed.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(listed.len(), lines.len());
    assert_eq!(listed[0]["turn"], 1);
}

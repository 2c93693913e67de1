//! `massgen logs approvals`: every tool-approval decision a run's turns recorded in their
//! `approvals.jsonl` ledgers, as a table or as JSON lines.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::find;
use crate::protocol::Verdict;
use crate::session::{LEDGER_FILE, LedgerLine, read_ledger};

/// Characters of a call's preview and of the rule or message shown in the table.
const PREVIEW_WIDTH: usize = 40;

/// The attempt directories `dir` covers, in order: all of a run's turns, one turn's
/// attempts, or one attempt.
fn attempts_of(dir: &Path) -> Vec<PathBuf> {
    let name = find::name_of(dir);
    if name.starts_with("attempt_") {
        vec![dir.to_path_buf()]
    } else if name.starts_with("turn_") {
        find::attempts(dir)
    } else {
        find::turns(dir)
            .iter()
            .flat_map(|turn| find::attempts(turn))
            .collect()
    }
}

/// The turn number of an attempt directory (`…/turn_N/attempt_M`), 0 when unnamed.
fn turn_of(attempt: &Path) -> u64 {
    attempt
        .parent()
        .map(find::name_of)
        .and_then(|name| name.strip_prefix("turn_").and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

/// Every ledger line under `dir` with its turn number.
fn ledger_lines(dir: &Path) -> Result<Vec<(u64, LedgerLine)>, String> {
    let mut found = Vec::new();
    for attempt in attempts_of(dir) {
        let path = attempt.join(LEDGER_FILE);
        let lines = read_ledger(&path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        let turn = turn_of(&attempt);
        found.extend(lines.into_iter().map(|line| (turn, line)));
    }
    Ok(found)
}

pub fn run(dir: &Path, as_json: bool) -> Result<String, String> {
    let lines = ledger_lines(dir)?;
    if lines.is_empty() {
        return Ok(format!("no approvals recorded in {}\n", dir.display()));
    }
    let mut out = String::new();
    if as_json {
        for (turn, line) in &lines {
            let mut value = serde_json::to_value(line).map_err(|error| error.to_string())?;
            value["turn"] = (*turn).into();
            let _ = writeln!(out, "{value}");
        }
        return Ok(out);
    }
    let _ = writeln!(
        out,
        "{:<8} {:>4} {:<12} {:<6} {:<9} {:<7} {:<PREVIEW_WIDTH$} rule/message",
        "time", "turn", "agent", "", "by", "scope", "call"
    );
    for (turn, line) in &lines {
        let time = line
            .at
            .to_zoned(crate::local_time::zone())
            .strftime("%H:%M:%S")
            .to_string();
        let decision = match line.decision {
            Verdict::Allow => "allow",
            Verdict::Deny => "deny",
        };
        let why = line
            .feedback
            .as_deref()
            .or(line.rule.as_deref())
            .unwrap_or("");
        let _ = writeln!(
            out,
            "{time:<8} {turn:>4} {:<12} {decision:<6} {:<9} {:<7} {:<PREVIEW_WIDTH$} {}",
            shown(&line.agent_id, 12),
            line.operator,
            line.scope.as_str(),
            shown(&line.args_preview, PREVIEW_WIDTH),
            shown(why, PREVIEW_WIDTH)
        );
    }
    let denied = lines
        .iter()
        .filter(|(_, line)| line.decision == Verdict::Deny)
        .count();
    let _ = writeln!(
        out,
        "\n{}, {denied} denied",
        crate::text::plural(lines.len(), "decision")
    );
    Ok(out)
}

/// `text` on one line, escaped for the terminal, cut to `width` characters.
fn shown(text: &str, width: usize) -> String {
    let flat = crate::sanitize::sanitize_for_terminal(text)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if flat.chars().count() > width {
        let cut: String = flat.chars().take(width.saturating_sub(1)).collect();
        format!("{cut}…")
    } else {
        flat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ledger_line(seq: u64, decision: &str, operator: &str) -> String {
        serde_json::json!({
            "seq": seq, "timestamp": 1.7e9, "run_id": "log_x", "agent_id": "a",
            "tool": "execute_command", "normalized_pattern": "command(ls)", "risk": "low",
            "reason": "rule", "args_preview": "$ ls -la", "decision": decision,
            "operator": operator, "scope": "once", "source": "provider",
            "feedback": (decision == "deny").then_some("not now"),
            "call_id": "c1", "action": "command", "target": "ls -la", "asked": true,
            "request_id": "req_1", "at": "2023-11-14T22:13:20Z"
        })
        .to_string()
    }

    fn run_with_two_turns() -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        let run = root.path().join("log_x");
        for (turn, lines) in [
            ("turn_1", vec![ledger_line(0, "allow", "human")]),
            ("turn_2", vec![ledger_line(0, "deny", "policy")]),
        ] {
            let attempt = run.join(turn).join("attempt_1");
            std::fs::create_dir_all(&attempt).unwrap();
            std::fs::write(attempt.join(LEDGER_FILE), lines.join("\n") + "\n").unwrap();
        }
        root
    }

    #[test]
    fn every_turn_s_decisions_are_listed_in_order() {
        let root = run_with_two_turns();
        let table = run(&root.path().join("log_x"), false).unwrap();
        let rows: Vec<&str> = table.lines().collect();
        assert!(
            rows[1].contains(" 1 a ") && rows[1].contains("allow  human"),
            "{table}"
        );
        assert!(
            rows[2].contains(" 2 a ") && rows[2].contains("deny   policy"),
            "{table}"
        );
        assert!(rows[2].ends_with("not now"), "{table}");
        assert!(table.ends_with("2 decisions, 1 denied\n"), "{table}");
    }

    #[test]
    fn json_lines_carry_the_turn_and_a_turn_dir_limits_them() {
        let root = run_with_two_turns();
        let text = run(&root.path().join("log_x").join("turn_2"), true).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0]["turn"], 2);
        assert_eq!(lines[0]["decision"], "deny");
        assert_eq!(lines[0]["request_id"], "req_1");
    }

    #[test]
    fn a_run_without_a_ledger_says_so() {
        let root = tempfile::tempdir().unwrap();
        let attempt = root.path().join("log_y").join("turn_1").join("attempt_1");
        std::fs::create_dir_all(&attempt).unwrap();
        let text = run(&root.path().join("log_y"), false).unwrap();
        assert!(text.starts_with("no approvals recorded"), "{text}");
    }
}

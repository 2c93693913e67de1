//! The approval ledger of one turn attempt, `approvals.jsonl`: one JSON line per audited
//! permission decision, with MassGen's ledger fields and ours, flushed line by line.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::protocol::{Action, ApprovalRecord, Decider, GrantScope, Risk, Verdict};

/// The ledger's file name in a turn's attempt directory.
pub const LEDGER_FILE: &str = "approvals.jsonl";

/// One ledger line. The first fields are MassGen's (`permissions/ledger.py`), in its order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LedgerLine {
    /// From 0 in each file.
    pub seq: u64,
    /// Unix seconds of the decision.
    pub timestamp: f64,
    /// The run's log directory name (`log_<ts>`).
    pub run_id: String,
    pub agent_id: String,
    pub tool: String,
    pub normalized_pattern: String,
    pub risk: Risk,
    pub reason: String,
    pub args_preview: String,
    pub decision: Verdict,
    /// MassGen's operator name of the decider (`human`, `policy`, `cache`, …).
    pub operator: String,
    pub scope: GrantScope,
    /// `rule`, `hardline`, `risk`, `provider` (someone or something asked), `cache` or
    /// `budget`.
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
    pub call_id: String,
    pub action: Action,
    pub target: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    pub asked: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waited_ms: Option<u64>,
    /// The decision's time, RFC 3339.
    pub at: Timestamp,
}

impl LedgerLine {
    pub fn new(seq: u64, run_id: &str, at: Timestamp, record: &ApprovalRecord) -> Self {
        Self {
            seq,
            timestamp: at.as_duration().as_secs_f64(),
            run_id: run_id.to_string(),
            agent_id: record.agent.as_str().to_string(),
            tool: record.tool.clone(),
            normalized_pattern: record.pattern.clone(),
            risk: record.risk,
            reason: record.reason.clone(),
            args_preview: record.preview.clone(),
            decision: record.verdict,
            operator: record.decider.operator().to_string(),
            scope: record.scope,
            source: source_of(record.decider).to_string(),
            feedback: record.message.clone(),
            call_id: record.call_id.clone(),
            action: record.action,
            target: record.target.clone(),
            rule: record.rule.clone(),
            asked: record.asked,
            request_id: record.request_id.clone(),
            waited_ms: record.waited_ms,
            at,
        }
    }
}

/// MassGen's ledger `source`: what kind of check made the decision.
pub fn source_of(decider: Decider) -> &'static str {
    match decider {
        Decider::Rule => "rule",
        Decider::Hardline => "hardline",
        Decider::Risk => "risk",
        Decider::Human | Decider::Policy | Decider::Timeout => "provider",
        Decider::Grant => "cache",
        Decider::Budget => "budget",
    }
}

/// The ledger of one attempt directory; the file is made at the first decision.
pub struct ApprovalLedger {
    path: PathBuf,
    run_id: String,
    seq: u64,
    file: Option<File>,
}

impl ApprovalLedger {
    /// The ledger in `attempt_dir` (`…/log_<ts>/turn_N/attempt_M`), whose run is named
    /// after `log_<ts>`.
    pub fn new(attempt_dir: &Path) -> Self {
        let run_id = attempt_dir
            .ancestors()
            .nth(2)
            .and_then(Path::file_name)
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        Self {
            path: attempt_dir.join(LEDGER_FILE),
            run_id,
            seq: 0,
            file: None,
        }
    }

    /// Appends `record` decided at `at`, unless its agent does not audit.
    pub fn record(&mut self, at: Timestamp, record: &ApprovalRecord) -> io::Result<()> {
        if !record.audit {
            return Ok(());
        }
        if self.file.is_none() {
            // Numbering goes on after lines already there (a reopened attempt).
            self.seq = count_lines(&self.path);
            self.file = Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.path)?,
            );
        }
        let line = LedgerLine::new(self.seq, &self.run_id, at, record);
        let mut text = serde_json::to_string(&line).map_err(io::Error::other)?;
        text.push('\n');
        if let Some(file) = &mut self.file {
            file.write_all(text.as_bytes())?;
            file.flush()?;
        }
        self.seq += 1;
        Ok(())
    }
}

fn count_lines(path: &Path) -> u64 {
    File::open(path).map_or(0, |file| {
        BufReader::new(file).lines().map_while(Result::ok).count() as u64
    })
}

/// Every line of a ledger file, skipping lines that are not ledger lines; a missing file
/// has none.
pub fn read_ledger(path: &Path) -> io::Result<Vec<LedgerLine>> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    let mut lines = Vec::new();
    for line in BufReader::new(file).lines() {
        if let Ok(parsed) = serde_json::from_str(&line?) {
            lines.push(parsed);
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::AgentId;

    fn record(decider: Decider, verdict: Verdict) -> ApprovalRecord {
        ApprovalRecord {
            agent: AgentId::new("a"),
            call_id: "call_1".into(),
            tool: "execute_command".into(),
            action: Action::Command,
            target: "rm -rf build".into(),
            pattern: "command(rm *)".into(),
            risk: Risk::High,
            verdict,
            decider,
            scope: GrantScope::Once,
            rule: Some("command(rm *)".into()),
            reason: "matches ask rule".into(),
            asked: decider == Decider::Human,
            request_id: (decider == Decider::Human).then(|| "req_1".into()),
            message: (verdict == Verdict::Deny).then(|| "not now".into()),
            waited_ms: (decider == Decider::Human).then_some(1500),
            preview: "rm -rf build".into(),
            audit: true,
        }
    }

    fn attempt_dir(root: &Path) -> PathBuf {
        root.join("log_20260101_000000_000000")
            .join("turn_1")
            .join("attempt_1")
    }

    #[test]
    fn each_decision_is_one_line_with_massgen_fields_and_ours() {
        let root = tempfile::tempdir().unwrap();
        let dir = attempt_dir(root.path());
        std::fs::create_dir_all(&dir).unwrap();
        let mut ledger = ApprovalLedger::new(&dir);
        let at = Timestamp::from_second(1_700_000_000).unwrap();
        ledger
            .record(at, &record(Decider::Human, Verdict::Deny))
            .unwrap();
        ledger
            .record(at, &record(Decider::Rule, Verdict::Allow))
            .unwrap();
        let text = std::fs::read_to_string(dir.join(LEDGER_FILE)).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        let first = &lines[0];
        assert_eq!(first["seq"], 0);
        assert_eq!(first["timestamp"], 1_700_000_000.0);
        assert_eq!(first["run_id"], "log_20260101_000000_000000");
        assert_eq!(first["agent_id"], "a");
        assert_eq!(first["normalized_pattern"], "command(rm *)");
        assert_eq!(first["decision"], "deny");
        assert_eq!(first["operator"], "human");
        assert_eq!(first["source"], "provider");
        assert_eq!(first["feedback"], "not now");
        assert_eq!(first["request_id"], "req_1");
        assert_eq!(first["asked"], true);
        assert_eq!(first["waited_ms"], 1500);
        assert_eq!(first["at"], "2023-11-14T22:13:20Z");
        assert_eq!(lines[1]["seq"], 1);
        assert_eq!(lines[1]["decision"], "allow");
        assert_eq!(lines[1]["source"], "rule");
        assert!(lines[1].get("feedback").is_none());
        assert_eq!(read_ledger(&dir.join(LEDGER_FILE)).unwrap().len(), 2);
    }

    #[test]
    fn an_unaudited_decision_is_not_written_and_makes_no_file() {
        let root = tempfile::tempdir().unwrap();
        let dir = attempt_dir(root.path());
        std::fs::create_dir_all(&dir).unwrap();
        let mut ledger = ApprovalLedger::new(&dir);
        let quiet = ApprovalRecord {
            audit: false,
            ..record(Decider::Rule, Verdict::Allow)
        };
        ledger.record(Timestamp::now(), &quiet).unwrap();
        assert!(!dir.join(LEDGER_FILE).exists());
        assert!(read_ledger(&dir.join(LEDGER_FILE)).unwrap().is_empty());
    }

    #[test]
    fn numbering_goes_on_after_lines_already_written() {
        let root = tempfile::tempdir().unwrap();
        let dir = attempt_dir(root.path());
        std::fs::create_dir_all(&dir).unwrap();
        let decided = record(Decider::Grant, Verdict::Allow);
        ApprovalLedger::new(&dir)
            .record(Timestamp::now(), &decided)
            .unwrap();
        ApprovalLedger::new(&dir)
            .record(Timestamp::now(), &decided)
            .unwrap();
        let lines = read_ledger(&dir.join(LEDGER_FILE)).unwrap();
        assert_eq!(
            lines.iter().map(|line| line.seq).collect::<Vec<_>>(),
            [0, 1]
        );
        assert_eq!(lines[1].source, "cache");
        assert_eq!(lines[1].operator, "cache");
    }

    #[test]
    fn every_decider_has_massgen_s_source() {
        let sources: Vec<&str> = [
            Decider::Rule,
            Decider::Hardline,
            Decider::Risk,
            Decider::Human,
            Decider::Policy,
            Decider::Timeout,
            Decider::Grant,
            Decider::Budget,
        ]
        .into_iter()
        .map(source_of)
        .collect();
        assert_eq!(
            sources,
            [
                "rule", "hardline", "risk", "provider", "provider", "provider", "cache", "budget"
            ]
        );
    }
}

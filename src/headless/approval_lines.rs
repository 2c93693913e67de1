//! What the headless displays say about tool approvals: `--automation`'s parseable
//! `APPROVAL_REQUEST:` / `APPROVAL:` / `APPROVALS:` lines and plain's readable ones.

use std::path::{Path, PathBuf};

use crate::config::{ApprovalMode, Config, DEFAULT_APPROVAL_DIR};
use crate::protocol::{ApprovalEvent, ApprovalRecord, Verdict};
use crate::sanitize::sanitize_for_terminal as clean;

/// `--automation`'s lines for an approval event: every ask (and, for a file handshake,
/// `APPROVAL_ANSWER_FILE: <request id> <path>` naming where its answer goes), and every
/// decision that was asked or denied (the many calls a rule or the risk let through say
/// nothing).
pub fn automation_line(event: &ApprovalEvent) -> Option<String> {
    match event {
        ApprovalEvent::Asked(request) => {
            let id = one_line(&request.request_id);
            let mut lines = format!(
                "APPROVAL_REQUEST: {id} {}: {}",
                request.agent,
                one_line(&request.preview)
            );
            if let Some(file) = &request.answer_file {
                lines.push_str(&format!(
                    "\nAPPROVAL_ANSWER_FILE: {id} {}",
                    clean(&file.display().to_string())
                ));
            }
            Some(lines)
        }
        ApprovalEvent::Decided(record) if worth_a_line(record) => Some(format!(
            "APPROVAL: {} {} by {}: {}",
            record.agent,
            verdict_word(record.verdict),
            record.decider.operator(),
            one_line(&record.preview)
        )),
        ApprovalEvent::Decided(_) => None,
    }
}

/// Plain's line for an approval event, to follow the agent's tag; `None` as
/// [`automation_line`].
pub fn plain_line(event: &ApprovalEvent) -> Option<String> {
    match event {
        ApprovalEvent::Asked(request) => {
            let answer_in = request
                .answer_file
                .as_ref()
                .map_or_else(String::new, |file| {
                    format!("; answer in {}", clean(&file.display().to_string()))
                });
            Some(format!(
                "⏸ asks to run {}: {} ({}; request {}, denied in {} s without an answer{answer_in})",
                request.action.as_str(),
                one_line(&request.preview),
                one_line(&request.reason),
                one_line(&request.request_id),
                request.timeout_secs
            ))
        }
        ApprovalEvent::Decided(record) if worth_a_line(record) => {
            let (mark, word) = match record.verdict {
                Verdict::Allow => ("✓", "approved"),
                Verdict::Deny => ("✗", "denied"),
            };
            let scope = match record.verdict {
                Verdict::Allow if record.asked => format!(" ({})", record.scope.as_str()),
                _ => String::new(),
            };
            let why = match (&record.message, &record.rule) {
                (Some(message), _) => format!(": {}", one_line(message)),
                (None, Some(rule)) if record.verdict == Verdict::Deny => {
                    format!(" (rule {})", one_line(rule))
                }
                _ => String::new(),
            };
            Some(format!(
                "{mark} {word} by {}{scope}: {}{why}",
                record.decider.operator(),
                one_line(&record.preview)
            ))
        }
        ApprovalEvent::Decided(_) => None,
    }
}

fn worth_a_line(record: &ApprovalRecord) -> bool {
    record.asked || record.verdict == Verdict::Deny
}

fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Allow => "allowed",
        Verdict::Deny => "denied",
    }
}

/// The approval directories of the agents whose asks go through the file handshake
/// (`approval_mode: file`, or every agent with `permissions:` under `--approval-dir`,
/// `chosen`), absolute against `cwd`, each once, config order. A request is
/// `<dir>/<agent>/req_<id>.json`; its answer goes beside it as `resp_<id>.json`.
pub fn file_approval_dirs(config: &Config, cwd: &Path, chosen: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for agent in &config.agents {
        let Some(permissions) = &agent.backend.tools.permissions else {
            continue;
        };
        let file_mode = chosen.is_some() || permissions.approval_mode == ApprovalMode::File;
        if !permissions.enabled || !file_mode {
            continue;
        }
        let configured = permissions
            .approval_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_APPROVAL_DIR));
        let dir = cwd.join(chosen.map_or(configured, Path::to_path_buf));
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

fn one_line(text: &str) -> String {
    clean(text).split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::PermissionsConfig;
    use crate::protocol::{Action, AgentId, ApprovalRequest, Decider, GrantScope, Risk};

    fn request() -> ApprovalRequest {
        ApprovalRequest {
            request_id: "req_7".into(),
            agent: AgentId::new("a"),
            call_id: "call_1".into(),
            tool: "execute_command".into(),
            arguments: r#"{"command": "npm publish"}"#.into(),
            action: Action::Command,
            target: "npm publish".into(),
            risk: Risk::High,
            reason: "rule command(npm publish*) says ask".into(),
            rule: Some("command(npm publish*)".into()),
            preview: "$ npm publish\n--tag next".into(),
            diff: None,
            timeout_secs: 300,
            answer_file: None,
        }
    }

    fn record(decider: Decider, verdict: Verdict, asked: bool) -> ApprovalRecord {
        ApprovalRecord {
            agent: AgentId::new("a"),
            call_id: "call_1".into(),
            tool: "execute_command".into(),
            action: Action::Command,
            target: "npm publish".into(),
            pattern: "command(npm publish)".into(),
            risk: Risk::High,
            verdict,
            decider,
            scope: if asked {
                GrantScope::Session
            } else {
                GrantScope::Once
            },
            rule: Some("command(npm publish*)".into()),
            reason: "rule".into(),
            asked,
            request_id: asked.then(|| "req_7".into()),
            message: None,
            waited_ms: None,
            preview: "$ npm publish".into(),
            audit: true,
        }
    }

    #[test]
    fn automation_names_each_ask_and_each_asked_or_denied_decision() {
        let asked = ApprovalEvent::Asked(request());
        assert_eq!(
            automation_line(&asked).unwrap(),
            "APPROVAL_REQUEST: req_7 a: $ npm publish --tag next"
        );
        let approved = ApprovalEvent::Decided(record(Decider::Human, Verdict::Allow, true));
        assert_eq!(
            automation_line(&approved).unwrap(),
            "APPROVAL: a allowed by human: $ npm publish"
        );
        let denied = ApprovalEvent::Decided(record(Decider::Rule, Verdict::Deny, false));
        assert_eq!(
            automation_line(&denied).unwrap(),
            "APPROVAL: a denied by rule: $ npm publish"
        );
        let let_through = ApprovalEvent::Decided(record(Decider::Risk, Verdict::Allow, false));
        assert_eq!(automation_line(&let_through), None);
        assert_eq!(plain_line(&let_through), None);
    }

    #[test]
    fn a_file_handshake_ask_names_its_answer_file() {
        let filed = ApprovalRequest {
            answer_file: Some(PathBuf::from("/p/.massgen/approvals/a/resp_7.json")),
            ..request()
        };
        let asked = ApprovalEvent::Asked(filed);
        assert_eq!(
            automation_line(&asked).unwrap(),
            "APPROVAL_REQUEST: req_7 a: $ npm publish --tag next\n\
             APPROVAL_ANSWER_FILE: req_7 /p/.massgen/approvals/a/resp_7.json"
        );
        assert!(
            plain_line(&asked)
                .unwrap()
                .ends_with("; answer in /p/.massgen/approvals/a/resp_7.json)")
        );
    }

    #[test]
    fn plain_says_what_waits_and_how_it_was_decided() {
        let asked = plain_line(&ApprovalEvent::Asked(request())).unwrap();
        assert!(asked.starts_with("⏸ asks to run command: $ npm publish --tag next"));
        assert!(
            asked.contains("request req_7") && asked.contains("300 s"),
            "{asked}"
        );
        let approved = ApprovalEvent::Decided(record(Decider::Human, Verdict::Allow, true));
        assert_eq!(
            plain_line(&approved).unwrap(),
            "✓ approved by human (session): $ npm publish"
        );
        let mut denied = record(Decider::Human, Verdict::Deny, true);
        denied.message = Some("not on a Friday".into());
        assert_eq!(
            plain_line(&ApprovalEvent::Decided(denied)).unwrap(),
            "✗ denied by human: $ npm publish: not on a Friday"
        );
        let by_rule = ApprovalEvent::Decided(record(Decider::Rule, Verdict::Deny, false));
        assert_eq!(
            plain_line(&by_rule).unwrap(),
            "✗ denied by rule: $ npm publish (rule command(npm publish*))"
        );
    }

    fn approval_events() -> Vec<crate::protocol::Event> {
        [
            ApprovalEvent::Asked(request()),
            ApprovalEvent::Decided(record(Decider::Human, Verdict::Allow, true)),
            ApprovalEvent::Decided(record(Decider::Risk, Verdict::Allow, false)),
        ]
        .into_iter()
        .enumerate()
        .map(|(seq, approval)| crate::protocol::Event {
            seq: seq as u64,
            at: jiff::Timestamp::UNIX_EPOCH,
            turn: 1,
            agent: Some(AgentId::new("a")),
            msg: crate::protocol::EventMsg::Approval(approval),
        })
        .collect()
    }

    #[test]
    fn the_printers_print_the_lines() {
        use crate::headless::{AutomationPrinter, PlainPrinter, Printer, Style};
        let mut automation = AutomationPrinter::new(Vec::new(), Vec::new());
        let mut plain = PlainPrinter::new(Vec::new(), Style::new(false));
        for event in approval_events() {
            automation.print(&event).unwrap();
            plain.print(&event).unwrap();
        }
        let (out, _) = automation.into_inner();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "APPROVAL_REQUEST: req_7 a: $ npm publish --tag next\n\
             APPROVAL: a allowed by human: $ npm publish\n"
        );
        let shown = String::from_utf8(plain.into_inner()).unwrap();
        assert_eq!(shown.lines().count(), 2, "{shown}");
        assert!(shown.contains("⏸ asks to run command"), "{shown}");
        assert!(shown.contains("✓ approved by human (session)"), "{shown}");
    }

    #[test]
    fn only_file_mode_agents_name_an_approval_dir() {
        let yaml = "agents:\n  - id: a\n    backend: {type: scripted}\n  - id: b\n    backend: {type: scripted}\n";
        let mut config = crate::config::from_text(yaml, "test", &crate::config::Env::default())
            .unwrap()
            .into_runnable()
            .unwrap()
            .0;
        let cwd = Path::new("/project");
        assert!(file_approval_dirs(&config, cwd, None).is_empty());
        config.agents[1].backend.tools.permissions = Some(PermissionsConfig::default());
        assert!(file_approval_dirs(&config, cwd, None).is_empty());
        assert_eq!(
            file_approval_dirs(&config, cwd, Some(Path::new("asks"))),
            vec![PathBuf::from("/project/asks")]
        );
        let file_mode = PermissionsConfig {
            approval_mode: ApprovalMode::File,
            ..PermissionsConfig::default()
        };
        config.agents[0].backend.tools.permissions = Some(file_mode.clone());
        config.agents[1].backend.tools.permissions = Some(file_mode);
        assert_eq!(
            file_approval_dirs(&config, cwd, None),
            vec![PathBuf::from("/project/.massgen/approvals")]
        );
    }
}

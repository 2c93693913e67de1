//! Who answers an agent's asked call: a person in the TUI (`Op::AnswerApproval`), the file
//! handshake, or — with nobody to ask — the headless policy (`automation_default`).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::ApprovalOptions;
use super::file_handshake::{FileAnswer, FileHandshake};
use super::pending::PendingApprovals;
use crate::config::{ApprovalMode, AutomationDefault, PermissionsConfig};
use crate::orchestrator::channel::AgentSink;
use crate::protocol::{AgentId, ApprovalAnswer, ApprovalEvent, ApprovalRequest, EventMsg, Risk};

/// How an agent's asks are answered.
#[derive(Clone, Debug, PartialEq)]
pub enum Asker {
    /// A person at the terminal, through `ApprovalEvent::Asked` and `Op::AnswerApproval`.
    Person,
    /// `req_<id>.json` / `resp_<id>.json` in the agent's handshake directory.
    File(FileHandshake),
    /// Nobody is asked: the policy decides.
    Policy(AutomationDefault),
}

impl Asker {
    /// The asker of `agent` with `config`: `--approval-dir` or `approval_mode: file` use the
    /// handshake, a terminal asks its person, anything else follows the policy (the CLI's
    /// `--approval-policy` before the config's). Relative directories are the project's.
    pub fn choose(
        agent: &AgentId,
        config: &PermissionsConfig,
        options: &ApprovalOptions,
        human: bool,
        project_dir: Option<&Path>,
    ) -> Self {
        let file_dir = options.dir.clone().or_else(|| {
            (config.approval_mode == ApprovalMode::File).then(|| config.approval_dir())
        });
        if let Some(dir) = file_dir {
            let dir = match project_dir {
                Some(project) if dir.is_relative() => project.join(dir),
                _ => dir,
            };
            return Self::File(FileHandshake::new(dir.join(agent.as_str())));
        }
        if human && !options.no_person {
            return Self::Person;
        }
        Self::Policy(options.policy.unwrap_or(config.automation_default))
    }

    /// Whether someone (a person, or whoever answers the handshake) is asked.
    pub fn asks_someone(&self) -> bool {
        !matches!(self, Self::Policy(_))
    }

    /// Puts `request` to the person or the handshake (never the policy: it is not asked),
    /// announcing it with `ApprovalEvent::Asked`, and waits up to `timeout`.
    pub async fn ask(
        &self,
        pending: &Arc<PendingApprovals>,
        sink: &AgentSink,
        request: &ApprovalRequest,
        (id, pattern): (&str, &str),
        timeout: Duration,
    ) -> Heard {
        match self {
            Self::Person => {
                // Registered before it is announced, so no answer can come too early.
                let mut waiting = pending.register(&request.request_id);
                sink.event(EventMsg::Approval(ApprovalEvent::Asked(request.clone())));
                match tokio::time::timeout(timeout, waiting.answer()).await {
                    Ok(Some(answer)) => Heard::Answer(answer),
                    Ok(None) => Heard::Failed("the run stopped waiting for answers".into()),
                    Err(_) => Heard::TimedOut,
                }
            }
            Self::File(handshake) => {
                let filed = match handshake.file(request, id, pattern) {
                    Ok(filed) => filed,
                    Err(why) => return Heard::Failed(why),
                };
                // Announced once the request file is there to be answered, naming it; a
                // person in the TUI may answer it too.
                let mut elsewhere = pending.register(&request.request_id);
                let announced = ApprovalRequest {
                    answer_file: Some(filed.response_path().to_path_buf()),
                    ..request.clone()
                };
                sink.event(EventMsg::Approval(ApprovalEvent::Asked(announced)));
                match filed.wait(timeout, &mut elsewhere).await {
                    FileAnswer::Answered(answer) => Heard::Answer(answer),
                    FileAnswer::TimedOut => Heard::TimedOut,
                    FileAnswer::Unreadable(why) => Heard::Failed(why),
                }
            }
            Self::Policy(_) => Heard::Failed("nobody can be asked in this run".into()),
        }
    }
}

/// What came back from an ask.
#[derive(Clone, Debug, PartialEq)]
pub enum Heard {
    Answer(ApprovalAnswer),
    TimedOut,
    /// No answer can come (an unreadable response, an unwritable request): denied.
    Failed(String),
}

/// Whether `policy` allows a call of `risk` nobody was asked about.
pub fn policy_allows(policy: AutomationDefault, risk: Risk) -> bool {
    match policy {
        AutomationDefault::RiskBased => risk < Risk::High,
        AutomationDefault::DenyAll => false,
        AutomationDefault::AllowAll => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn the_handshake_wins_then_a_person_then_the_policy() {
        let agent = AgentId::new("a");
        let config = PermissionsConfig::default();
        let headless = ApprovalOptions::default();
        assert_eq!(
            Asker::choose(&agent, &config, &headless, false, None),
            Asker::Policy(AutomationDefault::RiskBased)
        );
        assert_eq!(
            Asker::choose(&agent, &config, &headless, true, None),
            Asker::Person
        );
        let plain = ApprovalOptions {
            no_person: true,
            ..ApprovalOptions::default()
        };
        assert_eq!(
            Asker::choose(&agent, &config, &plain, true, None),
            Asker::Policy(AutomationDefault::RiskBased)
        );
        let overridden = ApprovalOptions {
            policy: Some(AutomationDefault::DenyAll),
            ..ApprovalOptions::default()
        };
        assert_eq!(
            Asker::choose(&agent, &config, &overridden, false, None),
            Asker::Policy(AutomationDefault::DenyAll)
        );
        let file = PermissionsConfig {
            approval_mode: ApprovalMode::File,
            ..PermissionsConfig::default()
        };
        assert_eq!(
            Asker::choose(&agent, &file, &headless, true, Some(Path::new("/p"))),
            Asker::File(FileHandshake::new(PathBuf::from("/p/.massgen/approvals/a")))
        );
        let forced = ApprovalOptions {
            dir: Some(PathBuf::from("/inbox")),
            ..ApprovalOptions::default()
        };
        assert_eq!(
            Asker::choose(&agent, &config, &forced, true, Some(Path::new("/p"))),
            Asker::File(FileHandshake::new(PathBuf::from("/inbox/a")))
        );
    }

    #[test]
    fn risk_based_denies_only_high_risk() {
        assert!(policy_allows(AutomationDefault::RiskBased, Risk::Medium));
        assert!(!policy_allows(AutomationDefault::RiskBased, Risk::High));
        assert!(!policy_allows(AutomationDefault::DenyAll, Risk::Low));
        assert!(policy_allows(AutomationDefault::AllowAll, Risk::High));
    }
}

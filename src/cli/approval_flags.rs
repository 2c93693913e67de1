//! `--approval-policy` and `--approval-dir`: how asked tool calls are answered when the
//! front end cannot put them to a person, as the runtime's `ApprovalOptions`.

use clap::ValueEnum;

use std::path::PathBuf;

use crate::config::AutomationDefault;
use crate::orchestrator::ApprovalOptions;

/// `--approval-policy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ApprovalPolicyArg {
    /// High-risk calls denied, the others allowed.
    RiskBased,
    DenyAll,
    AllowAll,
}

/// The runtime's approval options from the two flags; `no_person`: the front end cannot
/// put a call to the user (plain and automation output).
pub fn approval_options(
    policy: Option<ApprovalPolicyArg>,
    dir: Option<PathBuf>,
    no_person: bool,
) -> ApprovalOptions {
    ApprovalOptions {
        policy: policy.map(|policy| match policy {
            ApprovalPolicyArg::RiskBased => AutomationDefault::RiskBased,
            ApprovalPolicyArg::DenyAll => AutomationDefault::DenyAll,
            ApprovalPolicyArg::AllowAll => AutomationDefault::AllowAll,
        }),
        dir,
        no_person,
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::args::Args;

    fn options(args: &Args, no_person: bool) -> ApprovalOptions {
        approval_options(args.approval_policy, args.approval_dir.clone(), no_person)
    }

    #[test]
    fn the_approval_flags_reach_the_runtimes_options() {
        let args = Args::try_parse_from([
            "massgen",
            "--approval-policy",
            "deny-all",
            "--approval-dir",
            "/tmp/approvals",
            "question",
        ])
        .unwrap();
        assert_eq!(
            options(&args, true),
            ApprovalOptions {
                policy: Some(AutomationDefault::DenyAll),
                dir: Some(PathBuf::from("/tmp/approvals")),
                no_person: true,
            }
        );
        let plain = Args::try_parse_from(["massgen", "question"]).unwrap();
        assert_eq!(options(&plain, false), ApprovalOptions::default());
        assert!(Args::try_parse_from(["massgen", "--approval-policy", "maybe"]).is_err());
    }
}

//! The risk classifier for facets no rule matched, by blast radius as MassGen's is, but over
//! argv rather than regexes: high for privilege, history rewrites, publishing, permission
//! changes, recursive deletes, killing processes, services and network egress; low for
//! read-only commands, file reads and writes inside the workspace; medium otherwise.

use super::argv::SimpleCommand;
use super::boundary::Boundary;
use super::egress::{egress, git_verb};
use super::facets::{Facet, FacetKind};
use crate::protocol::{Action, Risk};

/// A facet's risk and why.
pub fn classify(facet: &Facet, boundary: &Boundary) -> (Risk, String) {
    match &facet.kind {
        FacetKind::Command(command) => command_risk(command),
        FacetKind::Url { from_command } => match from_command {
            Some((_, reach)) => (reach.risk, format!("network egress ({})", reach.what)),
            None => (Risk::High, format!("network access ({})", facet.target)),
        },
        FacetKind::Path { deletes: true, .. } => (Risk::Medium, "a delete".into()),
        FacetKind::Path { resolved, .. } if facet.action == Action::WriteFile => {
            let inside = boundary
                .workspace
                .as_ref()
                .is_some_and(|workspace| resolved.starts_with(workspace));
            if inside {
                (Risk::Low, "a write inside the workspace".into())
            } else {
                (Risk::Medium, "a write outside the workspace".into())
            }
        }
        FacetKind::Path { .. } => (Risk::Low, "a file read".into()),
        FacetKind::Tool => {
            let name = facet.target.rsplit('/').next().unwrap_or("").to_lowercase();
            if ["read", "get", "list", "search", "view", "grep", "glob"]
                .iter()
                .any(|hint| name.starts_with(hint))
            {
                (Risk::Low, format!("a read-only tool ({})", facet.target))
            } else {
                (Risk::Medium, format!("a tool call ({})", facet.target))
            }
        }
    }
}

const LOW_PROGRAMS: [&str; 30] = [
    "ls", "ll", "cat", "head", "tail", "pwd", "echo", "wc", "grep", "egrep", "fgrep", "rg",
    "which", "whoami", "date", "tree", "stat", "file", "true", "false", "printf", "basename",
    "dirname", "realpath", "du", "df", "uname", "id", "sort", "uniq",
];
const PUBLISHERS: [(&str, &str); 9] = [
    ("npm", "publish"),
    ("yarn", "publish"),
    ("pnpm", "publish"),
    ("cargo", "publish"),
    ("poetry", "publish"),
    ("twine", "upload"),
    ("gem", "push"),
    ("docker", "push"),
    ("gh", "release"),
];

fn command_risk(command: &SimpleCommand) -> (Risk, String) {
    let program = command.program();
    let args = command.args();
    let has = |flag: &str| args.iter().any(|arg| arg == flag);
    let short_flag = |letter: char| {
        args.iter()
            .any(|arg| arg.starts_with('-') && !arg.starts_with("--") && arg.contains(letter))
    };
    let high = |why: &str| (Risk::High, format!("{why} ({})", command.line()));
    if matches!(program, "sudo" | "doas" | "su" | "pkexec" | "run0") {
        return high("privilege escalation");
    }
    if let Some(reach) = egress(command) {
        return (reach.risk, format!("network egress ({})", reach.what));
    }
    if program == "git" {
        match git_verb(args) {
            Some("push")
                if has("--force")
                    || has("-f")
                    || args.iter().any(|arg| arg.starts_with("--force-with-lease")) =>
            {
                return high("a force push");
            }
            Some("reset") if has("--hard") => return high("a hard reset"),
            Some("clean") if short_flag('f') || has("--force") => {
                return high("deleting untracked files");
            }
            Some("status" | "diff" | "log" | "show") => {
                return (Risk::Low, "a read-only command".into());
            }
            Some("branch") if !short_flag('d') && !short_flag('D') && !short_flag('m') => {
                return (Risk::Low, "a read-only command".into());
            }
            _ => {}
        }
    }
    if PUBLISHERS
        .iter()
        .any(|(name, verb)| program == *name && args.iter().any(|arg| arg == verb))
        || (program == "pip" && has("upload"))
    {
        return high("publishing");
    }
    if matches!(program, "chmod" | "chown" | "chgrp") {
        return high("a permission change");
    }
    if program == "dd" || program.starts_with("mkfs") || program == "fdisk" {
        return high("a raw disk write");
    }
    if program == "rm" && (short_flag('r') || short_flag('R') || has("--recursive")) {
        return high("a recursive delete");
    }
    if program.starts_with("kill") || program == "pkill" || program == "xkill" {
        return high("killing processes");
    }
    if matches!(program, "shutdown" | "reboot" | "halt" | "poweroff") {
        return high("shutting down");
    }
    if matches!(program, "crontab" | "systemctl" | "launchctl" | "service") {
        return high("changing services or schedules");
    }
    let writes_file = command.writes
        && command
            .redirects
            .iter()
            .any(|target| target != "/dev/null" && !target.starts_with("/dev/std"));
    let find_acts = program == "find"
        && args.iter().any(|arg| {
            matches!(
                arg.as_str(),
                "-delete" | "-exec" | "-execdir" | "-ok" | "-okdir" | "-fprint" | "-fprintf"
            )
        });
    let read_only = LOW_PROGRAMS.contains(&program) || (program == "find" && !find_acts);
    if read_only && !writes_file {
        return (Risk::Low, "a read-only command".into());
    }
    if program.is_empty() && !writes_file {
        return (Risk::Medium, "an empty command".into());
    }
    (Risk::Medium, format!("a command ({})", command.line()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::approvals::argv::simple_commands;

    fn risk(text: &str) -> Risk {
        simple_commands(text)
            .iter()
            .map(|command| command_risk(command).0)
            .max()
            .unwrap_or(Risk::Medium)
    }

    #[test]
    fn commands_are_tiered_by_blast_radius() {
        for text in [
            "git push --force origin main",
            "git push --force-with-lease",
            "git reset --hard HEAD~1",
            "git clean -fdx",
            "npm publish",
            "gh release create v1",
            "chmod 600 key",
            "rm -r build",
            "killall node",
            "crontab -e",
            "curl x",
            "doas ls",
        ] {
            assert_eq!(risk(text), Risk::High, "{text}");
        }
        for text in [
            "git status",
            "git diff HEAD",
            "git log --oneline",
            "git branch",
            "ls -la",
            "cat a | grep b | wc -l",
            "find . -name '*.rs'",
            "echo hi > /dev/null",
        ] {
            assert_eq!(risk(text), Risk::Low, "{text}");
        }
        for text in [
            "find . -delete",
            "echo hi > out.txt",
            "make build",
            "rm a.txt",
            "pip install x",
            "git branch -D old",
            "git commit -m x",
        ] {
            assert_eq!(risk(text), Risk::Medium, "{text}");
        }
    }
}

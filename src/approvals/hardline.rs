//! The hardline list: calls no rule, role, grant or policy can allow — privilege
//! escalation, wiping the system or a disk, fork bombs, powering the machine off, and writes
//! outside the directories the agent may write.

use std::path::Path;

use super::argv::SimpleCommand;
use super::boundary::Boundary;
use super::facets::{Facet, FacetKind};
use crate::protocol::Action;

const ESCALATION: [&str; 5] = ["sudo", "doas", "su", "pkexec", "run0"];
const DISK_TOOLS: [&str; 6] = ["fdisk", "sfdisk", "cfdisk", "gdisk", "parted", "wipefs"];
const POWER: [&str; 4] = ["shutdown", "reboot", "halt", "poweroff"];
/// Top-level system directories a recursive `rm` may not name.
const SYSTEM_DIRS: [&str; 22] = [
    "bin",
    "boot",
    "dev",
    "etc",
    "home",
    "lib",
    "lib32",
    "lib64",
    "opt",
    "proc",
    "root",
    "sbin",
    "srv",
    "sys",
    "usr",
    "var",
    "mnt",
    "media",
    "System",
    "Users",
    "Library",
    "Applications",
];

/// The hardline entry `facet` falls under, as a reason; `None` when it is not on the list.
pub fn hardline(facet: &Facet, boundary: &Boundary) -> Option<String> {
    match &facet.kind {
        FacetKind::Command(command) => command_entry(command),
        FacetKind::Path { resolved, .. }
            if facet.action == Action::WriteFile && !boundary.writable.is_empty() =>
        {
            let inside = boundary
                .writable
                .iter()
                .any(|root| resolved.starts_with(root));
            (!inside).then(|| {
                format!(
                    "hardline: a write outside the writable directories ({})",
                    resolved.display()
                )
            })
        }
        _ => None,
    }
}

/// A fork bomb anywhere in `text`: a function that pipes itself into itself in the
/// background (`:(){ :|:& };:`).
pub fn fork_bomb(text: &str) -> bool {
    let compact: String = text.chars().filter(|ch| !ch.is_whitespace()).collect();
    let mut rest = compact.as_str();
    while let Some(at) = rest.find("(){") {
        let name_start = rest[..at]
            .rfind([';', '&', '|', '(', ')', '{', '}'])
            .map_or(0, |at| at + 1);
        let name = rest[name_start..at].trim_start_matches("function");
        if !name.is_empty() && rest[at..].contains(&format!("{name}|{name}&")) {
            return true;
        }
        rest = &rest[at + 3..];
    }
    false
}

fn command_entry(command: &SimpleCommand) -> Option<String> {
    let program = command.program();
    let args = command.args();
    let entry = |what: &str| Some(format!("hardline: {what} (`{}`)", command.line()));
    if ESCALATION.contains(&program) {
        return entry("privilege escalation");
    }
    if program.starts_with("mkfs") {
        return entry("formatting a filesystem");
    }
    if DISK_TOOLS.contains(&program) {
        return entry("partitioning or wiping a disk");
    }
    if program == "dd" && args.iter().any(|arg| arg.starts_with("of=/dev/")) {
        return entry("writing a raw device");
    }
    if POWER.contains(&program)
        || (program == "systemctl"
            && args
                .iter()
                .any(|arg| POWER.contains(&arg.as_str()) || arg == "kexec"))
        || (program == "init" && args.iter().any(|arg| arg == "0" || arg == "6"))
    {
        return entry("shutting the machine down");
    }
    if program == "rm"
        && recursive(args, &["-r", "-R", "--recursive"])
        && (args.iter().any(|arg| arg == "--no-preserve-root")
            || args.iter().any(|arg| is_protected_root(arg)))
    {
        return entry("recursive delete of the system or home directory");
    }
    if matches!(program, "chmod" | "chown" | "chgrp")
        && recursive(args, &["-R", "--recursive"])
        && args.iter().any(|arg| is_filesystem_root(arg))
    {
        return entry("recursive permission change on `/`");
    }
    None
}

/// Whether an option in `args` asks for recursion (`-rf`, `-R`, `--recursive`).
fn recursive(args: &[String], flags: &[&str]) -> bool {
    args.iter().any(|arg| {
        flags.contains(&arg.as_str())
            || (arg.starts_with('-')
                && !arg.starts_with("--")
                && flags.iter().any(|flag| {
                    flag.len() == 2 && flag.chars().nth(1).is_some_and(|ch| arg.contains(ch))
                }))
    })
}

fn is_filesystem_root(arg: &str) -> bool {
    matches!(arg, "/" | "/*" | "/." | "//")
}

fn is_protected_root(arg: &str) -> bool {
    if arg.is_empty() {
        return false;
    }
    let arg = arg.trim_end_matches("/*").trim_end_matches('/');
    if arg.is_empty() || is_filesystem_root(arg) {
        return true;
    }
    if matches!(arg, "~" | "$HOME" | "${HOME}" | "~/." | "$HOME/.") {
        return true;
    }
    let path = Path::new(arg);
    path.is_absolute()
        && path.components().count() == 2
        && path
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| SYSTEM_DIRS.contains(&name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::approvals::argv::simple_commands;

    fn entry(text: &str) -> Option<String> {
        simple_commands(text).iter().find_map(command_entry)
    }

    #[test]
    fn the_catastrophic_commands_are_on_the_list() {
        for text in [
            "sudo ls",
            "env A=1 doas rm x",
            "bash -c 'su root'",
            "rm -rf /",
            "rm -r -f /*",
            "rm -fr ~",
            "rm --recursive $HOME/",
            "rm -rf /etc",
            "rm -rf --no-preserve-root x",
            "mkfs.ext4 /dev/sda1",
            "dd if=/dev/zero of=/dev/sda",
            "wipefs -a /dev/sda",
            "parted /dev/sda rm 1",
            "chmod -R 777 /",
            "chown -R me /",
            "shutdown -h now",
            "systemctl reboot",
        ] {
            assert!(entry(text).is_some(), "{text}");
        }
        assert!(entry("sudo ls").unwrap().contains("privilege escalation"));
    }

    #[test]
    fn ordinary_commands_are_not() {
        for text in [
            "rm -rf build",
            "rm -rf /tmp/x",
            "rm / ",
            "chmod -R 755 src",
            "dd if=a of=b",
            "ls /",
            "echo sudo",
        ] {
            assert!(entry(text).is_none(), "{text}");
        }
    }

    #[test]
    fn fork_bombs_are_found_in_any_spacing() {
        assert!(fork_bomb(":(){ :|:& };:"));
        assert!(fork_bomb("bomb() { bomb | bomb & }; bomb"));
        assert!(!fork_bomb("f() { echo hi; }; f"));
    }
}

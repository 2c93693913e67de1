//! Unit tests of [`PathPolicy`]: what each root allows, protected paths, context writes,
//! read-before-delete, and the wording of refusals.
#![cfg(unix)]

use std::fs;
use std::path::PathBuf;

use super::fixture::Fixture;
use super::{Access, ContextRoot, PathPolicy, Refusal};
use crate::config::Permission;

/// The policy's refusal of `raw` for `access`, which must say `expected`.
#[track_caller]
fn refusal_saying(policy: &PathPolicy, raw: &str, access: Access, expected: &str) -> Refusal {
    let refusal = policy.check(raw, access).unwrap_err();
    assert!(
        refusal.reason.contains(expected),
        "`{raw}`: {}",
        refusal.reason
    );
    refusal
}

#[test]
fn relative_and_absolute_paths_inside_the_workspace_resolve_there() {
    let f = Fixture::new();
    let read = f.policy.check("mine.txt", Access::Read).unwrap();
    assert_eq!(read, f.ws.join("mine.txt"));
    let absolute = f
        .policy
        .check(&f.at("ws/sub/a.txt"), Access::Write)
        .unwrap();
    assert_eq!(absolute, f.ws.join("sub/a.txt"));
    assert_eq!(
        f.policy.check("./sub/./a.txt", Access::Read).unwrap(),
        absolute
    );
}

#[test]
fn new_files_resolve_through_their_nearest_existing_directory() {
    let f = Fixture::new();
    let created = f.policy.check("new/deep/file.txt", Access::Write).unwrap();
    assert_eq!(created, f.ws.join("new/deep/file.txt"));
}

#[test]
fn dot_dot_that_stays_inside_and_literal_odd_names_are_allowed() {
    let f = Fixture::new();
    assert_eq!(
        f.policy.check("sub/../mine.txt", Access::Read).unwrap(),
        f.ws.join("mine.txt")
    );
    for name in ["..%2Foutside%2Fsecret.txt", "....", "...txt", "%2e%2e"] {
        assert_eq!(
            f.policy.check(name, Access::Write).unwrap(),
            f.ws.join(name),
            "{name}"
        );
    }
}

#[test]
fn peers_copies_are_readable_but_never_writable() {
    let f = Fixture::new();
    let peer = f.at("peers/agent1/ans.txt");
    assert!(f.policy.check(&peer, Access::Read).is_ok());
    let refusal = refusal_saying(&f.policy, &peer, Access::Write, "read-only copy");
    assert_eq!(refusal.path, peer);
}

#[test]
fn context_paths_are_read_only_until_writes_are_turned_on() {
    let f = Fixture::new();
    let notes = f.at("ctx_w/notes.md");
    assert!(f.policy.check(&notes, Access::Read).is_ok());
    refusal_saying(&f.policy, &notes, Access::Write, "final presentation");
    f.policy.set_context_writes(true);
    assert!(f.policy.context_writes());
    assert!(f.policy.check(&notes, Access::Write).is_ok());
    assert!(
        f.policy
            .check(&f.at("ctx_w/new/file.md"), Access::Write)
            .is_ok()
    );
    f.policy.set_context_writes(false);
    assert!(f.policy.check(&notes, Access::Write).is_err());
}

#[test]
fn read_permission_context_paths_stay_read_only_during_presentation() {
    let f = Fixture::new();
    f.policy.set_context_writes(true);
    let readme = f.at("ctx_r/readme.md");
    assert!(f.policy.check(&readme, Access::Read).is_ok());
    refusal_saying(&f.policy, &readme, Access::Write, "read-only");
}

#[test]
fn protected_paths_are_readable_but_never_written_or_deleted() {
    let f = Fixture::new();
    f.policy.set_context_writes(true);
    let protected = f.at("ctx_w/protected.txt");
    let read = f.policy.check(&protected, Access::Read).unwrap();
    f.policy.record_read(&read);
    for access in [Access::Write, Access::Delete] {
        refusal_saying(&f.policy, &protected, access, "protected");
    }
    assert!(
        f.policy
            .check(&f.at("ctx_w/keep/inner.txt"), Access::Write)
            .is_err()
    );
    assert!(
        f.policy
            .check(&f.at("ctx_w/keep/new.txt"), Access::Write)
            .is_err()
    );
    refusal_saying(
        &f.policy,
        &f.at("ctx_w"),
        Access::Write,
        "contains the protected path",
    );
}

#[test]
fn a_single_file_context_path_shares_that_file_only() {
    let f = Fixture::new();
    let only = f.at("ctx_file/only.txt");
    assert!(f.policy.check(&only, Access::Read).is_ok());
    assert!(f.policy.check(&only, Access::Write).is_err());
    f.policy.set_context_writes(true);
    assert!(f.policy.check(&only, Access::Write).is_ok());
    for sibling in [
        "ctx_file/sibling.txt",
        "ctx_file",
        "ctx_file/only.txt/child",
    ] {
        refusal_saying(&f.policy, &f.at(sibling), Access::Read, "only the file");
    }
}

#[test]
fn symlinks_inside_the_workspace_resolve_and_deletes_act_on_the_link() {
    let f = Fixture::new();
    let read = f.policy.check("inner_link", Access::Read).unwrap();
    assert_eq!(read, f.ws.join("mine.txt"));
    f.policy.record_read(&read);
    assert_eq!(
        f.policy.check("inner_link", Access::Delete).unwrap(),
        f.ws.join("inner_link")
    );
}

#[test]
fn deletes_need_a_prior_read_or_creation() {
    let f = Fixture::new();
    refusal_saying(&f.policy, "notread.txt", Access::Delete, "Read it first");
    let read = f.policy.check("notread.txt", Access::Read).unwrap();
    f.policy.record_read(&read);
    assert_eq!(f.policy.check("notread.txt", Access::Delete).unwrap(), read);

    let created = f.policy.check("made.txt", Access::Write).unwrap();
    fs::write(&created, "x").unwrap();
    f.policy.record_created(&created);
    assert!(f.policy.check("made.txt", Access::Delete).is_ok());
    // Nothing to lose: the tool itself reports the missing file.
    assert!(f.policy.check("missing.txt", Access::Delete).is_ok());
}

#[test]
fn deleting_a_directory_needs_every_file_inside_known() {
    let f = Fixture::new();
    fs::create_dir_all(f.ws.join("sub/deeper")).unwrap();
    fs::write(f.ws.join("sub/deeper/b.txt"), "b").unwrap();
    refusal_saying(&f.policy, "sub", Access::Delete, "have not read");
    f.policy.record_read(&f.ws.join("sub/a.txt"));
    assert!(f.policy.check("sub", Access::Delete).is_err());
    f.policy.record_read(&f.ws.join("sub/deeper/b.txt"));
    assert!(f.policy.check("sub", Access::Delete).is_ok());
    fs::create_dir(f.ws.join("empty")).unwrap();
    assert!(f.policy.check("empty", Access::Delete).is_ok());
}

#[test]
fn the_roots_themselves_cannot_be_deleted() {
    let f = Fixture::new();
    for raw in [".", f.ws.to_str().unwrap()] {
        assert!(f.policy.check(raw, Access::Delete).is_err(), "{raw}");
    }
    assert!(f.policy.on_disk().is_root(&f.ws));
    assert!(!f.policy.on_disk().is_root(&f.ws.join("sub")));
}

#[test]
fn moves_carry_what_was_known_to_the_new_place() {
    let f = Fixture::new();
    f.policy.record_read(&f.ws.join("sub/a.txt"));
    fs::rename(f.ws.join("sub"), f.ws.join("moved")).unwrap();
    f.policy
        .record_moved(&f.ws.join("sub"), &f.ws.join("moved"));
    assert!(f.policy.check("moved/a.txt", Access::Delete).is_ok());
    assert!(f.policy.check("moved", Access::Delete).is_ok());
}

#[test]
fn hard_linked_files_are_not_opened() {
    let f = Fixture::new();
    for access in [Access::Read, Access::Write] {
        refusal_saying(&f.policy, "hard", access, "2 hard links");
    }
}

#[test]
fn refusals_name_the_path_and_the_workspace() {
    let f = Fixture::new();
    let refusal = f.policy.check("../x", Access::Read).unwrap_err();
    assert_eq!(refusal.path, "../x");
    assert!(
        refusal
            .reason
            .starts_with("`../x` is outside your workspace")
    );
    assert!(refusal.reason.contains(&f.ws.display().to_string()));
    assert_eq!(refusal.to_string(), refusal.reason);
    let nul = f.policy.check("a\0b", Access::Read).unwrap_err();
    assert!(nul.reason.contains("NUL") && !nul.reason.contains('\0'));
}

#[test]
fn allowed_directories_say_what_may_be_done_where() {
    let f = Fixture::new();
    let lines = f.policy.allowed_directories();
    assert_eq!(lines.len(), 5);
    assert!(lines[0].contains("your workspace; read and write"));
    assert!(lines[1].contains("read only"));
    assert!(lines[3].contains("read only until the final presentation"));
    assert!(lines[3].contains("protected:"));
    f.policy.set_context_writes(true);
    assert!(f.policy.allowed_directories()[3].contains("context path; read and write"));
}

#[test]
fn in_workspace_excludes_other_roots() {
    let f = Fixture::new();
    assert!(f.policy.on_disk().in_workspace(&f.ws));
    assert!(f.policy.on_disk().in_workspace(&f.ws.join("sub")));
    assert!(
        !f.policy
            .on_disk()
            .in_workspace(&f.root.join("peers/agent1"))
    );
    assert!(!f.policy.on_disk().in_workspace(&f.root));
}

#[test]
fn a_workspace_given_through_a_symlink_works_under_both_names() {
    let f = Fixture::new();
    let alias = f.root.join("ws_alias");
    std::os::unix::fs::symlink(&f.ws, &alias).unwrap();
    let policy = PathPolicy::new(alias.clone(), Vec::new(), Vec::<ContextRoot>::new());
    assert_eq!(
        policy.check("mine.txt", Access::Read).unwrap(),
        f.ws.join("mine.txt")
    );
    let through_alias = alias.join("mine.txt").display().to_string();
    assert!(policy.check(&through_alias, Access::Write).is_ok());
    assert!(policy.check(&f.at("ws/mine.txt"), Access::Write).is_ok());
    assert!(
        policy
            .check(&f.at("outside/secret.txt"), Access::Read)
            .is_err()
    );
}

#[test]
fn a_context_root_given_relative_to_a_symlink_keeps_its_protection() {
    let f = Fixture::new();
    let alias = f.root.join("ctx_alias");
    std::os::unix::fs::symlink(f.root.join("ctx_w"), &alias).unwrap();
    let policy = PathPolicy::new(
        f.ws.clone(),
        Vec::new(),
        vec![ContextRoot {
            path: alias.clone(),
            permission: Permission::Write,
            protected: vec![alias.join("protected.txt")],
        }],
    );
    policy.set_context_writes(true);
    let real: PathBuf = f.root.join("ctx_w/protected.txt");
    assert!(policy.check(real.to_str().unwrap(), Access::Write).is_err());
    assert!(
        policy
            .check(alias.join("protected.txt").to_str().unwrap(), Access::Write)
            .is_err()
    );
    assert!(
        policy
            .check(alias.join("notes.md").to_str().unwrap(), Access::Write)
            .is_ok()
    );
}

#[test]
fn version_control_secrets_and_massgen_files_stay_read_only_in_writable_context_paths() {
    let f = Fixture::new();
    f.policy.set_context_writes(true);
    for excluded in [
        "ctx_w/.git/hooks/pre-commit",
        "ctx_w/.env",
        "ctx_w/.massgen/workspaces/x/a.txt",
        "ctx_w/sub/node_modules/pkg/index.js",
    ] {
        refusal_saying(&f.policy, &f.at(excluded), Access::Write, "stays read-only");
    }
    assert!(
        f.policy
            .check(&f.at("ctx_w/notes.md"), Access::Write)
            .is_ok()
    );
    assert!(
        f.policy.check(".git/config", Access::Write).is_ok(),
        "the workspace is the agent's own"
    );
}

#[test]
fn pipes_and_other_special_files_are_refused_before_anything_opens_them() {
    let f = Fixture::new();
    let status = std::process::Command::new("mkfifo")
        .arg(f.ws.join("pipe.txt"))
        .status()
        .unwrap();
    assert!(status.success());
    for access in [Access::Read, Access::Write] {
        refusal_saying(&f.policy, "pipe.txt", access, "not a regular file");
    }
}

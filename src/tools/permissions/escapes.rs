//! The escape matrix: attempts to reach past the allowed roots, each refused by
//! [`PathPolicy::check`] and again by the real tools, which must leave every file of the
//! surrounding tree exactly as it was.
#![cfg(unix)]

use serde_json::{Value, json};

use super::fixture::Fixture;
use super::{Access, PathPolicy};
use crate::config::{CommandLineConfig, ToolSettings};
use crate::tools::builtin::BuiltinTools;

struct Attempt {
    what: &'static str,
    raw: String,
    access: Access,
    /// Context writes on, as during the final presentation.
    writes_on: bool,
    /// The path was read first (so read-before-delete is not what stops it).
    read_first: bool,
    tool: &'static str,
    args: Value,
}

fn attempt(what: &'static str, raw: impl Into<String>, access: Access) -> Attempt {
    let raw = raw.into();
    let (tool, args) = match access {
        Access::Read => ("read_text_file", json!({"path": raw})),
        Access::Write => ("write_file", json!({"path": raw, "content": "pwned"})),
        Access::Delete => ("delete_file", json!({"path": raw, "recursive": true})),
    };
    Attempt {
        what,
        raw,
        access,
        writes_on: false,
        read_first: false,
        tool,
        args,
    }
}

impl Attempt {
    fn via(mut self, tool: &'static str, args: Value) -> Self {
        self.tool = tool;
        self.args = args;
        self
    }

    fn writes_on(mut self) -> Self {
        self.writes_on = true;
        self
    }

    fn read_first(mut self) -> Self {
        self.read_first = true;
        self
    }
}

fn attempts(f: &Fixture) -> Vec<Attempt> {
    use Access::{Delete, Read, Write};
    let ws = f.ws.display().to_string();
    vec![
        attempt("`../` to a sibling directory", "../outside/secret.txt", Read),
        attempt("`../` to create a file", "../outside/new.txt", Write),
        attempt("`a/../../` through a missing directory", "a/../../outside/secret.txt", Write),
        attempt("`./..`", "./../outside/secret.txt", Read),
        attempt("`sub/../../` from a real subdirectory", "sub/../../outside/dir/inner.txt", Delete),
        attempt("many `..` up to /etc", "../../../../../../../../../../etc/passwd", Read),
        attempt("`..` alone, listed", "..", Read).via("list_directory", json!({"path": ".."})),
        attempt("absolute /etc/passwd", "/etc/passwd", Read),
        attempt("absolute root, searched", "/", Read)
            .via("search_files", json!({"path": "/", "pattern": "passwd"})),
        attempt("the workspace's parent, listed", f.at(""), Read)
            .via("directory_tree", json!({"path": f.at("")})),
        attempt("a new file in the workspace's parent", f.at("evil.txt"), Write),
        attempt("absolute path with `..` out of the workspace", format!("{ws}/../outside/secret.txt"), Write),
        attempt("symlink to an outside file, read", "link_file", Read),
        attempt("symlink to an outside file, written", "link_file", Write),
        attempt("symlinked outside directory, read", "link_dir/inner.txt", Read),
        attempt("symlinked outside directory, file created", "link_dir/new.txt", Write)
            .via("create_directory", json!({"path": "link_dir/new.txt"})),
        attempt("symlinked outside directory, deleted", "link_dir", Delete),
        attempt("symlink chain to an outside file", "chain1", Read),
        attempt("dangling symlink to an outside file", "dangling", Write),
        attempt("symlink to a protected file, writes on", "link_protected", Write).writes_on(),
        attempt("hard link to an outside file, read", "hard", Read),
        attempt("hard link to an outside file, edited", "hard", Write).via(
            "edit_file",
            json!({"path": "hard", "edits": [{"oldText": "shared inode", "newText": "pwned"}]}),
        ),
        attempt("write context path before the presentation", f.at("ctx_w/notes.md"), Write),
        attempt("read-only context path, writes on", f.at("ctx_r/readme.md"), Write)
            .writes_on()
            .via(
                "edit_file",
                json!({"path": f.at("ctx_r/readme.md"), "edits": [{"oldText": "read only", "newText": "pwned"}]}),
            ),
        attempt("protected file, writes on", f.at("ctx_w/protected.txt"), Write).writes_on(),
        attempt("file in a protected directory, writes on", f.at("ctx_w/keep/inner.txt"), Write).writes_on(),
        attempt("delete without a prior read", "notread.txt", Delete),
        attempt("delete a protected file after reading it", f.at("ctx_w/protected.txt"), Delete)
            .writes_on()
            .read_first(),
        attempt("move a protected file away", f.at("ctx_w/protected.txt"), Write)
            .writes_on()
            .via("move_file", json!({"source": f.at("ctx_w/protected.txt"), "destination": "stolen.txt"})),
        attempt("copy onto a protected file", f.at("ctx_w/protected.txt"), Write)
            .writes_on()
            .via(
                "copy_file",
                json!({"source_path": "mine.txt", "destination_path": f.at("ctx_w/protected.txt"), "overwrite": true}),
            ),
        attempt("write into a peer's workspace copy", f.at("peers/agent1/ans.txt"), Write),
        attempt("delete in a peer's workspace copy", f.at("peers/agent1/ans.txt"), Delete).read_first(),
        attempt("sibling of a single-file context path", f.at("ctx_file/sibling.txt"), Read),
        attempt("path with a NUL byte", "mine.txt\0/../../outside/secret.txt", Read),
        attempt("empty path", "", Write),
        attempt("`~/`", "~/.bashrc", Read),
        attempt("move a workspace file out", "../outside/moved.txt", Write)
            .via("move_file", json!({"source": "mine.txt", "destination": "../outside/moved.txt"})),
        attempt("copy an outside file in", f.at("outside/secret.txt"), Read)
            .via("copy_file", json!({"source_path": f.at("outside/secret.txt"), "destination_path": "copied.txt"})),
        attempt("delete the workspace itself", ".", Delete),
    ]
}

/// Commands that try the same escapes; none may run.
fn command_attempts(f: &Fixture) -> Vec<(&'static str, Value)> {
    let cmd = |command: &str| json!({"command": command});
    vec![
        ("cat through `..`", cmd("cat ../outside/secret.txt")),
        ("cat an absolute path", cmd("cat /etc/passwd")),
        ("touch through `..`", cmd("touch ../outside/x")),
        (
            "cp into an outside file",
            cmd("cp mine.txt ../outside/copied.txt"),
        ),
        (
            "cp through a symlinked directory",
            cmd("cp mine.txt link_dir/x"),
        ),
        ("cat through a symlink", cmd("cat link_file")),
        (
            "cp onto a read-only context file",
            cmd(&format!("cp mine.txt {}", f.at("ctx_r/readme.md"))),
        ),
        (
            "rm a peer's file",
            cmd(&format!("rm {}", f.at("peers/agent1/ans.txt"))),
        ),
        (
            "sh -c with a redirect out",
            cmd("sh -c 'echo x > ../outside/x'"),
        ),
        ("ln to /etc/passwd", cmd("ln -s /etc/passwd p")),
        ("rm -rf /", cmd("rm -rf /")),
        ("sudo", cmd("sudo touch x")),
        ("a chain with `;`", cmd("echo x; rm mine.txt")),
        ("a variable", cmd("ls $HOME/..")),
        ("a redirect", cmd("echo pwned > mine.txt")),
        (
            "work_dir outside",
            json!({"command": "touch x", "work_dir": ".."}),
        ),
        (
            "work_dir in a peer copy",
            json!({"command": "touch x", "work_dir": f.at("peers/agent1")}),
        ),
        (
            "`--opt=` with an outside path",
            cmd("git --git-dir=/etc status"),
        ),
    ]
}

fn refused(policy: &PathPolicy, attempt: &Attempt) -> bool {
    policy.set_context_writes(attempt.writes_on);
    if attempt.read_first
        && let Ok(path) = policy.check(&attempt.raw, Access::Read)
    {
        policy.record_read(&path);
    }
    let outcome = policy.check(&attempt.raw, attempt.access);
    policy.set_context_writes(false);
    outcome.is_err()
}

#[test]
fn the_matrix_has_at_least_twenty_attempts_and_the_policy_refuses_each() {
    let f = Fixture::new();
    let attempts = attempts(&f);
    assert!(attempts.len() >= 20, "{} attempts", attempts.len());
    for attempt in &attempts {
        assert!(
            refused(&f.policy, attempt),
            "{}: `{}` was allowed",
            attempt.what,
            attempt.raw
        );
    }
}

#[tokio::test]
async fn every_attempt_through_the_real_tools_is_refused_and_changes_nothing() {
    let f = Fixture::new();
    let settings = ToolSettings {
        cwd: Some(f.ws.display().to_string()),
        command_line: Some(CommandLineConfig::default()),
        ..ToolSettings::default()
    };
    let tools = BuiltinTools::new(f.policy.clone(), &settings);
    let server = |tool: &str| match tool {
        "copy_file" | "delete_file" => "workspace_tools",
        "execute_command" => "command_line",
        _ => "filesystem",
    };
    let calls = attempts(&f)
        .into_iter()
        .map(|a| (a.what, a.tool, a.args, a.writes_on, a.read_first))
        .chain(
            command_attempts(&f)
                .into_iter()
                .map(|(what, args)| (what, "execute_command", args, false, false)),
        );
    let before = f.snapshot();
    for (what, tool, args, writes_on, read_first) in calls {
        let name = format!("mcp__{}__{tool}", server(tool));
        assert!(tools.handles(&name), "{name}");
        if read_first && let Some(path) = args["path"].as_str() {
            let read = tools
                .call(
                    "mcp__filesystem__read_text_file",
                    &json!({"path": path}).to_string(),
                )
                .await;
            assert!(
                read.outcome.ok,
                "{what}: reading first failed: {}",
                read.outcome.output
            );
        }
        f.policy.set_context_writes(writes_on);
        let result = tools.call(&name, &args.to_string()).await;
        f.policy.set_context_writes(false);
        assert!(
            !result.outcome.ok,
            "{what}: {name} succeeded: {}",
            result.outcome.output
        );
        assert_eq!(
            result
                .refusal
                .as_ref()
                .map(|refusal| refusal.reason.clone())
                .unwrap_or(result.outcome.output.clone()),
            result.outcome.output,
            "{what}: the refusal is what the model reads"
        );
        assert_eq!(f.snapshot(), before, "{what}: {name} changed the tree");
    }
    assert!(!f.root.join("outside/created_through_link.txt").exists());
}

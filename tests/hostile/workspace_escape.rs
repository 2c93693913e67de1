//! Hostile: an agent that plants symlinks and hard links, or swaps a directory for a link
//! while its file tools run, never gets them (or a snapshot, or a workspace copy) to read,
//! write, move, copy or delete anything outside the directories it was given.
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod copies;
mod fallback;
mod links;
mod race;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use massgen::config::ToolSettings;
use massgen::tools::{BuiltinOutcome, BuiltinTools, PathPolicy};
use serde_json::Value;

/// The content of the one outside file every attack aims at; 4242 bytes long, so a
/// `get_file_info` that reached it would show `size: 4242`.
const SECRET: &str = "TOP-SECRET";
/// A name only the outside directory holds: a listing that shows it went outside.
const HIDDEN: &str = "hidden_sibling.txt";

/// ```text
/// <root>/outside/{file.txt (SECRET…, 4242 bytes), hidden_sibling.txt}
/// <root>/ws/                          the workspace
///     mine.txt  sub/a.txt  dir/file.txt ("inside")
///     dir_swap -> <root>/outside       exchanged with dir/ by a swapper
///     dir/file_swap -> <root>/outside/file.txt   exchanged with dir/file.txt
/// ```
struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
    ws: PathBuf,
    outside: PathBuf,
    tools: BuiltinTools,
}

impl Tree {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        let (ws, outside) = (root.join("ws"), root.join("outside"));
        fs::create_dir_all(outside.join("deeper")).unwrap();
        let secret = format!("{SECRET}{}", "x".repeat(4242 - SECRET.len()));
        fs::write(outside.join("file.txt"), secret).unwrap();
        fs::write(outside.join(HIDDEN), "hidden").unwrap();
        fs::create_dir_all(ws.join("sub")).unwrap();
        fs::create_dir_all(ws.join("dir")).unwrap();
        fs::write(ws.join("mine.txt"), "mine\n").unwrap();
        fs::write(ws.join("sub/a.txt"), "a\n").unwrap();
        fs::write(ws.join("dir/file.txt"), "inside\n").unwrap();
        std::os::unix::fs::symlink(&outside, ws.join("dir_swap")).unwrap();
        std::os::unix::fs::symlink(outside.join("file.txt"), ws.join("dir/file_swap")).unwrap();
        let policy = Arc::new(PathPolicy::new(ws.clone(), Vec::new(), Vec::new()));
        let tools = BuiltinTools::new(policy, &ToolSettings::default());
        Self {
            _dir: dir,
            root,
            ws,
            outside,
            tools,
        }
    }

    /// Calls `tool` (bare name) on whichever server has it and checks that its answer
    /// shows nothing of the outside.
    async fn call(&self, tool: &str, args: Value) -> BuiltinOutcome {
        let name = ["filesystem", "workspace_tools"]
            .iter()
            .map(|server| format!("mcp__{server}__{tool}"))
            .find(|name| self.tools.handles(name))
            .unwrap_or_else(|| panic!("no server offers {tool}"));
        let outcome = self.tools.call(&name, &args.to_string()).await;
        let output = &outcome.outcome.output;
        for leak in [SECRET, HIDDEN, "size: 4242"] {
            assert!(
                !output.contains(leak),
                "{tool} {args} leaked {leak}: {output}"
            );
        }
        outcome
    }

    /// Every entry under `<root>/outside`: files by content, links by target.
    fn outside_now(&self) -> BTreeMap<PathBuf, String> {
        listing(&self.outside)
    }

    /// Fails when the secret's content shows up anywhere in the workspace.
    fn assert_no_secret_inside(&self) {
        for (path, content) in listing(&self.ws) {
            assert!(
                !content.contains(SECRET),
                "{} holds the secret",
                path.display()
            );
        }
    }

    fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.root.join(rel)).unwrap_or_default()
    }
}

fn listing(dir: &Path) -> BTreeMap<PathBuf, String> {
    walkdir::WalkDir::new(dir)
        .follow_links(false)
        .into_iter()
        .filter_map(Result::ok)
        .map(|entry| {
            let kind = entry.file_type();
            let value = if kind.is_symlink() {
                format!("link -> {:?}", fs::read_link(entry.path()).ok())
            } else if kind.is_dir() {
                "dir".to_string()
            } else {
                let text = String::from_utf8_lossy(&fs::read(entry.path()).unwrap_or_default())
                    .into_owned();
                match text.char_indices().nth(24) {
                    Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
                    None => text,
                }
            };
            (entry.path().to_path_buf(), value)
        })
        .collect()
}

/// Which name a [`Swapper`] flips between a real entry and a link to the outside.
#[derive(Clone, Copy, Debug)]
enum Swap {
    /// `ws/dir` ⇄ `ws/dir_swap` (a link to `outside/`): a link in the middle of the path.
    Middle,
    /// `ws/dir/file.txt` ⇄ `ws/dir/file_swap` (a link to `outside/file.txt`): the last part.
    Last,
}

/// A thread exchanging a real entry with a link to the outside (`renameat2
/// RENAME_EXCHANGE`, atomic) as fast as it can, until dropped; it ends with the real
/// entry back in place.
struct Swapper {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<u64>>,
}

impl Swapper {
    fn start(tree: &Tree, swap: Swap) -> Self {
        use rustix::fs::{RenameFlags, renameat_with};
        let (dir, a, b) = match swap {
            Swap::Middle => (tree.ws.clone(), "dir", "dir_swap"),
            Swap::Last => (tree.ws.join("dir"), "file.txt", "file_swap"),
        };
        let handle = fs::File::open(&dir).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut swaps = 0u64;
            while !stopping.load(Ordering::Relaxed) {
                if renameat_with(&handle, a, &handle, b, RenameFlags::EXCHANGE).is_ok() {
                    swaps += 1;
                }
            }
            if swaps % 2 == 1 {
                renameat_with(&handle, a, &handle, b, RenameFlags::EXCHANGE).unwrap();
                swaps += 1;
            }
            swaps
        });
        Self {
            stop,
            thread: Some(thread),
        }
    }

    /// Stops the thread; returns how many swaps it made.
    fn finish(mut self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        self.thread
            .take()
            .map_or(0, |thread| thread.join().unwrap())
    }
}

impl Drop for Swapper {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

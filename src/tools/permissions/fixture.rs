//! Test fixture: a temporary tree with a workspace, peers' copies, context paths, and
//! links that lead out of them.
#![cfg(unix)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tempfile::TempDir;
use walkdir::WalkDir;

use super::{ContextRoot, PathPolicy};
use crate::config::Permission;

/// ```text
/// <root>/outside/{secret.txt, hard_src.txt, dir/inner.txt}
/// <root>/ws/                       workspace (read-write)
///     mine.txt notread.txt sub/a.txt
///     link_file -> outside/secret.txt      link_dir -> outside/dir
///     chain1 -> chain2 -> outside/secret.txt
///     link_protected -> ctx_w/protected.txt
///     dangling -> outside/created_through_link.txt
///     inner_link -> mine.txt               hard (hard link of outside/hard_src.txt)
/// <root>/peers/agent1/ans.txt      read only
/// <root>/ctx_r/readme.md           context, read
/// <root>/ctx_w/{notes.md, protected.txt, keep/inner.txt}
///                                  context, write; protected: protected.txt, keep
/// <root>/ctx_file/{only.txt, sibling.txt}   context (write) = only.txt
/// ```
pub(crate) struct Fixture {
    _dir: TempDir,
    pub(crate) root: PathBuf,
    pub(crate) ws: PathBuf,
    pub(crate) policy: Arc<PathPolicy>,
}

impl Fixture {
    pub(crate) fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        let file = |rel: &str, content: &str| {
            let path = root.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, content).unwrap();
        };
        file("outside/secret.txt", "secret\n");
        file("outside/hard_src.txt", "shared inode\n");
        file("outside/dir/inner.txt", "inner\n");
        file("ws/mine.txt", "mine\n");
        file("ws/notread.txt", "never read\n");
        file("ws/sub/a.txt", "a\n");
        file("peers/agent1/ans.txt", "peer answer\n");
        file("ctx_r/readme.md", "# read only\n");
        file("ctx_w/notes.md", "notes\n");
        file("ctx_w/protected.txt", "do not touch\n");
        file("ctx_w/keep/inner.txt", "kept\n");
        file("ctx_file/only.txt", "the one file\n");
        file("ctx_file/sibling.txt", "not shared\n");
        let ws = root.join("ws");
        let link =
            |target: &Path, at: &str| std::os::unix::fs::symlink(target, ws.join(at)).unwrap();
        link(&root.join("outside/secret.txt"), "link_file");
        link(&root.join("outside/dir"), "link_dir");
        link(&root.join("outside/secret.txt"), "chain2");
        link(&ws.join("chain2"), "chain1");
        link(&root.join("ctx_w/protected.txt"), "link_protected");
        link(&root.join("outside/created_through_link.txt"), "dangling");
        link(Path::new("mine.txt"), "inner_link");
        fs::hard_link(root.join("outside/hard_src.txt"), ws.join("hard")).unwrap();
        let policy = PathPolicy::new(
            ws.clone(),
            vec![root.join("peers")],
            vec![
                ContextRoot {
                    path: root.join("ctx_r"),
                    permission: Permission::Read,
                    protected: Vec::new(),
                },
                ContextRoot {
                    path: root.join("ctx_w"),
                    permission: Permission::Write,
                    protected: vec![root.join("ctx_w/protected.txt"), root.join("ctx_w/keep")],
                },
                ContextRoot {
                    path: root.join("ctx_file/only.txt"),
                    permission: Permission::Write,
                    protected: Vec::new(),
                },
            ],
        );
        Self {
            _dir: dir,
            root,
            ws,
            policy: Arc::new(policy),
        }
    }

    /// `<root>/<rel>` as a string.
    pub(crate) fn at(&self, rel: &str) -> String {
        self.root.join(rel).display().to_string()
    }

    /// Every entry under the root: files by content, symlinks by target, directories by name.
    pub(crate) fn snapshot(&self) -> BTreeMap<PathBuf, String> {
        WalkDir::new(&self.root)
            .follow_links(false)
            .into_iter()
            .map(|entry| {
                let entry = entry.unwrap();
                let kind = entry.file_type();
                let value = if kind.is_symlink() {
                    format!("link -> {}", fs::read_link(entry.path()).unwrap().display())
                } else if kind.is_dir() {
                    "dir".to_string()
                } else {
                    format!("file {:?}", fs::read(entry.path()).unwrap())
                };
                (entry.path().to_path_buf(), value)
            })
            .collect()
    }
}

//! Path permissions: [`PathPolicy`], the one place that decides whether an agent may read,
//! write or delete a path (its workspace, peers' read-only copies, the user's context paths).

mod ledger;
mod located;
mod refusal;
mod resolve;
mod roots;

#[cfg(test)]
mod escapes;
#[cfg(test)]
pub(crate) mod fixture;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::sync::RwLock;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::config::Permission;

/// A context path as the policy needs it: absolute, with its protected paths absolute too.
pub use crate::workspace::ContextRootSpec as ContextRoot;
use ledger::Ledger;
pub(crate) use located::Located;
pub use refusal::Refusal;
use refusal::{Problem, ReadOnly};
use roots::{Kind, Root, RootOnDisk, excluded_within, innermost};

/// What a tool is about to do with a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    /// Create, change, or move onto.
    Write,
    /// Remove; also needs the agent to have read or created what goes.
    Delete,
}

/// Decides, for one agent, which paths its tools may touch, and remembers what it read or
/// created so that deletes can be checked.
#[derive(Debug)]
pub struct PathPolicy {
    /// As given, lexically cleaned: relative paths are taken from it.
    workspace: PathBuf,
    /// The workspace, read-only directories and the config's context paths, then the
    /// paths attached to the current question.
    roots: RwLock<Vec<Root>>,
    fixed_roots: usize,
    context_writes: AtomicBool,
    ledger: Ledger,
}

impl PathPolicy {
    /// `workspace` is read and write; `readable` (peers' snapshots, previous turns) is read
    /// only; context paths are read, and writable with `permission: write` only while
    /// [`set_context_writes`](Self::set_context_writes) is on.
    pub fn new(workspace: PathBuf, readable: Vec<PathBuf>, context: Vec<ContextRoot>) -> Self {
        let mut roots = vec![Root::new(&workspace, Kind::Workspace)];
        roots.extend(readable.iter().map(|path| Root::new(path, Kind::Shared)));
        roots.extend(context.iter().map(Root::context));
        Self {
            workspace: resolve::normalize(&workspace),
            fixed_roots: roots.len(),
            roots: RwLock::new(roots),
            context_writes: AtomicBool::new(false),
            ledger: Ledger::default(),
        }
    }

    /// Replaces the context paths attached to the question (`@path`, `@path:w`); the
    /// config's own stay.
    pub fn set_turn_context(&self, context: Vec<ContextRoot>) {
        if let Ok(mut roots) = self.roots.write() {
            roots.truncate(self.fixed_roots);
            roots.extend(context.iter().map(Root::context));
        }
    }

    /// Turns writing to `permission: write` context paths on (the final presentation) or off.
    pub fn set_context_writes(&self, enabled: bool) {
        self.context_writes.store(enabled, Ordering::SeqCst);
    }

    pub fn context_writes(&self) -> bool {
        self.context_writes.load(Ordering::SeqCst)
    }

    /// The path to act on, or why not. Relative paths are taken from the workspace. For
    /// [`Access::Delete`] the returned path is the entry itself (a symlink is unlinked, not
    /// followed); otherwise every symlink is resolved.
    pub fn check(&self, raw: &str, access: Access) -> Result<PathBuf, Refusal> {
        self.on_disk().check(raw, access)
    }

    /// Remembers that the agent read `path` (as returned by [`check`](Self::check)).
    pub fn record_read(&self, path: &Path) {
        self.ledger.record(path);
    }

    /// Remembers that the agent created or wrote `path`.
    pub fn record_created(&self, path: &Path) {
        self.ledger.record(path);
    }

    /// Carries what the agent knew under `from` over to `to` after a move.
    pub fn record_moved(&self, from: &Path, to: &Path) {
        self.ledger.record_moved(from, to);
    }

    /// One line per allowed directory or file, saying what the agent may do there.
    pub fn allowed_directories(&self) -> Vec<String> {
        let writes = self.context_writes();
        self.on_disk()
            .roots
            .iter()
            .map(|root| {
                let what = match root.kind {
                    Kind::Workspace => "your workspace; read and write",
                    Kind::Shared => "read only; other agents' work or earlier turns",
                    Kind::Context(Permission::Read) => "context path; read only",
                    Kind::Context(Permission::Write) if writes => "context path; read and write",
                    Kind::Context(Permission::Write) => {
                        "context path; read only until the final presentation"
                    }
                };
                let mut line = format!("{} ({what})", root.canonical.display());
                if !root.protected.is_empty() {
                    let protected: Vec<String> = root
                        .protected
                        .iter()
                        .map(|path| path.display().to_string())
                        .collect();
                    line.push_str(&format!("; protected: {}", protected.join(", ")));
                }
                line
            })
            .collect()
    }

    /// Each root as it is on disk now, and whether the agent may write there now: what the
    /// OS sandbox of `execute_command` grants (it cannot carve protected paths out of a root).
    pub fn sandbox_roots(&self) -> Vec<(PathBuf, bool)> {
        let on_disk = self.on_disk();
        on_disk
            .roots
            .iter()
            .map(|root| (root.canonical.clone(), on_disk.writable(root).is_ok()))
            .collect()
    }

    /// The agent's workspace.
    pub fn workspace(&self) -> &Path {
        &self.workspace
    }

    /// What a process the agent starts in `workspace` may touch now: the workspace, the
    /// other roots read or written as [`sandbox_roots`](Self::sandbox_roots) says, and the
    /// network if `network`.
    pub fn sandbox_plan(&self, workspace: &Path, network: bool) -> crate::sandbox::Plan {
        let mut plan = crate::sandbox::Plan {
            workspace: workspace.to_path_buf(),
            network,
            ..crate::sandbox::Plan::default()
        };
        for (root, writable) in self.sandbox_roots() {
            if root == workspace {
                continue;
            }
            if writable {
                plan.writable.push(root);
            } else {
                plan.readable.push(root);
            }
        }
        plan
    }

    /// The roots as they are on disk now. A tool that checks several paths before it acts
    /// checks them all through one of these, so the roots are resolved once per call.
    pub(crate) fn on_disk(&self) -> OnDisk<'_> {
        let roots = self
            .roots
            .read()
            .map(|roots| roots.iter().map(Root::on_disk).collect())
            .unwrap_or_default();
        OnDisk {
            policy: self,
            roots,
        }
    }
}

/// A [`PathPolicy`] with its roots resolved at one moment; what the agent read or created
/// and whether context writes are on are read live.
pub(crate) struct OnDisk<'a> {
    policy: &'a PathPolicy,
    roots: Vec<RootOnDisk>,
}

impl OnDisk<'_> {
    /// [`PathPolicy::check`].
    pub(crate) fn check(&self, raw: &str, access: Access) -> Result<PathBuf, Refusal> {
        self.decide(raw, access)
            .map_err(|problem| problem.refuse(raw, &self.shown_workspace()))
    }

    /// Whether `path` (resolved) is one of the directories or files the agent was given.
    pub(crate) fn is_root(&self, path: &Path) -> bool {
        self.roots.iter().any(|root| root.is(path))
    }

    /// Whether `path` (resolved) is the workspace or inside it, and in no other root.
    pub(crate) fn in_workspace(&self, path: &Path) -> bool {
        innermost(&self.roots, path).is_some_and(|root| root.kind == Kind::Workspace)
    }

    fn shown_workspace(&self) -> PathBuf {
        match self.roots.iter().find(|root| root.kind == Kind::Workspace) {
            Some(root) => root.canonical.clone(),
            None => std::fs::canonicalize(&self.policy.workspace)
                .unwrap_or_else(|_| self.policy.workspace.clone()),
        }
    }

    fn decide(&self, raw: &str, access: Access) -> Result<PathBuf, Problem> {
        let roots = &self.roots;
        let lexical = resolve::lexical(raw, &self.policy.workspace)?;
        if !roots.iter().any(|root| root.holds_lexically(&lexical)) {
            let shared_file = roots.iter().find(|root| {
                root.is_file
                    && root
                        .canonical
                        .parent()
                        .is_some_and(|dir| lexical.starts_with(dir))
            });
            return Err(match shared_file {
                Some(root) => Problem::OnlyFileShared {
                    file: root.canonical.clone(),
                },
                None => Problem::Outside,
            });
        }
        let entry = resolve::entry(&lexical)?;
        let target = resolve::follow(&entry)?;
        let (Some(entry_root), Some(target_root)) =
            (innermost(roots, &entry), innermost(roots, &target))
        else {
            return Err(Problem::SymlinkOutside { target });
        };
        if let Ok(meta) = std::fs::metadata(&target) {
            if !(meta.is_file() || meta.is_dir()) {
                return Err(Problem::Special);
            }
            let links = hard_links(&meta);
            if meta.is_file() && links > 1 && access != Access::Delete {
                return Err(Problem::HardLinked { links });
            }
        }
        let touched_root = match access {
            Access::Read => return Ok(target),
            Access::Write => target_root,
            Access::Delete => entry_root,
        };
        self.writable(touched_root)?;
        if matches!(touched_root.kind, Kind::Context(_)) {
            let path = if access == Access::Delete {
                &entry
            } else {
                &target
            };
            if let Some(name) = excluded_within(path, &touched_root.canonical) {
                return Err(Problem::Excluded { name });
            }
        }
        let protected: Vec<&PathBuf> = roots.iter().flat_map(|root| &root.protected).collect();
        for path in [&entry, &target] {
            if protected
                .iter()
                .any(|protected| path.starts_with(protected))
            {
                return Err(Problem::Protected);
            }
        }
        if !target.is_file()
            && let Some(inside) = protected
                .iter()
                .find(|protected| protected.starts_with(&target))
        {
            return Err(Problem::ContainsProtected {
                protected: (*inside).clone(),
            });
        }
        match access {
            Access::Read | Access::Write => Ok(target),
            Access::Delete => {
                self.deletable(&entry, &target)?;
                Ok(entry)
            }
        }
    }

    fn writable(&self, root: &RootOnDisk) -> Result<(), Problem> {
        let read_only = |why| {
            Err(Problem::ReadOnly {
                root: root.canonical.clone(),
                why,
            })
        };
        match root.kind {
            Kind::Workspace => Ok(()),
            Kind::Shared => read_only(ReadOnly::Shared),
            Kind::Context(Permission::Read) => read_only(ReadOnly::Context),
            Kind::Context(Permission::Write) if self.policy.context_writes() => Ok(()),
            Kind::Context(Permission::Write) => read_only(ReadOnly::ContextUntilPresentation),
        }
    }

    fn deletable(&self, entry: &Path, target: &Path) -> Result<(), Problem> {
        if self
            .roots
            .iter()
            .any(|root| !root.is_file && root.is(entry))
        {
            return Err(Problem::Root);
        }
        let Ok(meta) = std::fs::symlink_metadata(entry) else {
            // Nothing to lose; the tool reports that it does not exist.
            return Ok(());
        };
        let ledger = &self.policy.ledger;
        if meta.is_dir() {
            return ledger.check_tree(entry);
        }
        if ledger.knows(entry) || ledger.knows(target) {
            Ok(())
        } else {
            Err(Problem::NotRead {
                file: entry.to_path_buf(),
            })
        }
    }
}

#[cfg(unix)]
fn hard_links(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn hard_links(_meta: &std::fs::Metadata) -> u64 {
    1
}

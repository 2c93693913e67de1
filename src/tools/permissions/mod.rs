//! Path permissions: [`PathPolicy`], the one place that decides whether an agent may read,
//! write or delete a path (its workspace, peers' read-only copies, the user's context paths).

mod ledger;
mod refusal;
mod resolve;

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

use ledger::Ledger;
pub use refusal::Refusal;
use refusal::{Problem, ReadOnly};

/// What a tool is about to do with a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    /// Create, change, or move onto.
    Write,
    /// Remove; also needs the agent to have read or created what goes.
    Delete,
}

/// A context path as the policy needs it: absolute, with its protected paths absolute too.
#[derive(Clone, Debug, PartialEq)]
pub struct ContextRoot {
    pub path: PathBuf,
    pub permission: Permission,
    pub protected: Vec<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Workspace,
    Shared,
    Context(Permission),
}

#[derive(Clone, Debug)]
struct Root {
    path: PathBuf,
    kind: Kind,
    protected: Vec<PathBuf>,
}

/// Names that stay read-only inside the user's files, as in MassGen: version control,
/// secrets, installed dependencies, caches and massgen's own directories.
const EXCLUDED_NAMES: [&str; 12] = [
    ".git",
    ".env",
    ".massgen",
    "massgen_logs",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".DS_Store",
];

fn excluded_within(path: &Path, root: &Path) -> Result<(), Problem> {
    let below = path.strip_prefix(root).unwrap_or(path);
    match below.components().find_map(|part| {
        let name = part.as_os_str().to_string_lossy();
        EXCLUDED_NAMES
            .iter()
            .find(|excluded| **excluded == name)
            .map(|excluded| (*excluded).to_string())
    }) {
        Some(name) => Err(Problem::Excluded { name }),
        None => Ok(()),
    }
}

fn context_root(context: ContextRoot) -> Root {
    Root {
        path: resolve::normalize(&context.path),
        kind: Kind::Context(context.permission),
        protected: context
            .protected
            .iter()
            .map(|path| resolve::normalize(path))
            .collect(),
    }
}

/// A root as it is on disk right now.
struct Resolved {
    root: Root,
    lexical: PathBuf,
    canonical: PathBuf,
    is_file: bool,
    protected: Vec<PathBuf>,
}

impl Resolved {
    fn holds(&self, path: &Path, base: &Path) -> bool {
        if self.is_file {
            path == base
        } else {
            path.starts_with(base)
        }
    }

    fn holds_lexically(&self, path: &Path) -> bool {
        self.holds(path, &self.lexical) || self.holds(path, &self.canonical)
    }
}

/// Decides, for one agent, which paths its tools may touch, and remembers what it read or
/// created so that deletes can be checked.
#[derive(Debug)]
pub struct PathPolicy {
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
        let workspace = resolve::normalize(&workspace);
        let mut roots = vec![Root {
            path: workspace.clone(),
            kind: Kind::Workspace,
            protected: Vec::new(),
        }];
        roots.extend(readable.into_iter().map(|path| Root {
            path: resolve::normalize(&path),
            kind: Kind::Shared,
            protected: Vec::new(),
        }));
        roots.extend(context.into_iter().map(context_root));
        Self {
            workspace,
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
            roots.extend(context.into_iter().map(context_root));
        }
    }

    /// Turns writing to `permission: write` context paths on (the final presentation) or off.
    pub fn set_context_writes(&self, enabled: bool) {
        self.context_writes.store(enabled, Ordering::SeqCst);
    }

    pub fn context_writes(&self) -> bool {
        self.context_writes.load(Ordering::SeqCst)
    }

    /// The workspace as given (lexically cleaned).
    pub fn workspace(&self) -> &Path {
        &self.workspace
    }

    /// The path to act on, or why not. Relative paths are taken from the workspace. For
    /// [`Access::Delete`] the returned path is the entry itself (a symlink is unlinked, not
    /// followed); otherwise every symlink is resolved.
    pub fn check(&self, raw: &str, access: Access) -> Result<PathBuf, Refusal> {
        self.decide(raw, access)
            .map_err(|problem| problem.refuse(raw, &self.shown_workspace()))
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

    /// Whether `path` (resolved) is one of the directories or files the agent was given.
    pub fn is_root(&self, path: &Path) -> bool {
        self.resolved_roots()
            .iter()
            .any(|root| root.canonical == path || root.lexical == path)
    }

    /// Whether `path` (resolved) is the workspace or inside it, and in no other root.
    pub fn in_workspace(&self, path: &Path) -> bool {
        self.resolved_roots()
            .iter()
            .filter(|root| root.holds(path, &root.canonical))
            .max_by_key(|root| root.canonical.components().count())
            .is_some_and(|root| root.root.kind == Kind::Workspace)
    }

    /// One line per allowed directory or file, saying what the agent may do there.
    pub fn allowed_directories(&self) -> Vec<String> {
        let writes = self.context_writes();
        self.resolved_roots()
            .iter()
            .map(|root| {
                let what = match root.root.kind {
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

    fn shown_workspace(&self) -> PathBuf {
        std::fs::canonicalize(&self.workspace).unwrap_or_else(|_| self.workspace.clone())
    }

    /// Roots are resolved on every check, so directories created or replaced after the
    /// policy was built are seen as they are now.
    fn resolved_roots(&self) -> Vec<Resolved> {
        let roots = self
            .roots
            .read()
            .map(|roots| roots.clone())
            .unwrap_or_default();
        roots
            .into_iter()
            .map(|root| {
                let canonical =
                    std::fs::canonicalize(&root.path).unwrap_or_else(|_| root.path.clone());
                let is_file = canonical.is_file();
                let mut protected = Vec::new();
                for path in &root.protected {
                    if let Ok(rest) = path.strip_prefix(&root.path) {
                        protected.push(canonical.join(rest));
                    }
                    if let Ok(real) = std::fs::canonicalize(path) {
                        protected.push(real);
                    }
                    protected.push(path.clone());
                }
                Resolved {
                    lexical: root.path.clone(),
                    root,
                    canonical,
                    is_file,
                    protected,
                }
            })
            .collect()
    }

    fn decide(&self, raw: &str, access: Access) -> Result<PathBuf, Problem> {
        let roots = self.resolved_roots();
        let lexical = resolve::lexical(raw, &self.workspace)?;
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
        let innermost = |path: &Path| {
            roots
                .iter()
                .filter(|root| root.holds(path, &root.canonical))
                .max_by_key(|root| root.canonical.components().count())
        };
        let (Some(entry_root), Some(target_root)) = (innermost(&entry), innermost(&target)) else {
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
        if matches!(touched_root.root.kind, Kind::Context(_)) {
            let path = if access == Access::Delete {
                &entry
            } else {
                &target
            };
            excluded_within(path, &touched_root.canonical)?;
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
                self.deletable(&roots, &entry, &target)?;
                Ok(entry)
            }
        }
    }

    fn writable(&self, root: &Resolved) -> Result<(), Problem> {
        let read_only = |why| {
            Err(Problem::ReadOnly {
                root: root.canonical.clone(),
                why,
            })
        };
        match root.root.kind {
            Kind::Workspace => Ok(()),
            Kind::Shared => read_only(ReadOnly::Shared),
            Kind::Context(Permission::Read) => read_only(ReadOnly::Context),
            Kind::Context(Permission::Write) if self.context_writes() => Ok(()),
            Kind::Context(Permission::Write) => read_only(ReadOnly::ContextUntilPresentation),
        }
    }

    fn deletable(&self, roots: &[Resolved], entry: &Path, target: &Path) -> Result<(), Problem> {
        if roots
            .iter()
            .any(|root| !root.is_file && (root.canonical == entry || root.lexical == entry))
        {
            return Err(Problem::Root);
        }
        let Ok(meta) = std::fs::symlink_metadata(entry) else {
            // Nothing to lose; the tool reports that it does not exist.
            return Ok(());
        };
        if meta.is_dir() {
            return self.ledger.check_tree(entry);
        }
        if self.ledger.knows(entry) || self.ledger.knows(target) {
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

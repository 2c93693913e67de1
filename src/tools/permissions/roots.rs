//! The directories and files an agent was given, as configured and as they are on disk at
//! the moment of a tool call.

use std::path::{Path, PathBuf};

use super::{ContextRoot, resolve};
use crate::config::Permission;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Workspace,
    Shared,
    Context(Permission),
}

/// A root as configured, lexically cleaned.
#[derive(Debug)]
pub(super) struct Root {
    path: PathBuf,
    kind: Kind,
    protected: Vec<PathBuf>,
}

impl Root {
    pub(super) fn new(path: &Path, kind: Kind) -> Self {
        Self {
            path: resolve::normalize(path),
            kind,
            protected: Vec::new(),
        }
    }

    pub(super) fn context(context: &ContextRoot) -> Self {
        Self {
            protected: context
                .protected
                .iter()
                .map(|path| resolve::normalize(path))
                .collect(),
            ..Self::new(&context.path, Kind::Context(context.permission))
        }
    }

    /// The root as it is on disk right now, so directories created or replaced after the
    /// policy was built are seen as they are.
    pub(super) fn on_disk(&self) -> RootOnDisk {
        let canonical = std::fs::canonicalize(&self.path).unwrap_or_else(|_| self.path.clone());
        let mut protected = Vec::new();
        for path in &self.protected {
            if let Ok(rest) = path.strip_prefix(&self.path) {
                protected.push(canonical.join(rest));
            }
            if let Ok(real) = std::fs::canonicalize(path) {
                protected.push(real);
            }
            protected.push(path.clone());
        }
        RootOnDisk {
            kind: self.kind,
            lexical: self.path.clone(),
            is_file: canonical.is_file(),
            canonical,
            protected,
        }
    }
}

pub(super) struct RootOnDisk {
    pub(super) kind: Kind,
    /// The path as configured.
    pub(super) lexical: PathBuf,
    pub(super) canonical: PathBuf,
    pub(super) is_file: bool,
    /// Each protected path under every name it may be reached by.
    pub(super) protected: Vec<PathBuf>,
}

impl RootOnDisk {
    /// Whether `path` (resolved) is this root or, for a directory, inside it.
    pub(super) fn holds(&self, path: &Path) -> bool {
        self.holds_under(path, &self.canonical)
    }

    /// [`holds`](Self::holds) for a path not resolved yet, under either name of the root.
    pub(super) fn holds_lexically(&self, path: &Path) -> bool {
        self.holds_under(path, &self.lexical) || self.holds_under(path, &self.canonical)
    }

    /// Whether `path` is this root itself, under either name.
    pub(super) fn is(&self, path: &Path) -> bool {
        self.canonical == path || self.lexical == path
    }

    fn holds_under(&self, path: &Path, base: &Path) -> bool {
        if self.is_file {
            path == base
        } else {
            path.starts_with(base)
        }
    }
}

/// The deepest of `roots` that holds `path` (resolved).
pub(super) fn innermost<'a>(roots: &'a [RootOnDisk], path: &Path) -> Option<&'a RootOnDisk> {
    roots
        .iter()
        .filter(|root| root.holds(path))
        .max_by_key(|root| root.canonical.components().count())
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

/// The first excluded name on the way from `root` down to `path`.
pub(super) fn excluded_within(path: &Path, root: &Path) -> Option<String> {
    let below = path.strip_prefix(root).unwrap_or(path);
    below.components().find_map(|part| {
        let name = part.as_os_str().to_string_lossy();
        EXCLUDED_NAMES
            .iter()
            .find(|excluded| **excluded == name)
            .map(|excluded| (*excluded).to_string())
    })
}

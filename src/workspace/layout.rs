//! Where workspaces, snapshots, temporary workspaces and context paths are on disk, as
//! MassGen lays them out under the project's `.massgen/` directory, with the skills agents
//! may read.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::io;
use std::path::{Path, PathBuf};

use crate::config::{OrchestratorConfig, Permission};
use crate::protocol::{AgentId, ContextPath};
use crate::workspace::skills::{SkillCatalog, discover};

/// One agent's directories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentDirs {
    /// Where the agent works (read and write).
    pub workspace: PathBuf,
    /// Where its peers' snapshots are copied before each of its rounds (read only).
    pub temp: PathBuf,
    /// Its latest answer's workspace.
    pub snapshot: PathBuf,
}

/// A context path resolved against the project directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContextRootSpec {
    pub path: PathBuf,
    pub permission: Permission,
    /// Absolute paths never written or deleted.
    pub protected: Vec<PathBuf>,
}

/// A path attached to a question (`@path`, `@path:w`): readable, or writable by the winner.
impl From<&ContextPath> for ContextRootSpec {
    fn from(attached: &ContextPath) -> Self {
        Self {
            path: attached.path.clone(),
            permission: if attached.writable {
                Permission::Write
            } else {
                Permission::Read
            },
            protected: Vec::new(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Layout {
    pub project_dir: PathBuf,
    pub massgen_dir: PathBuf,
    pub workspaces_root: PathBuf,
    pub snapshot_root: PathBuf,
    pub temp_root: PathBuf,
    pub context: Vec<ContextRootSpec>,
    /// `use_skills`: the skills agents are told about; their directories are in `context`
    /// (read only), as MassGen grants them.
    pub skills: SkillCatalog,
}

impl Layout {
    pub fn new(project_dir: &Path, orchestrator: &OrchestratorConfig) -> Self {
        let massgen_dir = project_dir.join(".massgen");
        let under_massgen = |setting: &Option<String>, default: &str| {
            let chosen = setting.as_deref().unwrap_or(default);
            if Path::new(chosen).is_absolute() {
                PathBuf::from(chosen)
            } else {
                massgen_dir.join(chosen.trim_start_matches(".massgen/"))
            }
        };
        let mut context: Vec<ContextRootSpec> = orchestrator
            .context_paths
            .iter()
            .map(|context| {
                let path = absolute(project_dir, &context.path);
                ContextRootSpec {
                    protected: context
                        .protected_paths
                        .iter()
                        .map(|protected| absolute(&path, protected))
                        .collect(),
                    path,
                    permission: context.permission,
                }
            })
            .collect();
        let skills = orchestrator
            .coordination
            .skills
            .as_ref()
            .map(|config| discover(project_dir, &massgen_dir.join("massgen_logs"), config))
            .unwrap_or_default();
        context.extend(skills.roots.iter().map(|root| ContextRootSpec {
            path: root.clone(),
            permission: Permission::Read,
            protected: Vec::new(),
        }));
        Self {
            project_dir: project_dir.to_path_buf(),
            workspaces_root: massgen_dir.join("workspaces"),
            snapshot_root: under_massgen(&orchestrator.snapshot_storage, "snapshots"),
            temp_root: under_massgen(&orchestrator.agent_temporary_workspace, "temp_workspaces"),
            massgen_dir,
            context,
            skills,
        }
    }

    /// Creates the agent's directories. `cwd` as in MassGen: a bare name becomes
    /// `.massgen/workspaces/<name>_<8 hex>`; absolute paths and paths already under
    /// `.massgen/` are kept.
    pub fn agent_dirs(&self, agent: &AgentId, cwd: &str) -> io::Result<AgentDirs> {
        let workspace = if Path::new(cwd).is_absolute() {
            PathBuf::from(cwd)
        } else if cwd.starts_with(".massgen/") {
            self.project_dir.join(cwd)
        } else {
            self.workspaces_root
                .join(format!("{}_{}", cwd.trim_end_matches('/'), random_hex()))
        };
        let dirs = AgentDirs {
            workspace,
            temp: self.temp_root.join(format!("temp_{}", random_hex())),
            snapshot: self.snapshot_root.join(agent.as_str()),
        };
        std::fs::create_dir_all(&dirs.workspace)?;
        std::fs::create_dir_all(&dirs.temp)?;
        Ok(AgentDirs {
            workspace: dirs.workspace.canonicalize()?,
            temp: dirs.temp.canonicalize()?,
            snapshot: dirs.snapshot,
        })
    }

    /// Every context path that does not exist, for a clear error before the run.
    pub fn missing_context_paths(&self) -> Vec<&Path> {
        self.context
            .iter()
            .map(|context| context.path.as_path())
            .filter(|path| !path.exists())
            .collect()
    }
}

fn absolute(base: &Path, path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    };
    joined.canonicalize().unwrap_or(joined)
}

/// Eight hex digits from the process's random hasher seed.
fn random_hex() -> String {
    let value = RandomState::new().hash_one(std::time::SystemTime::now());
    format!("{:08x}", value & 0xffff_ffff)
}

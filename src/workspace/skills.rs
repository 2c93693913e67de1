//! Finding an agent's skills as MassGen does: each directory holding a `SKILL.md` under the
//! project's skills directory, the user's `~/.agent/skills` and (when asked) the skills
//! earlier runs' agents wrote; a name seen twice keeps its first place.

use std::path::{Path, PathBuf};

use crate::config::{SkillsConfig, parse_front_matter};
pub use crate::protocol::SkillSource;

pub const SKILL_FILE: &str = "SKILL.md";

#[derive(Clone, Debug, PartialEq)]
pub struct Skill {
    pub name: String,
    pub description: String,
    pub source: SkillSource,
    /// The skill's `SKILL.md`, absolute.
    pub file: PathBuf,
}

/// A `SKILL.md` that was left out, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct SkillProblem {
    pub file: PathBuf,
    pub reason: String,
}

/// The skills found, the files left out, and the directories agents may read them from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkillCatalog {
    pub skills: Vec<Skill>,
    pub problems: Vec<SkillProblem>,
    pub roots: Vec<PathBuf>,
}

/// Every skill `config` makes available to a run in `project_dir`; earlier runs' logs are
/// under `logs_dir` (`.massgen/massgen_logs`).
pub fn discover(project_dir: &Path, logs_dir: &Path, config: &SkillsConfig) -> SkillCatalog {
    let mut catalog = SkillCatalog::default();
    let project = absolute(project_dir.join(&config.directory));
    catalog.scan_root(&project, SkillSource::Project);
    if let Some(user) = &config.user_directory
        && absolute(user.clone()) != project
    {
        catalog.scan_root(&absolute(user.clone()), SkillSource::User);
    }
    if config.load_previous_sessions {
        for (run, file) in previous_session_skill_files(logs_dir) {
            if let Some(dir) = file.parent() {
                let before = catalog.skills.len();
                catalog.add(
                    format!("session-{run}"),
                    &file,
                    SkillSource::PreviousSession,
                );
                if catalog.skills.len() > before {
                    catalog.roots.push(dir.to_path_buf());
                }
            }
        }
    }
    catalog
}

impl SkillCatalog {
    fn scan_root(&mut self, root: &Path, source: SkillSource) {
        let Ok(entries) = std::fs::read_dir(root) else {
            return;
        };
        let mut dirs: Vec<PathBuf> = entries
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.is_dir())
            .collect();
        dirs.sort();
        let before = self.skills.len();
        for dir in dirs {
            let file = dir.join(SKILL_FILE);
            if file.is_file() {
                let fallback = dir
                    .file_name()
                    .map(|name| name.to_string_lossy().into_owned())
                    .unwrap_or_default();
                self.add(fallback, &file, source);
            }
        }
        if self.skills.len() > before {
            self.roots.push(root.to_path_buf());
        }
    }

    /// `fallback_name` is MassGen's name for a skill whose front matter gives none.
    fn add(&mut self, fallback_name: String, file: &Path, source: SkillSource) {
        let parsed = std::fs::read_to_string(file)
            .map_err(|error| format!("cannot be read: {error}"))
            .and_then(|text| parse_front_matter(&text));
        let front = match parsed {
            Ok(front) => front,
            Err(reason) => {
                self.problems.push(SkillProblem {
                    file: file.to_path_buf(),
                    reason,
                });
                return;
            }
        };
        let name = front.name.unwrap_or(fallback_name);
        let taken = self
            .skills
            .iter()
            .any(|skill| skill.name.eq_ignore_ascii_case(&name));
        if !taken {
            self.skills.push(Skill {
                name,
                description: front.description,
                source,
                file: file.to_path_buf(),
            });
        }
    }
}

/// `log_*/turn_*/attempt_<last>/final/*/workspace/tasks/evolving_skill/SKILL.md`, newest
/// run first, as MassGen scans them.
fn previous_session_skill_files(logs_dir: &Path) -> Vec<(String, PathBuf)> {
    let mut runs = children(logs_dir, "log_");
    runs.reverse();
    let mut files = Vec::new();
    for run in runs {
        let run_name = run
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        for turn in children(&run, "turn_") {
            let last_attempt = children(&turn, "attempt_")
                .into_iter()
                .max_by_key(|dir| number_after(dir, "attempt_").unwrap_or(0));
            let Some(attempt) = last_attempt else {
                continue;
            };
            for agent in children(&attempt.join("final"), "") {
                let file = agent
                    .join("workspace")
                    .join("tasks")
                    .join("evolving_skill")
                    .join(SKILL_FILE);
                if file.is_file() {
                    files.push((run_name.clone(), file));
                }
            }
        }
    }
    files
}

/// The subdirectories of `dir` whose names start with `prefix`, sorted by name.
fn children(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.is_dir()
                && path
                    .file_name()
                    .is_some_and(|name| name.to_string_lossy().starts_with(prefix))
        })
        .collect();
    found.sort();
    found
}

fn number_after(dir: &Path, prefix: &str) -> Option<u64> {
    dir.file_name()?
        .to_string_lossy()
        .strip_prefix(prefix)?
        .parse()
        .ok()
}

fn absolute(path: PathBuf) -> PathBuf {
    path.canonicalize().unwrap_or(path)
}

#[cfg(test)]
#[path = "skills_tests.rs"]
mod tests;

//! Which directories massgen refuses to hand to agents: `/`, the home directory itself,
//! system directories, and — for paths a config grants — anything outside the project.
//! Also how a path that may not exist yet resolves (symlinks and `..` included).

use std::fs::Metadata;
use std::path::{Component, Path, PathBuf};

/// System directories: never granted themselves; what lies inside them is outside any
/// project that is not itself inside them.
const SYSTEM_DIRS: &[&str] = &[
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/home",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/media",
    "/mnt",
    "/opt",
    "/proc",
    "/root",
    "/run",
    "/sbin",
    "/snap",
    "/srv",
    "/sys",
    "/tmp",
    "/usr",
    "/var",
    // macOS
    "/Applications",
    "/Library",
    "/System",
    "/Users",
    "/Volumes",
    "/private",
    "/private/etc",
    "/private/tmp",
    "/private/var",
];

/// Pseudo-filesystems: their files are devices or never end, so nothing in them is
/// attached either.
const PSEUDO_TREES: &[&str] = &["/dev", "/proc", "/sys"];

/// Why a path is not handed to agents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    Root,
    Home(PathBuf),
    /// The system directory the path is, or lies in.
    System {
        dir: PathBuf,
        inside: bool,
    },
    OutsideProject {
        project: PathBuf,
    },
}

impl Refusal {
    /// "is the root directory `/`", … — what follows the path in a message.
    pub fn describe(&self) -> String {
        match self {
            Self::Root => "is the root directory `/`".into(),
            Self::Home(home) => format!("is your home directory ({}) itself", home.display()),
            Self::System { dir, inside: false } => {
                format!("is the system directory {}", dir.display())
            }
            Self::System { dir, inside: true } => {
                format!("is inside the system directory {}", dir.display())
            }
            Self::OutsideProject { project } => {
                format!("is outside the project directory {}", project.display())
            }
        }
    }
}

/// Who asked for the path: a config (every rule) or the user attaching it to a question
/// (`/`, home, system directories themselves and pseudo-filesystems only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grantor {
    Config,
    Attachment,
}

/// The rule `resolved` (canonical) breaks, if any. `project` is canonical too.
pub fn refusal(resolved: &Path, project: &Path, grantor: Grantor) -> Option<Refusal> {
    if resolved.parent().is_none() {
        return Some(Refusal::Root);
    }
    if let Some(home) = home_dir()
        && resolved == home
    {
        return Some(Refusal::Home(home));
    }
    if let Some(dir) = SYSTEM_DIRS
        .iter()
        .map(Path::new)
        .find(|dir| resolved == *dir)
    {
        return Some(Refusal::System {
            dir: dir.to_path_buf(),
            inside: false,
        });
    }
    let in_project = resolved.starts_with(project);
    match grantor {
        Grantor::Attachment => PSEUDO_TREES
            .iter()
            .map(Path::new)
            .find(|tree| resolved.starts_with(tree) && !in_project)
            .map(|dir| Refusal::System {
                dir: dir.to_path_buf(),
                inside: true,
            }),
        Grantor::Config if in_project => None,
        Grantor::Config => Some(
            SYSTEM_DIRS
                .iter()
                .map(Path::new)
                .filter(|dir| resolved.starts_with(dir))
                .max_by_key(|dir| dir.components().count())
                .filter(|dir| !is_open_area(dir))
                .map_or_else(
                    || Refusal::OutsideProject {
                        project: project.to_path_buf(),
                    },
                    |dir| Refusal::System {
                        dir: dir.to_path_buf(),
                        inside: true,
                    },
                ),
        ),
    }
}

/// Directories that hold users' own files: what is inside them is just "outside the
/// project", not "inside a system directory".
fn is_open_area(dir: &Path) -> bool {
    [
        "/home",
        "/tmp",
        "/mnt",
        "/media",
        "/Users",
        "/Volumes",
        "/private/tmp",
    ]
    .iter()
    .any(|open| dir == Path::new(open))
}

/// The user's home directory, canonical.
pub fn home_dir() -> Option<PathBuf> {
    let home = directories::BaseDirs::new()?.home_dir().to_path_buf();
    Some(home.canonicalize().unwrap_or(home))
}

/// Where `path` leads once it exists: the longest existing prefix is canonicalised
/// (symlinks followed) and the rest applied by name, `..` included, until nothing changes.
pub fn resolve(path: &Path) -> PathBuf {
    let mut current = path.to_path_buf();
    // Each pass removes every `..` after the existing prefix; a second pass follows
    // symlinks that those `..` led back into.
    for _ in 0..2 {
        current = resolve_once(&current);
    }
    current
}

fn resolve_once(path: &Path) -> PathBuf {
    let components: Vec<Component<'_>> = path.components().collect();
    for split in (0..=components.len()).rev() {
        let prefix: PathBuf = components[..split].iter().collect();
        let Ok(mut resolved) = prefix.canonicalize() else {
            continue;
        };
        for component in &components[split..] {
            match component {
                Component::ParentDir => {
                    resolved.pop();
                }
                Component::Normal(name) => resolved.push(name),
                Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            }
        }
        return resolved;
    }
    path.to_path_buf()
}

/// "a directory", "a FIFO (named pipe)", … for messages about what a path is.
pub fn describe_kind(metadata: &Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = metadata.file_type();
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
    }
    if metadata.is_dir() {
        "a directory"
    } else if metadata.is_symlink() {
        "a symbolic link"
    } else if metadata.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_home_and_system_directories_are_refused_for_everyone() {
        let project = Path::new("/work/project");
        for grantor in [Grantor::Config, Grantor::Attachment] {
            assert_eq!(
                refusal(Path::new("/"), project, grantor),
                Some(Refusal::Root)
            );
            assert!(matches!(
                refusal(Path::new("/etc"), project, grantor),
                Some(Refusal::System { inside: false, .. })
            ));
            assert!(matches!(
                refusal(Path::new("/proc/1/environ"), project, grantor),
                Some(Refusal::System { inside: true, .. })
            ));
        }
    }

    #[test]
    fn configs_stay_in_the_project_but_attachments_may_leave_it() {
        let project = Path::new("/srv/app");
        assert_eq!(
            refusal(Path::new("/srv/app/src"), project, Grantor::Config),
            None
        );
        assert_eq!(
            refusal(Path::new("/etc/hosts"), project, Grantor::Attachment),
            None
        );
        assert!(matches!(
            refusal(Path::new("/etc/ssh"), project, Grantor::Config),
            Some(Refusal::System { inside: true, .. })
        ));
        assert!(matches!(
            refusal(Path::new("/tmp/elsewhere"), project, Grantor::Config),
            Some(Refusal::OutsideProject { .. })
        ));
    }

    #[test]
    fn resolving_applies_parent_steps_past_missing_directories_and_follows_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let project = root.join("project");
        std::fs::create_dir_all(&project).unwrap();
        assert_eq!(
            resolve(&project.join(".massgen/workspaces/../../../escaped")),
            root.join("escaped")
        );
        let outside = root.join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&outside, project.join("link")).unwrap();
            assert_eq!(
                resolve(&project.join("missing/../link/new")),
                outside.join("new")
            );
        }
    }
}

//! Filesystem memory (`enable_memory_filesystem_mode`), laid out as MassGen lays it out:
//! Markdown files in `memory/short_term/` and `memory/long_term/` of a workspace. Files are
//! read and written through directory handles that follow no link, so a link an agent
//! plants there never leads outside its workspace.

use std::ffi::OsStr;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};

use super::beneath::{self, Kind};

/// The memory directory's name in a workspace.
pub const MEMORY_DIR: &str = "memory";

/// A memory file larger than this is left out (prompts and merges stay bounded).
pub const MAX_MEMORY_FILE_BYTES: u64 = 256 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// Loaded into every round's prompt in full.
    ShortTerm,
    /// Listed by name and description; read when needed.
    LongTerm,
}

impl Tier {
    pub const ALL: [Self; 2] = [Self::ShortTerm, Self::LongTerm];

    pub fn dir_name(self) -> &'static str {
        match self {
            Self::ShortTerm => "short_term",
            Self::LongTerm => "long_term",
        }
    }

    fn relative(self) -> PathBuf {
        Path::new(MEMORY_DIR).join(self.dir_name())
    }
}

/// One `*.md` memory file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryFile {
    pub tier: Tier,
    /// The file's name without `.md`.
    pub name: String,
    pub text: String,
}

impl MemoryFile {
    /// The YAML front matter's `description:`, if the file has one.
    pub fn description(&self) -> Option<&str> {
        front_matter(&self.text)?
            .0
            .lines()
            .find_map(|line| line.trim().strip_prefix("description:"))
            .map(str::trim)
    }

    /// The text after the front matter (all of it when there is none), trimmed.
    pub fn body(&self) -> &str {
        front_matter(&self.text).map_or(self.text.trim(), |(_, body)| body.trim())
    }
}

/// `(front matter, body)` of a text that starts with a `---` block, as MassGen splits it.
fn front_matter(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("---")?;
    rest.split_once("---")
}

/// Creates `memory/short_term/` and `memory/long_term/` in the workspace.
pub fn create_dirs(workspace: &Path) -> io::Result<()> {
    let root = beneath::open_dir(workspace)?;
    for tier in Tier::ALL {
        beneath::create_dirs(root.as_fd(), &tier.relative())?;
    }
    Ok(())
}

/// Every memory file under `root/memory/`, short-term first, each tier by name. A missing
/// directory has none; links, non-Markdown and oversized files are left out.
pub fn read_all(root: &Path) -> io::Result<Vec<MemoryFile>> {
    let mut files = Vec::new();
    for_each_tier(root, |tier, dir, names| {
        for file_name in names {
            if let Some(text) = read_bounded(dir, &file_name)? {
                files.push(MemoryFile {
                    tier,
                    name: file_name.trim_end_matches(".md").to_string(),
                    text,
                });
            }
        }
        Ok(())
    })?;
    Ok(files)
}

/// The memory files under `root/memory/` as `memory/<tier>/<name>.md`, in [`read_all`]'s
/// order, without reading them.
pub fn list(root: &Path) -> io::Result<Vec<String>> {
    let mut listed = Vec::new();
    for_each_tier(root, |tier, _, names| {
        listed.extend(
            names
                .into_iter()
                .map(|name| format!("{MEMORY_DIR}/{}/{name}", tier.dir_name())),
        );
        Ok(())
    })?;
    Ok(listed)
}

/// Calls `visit` with each existing tier directory and its `*.md` regular files by name.
fn for_each_tier(
    root: &Path,
    mut visit: impl FnMut(Tier, &OwnedFd, Vec<String>) -> io::Result<()>,
) -> io::Result<()> {
    let root = match beneath::open_dir(root) {
        Ok(root) => root,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(error),
    };
    for tier in Tier::ALL {
        let Some(dir) = open_tier(&root, tier)? else {
            continue;
        };
        let names: Vec<String> = beneath::entries(dir.as_fd())?
            .into_iter()
            .filter(|(_, kind)| *kind == Kind::File)
            .filter_map(|(name, _)| name.into_string().ok())
            .filter(|name| name.len() > 3 && name.ends_with(".md"))
            .collect();
        visit(tier, &dir, names)?;
    }
    Ok(())
}

/// MassGen's restore from the previous turn: copies every memory file of `from` into
/// `to_workspace`, replacing files of the same name. Returns how many were copied.
pub fn restore(from: &Path, to_workspace: &Path) -> io::Result<usize> {
    let files = read_all(from)?;
    let to = beneath::open_dir(to_workspace)?;
    for file in &files {
        write_file(&to, file, file.text.as_bytes())?;
    }
    Ok(files.len())
}

/// MassGen's merge into the winner: every memory file of the peer `peer_id` (its workspace
/// `from`) is copied into the winner's workspace, or, when the winner has one of the same
/// name, appended under `# From Agent <peer_id>`. Returns how many files were merged.
pub fn merge_into(winner_workspace: &Path, peer_id: &str, from: &Path) -> io::Result<usize> {
    let files = read_all(from)?;
    let winner = beneath::open_dir(winner_workspace)?;
    for file in &files {
        let existing = open_tier(&winner, file.tier)?
            .map(|dir| read_bounded(&dir, &format!("{}.md", file.name)))
            .transpose()?
            .flatten();
        let text = match existing {
            Some(existing) => {
                format!(
                    "{existing}\n\n---\n\n# From Agent {peer_id}\n\n{}",
                    file.text
                )
            }
            None => file.text.clone(),
        };
        write_file(&winner, file, text.as_bytes())?;
    }
    Ok(files.len())
}

fn open_tier(root: &OwnedFd, tier: Tier) -> io::Result<Option<OwnedFd>> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY;
    match beneath::open(root.as_fd(), &tier.relative(), flags, Mode::empty()) {
        Ok(dir) => Ok(Some(dir)),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    }
}

/// The file's text; `None` when it is missing, a link, too large or not UTF-8.
fn read_bounded(dir: &OwnedFd, file_name: &str) -> io::Result<Option<String>> {
    let opened = beneath::open(
        dir.as_fd(),
        Path::new(OsStr::new(file_name)),
        // Non-blocking: opening a FIFO planted under a memory name must not hang.
        OFlags::RDONLY | OFlags::NONBLOCK,
        Mode::empty(),
    );
    let fd = match opened {
        Ok(fd) => fd,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        // A link where a memory file should be (ELOOP): not a memory.
        Err(error) if error.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) => {
            return Ok(None);
        }
        Err(error) => return Err(error),
    };
    let mut file = std::fs::File::from(fd);
    if !file.metadata()?.is_file() {
        return Ok(None);
    }
    let mut bytes = Vec::new();
    (&mut file)
        .take(MAX_MEMORY_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_MEMORY_FILE_BYTES {
        return Ok(None);
    }
    Ok(String::from_utf8(bytes).ok())
}

fn write_file(root: &OwnedFd, file: &MemoryFile, bytes: &[u8]) -> io::Result<()> {
    let dir = beneath::create_dirs(root.as_fd(), &file.tier.relative())?;
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::TRUNC | OFlags::NONBLOCK;
    let fd = beneath::open(
        dir.as_fd(),
        Path::new(&format!("{}.md", file.name)),
        flags,
        Mode::from_raw_mode(0o644),
    )?;
    std::fs::File::from(fd).write_all(bytes)
}

#[cfg(test)]
#[path = "memory_tests.rs"]
mod tests;

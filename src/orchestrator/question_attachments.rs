//! The question's `@path`s that name an image (PNG, JPEG, GIF, WebP — known by their bytes)
//! or a PDF become attachments on every agent's question message, beside staying context
//! paths. Each is checked against every agent's API before the turn starts, so a file too
//! large for a provider is refused with its name, size and the limit.

use std::io::Read as _;
use std::path::Path;

use crate::config::Config;
use crate::config::attachment_limits::{MEDIA_MAX_FILE_SIZE, refusal};
use crate::config::provider_options::Api;
use crate::protocol::{Attachment, ContextPath, MediaKind, sniff};

/// Bytes enough for every magic number `sniff` knows.
const HEADER: u64 = 16;

/// The attachments among `paths`, read from disk; an error names the file and why.
pub fn read(paths: &[ContextPath]) -> Result<Vec<Attachment>, String> {
    let mut attachments = Vec::new();
    for context in paths.iter().filter(|context| context.path.is_file()) {
        if let Some(attachment) = read_one(&context.path)? {
            attachments.push(attachment);
        }
    }
    Ok(attachments)
}

fn read_one(path: &Path) -> Result<Option<Attachment>, String> {
    let cannot = |error: std::io::Error| format!("cannot read @{}: {error}", path.display());
    let mut header = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(HEADER).read_to_end(&mut header))
        .map_err(cannot)?;
    if !matches!(sniff(&header), Some((MediaKind::Image | MediaKind::Pdf, _))) {
        return Ok(None);
    }
    let size = std::fs::metadata(path).map_err(cannot)?.len();
    if size > MEDIA_MAX_FILE_SIZE {
        return Err(format!(
            "@{} is {:.1} MB, over MassGen's media_max_file_size_mb of 64 MB — attach a \
             smaller file",
            path.display(),
            size as f64 / (1024.0 * 1024.0)
        ));
    }
    Attachment::read(path).map_err(cannot)
}

/// Why some agent's API cannot take `attachments` with its own `upload_files`, naming the
/// agent; agent CLIs read the files themselves and the offline backend ignores them.
pub fn refused(config: &Config, attachments: &[Attachment]) -> Option<String> {
    if attachments.is_empty() {
        return None;
    }
    config.agents.iter().find_map(|agent| {
        let api = Api::of(agent.backend.kind)?;
        let all: Vec<Attachment> = attachments
            .iter()
            .chain(&agent.backend.upload_files)
            .cloned()
            .collect();
        let why = refusal(&all, api)?;
        Some(format!("agent {}: {why}", agent.id))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context(path: &Path) -> ContextPath {
        ContextPath {
            path: path.to_path_buf(),
            writable: false,
        }
    }

    #[test]
    fn images_and_pdfs_are_attached_other_files_and_directories_are_not() {
        let dir = tempfile::tempdir().unwrap_or_else(|_| unreachable!());
        let photo = dir.path().join("photo.dat");
        std::fs::write(&photo, b"\xFF\xD8\xFFjpeg").unwrap_or_default();
        let notes = dir.path().join("notes.png");
        std::fs::write(&notes, b"not an image").unwrap_or_default();
        let paths = [context(&photo), context(&notes), context(dir.path())];
        let attached = read(&paths).unwrap_or_default();
        let seen: Vec<(&str, &str)> = attached
            .iter()
            .map(|a| (a.name.as_str(), a.media_type.as_str()))
            .collect();
        assert_eq!(seen, [("photo.dat", "image/jpeg")]);
        assert_eq!(attached[0].path.as_deref(), Some(photo.as_path()));
    }
}

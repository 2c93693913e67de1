//! A backend's `upload_files`, as MassGen 0.1.97 reads them (`_process_upload_files`):
//! entries `image_path`, `file_path`, `audio_path` or `video_path`, each a local path or an
//! http(s) URL; a relative path is under the backend's `cwd` when it has one, else under
//! the directory massgen runs in. Local files are read at load, so a missing file, a file
//! of the wrong kind, or one too large for the agent's API is refused before any call.

use std::path::PathBuf;

use crate::config::attachment_limits::{MEDIA_MAX_FILE_SIZE, refusal};
use crate::config::backend_kind::BackendKind;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::provider_options::Api;
use crate::config::yaml_node::Value;
use crate::protocol::{Attachment, MediaKind};

/// The entry keys and the kind of file each must name.
const KEYS: [(&str, MediaKind); 4] = [
    ("image_path", MediaKind::Image),
    ("file_path", MediaKind::Pdf),
    ("audio_path", MediaKind::Audio),
    ("video_path", MediaKind::Video),
];

const EXAMPLE: &str = "upload_files: [{image_path: photos/cat.jpg}, {file_path: report.pdf}]";

pub(super) fn parse_upload_files(
    backend: &Fields<'_>,
    kind: BackendKind,
    cwd: Option<&str>,
) -> Result<Vec<Attachment>, Problem> {
    let Some(node) = backend.get("upload_files") else {
        return Ok(Vec::new());
    };
    let Value::Seq(items) = &node.value else {
        return Err(backend.wrong_type("upload_files", node, "a list of files", EXAMPLE));
    };
    let path = backend.key_path("upload_files");
    let api = Api::of(kind);
    let mut attachments = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let entry = Fields::of(item, format!("{path}[{index}]"))?;
        let attachment = parse_entry(&entry, cwd)?;
        if let Some(why) = api.and_then(|api| refusal(std::slice::from_ref(&attachment), api)) {
            return Err(Problem::at(entry.loc(), format!("`{}`: {why}", entry.path))
                .help("remove the entry, or give this agent a backend that takes the file"));
        }
        attachments.push(attachment);
    }
    if let Some(why) = api.and_then(|api| refusal(&attachments, api)) {
        return Err(Problem::at(node.loc, format!("`{path}`: {why}")));
    }
    Ok(attachments)
}

fn parse_entry(entry: &Fields<'_>, cwd: Option<&str>) -> Result<Attachment, Problem> {
    let found = KEYS
        .iter()
        .find_map(|(key, kind)| Some((*key, *kind, entry.string(key).transpose()?)));
    let Some((key, kind, written)) = found else {
        return Err(Problem::at(
            entry.loc(),
            format!(
                "`{}` names no file: an entry is one of {}",
                entry.path,
                KEYS.map(|(key, _)| key).join(", ")
            ),
        )
        .help(format!("write it like {EXAMPLE}")));
    };
    let written = written?;
    let at = entry.get(key).map_or(entry.loc(), |node| node.loc);
    let key_path = entry.key_path(key);
    if kind == MediaKind::Video {
        return Err(Problem::at(
            at,
            format!("`{key_path}`: massgen does not send video to any model API"),
        )
        .help("remove the entry; describe the video in the question or attach frames as images"));
    }
    if written.starts_with("http://") || written.starts_with("https://") {
        let attachment = Attachment::url(written.as_str(), kind, fallback_type(kind));
        if kind == MediaKind::Pdf && !attachment.name.to_ascii_lowercase().ends_with(".pdf") {
            return Err(not_a_pdf(at, &key_path));
        }
        return Ok(attachment);
    }
    let file = resolve(&written, cwd);
    let cannot = |why: String| {
        Problem::at(at, format!("`{key_path}`: {why}")).help(
            "a relative path is under the backend's `cwd` when it has one, else under the \
             directory massgen runs in (as MassGen resolves it)",
        )
    };
    let size = std::fs::metadata(&file)
        .map_err(|_| cannot(format!("file not found: {}", file.display())))?
        .len();
    if size > MEDIA_MAX_FILE_SIZE {
        return Err(cannot(format!(
            "{} is {:.1} MB, over MassGen's media_max_file_size_mb of 64 MB",
            file.display(),
            size as f64 / (1024.0 * 1024.0)
        )));
    }
    let attachment = Attachment::read(&file)
        .map_err(|error| cannot(format!("cannot read {}: {error}", file.display())))?;
    match attachment {
        Some(attachment) if attachment.kind == kind => Ok(attachment),
        _ if kind == MediaKind::Pdf => Err(not_a_pdf(at, &key_path)),
        _ => Err(cannot(format!(
            "{} is no {} massgen can send ({})",
            file.display(),
            kind.noun(),
            if kind == MediaKind::Image {
                "PNG, JPEG, GIF or WebP"
            } else {
                "WAV or MP3"
            }
        ))),
    }
}

fn not_a_pdf(at: crate::config::yaml_node::Location, key_path: &str) -> Problem {
    Problem::at(
        at,
        format!("`{key_path}`: massgen attaches PDFs only; it does not upload other files to OpenAI's File Search"),
    )
    .help("attach a PDF, or grant the file as a `context_paths` entry for agents to read")
}

fn fallback_type(kind: MediaKind) -> &'static str {
    match kind {
        MediaKind::Image => "image/jpeg",
        MediaKind::Pdf => "application/pdf",
        MediaKind::Audio => "audio/wav",
        MediaKind::Video => "video/mp4",
    }
}

/// `~` expanded; a relative path joined to `cwd` when there is one.
fn resolve(written: &str, cwd: Option<&str>) -> PathBuf {
    let expanded = match (written.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(written),
    };
    match cwd {
        Some(cwd) if expanded.is_relative() => PathBuf::from(cwd).join(expanded),
        _ => expanded,
    }
}

#[cfg(test)]
#[path = "upload_files_tests.rs"]
mod tests;

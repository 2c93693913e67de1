//! `upload_files` entries as MassGen's configs write them, and their errors.

use crate::config::{Env, from_text};
use crate::protocol::{Attachment, MediaKind};

fn config(backend: &str, dir: &std::path::Path, entries: &str) -> String {
    format!(
        "agent:\n  id: a\n  backend:\n    type: {backend}\n    model: m\n    cwd: \"{}\"\n    \
         upload_files:\n{entries}",
        dir.display()
    )
}

fn load(backend: &str, dir: &std::path::Path, entries: &str) -> Vec<Attachment> {
    let loaded = from_text(&config(backend, dir, entries), "t.yaml", &Env::default()).unwrap();
    assert!(
        loaded
            .warnings
            .iter()
            .all(|w| !w.message.contains("upload_files")),
        "{:?}",
        loaded.warnings
    );
    loaded.config.agents[0].backend.upload_files.clone()
}

fn error(backend: &str, dir: &std::path::Path, entries: &str) -> String {
    from_text(&config(backend, dir, entries), "t.yaml", &Env::default())
        .unwrap_err()
        .to_string()
}

fn files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("cat.jpg"), b"\xFF\xD8\xFFjpeg").unwrap();
    std::fs::write(dir.path().join("report.pdf"), b"%PDF-1.4\nx").unwrap();
    std::fs::write(dir.path().join("notes.txt"), b"plain text").unwrap();
    std::fs::write(dir.path().join("voice.wav"), b"RIFF\0\0\0\0WAVEfmt ").unwrap();
    dir
}

#[test]
fn images_pdfs_and_urls_are_read_relative_to_the_backends_cwd() {
    let dir = files();
    let attached = load(
        "openai",
        dir.path(),
        "      - image_path: cat.jpg\n      - file_path: report.pdf\n      \
         - image_path: https://img.test/dog.png\n",
    );
    let seen: Vec<(&str, &str, MediaKind, u64)> = attached
        .iter()
        .map(|a| (a.name.as_str(), a.media_type.as_str(), a.kind, a.size))
        .collect();
    assert_eq!(
        seen,
        [
            ("cat.jpg", "image/jpeg", MediaKind::Image, 7),
            ("report.pdf", "application/pdf", MediaKind::Pdf, 10),
            ("dog.png", "image/png", MediaKind::Image, 0),
        ]
    );
    assert_eq!(attached[0].path, Some(dir.path().join("cat.jpg")));
    assert_eq!(attached[2].url.as_deref(), Some("https://img.test/dog.png"));
}

#[test]
fn a_missing_file_is_an_error_naming_the_entry_and_the_resolved_path() {
    let dir = files();
    let message = error("claude", dir.path(), "      - image_path: gone.png\n");
    assert!(
        message.contains("upload_files[0].image_path`: file not found"),
        "{message}"
    );
    assert!(
        message.contains(&dir.path().join("gone.png").display().to_string()),
        "{message}"
    );
    assert!(
        message.contains("relative to") || message.contains("under the backend's `cwd`"),
        "{message}"
    );
}

#[test]
fn an_entry_naming_no_file_and_a_wrong_kind_are_errors() {
    let dir = files();
    let message = error("claude", dir.path(), "      - path: cat.jpg\n");
    assert!(
        message.contains("upload_files[0]` names no file"),
        "{message}"
    );
    assert!(
        message.contains("image_path, file_path, audio_path, video_path"),
        "{message}"
    );
    let message = error("claude", dir.path(), "      - image_path: notes.txt\n");
    assert!(
        message.contains("notes.txt is no image massgen can send"),
        "{message}"
    );
    let message = error("openai", dir.path(), "      - file_path: notes.txt\n");
    assert!(message.contains("massgen attaches PDFs only"), "{message}");
    let message = error("claude", dir.path(), "      - cat.jpg\n");
    assert!(message.contains("upload_files[0]"), "{message}");
}

#[test]
fn audio_goes_to_chat_completions_and_is_refused_where_the_api_has_no_shape() {
    let dir = files();
    let attached = load(
        "chatcompletion",
        dir.path(),
        "      - audio_path: voice.wav\n",
    );
    assert_eq!(attached[0].media_type, "audio/wav");
    let message = error("claude", dir.path(), "      - audio_path: voice.wav\n");
    assert!(
        message.contains("the Anthropic Messages API does not take audio files"),
        "{message}"
    );
    let message = error(
        "chatcompletion",
        dir.path(),
        "      - video_path: clip.mp4\n",
    );
    assert!(message.contains("massgen does not send video"), "{message}");
}

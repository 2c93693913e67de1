//! The images the wheel's `upload_files` examples send, which the wheel leaves out.

#![allow(clippy::unwrap_used)]

use crate::support::sandbox::Sandbox;

/// The wheel leaves out the images its `upload_files` examples send
/// (massgen/configs/resources/…); a run reads them, so a small JPEG stands in for each.
pub fn create(sandbox: &Sandbox, texts: &[String]) {
    const JPEG: &[u8] = b"\xFF\xD8\xFF\xE0\0\x10JFIF\0";
    for text in texts {
        for line in text
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
        {
            let Some(written) = line
                .trim_start()
                .trim_start_matches("- ")
                .strip_prefix("image_path:")
            else {
                continue;
            };
            let written = written
                .split(" #")
                .next()
                .unwrap_or_default()
                .trim()
                .trim_matches('"');
            if written.starts_with("massgen/") {
                let path = sandbox.root.join(written);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, JPEG).unwrap();
            }
        }
    }
}

//! Fuzzes the `@path` parser of questions: it never panics, keeps `@`-free questions as
//! typed and attaches only paths that exist.

#![no_main]

#[path = "../../tests/properties/checks.rs"]
#[allow(dead_code)]
mod checks;

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

fn project() -> &'static std::path::Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap_or_else(|error| panic!("temp dir: {error}"));
        let _ = std::fs::create_dir_all(dir.path().join("src"));
        let _ = std::fs::write(dir.path().join("src/main.rs"), "");
        dir
    })
    .path()
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        checks::check_prompt(text, project());
    }
});

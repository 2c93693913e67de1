//! `massgen logs open`: the run's log directory in the desktop's file manager when there is
//! a desktop session, else in `$VISUAL` / `$EDITOR`; the path is printed either way.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use serde_json::json;

use super::json_text;
use crate::session::path_json;

/// The file manager's opener on this platform, when a desktop session can show it.
fn file_manager() -> Option<&'static str> {
    if cfg!(target_os = "macos") {
        return Some("open");
    }
    let desktop = ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|value| !value.is_empty()));
    desktop.then_some("xdg-open")
}

/// `$VISUAL`, else `$EDITOR` (it may hold arguments, `code -w`).
fn editor() -> Option<String> {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.trim().is_empty())
}

pub fn run(dir: &Path, as_json: bool) -> Result<String, String> {
    let mut out = String::new();
    let opened_with = if let Some(opener) = file_manager()
        && Command::new(opener)
            .arg(dir)
            .status()
            .is_ok_and(|status| status.success())
    {
        opener.to_string()
    } else if let Some(editor) = editor() {
        let status = Command::new("sh")
            .arg("-c")
            .arg(format!("{editor} \"$1\""))
            .arg("sh")
            .arg(dir)
            .status()
            .map_err(|error| format!("cannot start {editor}: {error}"))?;
        if !status.success() {
            return Err(format!("{editor} {} failed ({status})", dir.display()));
        }
        editor
    } else {
        return Err(format!(
            "nothing to open {} with: no desktop session and no $VISUAL or $EDITOR\n  \
             help: set EDITOR, or open the directory yourself",
            dir.display()
        ));
    };
    if as_json {
        json_text(&json!({"log_dir": path_json(dir), "opened_with": opened_with}))
    } else {
        let _ = writeln!(out, "Opened {} with {opened_with}", dir.display());
        Ok(out)
    }
}

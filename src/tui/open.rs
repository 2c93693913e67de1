//! Opening a file in the desktop's default application (`/config`), as MassGen does with
//! `open`, `start` or `xdg-open`, without letting the opener write on the screen.

use std::path::Path;
use std::process::Stdio;

use tokio::process::Command;

/// The platform's opener for `path`.
fn opener(path: &Path) -> Command {
    if cfg!(target_os = "macos") {
        let mut command = Command::new("open");
        command.arg(path);
        command
    } else if cfg!(windows) {
        let mut command = Command::new("cmd");
        command.args(["/C", "start", ""]).arg(path);
        command
    } else {
        let mut command = Command::new("xdg-open");
        command.arg(path);
        command
    }
}

/// Starts the opener and reaps it in the background; the message says what happened.
pub fn open_in_desktop(path: &Path) -> String {
    let mut command = opener(path);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let program = command
        .as_std()
        .get_program()
        .to_string_lossy()
        .into_owned();
    match command.spawn() {
        Ok(mut child) => {
            tokio::spawn(async move {
                let _ = child.wait().await;
            });
            format!("opening {}", path.display())
        }
        Err(error) => format!(
            "could not run {program} ({error}); the config is {}",
            path.display()
        ),
    }
}

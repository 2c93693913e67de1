//! Handing things to the desktop: a file to its default application (`/config`), as
//! MassGen does with `open`, `start` or `xdg-open`, without letting the opener write on the
//! screen; text to the clipboard through the terminal (OSC 52).

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

/// Asks the terminal to put `text` on the clipboard (OSC 52); terminals that do not allow
/// it ignore the sequence.
pub fn copy_to_clipboard(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(osc52(text).as_bytes());
    let _ = out.flush();
}

/// `ESC ] 52 ; c ; <text in base64> BEL`: the clipboard selection set to `text`.
fn osc52(text: &str) -> String {
    use base64::Engine;
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    format!("\x1b]52;c;{encoded}\x07")
}

#[cfg(test)]
mod tests {
    use super::osc52;

    #[test]
    fn the_clipboard_sequence_carries_the_texts_utf8_in_base64() {
        assert_eq!(
            osc52("Paris — café ✓\nligne 2").as_bytes(),
            b"\x1b]52;c;UGFyaXMg4oCUIGNhZsOpIOKckwpsaWduZSAy\x07"
        );
        assert_eq!(osc52("hi").as_bytes(), b"\x1b]52;c;aGk=\x07", "padded");
        assert_eq!(osc52("").as_bytes(), b"\x1b]52;c;\x07");
    }
}

//! Standard output for commands that print and exit: a reader that went away
//! (`massgen --list-examples | head -3`) ends the output quietly instead of a panic.

use std::io::Write;

/// Writes `text` to standard output; a closed pipe is not an error, another failure is
/// reported on standard error.
pub fn write(text: &str) {
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        && error.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("massgen: cannot write to standard output: {error}");
    }
}

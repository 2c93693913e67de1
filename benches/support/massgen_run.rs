//! The real `massgen` binary run by a memory bench: under GNU time when it is installed (for
//! the kernel's maximum RSS of the whole run), as a plain child or in a pseudo-terminal
//! whose output is drained (the TUI); and what the bench reads of it in `/proc`.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

/// GNU time: the child's maximum RSS, measured by the kernel, the end included.
pub const TIME: &str = "/usr/bin/time";

/// `VmRSS` and `VmHWM` of `pid` in KiB.
pub fn memory_kib(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|kib| kib.parse().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// The one child of `pid` (massgen under `/usr/bin/time`).
pub fn child_of(pid: u32) -> Option<u32> {
    let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    children.split_whitespace().next()?.parse().ok()
}

/// The turn's logs are written: `execution_metadata.yaml` comes after the derived files.
pub fn turn_saved(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|entry| {
        entry.file_name() == "execution_metadata.yaml"
            || entry.file_type().is_ok_and(|kind| kind.is_dir()) && turn_saved(&entry.path())
    })
}

/// GNU time's report of the maximum RSS in KiB, once the run is over.
pub fn timed_peak_kib(report: &Path) -> Option<u64> {
    std::fs::read_to_string(report)
        .ok()
        .and_then(|text| text.lines().last()?.trim().parse::<u64>().ok())
}

/// A running massgen: a plain child, or one in a pseudo-terminal whose output is drained.
pub enum Running {
    Piped(std::process::Child),
    Pty(
        Box<dyn portable_pty::Child + Send + Sync>,
        Box<dyn Write + Send>,
    ),
}

impl Running {
    /// Starts `binary` with `args` in `dir` (its home `dir/home`), in a 140×40
    /// pseudo-terminal for the `tui` display, else with its standard error in
    /// `dir/stderr.txt`; under GNU time, writing the maximum RSS to `report`, when installed.
    pub fn start(binary: &Path, dir: &Path, args: &[String], display: &str, report: &Path) -> Self {
        let (program, mut all): (PathBuf, Vec<String>) = if Path::new(TIME).exists() {
            let report = report.display().to_string();
            let timed = ["-o", &report, "-f", "%M", &binary.display().to_string()];
            (TIME.into(), timed.map(String::from).to_vec())
        } else {
            (binary.into(), Vec::new())
        };
        all.extend_from_slice(args);
        let home = dir.join("home");
        if display == "tui" {
            let pair = native_pty_system()
                .openpty(PtySize {
                    rows: 40,
                    cols: 140,
                    pixel_width: 0,
                    pixel_height: 0,
                })
                .unwrap();
            let mut command = CommandBuilder::new(program);
            command.args(&all);
            command.cwd(dir);
            command.env_clear();
            command.env("HOME", &home);
            command.env("PATH", std::env::var("PATH").unwrap_or_default());
            command.env("TERM", "xterm-256color");
            let child = pair.slave.spawn_command(command).unwrap();
            drop(pair.slave);
            let keys = pair.master.take_writer().unwrap();
            let mut reader = pair.master.try_clone_reader().unwrap();
            std::thread::spawn(move || {
                let _master = pair.master;
                let mut sink = vec![0; 64 * 1024];
                while matches!(reader.read(&mut sink), Ok(read) if read > 0) {}
            });
            return Self::Pty(child, keys);
        }
        let child = Command::new(program)
            .args(&all)
            .current_dir(dir)
            .env("HOME", &home)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("stderr.txt")).unwrap())
            .spawn()
            .unwrap();
        Self::Piped(child)
    }

    /// The process started: GNU time when it wraps massgen.
    pub fn pid(&self) -> u32 {
        match self {
            Self::Piped(child) => child.id(),
            Self::Pty(child, _) => child.process_id().unwrap(),
        }
    }

    /// massgen's own pid (the child of GNU time), once it has started.
    pub fn massgen_pid(&self) -> Option<u32> {
        if Path::new(TIME).exists() {
            child_of(self.pid())
        } else {
            Some(self.pid())
        }
    }

    /// Whether it exited, and successfully.
    pub fn exited(&mut self) -> Option<bool> {
        match self {
            Self::Piped(child) => child.try_wait().unwrap().map(|status| status.success()),
            Self::Pty(child, _) => child.try_wait().unwrap().map(|status| status.success()),
        }
    }

    pub fn kill(&mut self) {
        match self {
            Self::Piped(child) => drop(child.kill()),
            Self::Pty(child, _) => drop(child.kill()),
        }
    }

    /// The TUI stays open after its turn: Esc then `q` quits it.
    pub fn quit_tui(&mut self) {
        if let Self::Pty(_, keys) = self {
            for key in [&b"\x1b"[..], b"q"] {
                let _ = keys.write_all(key);
                let _ = keys.flush();
                std::thread::sleep(std::time::Duration::from_millis(300));
            }
        }
    }
}

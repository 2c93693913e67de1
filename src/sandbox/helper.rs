//! The hidden helper modes of the massgen binary that start one command in its own PID and
//! mount namespaces, so that its `/proc` shows only its own processes:
//! `massgen __sandbox-exec …` (outer: makes the namespaces, starts the inner helper in them
//! and passes its exit status on) and `massgen __sandbox-init …` (inner: pid 1 of the new
//! namespace; mounts a fresh `/proc`, confines itself and becomes the command). Both tell
//! massgen how it went on a pipe they got as stdin ([`super::report`] reads it).

use std::ffi::OsString;
use std::fs::File;
use std::io::Write;
use std::os::fd::AsFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitCode, ExitStatus, Stdio};

use super::report::{INNER, Kind, Message, OUTER, decode};

/// The exit code of a helper that could not set the command up (as `env` and `nohup` do).
const SETUP_FAILED: u8 = 125;
/// The exit code when the program could not be executed.
const NOT_EXECUTED: u8 = 127;

/// Runs the helper mode named by argv\[1\], if any: call it first thing in `main`, before
/// any thread starts (a new user namespace needs a single-threaded process).
pub fn dispatch() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    let mode = args.next()?;
    let rest: Vec<OsString> = args.collect();
    match mode.to_str()? {
        OUTER => Some(outer(rest)),
        INNER => Some(inner(rest)),
        super::probe::MODE => Some(super::probe::run_inside(&rest)),
        _ => None,
    }
}

/// The pipe to massgen, a close-on-exec copy of stdin.
struct Channel(Option<File>);

impl Channel {
    fn from_stdin() -> Self {
        let copy = std::io::stdin().as_fd().try_clone_to_owned().ok();
        Self(copy.map(File::from))
    }

    fn say(&mut self, message: &Message) {
        if let Some(file) = &mut self.0 {
            let _ = file.write_all(message.to_line().as_bytes());
        }
    }

    fn fail(mut self, message: &Message) -> ExitCode {
        self.say(message);
        ExitCode::from(SETUP_FAILED)
    }
}

fn outer(rest: Vec<OsString>) -> ExitCode {
    let channel = Channel::from_stdin();
    if decode(rest.clone()).is_none() {
        return channel.fail(&Message::Failed(
            "the helper got malformed arguments".into(),
        ));
    }
    if let Err(reason) = enter_namespaces() {
        return channel.fail(&Message::Unavailable(reason));
    }
    // The inner helper gets stdin (the pipe), stdout, stderr, the environment and the
    // working directory as they are; `/proc/self/exe` is this very binary.
    let spawned = Command::new("/proc/self/exe").arg(INNER).args(rest).spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => {
            return channel.fail(&Message::Unavailable(format!(
                "the helper could not start in the new namespaces: {error}"
            )));
        }
    };
    // Only the inner helper holds the pipe now: massgen sees its end when the command
    // starts or fails to.
    drop(channel);
    if let Ok(null) = File::open("/dev/null") {
        let _ = rustix::stdio::dup2_stdin(&null);
    }
    match child.wait() {
        Ok(status) => pass_on(status),
        Err(_) => ExitCode::from(SETUP_FAILED),
    }
}

/// Makes new PID and mount namespaces for the next child; a user namespace too where we
/// lack the privilege for them, mapping the user to itself and keeping `CAP_SYS_ADMIN`
/// in it across the inner helper's `exec` (ambient), for mounting its `/proc`.
fn enter_namespaces() -> Result<(), String> {
    use rustix::thread::UnshareFlags;
    let (uid, gid) = (rustix::process::getuid(), rustix::process::getgid());
    let plain = UnshareFlags::NEWPID | UnshareFlags::NEWNS;
    #[allow(deprecated)] // Sound here: `unshare` is unsafe only with `CLONE_FILES`.
    if rustix::process::geteuid().is_root() && rustix::thread::unshare(plain).is_ok() {
        return Ok(());
    }
    #[allow(deprecated)] // As above.
    rustix::thread::unshare(plain | UnshareFlags::NEWUSER).map_err(|error| {
        format!(
            "new user, PID and mount namespaces were refused ({error}); unprivileged user \
             namespaces may be disabled (sysctl kernel.unprivileged_userns_clone, \
             user.max_user_namespaces, or an AppArmor restriction)"
        )
    })?;
    let write = |file: &str, text: String| {
        std::fs::write(file, text).map_err(|error| format!("writing {file}: {error}"))
    };
    write("/proc/self/setgroups", "deny".into())?;
    write("/proc/self/uid_map", format!("{0} {0} 1\n", uid.as_raw()))?;
    write("/proc/self/gid_map", format!("{0} {0} 1\n", gid.as_raw()))?;
    keep_mount_capability().map_err(|error| format!("keeping CAP_SYS_ADMIN: {error}"))
}

fn keep_mount_capability() -> rustix::io::Result<()> {
    use rustix::thread::{CapabilitySet, capabilities, set_capabilities};
    let mut sets = capabilities(None)?;
    sets.inheritable |= CapabilitySet::SYS_ADMIN;
    set_capabilities(None, sets)?;
    rustix::thread::configure_capability_in_ambient_set(CapabilitySet::SYS_ADMIN, true)
}

/// Undoes [`keep_mount_capability`], so the command does not get `CAP_SYS_ADMIN` back.
fn forget_mount_capability() {
    use rustix::thread::{CapabilitySet, capabilities, set_capabilities};
    let _ = rustix::thread::clear_ambient_capability_set();
    if let Ok(mut sets) = capabilities(None)
        && sets.inheritable.contains(CapabilitySet::SYS_ADMIN)
    {
        sets.inheritable -= CapabilitySet::SYS_ADMIN;
        let _ = set_capabilities(None, sets);
    }
}

/// Exits as the inner helper (so the command) did: with its code, or killed by its signal.
fn pass_on(status: ExitStatus) -> ExitCode {
    if let Some(code) = status.code() {
        return ExitCode::from(u8::try_from(code).unwrap_or(SETUP_FAILED));
    }
    let signal = status.signal().unwrap_or(0);
    if let Some(raised) = rustix::process::Signal::from_named_raw(signal) {
        // Twice: the first may only reset a handler Rust's runtime installed (SIGSEGV).
        for _ in 0..2 {
            let _ = rustix::process::kill_process(rustix::process::getpid(), raised);
        }
    }
    // Signals this process ignores (SIGPIPE, as Rust sets it) end it the shell's way.
    ExitCode::from(u8::try_from(128 + signal).unwrap_or(SETUP_FAILED))
}

fn inner(rest: Vec<OsString>) -> ExitCode {
    let mut channel = Channel::from_stdin();
    let Some(request) = decode(rest) else {
        return channel.fail(&Message::Failed(
            "the helper got malformed arguments".into(),
        ));
    };
    if rustix::process::getpid().as_raw_nonzero().get() != 1 {
        return channel.fail(&Message::Unavailable(
            "the helper did not start in a new PID namespace".into(),
        ));
    }
    if let Err(reason) = mount_own_proc() {
        return channel.fail(&Message::Unavailable(reason));
    }
    // Mounting was the last thing the kept capability was for.
    forget_mount_capability();
    // Built after the mount: a Landlock rule holds the `/proc` it was made with.
    let confinement = match super::landlock::restrict_this_thread(&request.plan, &request.tmp) {
        Ok(confinement) => confinement,
        Err(error) => return channel.fail(&Message::Failed(error.to_string())),
    };
    if let Err(error) = super::capabilities::drop_process_tracing() {
        return channel.fail(&Message::Failed(error));
    }
    channel.say(&Message::Started(confinement));
    let error = Command::new(&request.program)
        .args(&request.args)
        .stdin(Stdio::null())
        .exec();
    let kind = match error.kind() {
        std::io::ErrorKind::NotFound => Kind::NotFound,
        std::io::ErrorKind::PermissionDenied => Kind::Denied,
        _ => Kind::Other,
    };
    channel.say(&Message::NotExecuted(kind, error.to_string()));
    ExitCode::from(NOT_EXECUTED)
}

/// Makes every mount private to this namespace and mounts a `/proc` of its own on `/proc`.
fn mount_own_proc() -> Result<(), String> {
    use rustix::mount::{MountFlags, MountPropagationFlags, mount, mount_change};
    mount_change(
        "/",
        MountPropagationFlags::PRIVATE | MountPropagationFlags::REC,
    )
    .map_err(|error| format!("making mounts private: {error}"))?;
    mount(
        "proc",
        "/proc",
        "proc",
        MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOEXEC,
        None,
    )
    .map_err(|error| format!("mounting a new /proc: {error}"))
}

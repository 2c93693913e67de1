//! Taking `CAP_SYS_PTRACE` from a command that would have it (one run as root): without
//! it, a command can neither ptrace massgen nor read its `/proc/PID/mem`, massgen not
//! being dumpable, even where Landlock does not scope ptrace. (Its `environ` is guarded
//! by file ownership only, which root passes: hence the PID namespace.)

use rustix::thread::{CapabilitySet, capabilities, set_capabilities};

/// Drops `CAP_SYS_PTRACE` from the calling thread's bounding, ambient, effective,
/// permitted and inheritable sets, so that nothing it spawns has it, even as root. A
/// no-op for a thread that never had it.
pub(super) fn drop_process_tracing() -> Result<(), String> {
    let failed = |error: rustix::io::Errno| format!("dropping CAP_SYS_PTRACE failed: {error}");
    let mut sets = capabilities(None).map_err(failed)?;
    let root = rustix::process::geteuid().is_root();
    if !root && !sets.permitted.contains(CapabilitySet::SYS_PTRACE) {
        return Ok(());
    }
    if rustix::thread::capability_is_in_bounding_set(CapabilitySet::SYS_PTRACE).map_err(failed)? {
        rustix::thread::remove_capability_from_bounding_set(CapabilitySet::SYS_PTRACE)
            .map_err(failed)?;
    }
    let _ = rustix::thread::configure_capability_in_ambient_set(CapabilitySet::SYS_PTRACE, false);
    sets.effective -= CapabilitySet::SYS_PTRACE;
    sets.permitted -= CapabilitySet::SYS_PTRACE;
    sets.inheritable -= CapabilitySet::SYS_PTRACE;
    set_capabilities(None, sets).map_err(failed)
}

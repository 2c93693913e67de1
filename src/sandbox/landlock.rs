//! The Landlock ruleset of one command, applied to the calling thread (and so to every
//! process it spawns): which system paths are readable, which paths writable, TCP.

use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, LandlockStatus, PathBeneath, PathFd,
    Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetError, RulesetStatus, Scope,
};

use super::{Confinement, Plan};

/// The file-system rights and scopes we handle: ABI 7, the newest this was tested on.
/// Older kernels get what they support (best effort), reported in [`Confinement`].
const FS_ABI: ABI = ABI::V7;
/// Network rights: TCP from ABI 4, and UDP too where the kernel has ABI 10.
const NET_ABI: ABI = ABI::V10;

/// Read and execute: what programs need to start and run (less the plan's `deny_read`). Not `/home`, `/root`, `/tmp`,
/// `/var` or `/run`. `/proc` is readable: in a command's own PID namespace that is its
/// namespace's `/proc`, mounted before these rules are made. Landlock keeps ptrace and
/// `/proc/PID/mem` of processes outside the sandbox out of reach, not their `environ`.
const SYSTEM_READ: [&str; 12] = [
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/nix/store",
    "/proc",
    "/sys/devices/system/cpu",
];

/// Read and write: harmless devices. Not `/dev/tty` (the user's terminal) nor `/dev/shm`.
const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

/// Restricts the calling thread, for good, to `plan` plus `tmp`; sets `no_new_privs`.
/// Call it only on a thread made for one spawn.
pub(super) fn restrict_this_thread(plan: &Plan, tmp: &Path) -> Result<Confinement, RulesetError> {
    let all = AccessFs::from_all(FS_ABI);
    let read = AccessFs::from_read(FS_ABI);
    // No device nodes: a root command could otherwise make one for a disk in its workspace.
    let write = all & !(AccessFs::MakeChar | AccessFs::MakeBlock);
    let device = AccessFs::from_file(FS_ABI) & !AccessFs::Execute;
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)?
        .scope(Scope::from_all(FS_ABI))?;
    if !plan.network {
        ruleset = ruleset.handle_access(AccessNet::from_all(NET_ABI))?;
    }
    let mut created = ruleset.create()?;
    let (roots, holes) = if plan.read_everything {
        // Devices are granted one by one below: not the user's terminal.
        let mut holes = plan.deny_read.clone();
        holes.push(PathBuf::from("/dev"));
        (vec![PathBuf::from("/")], holes)
    } else {
        let roots = SYSTEM_READ.iter().map(PathBuf::from).collect();
        (roots, plan.deny_read.clone())
    };
    let system = roots
        .iter()
        .flat_map(|root| super::carve::without(root, &holes))
        .map(|path| (path, read));
    let devices = DEVICES.iter().map(|path| (PathBuf::from(path), device));
    let readable = plan.readable.iter().map(|path| (path.clone(), read));
    let writable = std::iter::once(&plan.workspace)
        .chain(&plan.writable)
        .chain(std::iter::once(&tmp.to_path_buf()))
        .map(|path| (path.clone(), write))
        .collect::<Vec<_>>();
    for (path, access) in system.chain(devices).chain(readable).chain(writable) {
        // Paths this machine lacks (`/nix/store`, `/lib32`) are simply not granted.
        let Ok(fd) = PathFd::new(&path) else {
            continue;
        };
        let access = if path.is_dir() {
            access
        } else {
            access & AccessFs::from_file(FS_ABI)
        };
        created = created.add_rule(PathBeneath::new(fd, access))?;
    }
    let status = created.restrict_self()?;
    let abi = match status.landlock {
        LandlockStatus::Available { effective_abi, .. } => abi_number(effective_abi),
        LandlockStatus::NotEnabled | LandlockStatus::NotImplemented => 0,
    };
    Ok(match status.ruleset {
        RulesetStatus::NotEnforced => Confinement::Filters {
            reason: unavailable(status.landlock),
        },
        RulesetStatus::FullyEnforced | RulesetStatus::PartiallyEnforced => {
            let tcp = abi >= 4;
            Confinement::Landlock {
                abi,
                network_denied: !plan.network && tcp,
                network_unenforced: !plan.network && !tcp,
            }
        }
    })
}

fn abi_number(abi: ABI) -> u8 {
    let all = [
        ABI::V1,
        ABI::V2,
        ABI::V3,
        ABI::V4,
        ABI::V5,
        ABI::V6,
        ABI::V7,
        ABI::V8,
        ABI::V9,
        ABI::V10,
    ];
    all.iter()
        .position(|known| *known == abi)
        .and_then(|index| u8::try_from(index + 1).ok())
        .unwrap_or(0)
}

/// Why Landlock did not apply, for the user.
pub(super) fn unavailable(status: LandlockStatus) -> String {
    match status {
        LandlockStatus::NotEnabled => "this kernel has Landlock but it is not enabled; add \
                                       `lsm=landlock,…` to the kernel command line"
            .into(),
        LandlockStatus::NotImplemented => {
            "this kernel has no Landlock (Linux 5.13 or newer with CONFIG_SECURITY_LANDLOCK)".into()
        }
        LandlockStatus::Available { .. } => "Landlock refused the ruleset".into(),
    }
}

/// The Landlock ABI in effect here, the kernel's own when newer than this build knows, or
/// why there is none; learnt by restricting a throwaway thread.
pub(super) fn kernel_abi() -> (u8, Option<i32>, Option<String>) {
    let probe = std::thread::spawn(|| {
        let status = Ruleset::default()
            .handle_access(AccessFs::Execute)
            .and_then(|ruleset| ruleset.create())
            .and_then(|created| created.restrict_self());
        match status {
            Ok(status) => match status.landlock {
                LandlockStatus::Available {
                    effective_abi,
                    kernel_abi,
                } => (abi_number(effective_abi), kernel_abi, None),
                other => (0, None, Some(unavailable(other))),
            },
            Err(error) => (0, None, Some(error.to_string())),
        }
    });
    probe
        .join()
        .unwrap_or_else(|_| (0, None, Some("the Landlock probe failed".into())))
}

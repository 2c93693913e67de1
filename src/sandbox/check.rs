//! `massgen --sandbox-check`: what the sandbox enforces on this machine, learnt by applying
//! it to a throwaway thread and trying what it should forbid.

use std::fmt;

use super::{Confinement, Mode, Plan};

/// One line per aspect, and whether files are confined at all.
#[derive(Clone, Debug)]
pub struct Report {
    pub lines: Vec<(&'static str, String)>,
    /// Reads and writes are confined by the OS; false means only the pattern filters apply.
    pub enforced: bool,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "massgen sandbox check: how execute_command is confined on this machine"
        )?;
        for (name, text) in &self.lines {
            writeln!(f, "  {name:<16}{text}")?;
        }
        Ok(())
    }
}

/// What a restricted thread could and could not do.
#[derive(Clone, Copy, Debug, Default)]
struct Probe {
    write_inside: bool,
    write_outside: bool,
    read_outside: bool,
    connect: bool,
    no_new_privs: bool,
}

/// Checks this machine under `mode` (see [`Mode::from_env`]).
pub fn run(mode: Mode) -> Report {
    let mut lines = Vec::new();
    lines.push((
        "mode",
        match mode {
            Mode::Auto => format!("on ({}=off turns it off)", super::ENV_SWITCH),
            Mode::Off => format!("OFF ({}=off is set)", super::ENV_SWITCH),
        },
    ));
    let outcome = match mode {
        Mode::Off => Err(format!("{}=off is set", super::ENV_SWITCH)),
        Mode::Auto => probe(),
    };
    let enforced = match &outcome {
        Ok((Confinement::Landlock { abi, .. }, probe)) => {
            landlock_lines(&mut lines, *abi, probe);
            probe.write_inside && !probe.write_outside && !probe.read_outside
        }
        Ok((Confinement::Filters { reason }, _)) | Err(reason) => {
            lines.push((
                "files",
                format!("NOT enforced: {reason}; only the command filters apply"),
            ));
            lines.push(("network deny", "not available".into()));
            lines.push(("no_new_privs", "not set".into()));
            false
        }
    };
    #[cfg(target_os = "linux")]
    lines.push(("processes", super::probe::processes_line(mode)));
    #[cfg(not(target_os = "linux"))]
    lines.push((
        "processes",
        "commands see this user's processes; PID namespaces exist on Linux only".into(),
    ));
    lines.push((
        "process cleanup",
        format!(
            "each command in its own process group, killed with its descendants and \
             marked processes when the call ends or times out, the turn ends or massgen \
             exits (child subreaper: {})",
            yes_no(super::procs::adopts_orphans())
        ),
    ));
    lines.push((
        "verdict",
        if enforced {
            "enforced (exit 0)".into()
        } else {
            "NOT enforced: commands can read and write wherever this user can (exit 1)".into()
        },
    ));
    Report { lines, enforced }
}

fn landlock_lines(lines: &mut Vec<(&'static str, String)>, abi: u8, probe: &Probe) {
    #[cfg(target_os = "linux")]
    let kernel = match super::landlock::kernel_abi() {
        (_, Some(kernel), _) => format!(" (the kernel has ABI {kernel})"),
        (_, None, _) => String::new(),
    };
    #[cfg(not(target_os = "linux"))]
    let kernel = String::new();
    lines.push(("landlock", format!("ABI {abi}{kernel}")));
    lines.push((
        "files",
        format!(
            "enforced: writes only to the workspace, the command's temp dir and writable \
             context paths; reads only system dirs and the agent's roots (probe: write \
             inside {}, write outside {}, read outside {})",
            allowed(probe.write_inside),
            allowed(probe.write_outside),
            allowed(probe.read_outside)
        ),
    ));
    let udp = if abi >= 10 {
        "UDP denied too"
    } else {
        "UDP and unix sockets not covered"
    };
    lines.push((
        "network deny",
        if abi >= 4 {
            format!(
                "available for TCP with `command_line_network: false` (probe: connect {}); {udp}",
                allowed(probe.connect)
            )
        } else {
            "not available (needs Landlock ABI 4, Linux 6.7)".into()
        },
    ));
    lines.push((
        "scopes",
        if abi >= 6 {
            "signals and abstract unix sockets outside the sandbox are blocked".into()
        } else {
            "not available (needs ABI 6): commands may signal other processes of this user"
                .to_string()
        },
    ));
    lines.push(("no_new_privs", yes_no(probe.no_new_privs).to_string()));
}

fn allowed(yes: bool) -> &'static str {
    if yes { "allowed" } else { "denied" }
}

fn yes_no(yes: bool) -> &'static str {
    if yes { "yes" } else { "no" }
}

#[cfg(not(target_os = "linux"))]
fn probe() -> Result<(Confinement, Probe), String> {
    Err("the OS sandbox exists on Linux only".into())
}

#[cfg(target_os = "linux")]
fn probe() -> Result<(Confinement, Probe), String> {
    use std::io::Write;
    let base = std::env::temp_dir().join(format!("massgen-check-{}", super::procs::new_key()));
    let (workspace, tmp, outside) = (base.join("ws"), base.join("tmp"), base.join("outside"));
    let made = super::launch::make_private_dir(&base)
        .and_then(|()| std::fs::create_dir(&workspace))
        .and_then(|()| std::fs::create_dir(&tmp))
        .and_then(|()| std::fs::create_dir(&outside))
        .and_then(|()| std::fs::write(outside.join("secret"), "secret"));
    if let Err(error) = made {
        let _ = std::fs::remove_dir_all(&base);
        return Err(format!(
            "could not make probe dirs in {}: {error}",
            base.display()
        ));
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").ok();
    let address = listener
        .as_ref()
        .and_then(|listener| listener.local_addr().ok());
    let plan = Plan {
        workspace: workspace.clone(),
        network: false,
        ..Plan::default()
    };
    let result = std::thread::spawn(move || {
        let confinement = super::landlock::restrict_this_thread(&plan, &tmp)
            .map_err(|error| error.to_string())?;
        let probe = Probe {
            write_inside: std::fs::File::create(workspace.join("probe"))
                .and_then(|mut file| file.write_all(b"x"))
                .is_ok(),
            write_outside: std::fs::write(outside.join("probe"), "x").is_ok(),
            read_outside: std::fs::read(outside.join("secret")).is_ok(),
            connect: address.is_some_and(|address| std::net::TcpStream::connect(address).is_ok()),
            no_new_privs: super::procs::thread_has_no_new_privs(),
        };
        Ok((confinement, probe))
    })
    .join()
    .unwrap_or_else(|_| Err("the probe thread failed".into()));
    let _ = std::fs::remove_dir_all(&base);
    drop(listener);
    result
}

//! Linux: the process table as `/proc` shows it, and the sweep that kills a command's
//! descendants wherever they went and reaps the ones massgen adopted.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;
use std::time::Duration;

use rustix::process::{Pid, Signal, WaitOptions, kill_process, waitpid};

use super::MARKER;

/// One process of our user.
struct Proc {
    pid: i32,
    ppid: i32,
    pgid: i32,
    zombie: bool,
    no_new_privs: bool,
    marker: Option<String>,
}

/// Rounds of kill-and-look-again: a process may fork between a look and the kill.
const ROUNDS: usize = 10;

/// Kills every process of the command `key`: in the group `leader`, below `leader`,
/// carrying the command's marker, or (when massgen has no `no_new_privs` itself) an orphan
/// massgen adopted that has `no_new_privs`, as every sandboxed process has, and carries no
/// other live command's marker. `live` lists the commands alive, `(key, leader)`.
pub(super) fn sweep_descendants(
    key: &str,
    leader: Option<i32>,
    live: &dyn Fn() -> Vec<(String, Option<i32>)>,
) {
    let me = rustix::process::getpid().as_raw_nonzero().get();
    let orphans_are_ours = !self_has_no_new_privs();
    let mut killed: HashSet<i32> = HashSet::new();
    let mut leaders: HashSet<i32> = HashSet::new();
    for _ in 0..ROUNDS {
        let table = read_table();
        let commands = live();
        leaders = commands.iter().filter_map(|(_, pid)| *pid).collect();
        let others: HashSet<&str> = commands
            .iter()
            .map(|(other, _)| other.as_str())
            .filter(|other| *other != key)
            .collect();
        let parent: HashMap<i32, i32> = table.iter().map(|p| (p.pid, p.ppid)).collect();
        let mut victims: HashSet<i32> = table
            .iter()
            .filter(|p| p.pid != me && !p.zombie)
            .filter(|p| {
                leader
                    .is_some_and(|leader| p.pgid == leader || descends(p.pid, leader, &parent, me))
                    || p.marker.as_deref() == Some(key)
                    || (orphans_are_ours
                        && p.ppid == me
                        && p.no_new_privs
                        && !leaders.contains(&p.pid)
                        && !p
                            .marker
                            .as_deref()
                            .is_some_and(|marker| others.contains(marker)))
            })
            .map(|p| p.pid)
            .collect();
        // Whatever those started goes too.
        loop {
            let more: Vec<i32> = table
                .iter()
                .filter(|p| !p.zombie && !victims.contains(&p.pid) && victims.contains(&p.ppid))
                .map(|p| p.pid)
                .collect();
            if more.is_empty() {
                break;
            }
            victims.extend(more);
        }
        if victims.is_empty() {
            break;
        }
        for pid in &victims {
            if let Some(pid) = Pid::from_raw(*pid) {
                let _ = kill_process(pid, Signal::KILL);
            }
        }
        killed.extend(victims);
    }
    reap(me, orphans_are_ours, &killed, &leaders);
}

/// Reaps the adopted processes just killed and adopted sandboxed zombies, never a command's
/// leader (tokio waits for those).
fn reap(me: i32, orphans_are_ours: bool, killed: &HashSet<i32>, leaders: &HashSet<i32>) {
    for attempt in 0..5 {
        let mut pending = false;
        for p in read_table() {
            let ours = killed.contains(&p.pid) || (orphans_are_ours && p.no_new_privs);
            if p.ppid != me || leaders.contains(&p.pid) || !ours {
                continue;
            }
            if p.zombie {
                if let Some(pid) = Pid::from_raw(p.pid) {
                    let _ = waitpid(Some(pid), WaitOptions::NOHANG);
                }
            } else if killed.contains(&p.pid) {
                pending = true;
            }
        }
        if !pending || attempt == 4 {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether `pid`'s line of parents reaches `ancestor` before massgen or init.
fn descends(pid: i32, ancestor: i32, parent: &HashMap<i32, i32>, me: i32) -> bool {
    let mut current = pid;
    for _ in 0..128 {
        match parent.get(&current) {
            Some(&up) if up == ancestor => return true,
            Some(&up) if up > 1 && up != me => current = up,
            Some(_) | None => return false,
        }
    }
    false
}

/// Whether massgen itself runs with `no_new_privs` (then orphans cannot be told apart).
pub(super) fn self_has_no_new_privs() -> bool {
    static NNP: OnceLock<bool> = OnceLock::new();
    *NNP.get_or_init(|| no_new_privs_of("/proc/self/status"))
}

/// The `NoNewPrivs:` field of a `/proc/…/status` file.
pub(super) fn no_new_privs_of(status: &str) -> bool {
    std::fs::read_to_string(status).is_ok_and(|text| {
        text.lines()
            .find_map(|line| line.strip_prefix("NoNewPrivs:"))
            .is_some_and(|value| value.trim() == "1")
    })
}

/// The processes of our user; those that vanish while being read are skipped.
fn read_table() -> Vec<Proc> {
    use std::os::unix::fs::MetadataExt;
    let uid = rustix::process::getuid().as_raw();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
            let dir = entry.path();
            if std::fs::metadata(&dir).ok()?.uid() != uid {
                return None;
            }
            let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
            // `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses.
            let mut fields = stat.get(stat.rfind(')')? + 1..)?.split_whitespace();
            let state = fields.next()?;
            let ppid = fields.next()?.parse().ok()?;
            let pgid = fields.next()?.parse().ok()?;
            let marker = std::fs::read(dir.join("environ")).ok().and_then(|environ| {
                let prefix = format!("{MARKER}=");
                environ.split(|byte| *byte == 0).find_map(|var| {
                    var.strip_prefix(prefix.as_bytes())
                        .map(|value| String::from_utf8_lossy(value).into_owned())
                })
            });
            Some(Proc {
                pid,
                ppid,
                pgid,
                zombie: state == "Z" || state == "X",
                no_new_privs: no_new_privs_of(&dir.join("status").to_string_lossy()),
                marker,
            })
        })
        .collect()
}

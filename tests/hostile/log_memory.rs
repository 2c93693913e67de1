//! A model streaming tiny deltas at socket speed writes an `events.jsonl` of hundreds of
//! megabytes (issue 27, item 5). The end-of-turn pass that derives the log files from it
//! must read it a line at a time, not whole. The pass runs in a child process (this test
//! binary again), so its peak resident memory is the pass's alone.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

use massgen::protocol::{AgentId, Event, EventMsg};
use massgen::session::TurnLog;

const CHILD: &str = "MASSGEN_LOG_MEMORY_CHILD";
/// Eight-character deltas, two agents interleaved: about 45 MB of log.
const DELTAS: u64 = 400_000;
/// What the pass may add to the process's peak resident memory: a line, the compacted
/// events, the write buffers and the code pages it first runs (about 14 MiB in a debug
/// build, the same for a 2 MB or a 140 MB log) — not the log, which cost 124 MiB held whole.
const MAX_GROWTH_MIB: u64 = 32;

fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .unwrap()
}

fn write_flood(dir: &Path) {
    let mut log = TurnLog::open(dir.to_path_buf()).unwrap();
    let agents = [AgentId::new("a"), AgentId::new("b")];
    let mut at = jiff::Timestamp::UNIX_EPOCH;
    for seq in 1..=DELTAS {
        at += jiff::SignedDuration::from_micros(50);
        log.append(&Event {
            seq,
            at,
            turn: 1,
            agent: Some(agents[(seq % 2) as usize].clone()),
            msg: EventMsg::TextDelta {
                text: "wwwwwwww".into(),
            },
        })
        .unwrap();
    }
}

/// The pass itself, run only as the child of the test below.
#[test]
#[ignore = "the child process of the_end_of_turn_pass_reads_the_event_log_a_line_at_a_time"]
fn derive_child() {
    let Some(dir) = std::env::var_os(CHILD) else {
        return;
    };
    let dir = Path::new(&dir);
    let before = peak_kib();
    let (_, written) = massgen::session::derived::write_derived(dir);
    written.unwrap();
    println!("growth_kib={}", peak_kib().saturating_sub(before));
}

#[test]
fn the_end_of_turn_pass_reads_the_event_log_a_line_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    write_flood(dir.path());
    let logged = std::fs::metadata(dir.path().join("events.jsonl"))
        .unwrap()
        .len();
    assert!(logged > 40_000_000, "{logged}");
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "log_memory::derive_child",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let growth_kib: u64 = stdout
        .split_whitespace()
        .find_map(|word| word.strip_prefix("growth_kib="))
        .and_then(|value| value.parse().ok())
        .unwrap_or_else(|| panic!("no growth_kib= in:\n{stdout}"));
    assert!(
        growth_kib < MAX_GROWTH_MIB * 1024,
        "deriving the files of a {} MB log cost {} MiB of peak memory (at most {MAX_GROWTH_MIB})",
        logged / 1_000_000,
        growth_kib / 1024
    );
    // What the agents streamed is all in their output files.
    let streamed = std::fs::metadata(dir.path().join("agent_outputs/agent_a.txt"))
        .unwrap()
        .len();
    assert_eq!(streamed, DELTAS / 2 * 8);
}

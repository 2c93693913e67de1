//! Snapshotting a 10,000-file, 200 MB workspace the way a turn does after an answer
//! (`workspace::replace_tree`), then the peer copy of it. On a filesystem with reflinks
//! (btrfs, XFS, APFS) files are cloned; elsewhere they are copied.
//!
//! Run: `cargo bench --bench snapshot` (in the system temp directory), or with
//! `MASSGEN_BENCH_DIR=/mnt/btrfs` to measure on another filesystem.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use std::fs;
use std::path::Path;
use std::time::Instant;

use massgen::workspace::{DEFAULT_MAX_FILE_BYTES, replace_tree};

const FILES: usize = 10_000;
const TOTAL_BYTES: usize = 200 * 1024 * 1024;
const RUNS: usize = 5;

fn main() {
    let base = std::env::var_os("MASSGEN_BENCH_DIR").map_or_else(std::env::temp_dir, Into::into);
    let dir = tempfile::tempdir_in(&base).unwrap();
    let workspace = dir.path().join("workspace");
    build_workspace(&workspace);
    println!(
        "{FILES} files, {} MB, under {}",
        TOTAL_BYTES / (1024 * 1024),
        base.display()
    );
    let mut times = Vec::new();
    for run in 0..RUNS {
        let snapshot = dir.path().join("snapshots").join("agent");
        sync();
        let started = Instant::now();
        let report = replace_tree(&workspace, &snapshot, DEFAULT_MAX_FILE_BYTES).unwrap();
        let elapsed = started.elapsed();
        assert_eq!(report.files as usize, FILES);
        times.push(elapsed.as_secs_f64());
        println!("run {run}: snapshot {:.3} s", elapsed.as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    println!(
        "snapshot: median {:.3} s, best {:.3} s, worst {:.3} s",
        times[RUNS / 2],
        times[0],
        times[RUNS - 1]
    );
}

/// Source files of mixed sizes in nested folders, 200 MB in all.
fn build_workspace(root: &Path) {
    let per_file = TOTAL_BYTES / FILES;
    let line = "let value = compute(input, 42); // a line of generated code\n";
    let content: String = line.repeat(per_file / line.len() + 1)[..per_file].to_string();
    for index in 0..FILES {
        let folder = root.join(format!("pkg{:02}/mod{:02}", index % 50, index % 7));
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join(format!("file{index:05}.rs")), &content).unwrap();
    }
}

/// Lets the previous run's retired tree finish deleting in the background, then flushes
/// dirty pages, so each run starts from a settled filesystem (snapshots are seconds apart
/// in a real turn).
fn sync() {
    std::thread::sleep(std::time::Duration::from_secs(3));
    let _ = std::process::Command::new("sync").status();
}

//! An eval's output directory: `run.json` (what was run, to refuse a different rerun),
//! `results.jsonl` (one `ItemResult` per line, written whole and flushed, so a kill leaves
//! at most a torn last line) and `judge.jsonl` (the judge's cost per answer).

use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::eval::record::{Contender, ItemResult};

pub const MANIFEST: &str = "run.json";
pub const RESULTS: &str = "results.jsonl";
pub const JUDGE_COSTS: &str = "judge.jsonl";

/// What a run is: a rerun into the same directory must match it to resume.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub dataset: String,
    /// FNV-1a of the dataset's items as loaded, in hex.
    pub dataset_hash: String,
    pub items: usize,
    pub contenders: Vec<Contender>,
    /// The run's scorer (`--scorer`), or "per item" when each item's own (or default).
    pub scorer: String,
}

impl Manifest {
    /// The run of `entries` over `items` of `dataset`; `scorer`: the run's `--scorer`, if any.
    pub fn describe(
        dataset: &str,
        items: &[crate::eval::record::Item],
        entries: &[super::contenders::Entry],
        scorer: Option<&str>,
    ) -> Self {
        Self {
            dataset: dataset.to_string(),
            dataset_hash: dataset_hash(items),
            items: items.len(),
            contenders: entries
                .iter()
                .map(|entry| entry.contender.clone())
                .collect(),
            scorer: scorer.unwrap_or("per item").to_string(),
        }
    }
}

/// One judged answer's cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JudgeCost {
    pub contender: String,
    pub item: String,
    pub cost_usd: f64,
}

/// Prepares `out` for `manifest`: a fresh directory gets it; one holding another run is
/// refused unless `fresh` (which starts over). Returns the results already there.
pub fn open(out: &Path, manifest: &Manifest, fresh: bool) -> Result<Vec<ItemResult>, String> {
    fs::create_dir_all(out).map_err(|error| format!("cannot create {}: {error}", out.display()))?;
    let manifest_path = out.join(MANIFEST);
    if fresh {
        for name in [RESULTS, JUDGE_COSTS] {
            let path = out.join(name);
            if path.exists() {
                fs::remove_file(&path)
                    .map_err(|error| format!("cannot remove {}: {error}", path.display()))?;
            }
        }
    } else if let Ok(text) = fs::read_to_string(&manifest_path) {
        let earlier: Manifest = serde_json::from_str(&text).map_err(|error| {
            format!(
                "{} is not an eval's run.json: {error}",
                manifest_path.display()
            )
        })?;
        if let Some(difference) = difference(&earlier, manifest) {
            return Err(format!(
                "{} holds another run ({difference}); its results cannot be resumed with \
                 this one\n  help: pass --fresh to start over there, or choose another --out",
                out.display()
            ));
        }
    }
    let text = serde_json::to_string_pretty(manifest).map_err(|error| error.to_string())?;
    fs::write(&manifest_path, text + "\n")
        .map_err(|error| format!("cannot write {}: {error}", manifest_path.display()))?;
    let (results, torn) = read_lines::<ItemResult>(&out.join(RESULTS));
    if torn {
        rewrite(&out.join(RESULTS), &results)?;
    }
    let (judged, torn) = read_lines::<JudgeCost>(&out.join(JUDGE_COSTS));
    if torn {
        rewrite(&out.join(JUDGE_COSTS), &judged)?;
    }
    Ok(results)
}

fn difference(earlier: &Manifest, now: &Manifest) -> Option<String> {
    if earlier.dataset_hash != now.dataset_hash {
        return Some(format!(
            "dataset {} ({} items) then, {} ({} items) now",
            earlier.dataset, earlier.items, now.dataset, now.items
        ));
    }
    if earlier.contenders != now.contenders {
        let names = |contenders: &[Contender]| {
            contenders
                .iter()
                .map(|contender| contender.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Some(format!(
            "contenders {} then, {} now",
            names(&earlier.contenders),
            names(&now.contenders)
        ));
    }
    (earlier.scorer != now.scorer)
        .then(|| format!("scorer {} then, {} now", earlier.scorer, now.scorer))
}

/// The whole lines of a JSONL file; `true` when some line was torn or unreadable (a kill
/// mid-write), which is then left out.
pub fn read_lines<T: for<'de> Deserialize<'de>>(path: &Path) -> (Vec<T>, bool) {
    let Ok(text) = fs::read_to_string(path) else {
        return (Vec::new(), false);
    };
    let mut torn = !text.is_empty() && !text.ends_with('\n');
    let mut rows = Vec::new();
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        match serde_json::from_str(line) {
            Ok(row) => rows.push(row),
            Err(_) => torn = true,
        }
    }
    (rows, torn)
}

fn rewrite<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), String> {
    let mut text = String::new();
    for row in rows {
        text.push_str(&serde_json::to_string(row).map_err(|error| error.to_string())?);
        text.push('\n');
    }
    let temporary = path.with_extension("jsonl.tmp");
    fs::write(&temporary, text)
        .and_then(|()| fs::rename(&temporary, path))
        .map_err(|error| format!("cannot rewrite {}: {error}", path.display()))
}

/// Appends whole lines to a JSONL file, each flushed before the next.
pub struct Appender {
    file: File,
    path: PathBuf,
}

impl Appender {
    pub fn open(path: &Path) -> Result<Self, String> {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map(|file| Self {
                file,
                path: path.to_path_buf(),
            })
            .map_err(|error| format!("cannot open {}: {error}", path.display()))
    }

    pub fn append<T: Serialize>(&mut self, row: &T) -> Result<(), String> {
        let mut line = serde_json::to_string(row).map_err(|error| error.to_string())?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|error| format!("cannot write {}: {error}", self.path.display()))
    }
}

/// The (contender, item) pairs already answered.
pub fn finished(results: &[ItemResult]) -> HashSet<(String, String)> {
    results
        .iter()
        .map(|result| (result.contender.clone(), result.item.clone()))
        .collect()
}

/// FNV-1a over the items as JSON, so a changed question or answer is a different dataset.
pub fn dataset_hash(items: &[crate::eval::record::Item]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for item in items {
        let text = serde_json::to_string(item).unwrap_or_default();
        for byte in text.bytes().chain(std::iter::once(b'\n')) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

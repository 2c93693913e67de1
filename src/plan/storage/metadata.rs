//! `plan_metadata.json` (MassGen's fields and order, plus our `plan_depth`,
//! `failure_reason` and `execution_progress`) and `execution_log.jsonl` lines.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::protocol::{ContextPath, PlanDepth, PlanOutcome, PlanStatus};

/// A saved plan's metadata. Reads MassGen-written files too: unknown keys are kept in
/// `extra` and written back, nulls are tolerated, `resumable` counts as ready.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanMetadata {
    /// The timestamp part of the directory name, without `plan_`.
    pub plan_id: String,
    /// Local time without zone.
    pub created_at: String,
    pub planning_session_id: Option<String>,
    pub planning_log_dir: Option<String>,
    pub planning_prompt: Option<String>,
    pub planning_turn: Option<u32>,
    pub execution_session_id: Option<String>,
    pub execution_log_dir: Option<String>,
    pub status: PlanStatus,
    /// The paths attached to the planning question, restored for its execution.
    pub context_paths: Vec<ContextPath>,
    /// Ours; MassGen ignores it.
    pub plan_depth: Option<PlanDepth>,
    /// Ours; MassGen ignores it.
    pub failure_reason: Option<String>,
    /// How far the last execution got (ours, in MassGen's progress field names).
    pub outcome: Option<PlanOutcome>,
    /// Keys we do not model (MassGen's revision and chunk fields), kept as read.
    pub extra: Map<String, Value>,
}

#[derive(Serialize)]
struct MetadataFile<'a> {
    plan_id: &'a str,
    created_at: &'a str,
    planning_session_id: &'a Option<String>,
    planning_log_dir: &'a Option<String>,
    planning_prompt: &'a Option<String>,
    planning_turn: Option<u32>,
    execution_session_id: &'a Option<String>,
    execution_log_dir: &'a Option<String>,
    status: &'static str,
    context_paths: Option<Vec<Value>>,
    plan_depth: Option<PlanDepth>,
    failure_reason: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    execution_progress: &'a Option<PlanOutcome>,
    #[serde(flatten)]
    extra: &'a Map<String, Value>,
}

const KNOWN: [&str; 13] = [
    "plan_id",
    "created_at",
    "planning_session_id",
    "planning_log_dir",
    "planning_prompt",
    "planning_turn",
    "execution_session_id",
    "execution_log_dir",
    "status",
    "context_paths",
    "plan_depth",
    "failure_reason",
    "execution_progress",
];

impl PlanMetadata {
    /// Pretty JSON in MassGen's field order, newline-terminated.
    pub fn to_bytes(&self) -> Vec<u8> {
        let file = MetadataFile {
            plan_id: &self.plan_id,
            created_at: &self.created_at,
            planning_session_id: &self.planning_session_id,
            planning_log_dir: &self.planning_log_dir,
            planning_prompt: &self.planning_prompt,
            planning_turn: self.planning_turn,
            execution_session_id: &self.execution_session_id,
            execution_log_dir: &self.execution_log_dir,
            status: status_name(self.status),
            context_paths: (!self.context_paths.is_empty()).then(|| {
                self.context_paths
                    .iter()
                    .map(|context| {
                        json!({
                            "path": context.path.display().to_string(),
                            "permission": if context.writable { "write" } else { "read" },
                        })
                    })
                    .collect()
            }),
            plan_depth: self.plan_depth,
            failure_reason: &self.failure_reason,
            execution_progress: &self.outcome,
            extra: &self.extra,
        };
        let mut bytes = serde_json::to_vec_pretty(&file).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }

    /// Reads a metadata file; `None` unless it is a JSON object. `fallback_id` names plans
    /// whose file lacks `plan_id`.
    pub fn from_bytes(bytes: &[u8], fallback_id: &str) -> Option<Self> {
        let Ok(Value::Object(mut object)) = serde_json::from_slice::<Value>(bytes) else {
            return None;
        };
        let text = |key: &str| match object.get(key) {
            Some(Value::String(text)) => Some(text.clone()),
            Some(Value::Number(number)) => Some(number.to_string()),
            _ => None,
        };
        let mut metadata = Self {
            plan_id: text("plan_id").unwrap_or_else(|| fallback_id.to_string()),
            created_at: text("created_at").unwrap_or_default(),
            planning_session_id: text("planning_session_id"),
            planning_log_dir: text("planning_log_dir"),
            planning_prompt: text("planning_prompt"),
            planning_turn: None,
            execution_session_id: text("execution_session_id"),
            execution_log_dir: text("execution_log_dir"),
            status: text("status")
                .as_deref()
                .map_or(PlanStatus::Planning, status_named),
            context_paths: Vec::new(),
            plan_depth: text("plan_depth").as_deref().and_then(PlanDepth::from_name),
            failure_reason: text("failure_reason"),
            outcome: object
                .get("execution_progress")
                .and_then(|progress| serde_json::from_value(progress.clone()).ok()),
            extra: Map::new(),
        };
        let left_open = metadata
            .outcome
            .as_ref()
            .is_some_and(|outcome| !outcome.is_finished());
        if metadata.status == PlanStatus::Ready
            && left_open
            && text("status").is_some_and(|status| status.trim().eq_ignore_ascii_case("resumable"))
        {
            metadata.status = PlanStatus::Partial;
        }
        metadata.planning_turn = object
            .get("planning_turn")
            .and_then(Value::as_u64)
            .and_then(|turn| u32::try_from(turn).ok());
        if let Some(Value::Array(paths)) = object.get("context_paths") {
            metadata.context_paths = paths
                .iter()
                .filter_map(|entry| match entry {
                    Value::String(path) => Some(ContextPath {
                        path: PathBuf::from(path),
                        writable: false,
                    }),
                    Value::Object(fields) => {
                        let path = fields.get("path").and_then(Value::as_str)?;
                        Some(ContextPath {
                            path: PathBuf::from(path),
                            writable: fields.get("permission").and_then(Value::as_str)
                                == Some("write"),
                        })
                    }
                    _ => None,
                })
                .collect();
        }
        for key in KNOWN {
            object.remove(key);
        }
        metadata.extra = object;
        Some(metadata)
    }
}

/// MassGen's statuses; `resumable` (execution left unfinished) may run again: it is
/// `partial` when our `execution_progress` shows open tasks, else ready. An unknown status
/// is treated as unfinished.
fn status_named(name: &str) -> PlanStatus {
    match name.trim().to_ascii_lowercase().as_str() {
        "ready" | "resumable" => PlanStatus::Ready,
        "executing" => PlanStatus::Executing,
        "completed" => PlanStatus::Completed,
        "partial" => PlanStatus::Partial,
        "failed" => PlanStatus::Failed,
        _ => PlanStatus::Planning,
    }
}

/// The status as written: a plan left partial is MassGen's `resumable`.
fn status_name(status: PlanStatus) -> &'static str {
    match status {
        PlanStatus::Partial => "resumable",
        PlanStatus::Planning
        | PlanStatus::Ready
        | PlanStatus::Executing
        | PlanStatus::Completed
        | PlanStatus::Failed => status.name(),
    }
}

#[derive(Serialize)]
struct LogLine<'a> {
    timestamp: String,
    event_type: &'a str,
    data: Value,
}

/// Appends one `{"timestamp","event_type","data"}` line with a single write, then syncs.
/// Only to a regular file, never through a link: a plan directory the repository shipped
/// cannot turn the log into a write to a file elsewhere, nor block on a FIFO.
pub(super) fn append_log(path: &Path, event_type: &str, data: Value) -> io::Result<()> {
    let line = LogLine {
        timestamp: crate::plan::task::local_iso(jiff::Timestamp::now()),
        event_type,
        data,
    };
    let mut bytes = serde_json::to_vec(&line).map_err(io::Error::other)?;
    bytes.push(b'\n');
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
        options.custom_flags(i32::try_from(flags.bits()).unwrap_or_default());
    }
    let mut file = options.open(path).map_err(|error| {
        io::Error::new(
            error.kind(),
            format!(
                "cannot append to {} ({error}); it must be a regular file",
                path.display()
            ),
        )
    })?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is not a regular file; the plan's log is not written",
                path.display()
            ),
        ));
    }
    file.write_all(&bytes)?;
    file.sync_data()
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_log_is_appended_to_a_regular_file_only_never_through_a_link_or_to_a_fifo() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("execution_log.jsonl");
        append_log(&log, "plan_created", json!({})).unwrap();
        append_log(&log, "execution_started", json!({})).unwrap();
        assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 2);

        let elsewhere = dir.path().join("bashrc");
        std::fs::write(&elsewhere, "mine\n").unwrap();
        let linked = dir.path().join("linked.jsonl");
        std::os::unix::fs::symlink(&elsewhere, &linked).unwrap();
        let error = append_log(&linked, "execution_started", json!({})).unwrap_err();
        assert!(error.to_string().contains("linked.jsonl"), "{error}");
        assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "mine\n");

        let fifo = dir.path().join("fifo.jsonl");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        assert!(append_log(&fifo, "execution_started", json!({})).is_err());
    }
}

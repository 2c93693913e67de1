//! The Python that custom tools run with (`MASSGEN_PYTHON`, else `python3` on PATH), the
//! worker's scripts written to a private temp directory, the environment the worker gets,
//! and the probe that learns where the interpreter finds its modules without running any
//! tool code.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Names the interpreter custom tools run with.
pub const PYTHON_VARIABLE: &str = "MASSGEN_PYTHON";

/// The worker, in three files so that each stays readable, zlib-packed by build.rs.
const SCRIPTS: [(&str, &[u8]); 3] = [
    (
        WORKER_SCRIPT,
        include_bytes!(concat!(env!("OUT_DIR"), "/massgen_tool_worker.py.zlib")),
    ),
    (
        "massgen_tool_inspect.py",
        include_bytes!(concat!(env!("OUT_DIR"), "/massgen_tool_inspect.py.zlib")),
    ),
    (
        "massgen_tool_schema.py",
        include_bytes!(concat!(env!("OUT_DIR"), "/massgen_tool_schema.py.zlib")),
    ),
];
const WORKER_SCRIPT: &str = "massgen_tool_worker.py";

/// How long the probe and `inspect` may take.
const QUICK_RUN: Duration = Duration::from_secs(60);

/// The worker's scripts in a directory only this user may enter, removed when dropped.
#[derive(Debug)]
pub struct Scripts {
    dir: PathBuf,
}

impl Scripts {
    pub fn write() -> Result<Self, String> {
        let base = std::env::temp_dir();
        let mut last_error = None;
        for attempt in 0..16u32 {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |elapsed| elapsed.subsec_nanos());
            let dir = base.join(format!(
                "massgen-python-{}-{nanos:x}-{attempt}",
                std::process::id()
            ));
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            match builder.create(&dir) {
                Ok(()) => {
                    let scripts = Self { dir };
                    for (name, packed) in SCRIPTS {
                        let text = miniz_oxide::inflate::decompress_to_vec_zlib(packed)
                            .map_err(|_| format!("{name} in this binary is damaged"))?;
                        std::fs::write(scripts.dir.join(name), text).map_err(|error| {
                            format!("cannot write the Python tool worker: {error}")
                        })?;
                    }
                    return Ok(scripts);
                }
                Err(error) => last_error = Some(error),
            }
        }
        Err(format!(
            "cannot make a directory for the Python tool worker under {}: {}",
            base.display(),
            last_error.map_or_else(String::new, |error| error.to_string())
        ))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn worker(&self) -> PathBuf {
        self.dir.join(WORKER_SCRIPT)
    }
}

impl Drop for Scripts {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A Python interpreter and where it reads from.
#[derive(Clone, Debug, PartialEq)]
pub struct Interpreter {
    /// As the user named it (`python3`, or `MASSGEN_PYTHON`'s value), for messages.
    pub named: String,
    /// Its `sys.executable`: the program the worker runs as.
    pub program: PathBuf,
    /// Its prefixes and `sys.path` directories: what the sandboxed worker must read.
    pub reads: Vec<PathBuf>,
}

#[derive(serde::Deserialize)]
struct Probe {
    executable: String,
    prefix: String,
    base_prefix: String,
    path: Vec<String>,
}

/// The interpreter's name: `MASSGEN_PYTHON`, else `python3`.
pub fn interpreter_name() -> String {
    std::env::var(PYTHON_VARIABLE)
        .ok()
        .filter(|name| !name.trim().is_empty())
        .unwrap_or_else(|| "python3".to_string())
}

/// Finds the interpreter and asks it where its modules are (no tool code runs).
pub async fn find(scripts: &Scripts) -> Result<Interpreter, String> {
    let named = interpreter_name();
    let output = run_quick(Path::new(&named), scripts, &["probe"]).await?;
    let probe: Probe = serde_json::from_slice(&output).map_err(|error| {
        format!("`{named}` did not answer massgen's probe as Python 3 does ({error})")
    })?;
    let mut reads: Vec<PathBuf> = [probe.prefix, probe.base_prefix]
        .into_iter()
        .chain(probe.path)
        .map(PathBuf::from)
        .filter(|path| path.is_absolute())
        .collect();
    reads.dedup();
    Ok(Interpreter {
        named,
        program: PathBuf::from(probe.executable),
        reads,
    })
}

/// Runs the worker script in `mode` with `args`, unconfined: only for modes that run no
/// tool code (`probe`, `inspect`). Its standard output, or why there is none.
pub async fn run_quick(
    program: &Path,
    scripts: &Scripts,
    args: &[&str],
) -> Result<Vec<u8>, String> {
    let shown = program.display().to_string();
    let mut command = tokio::process::Command::new(program);
    command
        .arg("-B")
        .arg(scripts.worker())
        .args(args)
        .env_clear()
        .envs(environment())
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    let output = match tokio::time::timeout(QUICK_RUN, command.output()).await {
        Ok(Ok(output)) => output,
        Ok(Err(error)) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!(
                "custom tools need Python 3, and `{shown}` was not found{}\n  help: install \
                 Python 3, or set {PYTHON_VARIABLE} to the interpreter your tools' packages \
                 are installed in",
                if shown == "python3" { " on PATH" } else { "" }
            ));
        }
        Ok(Err(error)) => return Err(format!("`{shown}` could not be started: {error}")),
        Err(_) => {
            return Err(format!(
                "`{shown}` did not answer within {} s",
                QUICK_RUN.as_secs()
            ));
        }
    };
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().last().unwrap_or("no output").trim();
        return Err(format!(
            "`{shown}` failed to run massgen's Python tool worker ({}): {last}\n  help: custom \
             tools need Python 3.9 or newer; set {PYTHON_VARIABLE} to pick another interpreter",
            output.status
        ));
    }
    Ok(output.stdout)
}

/// The worker's environment: what Python needs to find its modules (the same for the probe
/// and the worker, so both see one `sys.path`), never massgen's own secrets (API keys).
pub fn environment() -> Vec<(&'static str, OsString)> {
    let mut env: Vec<(&'static str, OsString)> = Vec::new();
    for name in [
        "PATH",
        "HOME",
        "LANG",
        "LC_ALL",
        "TERM",
        "PYTHONPATH",
        "PYTHONHOME",
        "VIRTUAL_ENV",
        "CONDA_PREFIX",
    ] {
        if let Some(value) = std::env::var_os(name) {
            env.push((name, value));
        }
    }
    env.push(("PYTHONUNBUFFERED", "1".into()));
    env.push(("PYTHONDONTWRITEBYTECODE", "1".into()));
    env.push(("PYTHONIOENCODING", "utf-8".into()));
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_is_written_as_its_assets_read() {
        let scripts = Scripts::write().unwrap();
        let assets = [
            include_str!("../../../assets/python/massgen_tool_worker.py"),
            include_str!("../../../assets/python/massgen_tool_inspect.py"),
            include_str!("../../../assets/python/massgen_tool_schema.py"),
        ];
        for ((name, _), asset) in SCRIPTS.iter().zip(assets) {
            let written = std::fs::read_to_string(scripts.dir().join(name)).unwrap();
            assert_eq!(written, asset, "{name}");
        }
        assert!(scripts.worker().ends_with(WORKER_SCRIPT));
    }
}

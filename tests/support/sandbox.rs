//! A temp dir that is the working directory and the home of every spawned `massgen`, so a
//! developer's own `~/.config/massgen/config.yaml`, `.env` or API keys cannot change results.

use std::path::PathBuf;
use std::time::Duration;

use assert_cmd::Command;

pub struct Sandbox {
    _dir: tempfile::TempDir,
    /// The canonical path: the binary names config files by its `getcwd()`.
    pub root: PathBuf,
}

impl Sandbox {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("home").join(".config")).unwrap();
        Self { _dir: dir, root }
    }

    /// Writes `text` to `name` under the sandbox, creating directories.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.root.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, text).unwrap();
        path
    }

    /// `massgen` with the sandbox as cwd and home, no colours and no API keys.
    pub fn massgen(&self) -> Command {
        self.isolated(Command::cargo_bin("massgen").unwrap())
    }

    /// `sh -c script` set up as [`massgen`](Self::massgen) is, with `$MASSGEN` naming the
    /// binary: for limits only a shell sets (`ulimit`, `trap`).
    #[allow(dead_code)]
    pub fn shell(&self, script: &str) -> Command {
        let mut cmd = self.isolated(Command::new("sh"));
        cmd.env("MASSGEN", assert_cmd::cargo::cargo_bin("massgen"))
            .args(["-c", script]);
        cmd
    }

    fn isolated(&self, mut cmd: Command) -> Command {
        cmd.current_dir(&self.root)
            .env("HOME", self.root.join("home"))
            .env("XDG_CONFIG_HOME", self.root.join("home").join(".config"))
            .env("NO_COLOR", "1")
            .env_remove("RUST_LOG")
            .timeout(Duration::from_secs(30));
        for (key, _) in std::env::vars() {
            if key.ends_with("_API_KEY") || key == "AZURE_OPENAI_ENDPOINT" {
                cmd.env_remove(key);
            }
        }
        cmd
    }

    pub fn massgen_dir(&self) -> PathBuf {
        self.root.join(".massgen")
    }

    /// The one `log_*` directory of this sandbox's single run.
    pub fn run_log_dir(&self) -> PathBuf {
        let logs = self.massgen_dir().join("massgen_logs");
        let runs: Vec<PathBuf> = std::fs::read_dir(&logs)
            .unwrap_or_else(|error| panic!("{}: {error}", logs.display()))
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| {
                path.is_dir()
                    && path
                        .file_name()
                        .is_some_and(|name| name.to_string_lossy().starts_with("log_"))
            })
            .collect();
        assert_eq!(runs.len(), 1, "exactly one log_* directory: {runs:?}");
        runs.into_iter().next().unwrap()
    }
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

//! Finding an agent CLI before it is used: on PATH, at a version massgen supports, and
//! signed in (an API key in the environment or the config, or the CLI's own login). Each
//! failure says how to fix it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::dialect::Dialect;
use crate::config::Env;

/// How long `<cli> --version` may take.
const VERSION_TIMEOUT: Duration = Duration::from_secs(20);

/// An installed CLI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundCli {
    pub program: PathBuf,
    pub version: String,
}

/// Finds `dialect`'s program on the PATH of `env` and checks its version and login.
pub fn find(dialect: &dyn Dialect, env: &Env) -> Result<FoundCli, String> {
    let name = dialect.program();
    let install = dialect.install_command();
    let program = on_path(name, env.get("PATH").unwrap_or_default()).ok_or_else(|| {
        format!(
            "`{name}` is not installed or not on PATH; install it with `{install}` ({})",
            supported(dialect)
        )
    })?;
    let output = version_output(&program)
        .map_err(|error| format!("`{} --version` failed: {error}", program.display()))?;
    let version = dialect.parse_version(&output).ok_or_else(|| {
        format!(
            "`{} --version` printed no version massgen can read ({:?}); reinstall it with `{install}`",
            program.display(),
            output.trim()
        )
    })?;
    let (oldest, too_new) = dialect.supported_versions();
    if compare(&version, oldest).is_lt()
        || too_new.is_some_and(|too_new| compare(&version, too_new).is_ge())
    {
        return Err(format!(
            "`{name}` {version} is not supported ({}); install a supported one with `{install}`",
            supported(dialect)
        ));
    }
    Ok(FoundCli { program, version })
}

/// Why the CLI could not sign in to its provider: no key variable set and no login of its
/// own; `None` when it can.
pub fn login_problem(dialect: &dyn Dialect, env: &Env) -> Option<String> {
    let keyed = dialect
        .key_variables()
        .iter()
        .any(|variable| env.get(variable).is_some());
    let home = env.get("HOME").map(PathBuf::from);
    if keyed || home.is_some_and(|home| dialect.logged_in(&home)) {
        return None;
    }
    Some(format!(
        "`{}` is not logged in: set {} (or `api_key` in the config), or log in with the CLI itself",
        dialect.program(),
        dialect.key_variables().join(" or ")
    ))
}

fn supported(dialect: &dyn Dialect) -> String {
    match dialect.supported_versions() {
        (oldest, Some(too_new)) => {
            format!("massgen supports versions {oldest} up to, not including, {too_new}")
        }
        (oldest, None) => format!("massgen supports version {oldest} and later"),
    }
}

/// The first executable file called `name` in `path`'s directories.
pub fn on_path(name: &str, path: &str) -> Option<PathBuf> {
    std::env::split_paths(path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

/// What `<program> --version` prints, waiting at most [`VERSION_TIMEOUT`].
fn version_output(program: &Path) -> Result<String, String> {
    let mut child = Command::new(program)
        .arg("--version")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|error| error.to_string())?;
    let started = Instant::now();
    loop {
        match child.try_wait().map_err(|error| error.to_string())? {
            Some(_) => break,
            None if started.elapsed() > VERSION_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("no answer within {} s", VERSION_TIMEOUT.as_secs()));
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    let output = child
        .wait_with_output()
        .map_err(|error| error.to_string())?;
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Compares dotted version numbers (`2.1.332` < `2.10.0`); missing parts count as 0.
pub fn compare(left: &str, right: &str) -> std::cmp::Ordering {
    let parts = |version: &str| -> Vec<u64> {
        version
            .split(['.', '-', '+'])
            .map_while(|part| part.parse().ok())
            .collect()
    };
    let (left, right) = (parts(left), parts(right));
    let length = left.len().max(right.len());
    (0..length)
        .map(|index| {
            let at = |parts: &[u64]| parts.get(index).copied().unwrap_or(0);
            at(&left).cmp(&at(&right))
        })
        .find(|ordering| ordering.is_ne())
        .unwrap_or(std::cmp::Ordering::Equal)
}

#[cfg(test)]
mod tests {
    use super::{compare, on_path};
    use std::cmp::Ordering;

    #[test]
    fn versions_compare_by_number() {
        assert_eq!(compare("2.1.332", "2.10.0"), Ordering::Less);
        assert_eq!(compare("0.171.0", "0.171"), Ordering::Equal);
        assert_eq!(compare("1.0.0-beta", "0.99.9"), Ordering::Greater);
    }

    #[test]
    fn a_program_missing_from_path_is_not_found() {
        assert_eq!(on_path("massgen-no-such-cli", "/usr/bin:/bin"), None);
        assert!(on_path("sh", "/nonexistent:/bin:/usr/bin").is_some());
    }
}

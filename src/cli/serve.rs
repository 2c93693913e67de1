//! `massgen serve`: loads the config as a run would, then serves it over HTTP until SIGTERM
//! or Ctrl+C.

use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::args::{Args, ServeArgs};
use super::exit::Exit;
use super::setup;
use crate::config::{Config, Env};
use crate::serve::{self, ServeContext, ServeOptions};

pub fn run(args: &Args, serve_args: &ServeArgs, cwd: &Path, env: Env) -> Exit {
    let Ok(ip) = serve_args.host.parse::<IpAddr>() else {
        eprintln!(
            "error: --host `{}` is not an IP address\n  help: use 127.0.0.1 (this machine only) \
             or 0.0.0.0 (every interface, with --api-key)",
            serve_args.host
        );
        return Exit::Config;
    };
    let api_key = serve_args
        .api_key
        .clone()
        .filter(|key| !key.trim().is_empty());
    if let Err(message) = check_api_key(ip, api_key.as_deref()) {
        eprintln!("error: {message}");
        return Exit::Config;
    }
    let allowed_origins = match allowed_names(serve_args) {
        Ok(origins) => origins,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Config;
        }
    };
    let mut main_args = args.clone();
    if main_args.config.is_none()
        && let Some(first) = serve_args.configs.first()
    {
        main_args.config = Some(first.display().to_string());
    }
    let prepared = match setup::prepare(&main_args, cwd, &env, Vec::new()) {
        Ok(prepared) => {
            setup::report_warnings(&prepared, false);
            prepared
        }
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Config;
        }
    };
    let named = match named_configs(args, &serve_args.configs, cwd, &env) {
        Ok(named) => named,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Config;
        }
    };
    let context = ServeContext {
        env,
        project_dir: cwd.to_path_buf(),
        logs: prepared.logs_enabled(args),
    };
    let options = ServeOptions {
        address: SocketAddr::new(ip, serve_args.port),
        api_key,
        max_concurrent: usize::from(serve_args.max_concurrent),
        max_body_bytes: usize::try_from(prepared.config.limits.max_question_bytes)
            .unwrap_or(usize::MAX)
            .saturating_mul(4),
        grace: Duration::from_secs(serve_args.grace),
        allowed_hosts: serve_args.allowed_hosts.clone(),
        allowed_origins,
        allow_examples: serve_args.allow_examples,
        max_connections: usize::try_from(serve_args.max_connections).unwrap_or(usize::MAX),
        read_timeout: Duration::from_secs(serve_args.read_timeout),
    };
    let _log_guard = super::logging::init(args.debug, false, None, &prepared.redactor);
    let config = prepared.config;
    let runtime = match super::runtime::multi_thread() {
        Ok(runtime) => runtime,
        Err(exit) => return exit,
    };
    let served = runtime.block_on(serve::run(config, named, context, options, stop_signal()));
    runtime.shutdown_timeout(Duration::from_secs(5));
    crate::sandbox::end_all_commands();
    match served {
        Ok(()) => Exit::Success,
        Err(error) => {
            eprintln!("error: massgen serve: {error}");
            Exit::Execution
        }
    }
}

/// `--display` and `--no-mouse` shape a terminal display, and serve has none: given
/// before `serve` they would do nothing, so they are refused. `MASSGEN_NO_MOUSE` in the
/// environment is a standing preference, not a request to serve, and is let be.
pub fn refuse_display_flags(args: &Args) -> Result<(), String> {
    let mouse_from_environment = std::env::var_os("MASSGEN_NO_MOUSE").is_some();
    let given = match (args.display, args.no_mouse && !mouse_from_environment) {
        (Some(_), true) => "--display and --no-mouse",
        (Some(_), false) => "--display",
        (None, true) => "--no-mouse",
        (None, false) => return Ok(()),
    };
    Err(format!(
        "massgen serve answers HTTP requests and shows no display, so {given} would do \
         nothing there\n  help: leave it out; serve writes one line per request on standard \
         error (and --debug adds diagnostics there)"
    ))
}

/// A key shorter than this is refused on an address other machines reach: it could be
/// guessed over the network.
pub const MIN_REMOTE_KEY_CHARS: usize = 32;

/// Anything but loopback needs a key, and one long enough not to be guessed.
fn check_api_key(ip: IpAddr, api_key: Option<&str>) -> Result<(), String> {
    if ip.is_loopback() {
        return Ok(());
    }
    let Some(key) = api_key else {
        return Err(format!(
            "--host {ip} lets other machines in, so it needs --api-key (or \
             MASSGEN_SERVE_API_KEY)\n  help: or serve this machine only with --host 127.0.0.1"
        ));
    };
    let length = key.chars().count();
    if length < MIN_REMOTE_KEY_CHARS {
        return Err(format!(
            "--host {ip} lets other machines in, and the API key given (--api-key or \
             MASSGEN_SERVE_API_KEY) has {length} characters: it needs at least \
             {MIN_REMOTE_KEY_CHARS} there, or it could be guessed\n  help: make one with \
             `openssl rand -hex 32`, or serve this machine only with --host 127.0.0.1"
        ));
    }
    Ok(())
}

/// Checks each --allowed-host; returns the --allowed-origin values normalized.
fn allowed_names(serve_args: &ServeArgs) -> Result<Vec<String>, String> {
    for host in &serve_args.allowed_hosts {
        serve::check_allowed_host(host)?;
    }
    serve_args
        .allowed_origins
        .iter()
        .map(|origin| serve::normalize_origin(origin))
        .collect()
}

/// Each `serve --config PATH`, loaded and checked as a run would, named after its file.
fn named_configs(
    args: &Args,
    paths: &[std::path::PathBuf],
    cwd: &Path,
    env: &Env,
) -> Result<Vec<(String, Arc<Config>)>, String> {
    let mut named: Vec<(String, Arc<Config>)> = Vec::new();
    for path in paths {
        let name = path
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.is_empty() || name == serve::MODEL || name.starts_with("massgen/") {
            return Err(format!(
                "{}: a served config needs a file name other than `massgen`",
                path.display()
            ));
        }
        if named.iter().any(|(taken, _)| *taken == name) {
            return Err(format!(
                "two served configs are named `{name}`: rename one of the files"
            ));
        }
        let mut one = args.clone();
        one.config = Some(path.display().to_string());
        let prepared = setup::prepare(&one, cwd, env, Vec::new())?;
        setup::report_warnings(&prepared, false);
        named.push((name, prepared.config));
    }
    Ok(named)
}

/// SIGTERM, SIGHUP or Ctrl+C.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut terminate = signal(SignalKind::terminate()).ok();
        let mut hangup = signal(SignalKind::hangup()).ok();
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            Some(()) = async { match terminate.as_mut() { Some(s) => s.recv().await, None => std::future::pending().await } } => {}
            Some(()) = async { match hangup.as_mut() { Some(s) => s.recv().await, None => std::future::pending().await } } => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_other_machines_can_try_must_be_long() {
        let any: IpAddr = "0.0.0.0".parse().unwrap();
        let loopback: IpAddr = "127.0.0.1".parse().unwrap();
        assert!(check_api_key(loopback, None).is_ok());
        assert!(check_api_key(loopback, Some("short")).is_ok());
        assert!(
            check_api_key(any, None)
                .unwrap_err()
                .contains("needs --api-key")
        );
        let short = check_api_key(any, Some("abcde")).unwrap_err();
        assert!(
            short.contains("5 characters") && short.contains("at least 32"),
            "{short}"
        );
        assert!(check_api_key(any, Some(&"k".repeat(31))).is_err());
        assert!(check_api_key(any, Some(&"k".repeat(32))).is_ok());
    }
}

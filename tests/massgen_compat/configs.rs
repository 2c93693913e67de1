//! Every config MassGen ships (the `massgen/configs/` of the wheel pinned in
//! tests/peers/massgen-wheel.pin, unpacked by `.ci/run`) through `massgen --validate`:
//! a config of model-API and agent-CLI backends (`claude_code`, `codex`, `gemini_cli`)
//! validates, one with an agent program massgen does not run (`copilot`, `antigravity_cli`,
//! `ag2`) is refused naming the type, its reason and the supported types, and MassGen's
//! rate-limits file is named as such.
//! No key of a shipped config is "unknown" or merely "not supported yet": each one massgen
//! does not act on is named with what MassGen would have done.
//! The configs are validated as a MassGen user runs them: from a root laid out like the
//! wheel's (its `massgen/` package beside the context paths the configs name), with the
//! `massgen` package installed for the Python that runs custom tools (`.ci/run` installs it
//! without its dependencies into tests/peers/massgen-wheel/package; `--validate` only looks
//! it up, never imports it). The number that load with no ignored key is pinned:
//! [`CONFIGS_RUNNING_AS_WRITTEN`].
//! Without the wheel this test skips, except with CI=true, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::sandbox::{Sandbox, text};
use massgen::config::{Env, GrantKind, from_file};

/// MassGen's agent-CLI backend types massgen runs.
const AGENT_CLIS: [&str; 3] = ["claude_code", "codex", "gemini_cli"];

/// MassGen's agent programs massgen refuses, each with words of its reason.
const REFUSED_AGENTS: [(&str, &str); 3] = [
    ("copilot", "GitHub's own Copilot service"),
    ("antigravity_cli", "Google's own Antigravity service"),
    ("ag2", "Python objects of the autogen framework"),
];

/// How many of the configs with an agent program (the six types above) validate. A change
/// that makes more of them load raises it; one that makes fewer fails here.
const AGENT_CONFIGS_VALIDATING: usize = 48;

/// How many of the wheel's configs load with no ignored key. A change that makes more of
/// them run as written raises it; one that makes fewer fails here.
const CONFIGS_RUNNING_AS_WRITTEN: usize = 190;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    Valid,
    /// An agent's backend is an agent program massgen does not run.
    RefusedAgent,
    NotAnAgentConfig,
    /// MassGen's error-handling examples name a custom tool function that does not exist
    /// (`wrong_two_num_tool`); MassGen logs it and runs without the tool, massgen refuses
    /// the config naming it.
    MissingToolFunction,
    /// An `upload_files` entry massgen cannot send: an audio URL (MassGen downloads it,
    /// massgen sends audio only from a local file) or a video (`path-here` in the Qwen
    /// example); the load names the entry, the API and how to fix it.
    RefusedUpload,
}

/// The function MassGen's error-handling examples name on purpose.
const MISSING_FUNCTION: &str = "wrong_two_num_tool";

fn configs_dir() -> Option<PathBuf> {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/massgen-wheel/massgen/configs");
    if dir.is_dir() {
        return Some(dir);
    }
    let why = format!(
        "{} is missing: .ci/run unpacks it from `pip download --no-deps massgen==$(cat \
         tests/peers/massgen-wheel.pin)`",
        dir.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
    eprintln!("skipping: {why}");
    None
}

fn yaml_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            yaml_files(&path, found);
        } else if path
            .extension()
            .is_some_and(|ext| ext == "yaml" || ext == "yml")
        {
            found.push(path);
        }
    }
}

/// The backend types on the config's uncommented `type:` lines.
fn backend_types(text: &str) -> Vec<&str> {
    text.lines()
        .map(|line| line.split(" #").next().unwrap_or_default())
        .filter(|line| !line.trim_start().starts_with('#'))
        .filter_map(|line| line.trim().strip_prefix("type:"))
        .map(|value| value.trim().trim_matches(['"', '\'']))
        .collect()
}

/// Whether the config names an agent program: an agent CLI or a refused one.
fn names_agent_program(text: &str) -> bool {
    backend_types(text).iter().any(|kind| {
        AGENT_CLIS.contains(kind) || REFUSED_AGENTS.iter().any(|(refused, _)| refused == kind)
    })
}

/// What the config's text says it is, read without massgen's loader: a refused agent
/// program as a backend type on an uncommented line, a custom tool whose function does not
/// exist, no `agents:`/`agent:` at all, or none of these.
fn expectation(text: &str) -> Expect {
    let code_lines = || {
        text.lines()
            .map(|line| line.split(" #").next().unwrap_or_default())
            .filter(|line| !line.trim_start().starts_with('#'))
    };
    let refused = backend_types(text)
        .iter()
        .any(|kind| REFUSED_AGENTS.iter().any(|(refused, _)| refused == kind));
    let has_agents = code_lines().any(|line| {
        let line = line.trim_start();
        line.starts_with("agents:") || line.starts_with("agent:")
    });
    let names_missing_function = code_lines()
        .any(|line| line.trim_start().starts_with("function:") && line.contains(MISSING_FUNCTION));
    let refused_upload = code_lines().any(|line| {
        let line = line.trim_start().trim_start_matches("- ");
        line.starts_with("video_path:") || line.starts_with("audio_path: \"http")
    });
    if refused {
        Expect::RefusedAgent
    } else if refused_upload {
        Expect::RefusedUpload
    } else if names_missing_function {
        Expect::MissingToolFunction
    } else if has_agents {
        Expect::Valid
    } else {
        Expect::NotAnAgentConfig
    }
}

/// The wheel leaves out massgen/configs/resources and the docs the configs grant as
/// context paths; a run would refuse a missing one, so they are created (empty) here, as
/// files when the name ends in an extension.
fn create_context_paths(sandbox: &Sandbox, configs: &[PathBuf]) {
    for config in configs {
        let Ok(loaded) = from_file(config, &Env::default()) else {
            continue;
        };
        for granted in &loaded.config.granted_paths {
            if granted.kind != GrantKind::Context || Path::new(&granted.written).is_absolute() {
                continue;
            }
            let path = sandbox.root.join(&granted.written);
            // `styles.css` is a file, `v0.0.21-example` a directory.
            let is_file = !granted.written.ends_with('/')
                && path.extension().is_some_and(|ext| {
                    let ext = ext.to_string_lossy();
                    (1..=4).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphanumeric())
                });
            if is_file {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                if !path.exists() {
                    std::fs::write(&path, "").unwrap();
                }
            } else {
                std::fs::create_dir_all(&path).unwrap();
            }
        }
    }
}

/// `Ok(true)` when the config loaded with no ignored key.
fn check(config: &Path, expect: Expect, output: &Output) -> Result<bool, String> {
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    let code = output.status.code();
    let ok = match expect {
        // Every key MassGen ships is acted on or named with what MassGen would have done.
        Expect::Valid => {
            code == Some(0)
                && stdout.starts_with("✓ ")
                && !stderr.contains("unknown key")
                && !stderr.contains("not supported yet")
        }
        Expect::RefusedAgent => {
            code == Some(1)
                && REFUSED_AGENTS.iter().any(|(refused, reason)| {
                    stderr.contains(&format!(
                        "backend type `{refused}` is not supported by massgen ("
                    )) && stderr.contains(reason)
                })
                && stderr.contains(
                    "supported types: scripted, openai, claude, claude_code, codex, gemini_cli, \
                     gemini",
                )
        }
        Expect::MissingToolFunction => {
            code == Some(1)
                && stderr.lines().any(|line| {
                    line.starts_with("error: ") && line.contains(&format!("`{MISSING_FUNCTION}`"))
                })
                && stderr.contains("  help: ")
        }
        Expect::RefusedUpload => {
            code == Some(1)
                && stderr.lines().any(|line| {
                    line.starts_with("error: ")
                        && line.contains(".upload_files[0]")
                        && (line.contains("not as a URL") || line.contains("does not send video"))
                })
                && stderr.contains("  help: ")
        }
        Expect::NotAnAgentConfig => {
            code == Some(1)
                && stderr.contains("this looks like MassGen's rate-limits file")
                && stderr.contains("not an agent config")
        }
    };
    if ok {
        Ok(expect == Expect::Valid && code == Some(0) && !stderr.contains("ignored: "))
    } else {
        Err(format!(
            "{} (expected {expect:?}): exit {code:?}\n--- stdout:\n{stdout}\n--- stderr:\n{stderr}",
            config.display()
        ))
    }
}

#[test]
fn every_shipped_massgen_config_validates_or_is_refused_honestly() {
    let Some(dir) = configs_dir() else {
        return;
    };
    let mut configs = Vec::new();
    yaml_files(&dir, &mut configs);
    configs.sort();
    assert!(!configs.is_empty(), "no configs under {}", dir.display());
    let package = dir.parent().unwrap().parent().unwrap().join("package");
    assert!(
        package.join("massgen/__init__.py").is_file(),
        "{} is missing: .ci/run installs the massgen package there",
        package.display()
    );
    let package = package.as_path();
    // The agent CLIs the configs name are checked on PATH: the pinned ones are put there.
    let clis = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/node_modules/.bin");
    assert!(
        clis.join("claude").exists() || std::env::var("CI").as_deref() != Ok("true"),
        "{} is missing: .ci/run installs the agent CLIs there",
        clis.display()
    );
    let path = std::env::join_paths(std::iter::once(clis).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let path = &path;
    let sandbox = Sandbox::new();
    lay_out_like_the_wheel(&sandbox, &dir);
    create_context_paths(&sandbox, &configs);

    let texts: Vec<String> = configs
        .iter()
        .map(|config| std::fs::read_to_string(config).unwrap())
        .collect();
    crate::upload_files::create(&sandbox, &texts);
    let expected: Vec<Expect> = texts.iter().map(|text| expectation(text)).collect();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(8));
    let chunk = configs.len().div_ceil(threads);
    let outputs: Vec<Output> = std::thread::scope(|scope| {
        let handles: Vec<_> = configs
            .chunks(chunk)
            .zip(expected.chunks(chunk))
            .map(|(configs, expected)| {
                let sandbox = &sandbox;
                scope.spawn(move || {
                    configs
                        .iter()
                        .zip(expected)
                        .map(|(config, _)| {
                            sandbox
                                .massgen()
                                .env("PYTHONPATH", package)
                                .env("PATH", path)
                                .arg("--validate")
                                .arg(config)
                                .output()
                                .unwrap()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap())
            .collect()
    });
    let outcomes: Vec<Result<bool, String>> = configs
        .iter()
        .zip(&expected)
        .zip(&outputs)
        .map(|((config, expect), output)| check(config, *expect, output))
        .collect();
    report_agent_configs(&configs, &texts, &outputs);
    check_permission_configs(&configs, &texts, &outcomes);
    let unhonoured = crate::decision_keys::unhonoured(&configs, &outputs);
    assert!(
        unhonoured.is_empty(),
        "keys of how agents decide left unhonoured:\n{}",
        unhonoured.join("\n")
    );
    let failures: Vec<&String> = outcomes
        .iter()
        .filter_map(|outcome| outcome.as_ref().err())
        .collect();
    let as_written = outcomes
        .iter()
        .filter(|outcome| matches!(outcome, Ok(true)))
        .count();
    let count = |kind| expected.iter().filter(|expect| **expect == kind).count();
    eprintln!(
        "MassGen's {} shipped configs: {} validate ({as_written} with no ignored key), {} \
         refused for an agent program massgen does not run, {} for a custom tool function that does not exist, {} \
         for an upload massgen cannot send, {} as not an agent config",
        configs.len(),
        count(Expect::Valid),
        count(Expect::RefusedAgent),
        count(Expect::MissingToolFunction),
        count(Expect::RefusedUpload),
        count(Expect::NotAnAgentConfig)
    );
    assert!(
        failures.is_empty(),
        "{} of {} configs did not come out as expected:\n\n{}",
        failures.len(),
        configs.len(),
        failures
            .iter()
            .map(|failure| failure.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    assert_eq!(
        as_written, CONFIGS_RUNNING_AS_WRITTEN,
        "configs that load with no ignored key: {as_written}, pinned {CONFIGS_RUNNING_AS_WRITTEN}"
    );
}

/// Every config with a `permissions:` block (MassGen's permission engine examples) loads
/// with no ignored key: the block is read, not noted.
fn check_permission_configs(
    configs: &[PathBuf],
    texts: &[String],
    outcomes: &[Result<bool, String>],
) {
    let with_block: Vec<(&PathBuf, &Result<bool, String>)> = configs
        .iter()
        .zip(texts)
        .zip(outcomes)
        .filter(|((_, text), _)| {
            text.lines()
                .any(|line| line.trim_start().starts_with("permissions:"))
        })
        .map(|((config, _), outcome)| (config, outcome))
        .collect();
    assert!(
        with_block.len() >= 2,
        "the wheel's permission examples are missing: {with_block:?}"
    );
    let not_as_written: Vec<String> = with_block
        .iter()
        .filter(|(_, outcome)| !matches!(outcome, Ok(true)))
        .map(|(config, _)| config.display().to_string())
        .collect();
    assert!(
        not_as_written.is_empty(),
        "configs with a `permissions:` block that do not load as written: {not_as_written:?}"
    );
}

/// Prints how the configs naming an agent program fare (how many validate, which of their
/// agents' keys are still ignored and why) and checks the number that validate against
/// [`AGENT_CONFIGS_VALIDATING`].
fn report_agent_configs(configs: &[PathBuf], texts: &[String], outputs: &[Output]) {
    let mut total = 0;
    let mut validating = 0;
    let mut ignored: std::collections::BTreeMap<String, usize> = Default::default();
    for ((config, source), output) in configs.iter().zip(texts).zip(outputs) {
        if !names_agent_program(source) {
            continue;
        }
        total += 1;
        if output.status.code() != Some(0) {
            eprintln!("agent config refused: {}", config.display());
            continue;
        }
        validating += 1;
        for line in text(&output.stderr).lines() {
            // `…: ignored: agents[0].backend.KEY — why` counted by KEY and why.
            if let Some((_, what)) = line.split_once(": ignored: ") {
                let (path, why) = what.split_once(" — ").unwrap_or((what, ""));
                if !path.starts_with("agent") {
                    continue;
                }
                let key = path.rsplit('.').next().unwrap_or(path);
                *ignored.entry(format!("{key} — {why}")).or_default() += 1;
            }
        }
    }
    eprintln!("{validating} of the {total} configs naming an agent program validate");
    for (what, times) in &ignored {
        eprintln!("  ignored ×{times}: {what}");
    }
    assert_eq!(
        validating, AGENT_CONFIGS_VALIDATING,
        "configs naming an agent program that validate: {validating}, pinned \
         {AGENT_CONFIGS_VALIDATING}"
    );
}

/// The sandbox's root as the wheel's: `massgen/` holds the wheel's package directories
/// (the custom tools' `massgen/tool/…` files) beside `massgen/configs/resources`, which the
/// wheel leaves out and [`create_context_paths`] makes.
fn lay_out_like_the_wheel(sandbox: &Sandbox, configs_dir: &Path) {
    let package = configs_dir.parent().unwrap();
    let laid_out = sandbox.root.join("massgen");
    std::fs::create_dir_all(laid_out.join("configs")).unwrap();
    for entry in std::fs::read_dir(package).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() != "configs" {
            std::os::unix::fs::symlink(entry.path(), laid_out.join(entry.file_name())).unwrap();
        }
    }
}

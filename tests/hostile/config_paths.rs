//! Hostile: config_paths. Paths a config grants agents (`cwd`, `orchestrator.context_paths`)
//! that are `/`, a system directory, the home directory or outside the project are refused
//! unless `--allow-outside-project` is given, and `--validate` refuses exactly what a run
//! would; config files that are directories, FIFOs, too big, list too many agents or too
//! many unknown keys, and base URLs that are not URLs, are clear errors.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use super::support::sandbox::{Sandbox, text};

const AGENT: &str =
    "agent:\n  id: a\n  backend: {type: scripted, tokens_per_second: 0, answer: ok}\n";

fn describe(output: &Output) -> String {
    format!(
        "--- status: {:?}\n--- stdout:\n{}\n--- stderr:\n{}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

fn run(sandbox: &Sandbox, args: &[&str]) -> Output {
    sandbox
        .massgen()
        .args(args)
        .write_stdin("")
        .output()
        .unwrap()
}

/// A one-agent config granting `path` as a context path; its entry is on line 6.
fn with_context(sandbox: &Sandbox, path: &Path) -> &'static str {
    sandbox.write(
        "ctx.yaml",
        &format!(
            "{AGENT}orchestrator:\n  context_paths:\n    - {{path: \"{}\", permission: read}}\n",
            path.display()
        ),
    );
    "ctx.yaml"
}

/// Both the run and `--validate` refuse the config, with exit 1 and the same message.
fn assert_refused(sandbox: &Sandbox, config: &str, needles: &[&str]) {
    let ran = run(sandbox, &["--config", config, "--display", "plain", "q"]);
    let validated = run(sandbox, &["--validate", config]);
    for output in [&ran, &validated] {
        assert_eq!(output.status.code(), Some(1), "{}", describe(output));
        let stderr = text(&output.stderr);
        for needle in needles {
            assert!(stderr.contains(needle), "{needle:?}\n{}", describe(output));
        }
        assert!(
            stderr.contains("--allow-outside-project"),
            "{}",
            describe(output)
        );
        assert!(!stderr.contains("panicked"), "{}", describe(output));
    }
    assert!(
        !sandbox.massgen_dir().join("massgen_logs").exists(),
        "no turn ran\n{}",
        describe(&ran)
    );
}

#[test]
fn the_root_directory_as_a_context_path_is_refused() {
    let sandbox = Sandbox::new();
    let config = with_context(&sandbox, Path::new("/"));
    assert_refused(&sandbox, config, &["ctx.yaml:6:", "the root directory"]);
}

#[test]
fn a_system_directory_as_a_context_path_is_refused() {
    let sandbox = Sandbox::new();
    let config = with_context(&sandbox, Path::new("/etc"));
    assert_refused(
        &sandbox,
        config,
        &["ctx.yaml:6:", "/etc", "system directory"],
    );
}

#[test]
fn the_home_directory_as_a_context_path_is_refused_but_a_folder_in_it_is_not_outside() {
    let sandbox = Sandbox::new();
    // The sandbox's home is inside its project directory: only home itself is refused.
    let config = with_context(&sandbox, &sandbox.root.join("home"));
    assert_refused(&sandbox, config, &["ctx.yaml:6:", "home directory"]);
    std::fs::create_dir_all(sandbox.root.join("home").join("notes")).unwrap();
    with_context(&sandbox, &sandbox.root.join("home").join("notes"));
    let output = run(&sandbox, &["--validate", "ctx.yaml"]);
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
}

#[test]
fn a_context_path_outside_the_project_is_refused_unless_allowed() {
    let sandbox = Sandbox::new();
    let outside = tempfile::tempdir().unwrap();
    let outside = outside.path().canonicalize().unwrap();
    let config = with_context(&sandbox, &outside);
    assert_refused(&sandbox, config, &["ctx.yaml:6:", "outside the project"]);
    // A symlink inside the project that leads outside is outside too.
    std::os::unix::fs::symlink(&outside, sandbox.root.join("link")).unwrap();
    let config = with_context(&sandbox, Path::new("link"));
    assert_refused(&sandbox, config, &["ctx.yaml:6:", "outside the project"]);
    // The explicit opt-in lets both run.
    let allowed = [
        "--config",
        config,
        "--allow-outside-project",
        "--display",
        "plain",
        "q",
    ];
    let output = run(&sandbox, &allowed);
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
    let output = run(&sandbox, &["--validate", config, "--allow-outside-project"]);
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
}

#[test]
fn a_workspace_cwd_that_climbs_out_of_the_project_is_refused() {
    let sandbox = Sandbox::new();
    let escaping = [
        "../../../escaped",
        ".massgen/../../escaped",
        "/tmp/massgen_absolute_workspace",
    ];
    for cwd in escaping {
        sandbox.write(
            "ws.yaml",
            &format!("agent:\n  id: a\n  backend:\n    type: scripted\n    cwd: \"{cwd}\"\n"),
        );
        assert_refused(&sandbox, "ws.yaml", &["ws.yaml:5:", "outside the project"]);
    }
    assert!(!sandbox.root.parent().unwrap().join("escaped").exists());
    // A plain name stays under .massgen/workspaces/ and runs.
    sandbox.write(
        "ws.yaml",
        "agent:\n  id: a\n  backend: {type: scripted, tokens_per_second: 0, answer: ok, cwd: workspace}\n",
    );
    let output = run(
        &sandbox,
        &["--config", "ws.yaml", "--display", "plain", "q"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
}

#[test]
fn validate_reports_a_missing_context_path_as_the_run_would() {
    let sandbox = Sandbox::new();
    let config = with_context(&sandbox, Path::new("./no_such_dir"));
    for args in [
        vec!["--validate", config],
        vec!["--config", config, "--display", "plain", "q"],
    ] {
        let output = run(&sandbox, &args);
        assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
        let stderr = text(&output.stderr);
        assert!(stderr.contains("ctx.yaml:6:"), "{}", describe(&output));
        assert!(stderr.contains("no_such_dir"), "{}", describe(&output));
        assert!(stderr.contains("does not exist"), "{}", describe(&output));
    }
}

#[test]
fn a_config_path_that_is_a_directory_or_a_fifo_says_what_it_is() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.root.join("confdir")).unwrap();
    assert!(
        std::process::Command::new("mkfifo")
            .arg(sandbox.root.join("conf.fifo"))
            .status()
            .unwrap()
            .success()
    );
    for (name, what) in [("confdir", "is a directory"), ("conf.fifo", "FIFO")] {
        for args in [vec!["--config", name, "q"], vec!["--validate", name]] {
            let output = run(&sandbox, &args);
            assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
            let stderr = text(&output.stderr);
            assert!(stderr.contains(what), "{}", describe(&output));
            assert!(!stderr.contains("not found"), "{}", describe(&output));
        }
    }
}

#[test]
fn a_project_config_path_that_is_a_directory_is_an_error_not_the_demo() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.massgen_dir().join("config.yaml")).unwrap();
    let output = run(&sandbox, &["--display", "plain", "q"]);
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(".massgen/config.yaml"),
        "{}",
        describe(&output)
    );
    assert!(stderr.contains("is a directory"), "{}", describe(&output));
    assert!(!stderr.contains("offline demo"), "{}", describe(&output));
}

#[test]
fn an_invalid_ipv6_base_url_fails_validation_with_its_location() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "v6.yaml",
        "agent:\n  id: a\n  backend:\n    type: chatcompletion\n    model: m\n    api_key: k\n    base_url: \"http://[::1\"\n",
    );
    let output = run(&sandbox, &["--validate", "v6.yaml"]);
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("v6.yaml:7:"), "{}", describe(&output));
    assert!(stderr.contains("base_url"), "{}", describe(&output));
}

#[test]
fn ten_thousand_agents_are_refused_fast_before_they_are_read() {
    let sandbox = Sandbox::new();
    let mut yaml = String::from("agents:\n");
    for index in 0..10_000 {
        yaml.push_str(&format!(
            "  - id: agent_{index}\n    backend: {{type: scripted, tokens_per_second: 0}}\n"
        ));
    }
    sandbox.write("many.yaml", &yaml);
    for args in [
        vec!["--config", "many.yaml", "--display", "plain", "q"],
        vec!["--validate", "many.yaml"],
    ] {
        let started = Instant::now();
        let output = run(&sandbox, &args);
        let elapsed = started.elapsed();
        assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
        let stderr = text(&output.stderr);
        assert!(stderr.contains("many.yaml:1:"), "{}", describe(&output));
        assert!(stderr.contains("10,000 agents"), "{}", describe(&output));
        assert!(
            stderr.contains("limits.max_agents"),
            "{}",
            describe(&output)
        );
        assert!(elapsed < Duration::from_secs(10), "took {elapsed:?}");
    }
    // Raised explicitly in the user's own config directory, the limit lets a bigger team
    // through (a project's config may only lower it: tests/hostile/config_limits.rs).
    sandbox.write(
        "home/.config/massgen/agents/forty.yaml",
        &format!(
            "limits: {{max_agents: 80}}\nagents:\n{}",
            (0..80)
                .map(|i| format!("  - {{id: a{i}, backend: {{type: scripted}}}}\n"))
                .collect::<String>()
        ),
    );
    let output = run(&sandbox, &["--validate", "forty"]);
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
    // Unraised, 80 agents are more than the default (64) lets through.
    sandbox.write(
        "eighty.yaml",
        &format!(
            "agents:\n{}",
            (0..80)
                .map(|i| format!("  - {{id: a{i}, backend: {{type: scripted}}}}\n"))
                .collect::<String>()
        ),
    );
    let output = run(&sandbox, &["--validate", "eighty.yaml"]);
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(
        text(&output.stderr).contains("at most 64 run in one turn"),
        "{}",
        describe(&output)
    );
}

#[test]
fn a_hundred_thousand_unknown_keys_print_a_bounded_number_of_warnings() {
    let sandbox = Sandbox::new();
    let mut yaml = String::from(AGENT);
    for index in 0..100_000 {
        yaml.push_str(&format!("unknown_{index}: 1\n"));
    }
    sandbox.write("noisy.yaml", &yaml);
    let ran = run(
        &sandbox,
        &["--config", "noisy.yaml", "--display", "plain", "q"],
    );
    assert_eq!(ran.status.code(), Some(0), "{}", describe(&ran));
    let validated = run(&sandbox, &["--validate", "noisy.yaml"]);
    assert_eq!(validated.status.code(), Some(0), "{}", describe(&validated));
    for (output, most) in [(&ran, 30), (&validated, 250)] {
        let stderr = text(&output.stderr);
        let warnings = stderr
            .lines()
            .filter(|line| line.starts_with("warning:"))
            .count();
        assert!(warnings <= most, "{warnings} warning lines");
        assert!(
            stderr.contains("more warnings"),
            "{}",
            &stderr[stderr.len().saturating_sub(500)..]
        );
    }
}

#[test]
fn a_config_file_over_sixteen_mib_is_refused_before_it_is_parsed() {
    let sandbox = Sandbox::new();
    let mut yaml = String::from(AGENT);
    yaml.push_str("system_message: \"");
    yaml.push_str(&"x".repeat(17 * 1024 * 1024));
    yaml.push_str("\"\n");
    sandbox.write("huge.yaml", &yaml);
    let output = run(&sandbox, &["--validate", "huge.yaml"]);
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("huge.yaml"), "{}", describe(&output));
    assert!(stderr.contains("16 MiB"), "{}", describe(&output));
}

#[test]
fn a_config_of_a_million_values_or_an_alias_bomb_is_refused_before_it_is_loaded() {
    let sandbox = Sandbox::new();
    let mut keys = String::from(AGENT);
    for index in 0..1_000_000 {
        keys.push_str(&format!("k{index}: 1\n"));
    }
    sandbox.write("keys.yaml", &keys);
    let mut bomb = String::from(AGENT);
    bomb.push_str("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
    for level in 1..9 {
        let items = vec![format!("*l{}", level - 1); 10].join(", ");
        bomb.push_str(&format!("l{level}: &l{level} [{items}]\n"));
    }
    sandbox.write("bomb.yaml", &bomb);
    for config in ["keys.yaml", "bomb.yaml"] {
        let started = Instant::now();
        let output = run(&sandbox, &["--validate", config]);
        let elapsed = started.elapsed();
        assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
        let stderr = text(&output.stderr);
        assert!(
            stderr.contains("more than 250,000 values"),
            "{}",
            describe(&output)
        );
        assert!(
            stderr.contains(&format!("{config}:")),
            "{}",
            describe(&output)
        );
        assert!(elapsed < Duration::from_secs(10), "took {elapsed:?}");
    }
}

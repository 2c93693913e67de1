//! Hostile: config_limits. A project's config cannot lift the `limits:` caps (only the
//! user's own config directory and `--limit` can, up to hard ceilings); `${VAR}` and `.env`
//! cannot grow a config past its cap; `--local` reads a bounded listing from whatever
//! listens on a model port; config errors never echo a key and show control characters
//! escaped.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Output;
use std::time::{Duration, Instant};

use super::support::sandbox::{Sandbox, text};

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

/// A config of `count` scripted agents that answer at once, after `limits`.
fn agents(count: usize, limits: &str) -> String {
    let mut yaml = format!("{limits}agents:\n");
    for index in 0..count {
        yaml.push_str(&format!(
            "  - id: a{index}\n    backend: {{type: scripted, tokens_per_second: 0, answer: ok}}\n"
        ));
    }
    yaml
}

fn assert_refused(output: &Output, needles: &[&str]) {
    assert_eq!(output.status.code(), Some(1), "{}", describe(output));
    let stderr = text(&output.stderr);
    for needle in needles {
        assert!(stderr.contains(needle), "{needle:?}\n{}", describe(output));
    }
}

fn assert_ran(output: &Output) {
    assert_eq!(output.status.code(), Some(0), "{}", describe(output));
}

#[test]
fn a_project_config_cannot_lift_max_agents() {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".massgen/config.yaml",
        &agents(2, "limits: {max_agents: 100000}\n"),
    );
    let ran = run(&sandbox, &["--display", "plain", "--no-logs", "q"]);
    let validated = run(&sandbox, &["--validate", ".massgen/config.yaml"]);
    for output in [&ran, &validated] {
        assert_refused(
            output,
            &[
                ".massgen/config.yaml:1:",
                "`limits.max_agents` is 100,000, above its hard ceiling of 128",
            ],
        );
    }
    // Under the ceiling but above the default: still not this file's to raise.
    sandbox.write(
        ".massgen/config.yaml",
        &agents(70, "limits: {max_agents: 100}\n"),
    );
    for args in [
        &["--display", "plain", "--no-logs", "q"][..],
        &["--validate", ".massgen/config.yaml"],
    ] {
        assert_refused(
            &run(&sandbox, args),
            &[
                "above its default of 64, and this config can only lower limits",
                "--limit max_agents=N",
                "at most 128",
            ],
        );
    }
}

#[test]
fn too_many_agents_points_at_the_flag_not_the_config() {
    let sandbox = Sandbox::new();
    sandbox.write("many.yaml", &agents(65, ""));
    let output = run(&sandbox, &["--validate", "many.yaml"]);
    assert_refused(&output, &["lists 65 agents", "--limit max_agents=N"]);
    assert!(
        !text(&output.stderr).contains("`limits: {max_agents"),
        "{}",
        describe(&output)
    );
}

#[test]
fn max_question_bytes_cannot_be_lifted_by_a_project_config() {
    let sandbox = Sandbox::new();
    for value in ["100000000000", "1e11", "2097152"] {
        sandbox.write(
            "q.yaml",
            &agents(1, &format!("limits: {{max_question_bytes: {value}}}\n")),
        );
        for args in [
            &["--config", "q.yaml", "--display", "plain", "--no-logs", "q"][..],
            &["--validate", "q.yaml"],
        ] {
            assert_refused(
                &run(&sandbox, args),
                &["q.yaml:1:", "limits.max_question_bytes"],
            );
        }
    }
}

#[test]
fn the_user_config_directory_may_raise_limits_up_to_the_ceiling() {
    let sandbox = Sandbox::new();
    let user_dir = "home/.config/massgen";
    sandbox.write(
        &format!("{user_dir}/config.yaml"),
        &agents(70, "limits: {max_agents: 128}\n"),
    );
    // No project config: the user's config.yaml runs, with its raised caps.
    assert_ran(&run(&sandbox, &["--display", "quiet", "--no-logs", "q"]));
    sandbox.write(
        &format!("{user_dir}/config.yaml"),
        &agents(1, "limits: {max_question_bytes: 2097152}\n"),
    );
    let output = sandbox
        .massgen()
        .args(["--display", "quiet", "--no-logs"])
        .write_stdin(format!("{}\n", "x".repeat(1_500_000)))
        .output()
        .unwrap();
    assert_ran(&output);
    // A named config under agents/ is the user's too; the ceiling still holds there.
    sandbox.write(
        &format!("{user_dir}/agents/big.yaml"),
        &agents(70, "limits: {max_agents: 100}\n"),
    );
    assert_ran(&run(&sandbox, &["--validate", "big"]));
    sandbox.write(
        &format!("{user_dir}/agents/huge.yaml"),
        &agents(2, "limits: {max_agents: 129}\n"),
    );
    assert_refused(
        &run(&sandbox, &["--validate", "huge"]),
        &["above its hard ceiling of 128"],
    );
}

#[test]
fn the_limit_flag_raises_up_to_the_ceiling_and_wins_over_the_config() {
    let sandbox = Sandbox::new();
    sandbox.write("many.yaml", &agents(70, ""));
    assert_ran(&run(
        &sandbox,
        &["--limit", "max_agents=70", "--validate", "many.yaml"],
    ));
    assert_ran(&run(
        &sandbox,
        &[
            "--limit",
            "max_agents=70",
            "--config",
            "many.yaml",
            "--display",
            "quiet",
            "--no-logs",
            "q",
        ],
    ));
    sandbox.write("raised.yaml", &agents(70, "limits: {max_agents: 100}\n"));
    assert_ran(&run(
        &sandbox,
        &["--limit", "max_agents=100", "--validate", "raised.yaml"],
    ));
    assert_refused(
        &run(
            &sandbox,
            &["--limit", "max_agents=129", "--validate", "many.yaml"],
        ),
        &["--limit max_agents=129 is above its hard ceiling of 128"],
    );
    assert_refused(
        &run(
            &sandbox,
            &[
                "--limit",
                "max_question_bytes=100000000000",
                "--validate",
                "many.yaml",
            ],
        ),
        &["hard ceiling of 16 MiB"],
    );
    assert_refused(
        &run(
            &sandbox,
            &["--limit", "agents=3", "--validate", "many.yaml"],
        ),
        &["names no limit `agents`", "max_agents"],
    );
}

#[test]
fn variables_cannot_grow_a_config_past_its_cap() {
    let sandbox = Sandbox::new();
    // 900 KB from .env, used by 20 agents: 18 MB once expanded.
    sandbox.write(".env", &format!("BIG={}\n", "x".repeat(900_000)));
    let mut yaml = String::from("agents:\n");
    for index in 0..20 {
        yaml.push_str(&format!(
            "  - id: a{index}\n    system_message: \"${{BIG}}\"\n    backend: {{type: scripted, \
             tokens_per_second: 0, answer: ok}}\n"
        ));
    }
    sandbox.write("big.yaml", &yaml);
    for args in [
        &["--validate", "big.yaml"][..],
        &[
            "--config",
            "big.yaml",
            "--display",
            "plain",
            "--no-logs",
            "q",
        ],
    ] {
        assert_refused(
            &run(&sandbox, args),
            &["with `${BIG}` expanded, the config is larger than 16 MiB"],
        );
    }
}

#[test]
fn a_huge_or_special_dotenv_is_not_read() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "c.yaml",
        &agents(1, "").replace("answer: ok", "answer: \"${BIG}\""),
    );
    sandbox.write(".env", &format!("BIG={}\n", "y".repeat(20 << 20)));
    let started = Instant::now();
    let output = run(&sandbox, &["--validate", "c.yaml"]);
    assert!(started.elapsed() < Duration::from_secs(10));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(".env: not read") && stderr.contains("larger than 1 MiB"),
        "{}",
        describe(&output)
    );
    assert!(
        stderr.contains("environment variable `BIG` is not set"),
        "{}",
        describe(&output)
    );
    #[cfg(unix)]
    {
        std::fs::remove_file(sandbox.root.join(".env")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", sandbox.root.join(".env")).unwrap();
        let started = Instant::now();
        let output = run(&sandbox, &["--validate", "c.yaml"]);
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(
            text(&output.stderr).contains("not a regular file"),
            "{}",
            describe(&output)
        );
    }
}

#[test]
fn an_unterminated_reference_in_a_key_is_not_echoed() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "key.yaml",
        "agents:\n  - id: a\n    backend:\n      type: openai\n      model: gpt-5\n      \
         api_key: \"sk-abc123SECRETxyz${def\"\n",
    );
    for args in [
        &["--validate", "key.yaml"][..],
        &[
            "--config",
            "key.yaml",
            "--display",
            "plain",
            "--no-logs",
            "q",
        ],
    ] {
        let output = run(&sandbox, args);
        assert_refused(
            &output,
            &[
                "key.yaml:6:16:",
                "`agents[0].backend.api_key` has a `${` with no closing `}`",
            ],
        );
        let stderr = text(&output.stderr);
        for secret in ["SECRET", "sk-abc", "def\""] {
            assert!(!stderr.contains(secret), "{secret}\n{}", describe(&output));
        }
    }
    // A key pasted into the wrong field is not quoted either.
    sandbox.write(
        "pasted.yaml",
        "agents:\n  - id: a\n    backend:\n      type: openai\n      model: gpt-5\n      \
         temperature: \"sk-proj-SECRETabcdefghijklmnopqrstuvwxyz0123\"\n",
    );
    let output = run(&sandbox, &["--validate", "pasted.yaml"]);
    assert_refused(
        &output,
        &["`agents[0].backend.temperature` must be a number, found text (not shown"],
    );
    assert!(
        !text(&output.stderr).contains("SECRET"),
        "{}",
        describe(&output)
    );
}

/// Every line of `output`'s stderr starts an error, a warning or a help line.
fn one_line_each(output: &Output) {
    for line in text(&output.stderr).lines() {
        assert!(
            line.starts_with("error: ")
                || line.starts_with("warning: ")
                || line.starts_with("  help: "),
            "a line that does not start an error, warning or help: {line:?}\n{}",
            describe(output)
        );
    }
    assert!(
        !text(&output.stderr).contains(['\u{202e}', '\0', '\r']),
        "{}",
        describe(output)
    );
}

#[test]
fn control_characters_of_a_config_are_shown_escaped() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "id.yaml",
        "agents:\n  - id: \"x\\u202Ey\\nz\\0w\"\n    backend: {type: scripted}\n",
    );
    for args in [
        &["--validate", "id.yaml"][..],
        &[
            "--config",
            "id.yaml",
            "--display",
            "plain",
            "--no-logs",
            "q",
        ],
    ] {
        let output = run(&sandbox, args);
        assert_refused(&output, &["agent id \"x\\u{202e}y\\nz\\u{0}w\""]);
        one_line_each(&output);
    }
    sandbox.write(
        "key.yaml",
        "\"top\\nkey\\u202E\\r\": 1\nagents:\n  - id: a\n    backend: {type: scripted}\n",
    );
    let output = run(&sandbox, &["--validate", "key.yaml"]);
    assert!(
        text(&output.stderr).contains("unknown key `top\\nkey\\u{202e}\\r`"),
        "{}",
        describe(&output)
    );
    one_line_each(&output);
}

/// Peak resident memory of a child, in kB, sampled until it exits.
#[cfg(target_os = "linux")]
fn peak_rss_kb(child: &mut std::process::Child, deadline: Duration) -> u64 {
    let started = Instant::now();
    let mut peak = 0;
    loop {
        if let Ok(status) = std::fs::read_to_string(format!("/proc/{}/status", child.id())) {
            let high_water = status
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok());
            peak = peak.max(high_water.unwrap_or(0));
        }
        if child.try_wait().unwrap().is_some() {
            return peak;
        }
        assert!(
            started.elapsed() < deadline,
            "still running after {deadline:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_probe_reads_a_bounded_listing() {
    use axum::body::Body;
    use axum::routing::get;

    // Whatever listens on a model port streams without end.
    let endless = || {
        let chunk = axum::body::Bytes::from(vec![b' '; 64 << 10]);
        Body::from_stream(futures::stream::repeat_with(move || {
            Ok::<_, std::io::Error>(chunk.clone())
        }))
    };
    let app = axum::Router::new()
        .route("/v1/models", get(move || async move { endless() }))
        .route("/api/tags", get(move || async move { endless() }));
    let mut listener = None;
    for port in [11434, 1234, 8000, 30000, 8080] {
        if let Ok(bound) = tokio::net::TcpListener::bind(("127.0.0.1", port)).await {
            listener = Some(bound);
            break;
        }
    }
    let Some(listener) = listener else {
        eprintln!("every local model port is taken on this machine; nothing to check");
        return;
    };
    let server = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    let sandbox = Sandbox::new();
    let home = sandbox.root.join("home");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("massgen"))
        .current_dir(&sandbox.root)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .args(["--local", "--dry-run"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let peak =
        tokio::task::spawn_blocking(move || peak_rss_kb(&mut child, Duration::from_secs(20)))
            .await
            .unwrap();
    server.abort();
    assert!(
        peak < 100_000,
        "--local held {peak} kB reading an endless model listing"
    );
}

#[test]
fn help_names_every_limit_with_its_ceiling() {
    let sandbox = Sandbox::new();
    let output = run(&sandbox, &["--help"]);
    let help = text(&output.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(help.contains("--limit <NAME=VALUE>"), "{help}");
    for limit in &massgen::config::limits::LIMITS {
        let named = format!("{} (", limit.name);
        let at = help
            .find(&named)
            .unwrap_or_else(|| panic!("{named}\n{help}"));
        let ceiling = limit.show(limit.ceiling);
        assert!(
            help[at..].starts_with(&format!("{named}{ceiling})"))
                || help[at..].starts_with(&format!("{named}ceiling {ceiling})")),
            "{} should show its ceiling {ceiling}\n{help}",
            limit.name
        );
    }
}

//! Hostile: config_limits. A project's config cannot lift the `limits:` caps: only a config
//! in the user's own config directory and `--limit NAME=VALUE` can raise them, and only up
//! to hard ceilings; errors say where raising is allowed. (Config text and `${VAR}`s:
//! config_text.rs; `--local`'s probes: local_probe.rs.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Output;

use super::support::sandbox::{Sandbox, text};

pub(super) fn describe(output: &Output) -> String {
    format!(
        "--- status: {:?}\n--- stdout:\n{}\n--- stderr:\n{}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

pub(super) fn run(sandbox: &Sandbox, args: &[&str]) -> Output {
    sandbox
        .massgen()
        .args(args)
        .write_stdin("")
        .output()
        .unwrap()
}

/// A config of `count` scripted agents that answer at once, after `limits`.
pub(super) fn agents(count: usize, limits: &str) -> String {
    let mut yaml = format!("{limits}agents:\n");
    for index in 0..count {
        yaml.push_str(&format!(
            "  - id: a{index}\n    backend: {{type: scripted, tokens_per_second: 0, answer: ok}}\n"
        ));
    }
    yaml
}

pub(super) fn assert_refused(output: &Output, needles: &[&str]) {
    assert_eq!(output.status.code(), Some(1), "{}", describe(output));
    let stderr = text(&output.stderr);
    for needle in needles {
        assert!(stderr.contains(needle), "{needle:?}\n{}", describe(output));
    }
}

pub(super) fn assert_ran(output: &Output) {
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
    // What counts is where the file really is: a link from the user's directory to a
    // project's file, or a path that only passes through the directory, is the project's.
    sandbox.write("evil.yaml", &agents(70, "limits: {max_agents: 100}\n"));
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            sandbox.root.join("evil.yaml"),
            sandbox.root.join(user_dir).join("agents/link.yaml"),
        )
        .unwrap();
        assert_refused(
            &run(&sandbox, &["--validate", "link"]),
            &["this config can only lower limits"],
        );
    }
    assert_refused(
        &run(
            &sandbox,
            &["--validate", &format!("{user_dir}/../../../evil.yaml")],
        ),
        &["this config can only lower limits"],
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

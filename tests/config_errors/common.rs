//! Helpers shared by the modules of `tests/config_errors/`: `--validate` and a real run of a config in the sandbox, and the checks of a config error report.

#![allow(dead_code)]

use std::path::Path;
use std::process::Output;

use crate::support::sandbox::{Sandbox, text};

/// `--validate` and a real run of a config file in the sandbox.
pub trait ConfigRuns {
    fn validate(&self, name: &str) -> Output;
    fn run(&self, name: &str) -> Output;
}

impl ConfigRuns for Sandbox {
    /// `massgen --validate NAME`.
    fn validate(&self, name: &str) -> Output {
        self.massgen()
            .env_remove("FOO")
            .env_remove("SOME_UNSET_VAR_XYZ")
            .args(["--validate", name])
            .output()
            .unwrap()
    }

    /// `massgen --config NAME --display plain "q"`.
    fn run(&self, name: &str) -> Output {
        self.massgen()
            .env_remove("FOO")
            .env_remove("SOME_UNSET_VAR_XYZ")
            .args(["--config", name, "--display", "plain", "q"])
            .output()
            .unwrap()
    }
}

pub fn describe(what: &str, output: &Output) -> String {
    format!(
        "{what}\n--- status: {:?}\n--- stdout:\n{}\n--- stderr:\n{}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

pub fn assert_no_panic(what: &str, output: &Output) {
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(
        !stdout.to_lowercase().contains("panic"),
        "{}",
        describe(what, output)
    );
    assert!(!stderr.contains("panicked"), "{}", describe(what, output));
    assert!(
        !stderr.contains("RUST_BACKTRACE"),
        "{}",
        describe(what, output)
    );
}

/// What a config error must look like.
pub struct Expected<'a> {
    /// 1-based line and column the error points at; `None` for errors about the whole file.
    pub loc: Option<(usize, usize)>,
    /// A phrase of the message (on the `error:` line).
    pub message: &'a str,
    /// A phrase of the `  help:` line; `None` when the code gives no help line.
    pub help: Option<&'a str>,
}

/// Checks one config error report: exit 1, nothing on stdout, `error: FILE:LINE:COL: …`
/// as the first line of stderr, then a help line.
pub fn assert_error_report(what: &str, output: &Output, path: &Path, expected: &Expected<'_>) {
    assert_no_panic(what, output);
    let info = describe(what, output);
    assert_eq!(output.status.code(), Some(1), "{info}");
    assert!(output.stdout.is_empty(), "stdout should be empty\n{info}");
    let stderr = text(&output.stderr);
    assert!(stderr.starts_with("error: "), "{info}");
    let first = stderr.lines().next().unwrap_or_default();
    let prefix = match expected.loc {
        Some((line, column)) => format!("error: {}:{line}:{column}: ", path.display()),
        None => format!("error: {}: ", path.display()),
    };
    assert!(
        first.starts_with(&prefix),
        "first stderr line should start with {prefix:?}\n{info}"
    );
    assert!(
        first.contains(expected.message),
        "error line should contain {:?}\n{info}",
        expected.message
    );
    let help = stderr.lines().find(|line| line.starts_with("  help: "));
    match (expected.help, help) {
        (Some(phrase), Some(help)) => assert!(
            help.contains(phrase),
            "help line should contain {phrase:?}\n{info}"
        ),
        (Some(_), None) => panic!("no `  help:` line\n{info}"),
        (None, Some(_)) => panic!("unexpected `  help:` line\n{info}"),
        (None, None) => {}
    }
}

/// Writes `yaml` as `name` and checks the same error from `--validate` and from a run.
pub fn assert_config_error(name: &str, yaml: &str, expected: &Expected<'_>) {
    let sandbox = Sandbox::new();
    let path = sandbox.write(name, yaml);
    let validate = sandbox.validate(name);
    assert_error_report(
        &format!("massgen --validate {name}"),
        &validate,
        &path,
        expected,
    );
    let run = sandbox.run(name);
    assert_error_report(
        &format!("massgen --config {name} --display plain q"),
        &run,
        &path,
        expected,
    );
    assert_eq!(
        text(&validate.stderr),
        text(&run.stderr),
        "--validate and a run should report the same error"
    );
    assert!(
        !sandbox.root.join(".massgen").exists(),
        "a config error must not create a log directory"
    );
}

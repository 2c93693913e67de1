//! `--continue` picks the newest session that ran the same config, says once which session
//! it continues (in every display), and falls back to the newest session with a warning when none did.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use crate::common::{RunArgs, assert_code};
use crate::support::sandbox::{Sandbox, text};

fn solo(name: &str) -> String {
    format!(
        "agent:\n  id: {name}\n  backend:\n    type: scripted\n    tokens_per_second: 0\n    \
         answer: \"{name} answers: {{question}}\"\n"
    )
}

/// The sessions under the sandbox's `.massgen/sessions/`, oldest first, with their turns.
fn sessions(sandbox: &Sandbox) -> Vec<(PathBuf, usize)> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(sandbox.massgen_dir().join("sessions"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .collect();
    found.sort();
    found
        .into_iter()
        .map(|dir| {
            let turns = std::fs::read_dir(&dir)
                .unwrap()
                .flatten()
                .filter(|entry| entry.file_name().to_string_lossy().starts_with("turn_"))
                .count();
            (dir, turns)
        })
        .collect()
}

fn id(dir: &std::path::Path) -> String {
    dir.file_name().unwrap().to_string_lossy().into_owned()
}

#[test]
fn continue_prefers_the_session_of_its_own_config_and_says_which() {
    let sandbox = Sandbox::new();
    sandbox.write("alpha.yaml", &solo("alpha"));
    let beta_file = sandbox.write("beta.yaml", &solo("beta"));
    let gamma_file = sandbox.write("gamma.yaml", &solo("gamma"));
    let quiet = ["--display", "quiet"];
    assert_code(
        &sandbox.run(&[&["--config", "alpha.yaml", "first?"][..], &quiet].concat()),
        0,
    );
    // Session names carry the second they started in.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    assert_code(
        &sandbox.run(&[&["--config", "beta.yaml", "second?"][..], &quiet].concat()),
        0,
    );
    let started = sessions(&sandbox);
    assert_eq!(started.len(), 2, "{started:?}");
    let (alpha, beta) = (started[0].0.clone(), started[1].0.clone());

    // alpha's session is older, but it is the one alpha continues.
    let output = sandbox.run(&[
        "--config",
        "./alpha.yaml",
        "--continue",
        "--display",
        "plain",
        "third?",
    ]);
    assert_code(&output, 0);
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(&format!("continuing {} (1 earlier turn", id(&alpha))),
        "{stdout}"
    );
    assert!(!stdout.contains("no earlier session ran"), "{stdout}");
    assert_eq!(sessions(&sandbox), [(alpha.clone(), 2), (beta.clone(), 1)]);

    // No session ran gamma: the newest is continued, and the warning says so.
    let output = sandbox.run(
        &[
            &["--config", "gamma.yaml", "--continue", "fourth?"][..],
            &quiet,
        ]
        .concat(),
    );
    assert_code(&output, 0);
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "massgen: continuing {} (1 earlier turn",
            id(&beta)
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "warning: no earlier session ran {}: continuing the newest session, {}, which ran {}",
            gamma_file.display(),
            id(&beta),
            beta_file.display()
        )),
        "{stderr}"
    );
    assert_eq!(sessions(&sandbox), [(alpha.clone(), 2), (beta.clone(), 2)]);

    // Automation mode says it once too, on standard error, its output left to scripts.
    let output = sandbox.run(&[
        "--config",
        "alpha.yaml",
        "--continue",
        "--automation",
        "fifth?",
    ]);
    assert_code(&output, 0);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(!stdout.contains("continuing"), "{stdout}");
    assert_eq!(
        stderr
            .matches(&format!(
                "massgen: continuing {} (2 earlier turns",
                id(&alpha)
            ))
            .count(),
        1,
        "{stderr}"
    );
    assert_eq!(sessions(&sandbox), [(alpha, 3), (beta, 2)]);
}

//! The YAML loader against PyYAML (MassGen's `yaml.safe_load`) on every config MassGen
//! ships: the wheel's `massgen/configs/` unpacked by `.ci/run`, read by
//! `tests/peers/yaml_as_json.py` in the test peers' virtualenv. Both must make the same
//! tree of every file. Without the peers this skips, except with CI=true, where it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::parse;

fn peers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers")
}

/// `path` under the test peers, or `None` (skip) when it is not installed.
fn installed(relative: &str) -> Option<PathBuf> {
    let path = peers().join(relative);
    if path.exists() {
        return Some(path);
    }
    let why = format!(
        "{} is missing: .ci/run installs the test peers and unpacks MassGen's configs",
        path.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
    eprintln!("skipping: {why}");
    None
}

#[test]
fn every_shipped_config_parses_to_the_tree_pyyaml_makes_of_it() {
    let (Some(configs), Some(python)) = (
        installed("massgen-wheel/massgen/configs"),
        installed(".venv/bin/python"),
    ) else {
        return;
    };
    let output = Command::new(python)
        .arg(peers().join("yaml_as_json.py"))
        .arg(&configs)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let pyyaml: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&output.stdout).unwrap();
    assert!(pyyaml.len() > 200, "only {} configs", pyyaml.len());
    let differences: Vec<String> = pyyaml
        .iter()
        .filter_map(|(relative, expected)| {
            let text = std::fs::read_to_string(configs.join(relative)).unwrap();
            let ours = match parse(&text) {
                Ok(doc) => doc
                    .root
                    .map_or(serde_json::Value::Null, |root| root.to_json()),
                Err(error) => serde_json::json!({"__error__": error.message}),
            };
            (ours != *expected).then(|| {
                format!(
                    "{relative}:\n  PyYAML:  {expected}\n  massgen: {ours}",
                    expected = truncated(expected),
                    ours = truncated(&ours)
                )
            })
        })
        .collect();
    assert!(
        differences.is_empty(),
        "{} of {} configs load differently from PyYAML:\n{}",
        differences.len(),
        pyyaml.len(),
        differences.join("\n")
    );
}

fn truncated(value: &serde_json::Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(2_000) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

//! The YAML loader against PyYAML (MassGen's `yaml.safe_load`) on every config MassGen
//! ships: the wheel's `massgen/configs/` unpacked by `.ci/run`, read by
//! `tests/peers/yaml_as_json.py` in the test peers' virtualenv. Both must make the same
//! tree of every file. Without the peers this skips, except with CI=true, where it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{Node, Value, parse};

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
            let ours = tree_of(&text);
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

/// What massgen's loader makes of `text`, as the peer scripts write PyYAML's: JSON, with
/// infinities and NaN (which JSON lacks) as the strings Python prints for them.
fn tree_of(text: &str) -> serde_json::Value {
    match parse(text) {
        Ok(doc) => doc.root.as_ref().map_or(serde_json::Value::Null, tree),
        Err(error) => serde_json::json!({"__error__": error.message}),
    }
}

fn tree(node: &Node) -> serde_json::Value {
    match &node.value {
        Value::Float(number) if number.is_nan() => "NaN".into(),
        Value::Float(number) if number.is_infinite() => {
            if *number > 0.0 { "inf" } else { "-inf" }.into()
        }
        Value::Seq(items) => items.iter().map(tree).collect(),
        Value::Map(entries) => entries
            .iter()
            .map(|entry| (entry.key.clone(), tree(&entry.value)))
            .collect::<serde_json::Map<_, _>>()
            .into(),
        Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Str(_) => {
            node.to_json()
        }
    }
}

fn truncated(value: &serde_json::Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(2_000) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// Beyond the shipped configs, the whole class: 4,000 configs generated from a fixed seed
/// (tests/peers/yaml_samples.py: nested mappings and sequences, flow collections over
/// lines at any indentation, every kind of scalar PyYAML types, quoted scalars over lines,
/// block scalars with every chomping, anchors, aliases and merge keys, tags, comments,
/// CRLF line ends, files ending without a line break). Every one PyYAML loads must load
/// here to the same tree.
#[test]
fn generated_configs_parse_to_the_tree_pyyaml_makes_of_them() {
    let Some(python) = installed(".venv/bin/python") else {
        return;
    };
    let output = Command::new(python)
        .arg(peers().join("yaml_samples.py"))
        .args(["1", "4000"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let samples: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    let mut differences = Vec::new();
    let mut accepted = 0;
    for sample in &samples {
        let Some(expected) = sample.get("tree") else {
            continue;
        };
        accepted += 1;
        let text = sample["text"].as_str().unwrap();
        let ours = tree_of(text);
        if ours != *expected {
            differences.push(format!(
                "---\n{text}\n  PyYAML:  {expected}\n  massgen: {ours}",
                expected = truncated(expected),
                ours = truncated(&ours)
            ));
        }
    }
    assert!(accepted > 1000, "only {accepted} samples PyYAML accepts");
    assert!(
        differences.is_empty(),
        "{} of {accepted} generated configs load differently from PyYAML:\n{}",
        differences.len(),
        differences
            .iter()
            .take(15)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

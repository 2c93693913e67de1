//! The house rules of `src/`, checked from the sources: imports run one way down the layer
//! order that ARCHITECTURE.md draws (no arrow up, no circle between files), and
//! ARCHITECTURE.md's module map names every module and part the crate has, and no other.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod graph;
mod paths;
mod source;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;

use graph::{Graph, circles};
use source::{ModPath, Module};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn architecture() -> String {
    fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md at the root")
}

/// The floors of ARCHITECTURE.md's layer diagram, lowest first: the first line of the
/// fenced block under `## Layers` and every line starting with `→` name a floor's modules,
/// separated by `,` or `·`, before the description (two spaces or more).
fn floors(doc: &str) -> Vec<BTreeSet<String>> {
    let section = doc
        .split("## Layers")
        .nth(1)
        .expect("a `## Layers` section");
    let block = section.split("```").nth(1).expect("a fenced layer diagram");
    let mut floors = Vec::new();
    for (index, line) in block.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let line = line.trim();
        let names = match line.strip_prefix("→") {
            Some(rest) => rest.trim_start(),
            None if index == 0 => line,
            None => continue,
        };
        let head = names.split("  ").next().unwrap_or("");
        floors.push(
            head.split([',', '·'])
                .map(|name| name.trim().to_string())
                .filter(|name| !name.is_empty())
                .collect(),
        );
    }
    floors
}

fn crate_modules() -> BTreeMap<ModPath, Module> {
    source::modules(&root().join("src"))
}

#[test]
fn every_top_level_module_has_one_floor() {
    let floors = floors(&architecture());
    let tops: BTreeSet<String> = crate_modules()
        .keys()
        .filter(|path| path.len() == 1)
        .map(|path| path[0].clone())
        .collect();
    for top in &tops {
        let homes = floors.iter().filter(|floor| floor.contains(top)).count();
        assert_eq!(
            homes, 1,
            "`{top}` must be on exactly one floor of ARCHITECTURE.md's layer diagram (found on {homes})"
        );
    }
    for name in floors.iter().flatten() {
        assert!(
            tops.contains(name),
            "ARCHITECTURE.md's layer diagram names `{name}`, which src/lib.rs does not declare"
        );
    }
}

#[test]
fn no_import_goes_up_a_floor() {
    let floors = floors(&architecture());
    let floor_of = |path: &ModPath| -> usize {
        path.first()
            .and_then(|top| floors.iter().position(|floor| floor.contains(top)))
            .unwrap_or(floors.len())
    };
    let modules = crate_modules();
    let graph = Graph::of(&modules);
    let upward: Vec<String> = graph
        .edges()
        .filter(|(from, to)| floor_of(to) > floor_of(from))
        .map(|(from, to)| format!("{} -> {}", modules[from].file, modules[to].file))
        .collect();
    assert!(
        upward.is_empty(),
        "imports going up the layer order of ARCHITECTURE.md:\n{}",
        upward.join("\n")
    );
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let modules = crate_modules();
    let knots: Vec<String> = circles(&Graph::of(&modules))
        .into_iter()
        .map(|knot| {
            let files: BTreeSet<&str> = knot.iter().map(|m| modules[m].file.as_str()).collect();
            files.into_iter().collect::<Vec<_>>().join(", ")
        })
        .collect();
    assert!(
        knots.is_empty(),
        "files importing each other in a circle (move the type they share to a leaf):\n{}",
        knots.join("\n")
    );
}

#[test]
fn the_module_map_names_every_module_and_part() {
    let doc = architecture();
    let map = doc
        .split("<!-- module map: begin -->")
        .nth(1)
        .and_then(|rest| rest.split("<!-- module map: end -->").next())
        .expect("module map markers in ARCHITECTURE.md");
    let mut documented = BTreeSet::new();
    let mut section = String::new();
    for line in map.lines() {
        if let Some(heading) = line.strip_prefix("### `") {
            section = heading.split('`').next().unwrap_or("").to_string();
            documented.insert(section.clone());
        } else if let Some(item) = line.strip_prefix("- `") {
            let name = item.split('`').next().unwrap_or("").trim_end_matches('/');
            documented.insert(if line_is_leaf_section(&section) {
                name.to_string()
            } else {
                format!("{section}::{name}")
            });
        } else if line.starts_with("### ") {
            section.clear();
        }
    }
    let known: BTreeSet<String> = crate_modules()
        .keys()
        .filter(|path| (1..=2).contains(&path.len()))
        .map(|path| path.join("::"))
        .collect();
    let missing: Vec<&String> = known.difference(&documented).collect();
    let stale: Vec<&String> = documented.difference(&known).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "ARCHITECTURE.md's module map is out of date (python3 scripts/module_map.py regenerates it)\n\
         not named: {missing:?}\nnamed but gone: {stale:?}"
    );
}

/// Items under "Leaf helpers at the top of `src/`" are top-level modules themselves.
fn line_is_leaf_section(section: &str) -> bool {
    section.is_empty()
}

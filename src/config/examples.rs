//! The configs shipped in `configs/`, embedded in the binary, and `@examples/NAME` lookup.

include!(concat!(env!("OUT_DIR"), "/embedded_configs.rs"));

/// One shipped config.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    /// Path under `configs/`, e.g. `demo/three_agents.yaml`.
    pub path: &'static str,
    pub text: &'static str,
}

impl Example {
    /// The name users type after `@examples/`: the path without its extension.
    pub fn name(&self) -> &'static str {
        strip_extension(self.path)
    }

    /// The first paragraph of the file's leading comment (up to an empty `#` line), as
    /// one line: the whole first sentence or more, never cut.
    pub fn summary(&self) -> String {
        self.text
            .lines()
            .skip_while(|line| !line.starts_with('#'))
            .map_while(|line| line.strip_prefix('#').map(str::trim))
            .take_while(|line| !line.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The config used when nothing else is configured: three offline scripted agents.
pub const DEMO: &str = "demo/three_agents.yaml";

pub fn all() -> impl Iterator<Item = Example> {
    EMBEDDED_CONFIGS
        .iter()
        .map(|(path, text)| Example { path, text })
}

pub fn demo() -> Option<Example> {
    all().find(|example| example.path == DEMO)
}

/// Resolves `NAME` (with or without `@examples/` and extension): an exact path first,
/// then the first file whose name contains NAME, then the first path that contains it.
pub fn find(name: &str) -> Option<Example> {
    let name = name.trim_start_matches("@examples/").trim_matches('/');
    let name = strip_extension(name);
    if name.is_empty() {
        return None;
    }
    all()
        .find(|example| example.name() == name)
        .or_else(|| {
            all().find(|example| {
                example
                    .name()
                    .rsplit('/')
                    .next()
                    .is_some_and(|file| file.contains(name))
            })
        })
        .or_else(|| all().find(|example| example.name().contains(name)))
}

fn strip_extension(path: &str) -> &str {
    [".yaml", ".yml", ".json"]
        .iter()
        .find_map(|ext| path.strip_suffix(ext))
        .unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_is_embedded() {
        let demo = demo().expect("configs/demo/three_agents.yaml is embedded");
        assert!(demo.text.contains("scripted"));
    }

    #[test]
    fn lookup_by_path_file_name_or_fragment() {
        assert_eq!(find("@examples/demo/three_agents").unwrap().path, DEMO);
        assert_eq!(find("demo/three_agents.yaml").unwrap().path, DEMO);
        assert_eq!(
            find("three_agents_default").unwrap().name(),
            "basic/multi/three_agents_default"
        );
        assert!(find("no_such_example_anywhere").is_none());
        assert!(find("@examples/").is_none());
    }

    #[test]
    fn every_summary_is_a_whole_first_paragraph() {
        for example in all() {
            let summary = example.summary();
            assert!(
                summary.ends_with('.') || summary.ends_with(')'),
                "{}: the description stops mid-sentence: {summary}",
                example.path
            );
        }
        let workspaces = find("scripted/workspaces").unwrap().summary();
        assert!(workspaces.starts_with("Two scripted agents with workspaces (offline). Each"));
        assert!(workspaces.ends_with("browse the files."), "{workspaces}");
        let demo = demo().unwrap().summary();
        assert!(
            !demo.contains("scout answers"),
            "only the first paragraph: {demo}"
        );
    }
}

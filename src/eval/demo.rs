//! The offline eval demo, `massgen eval @examples/eval-demo`: three dozen questions
//! (arithmetic, multiple choice, short facts) embedded in the binary, answered by scripted
//! quiz agents of different, seeded accuracies (`configs/eval-demo/`).

use crate::protocol::Strategy;

/// What users type for the demo's dataset.
pub const NAME: &str = "@examples/eval-demo";

/// The questions, one JSON object a line (the scripted quiz agents read the same file).
pub const DATASET: &str = include_str!("../../assets/eval/eval-demo.jsonl");

/// The shipped configs the demo runs when no `--config` is given.
pub const CONFIGS: [&str; 1] = ["@examples/eval-demo/vote"];

/// The strategies the demo compares when no `--strategy` is given.
pub const STRATEGIES: [Strategy; 3] = [Strategy::Vote, Strategy::Council, Strategy::Debate];

/// Whether a dataset argument names the demo.
pub fn is_demo(dataset: &str) -> bool {
    dataset.trim_end_matches('/') == NAME
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_has_three_dozen_questions_of_each_kind_and_its_configs_ship() {
        let lines: Vec<serde_json::Value> = DATASET
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(lines.len(), 36);
        for scorer in ["number", "choice", "normalised"] {
            assert_eq!(
                lines.iter().filter(|line| line["scorer"] == scorer).count(),
                12,
                "{scorer}"
            );
        }
        for config in CONFIGS {
            assert!(crate::config::examples::find(config).is_some(), "{config}");
        }
        assert!(is_demo("@examples/eval-demo/"));
        assert!(!is_demo("eval-demo.jsonl"));
    }
}

//! The arguments of `massgen eval`.

use std::path::PathBuf;

#[derive(Clone, Debug, clap::Args)]
pub struct EvalArgs {
    /// The questions: JSONL (question, answer, optional id, choices, scorer), a
    /// question/answer CSV, a multiple-choice export (MMLU, ARC, HellaSwag style), or
    /// @examples/eval-demo.
    #[arg(value_name = "DATASET")]
    pub dataset: String,

    /// A config to evaluate; repeatable. Its contender is named after the file.
    #[arg(long = "config", value_name = "PATH|@examples/NAME")]
    pub configs: Vec<String>,

    /// Run each config under this strategy (vote, council, debate); repeatable. Default:
    /// each config's own.
    #[arg(long = "strategy", value_name = "vote|council|debate")]
    pub strategies: Vec<String>,

    /// Items answered at once.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: u16,

    /// Stop starting items once the spend so far and the running items' would pass this
    /// many US dollars; the summary covers what was done and the exit code is 3.
    #[arg(long, value_name = "USD")]
    pub max_cost: Option<f64>,

    /// Where results.jsonl, run.json, the summaries, chart.svg and the turns' logs go
    /// (default .massgen/eval/<dataset>); a rerun into it resumes.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Score items that name no scorer with: exact, normalised, number[:TOLERANCE],
    /// choice, regex:PATTERN or judge. Default: by the item (choice, number or text).
    #[arg(long, value_name = "SPEC")]
    pub scorer: Option<String>,

    /// The judge for the judge scorer: this config's first agent decides each answer.
    #[arg(long, value_name = "CONFIG")]
    pub judge: Option<String>,

    /// Self-consistency's samples per item (below 2: no self-consistency baseline).
    #[arg(long, default_value_t = 5)]
    pub samples: usize,

    /// Leave out the baselines (each model alone, and self-consistency).
    #[arg(long)]
    pub no_baselines: bool,

    /// Only the first N items.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,

    /// Print the summary as JSON instead of the Markdown table.
    #[arg(long)]
    pub json: bool,

    /// Print progress lines instead of the full-screen display (the default when standard
    /// input and output are terminals and --json is not given).
    #[arg(long)]
    pub plain: bool,

    /// Start over in --out even if it holds another run's results.
    #[arg(long)]
    pub fresh: bool,
}

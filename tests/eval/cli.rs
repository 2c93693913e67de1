//! `massgen eval` through the binary with scripted quiz agents: the offline demo, the
//! budget, refusing to resume a different dataset, and a bad dataset's exit code.

use crate::support::sandbox::{Sandbox, text};

fn describe(output: &std::process::Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

#[test]
fn the_offline_demo_shows_the_vote_above_each_model_alone() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .massgen()
        .args(["eval", "@examples/eval-demo", "--samples", "3"])
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
    let stdout = text(&output.stdout);
    for contender in [
        "eval-demo/vote · vote",
        "eval-demo/vote · council",
        "eval-demo/vote · debate",
        "gpt-4.1-nano alone",
        "gpt-4o-mini ×3 majority",
    ] {
        assert!(stdout.contains(contender), "{contender}\n{stdout}");
    }
    let out = sandbox.root.join(".massgen").join("eval").join("eval-demo");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let correct = |name: &str| {
        summary["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["contender"] == name)
            .unwrap()["correct"]
            .as_u64()
            .unwrap()
    };
    let best_single = ["gpt-4.1-nano", "gpt-4o-mini", "gpt-4.1-mini"]
        .map(|model| correct(&format!("{model} alone")))
        .into_iter()
        .max()
        .unwrap();
    assert!(correct("eval-demo/vote · vote") > best_single, "{stdout}");
    assert!(
        correct("eval-demo/vote · council") > best_single,
        "{stdout}"
    );
    assert!(correct("eval-demo/vote · debate") > best_single, "{stdout}");
    assert_eq!(
        std::fs::read_to_string(out.join("results.jsonl"))
            .unwrap()
            .lines()
            .count(),
        36 * 9
    );
    // Off a terminal, progress is one line per finished item.
    assert!(
        text(&output.stderr).contains("[324/324]"),
        "{}",
        describe(&output)
    );
}

#[test]
fn the_budget_stops_the_run_early_with_exit_code_3_and_a_summary() {
    let sandbox = Sandbox::new();
    let output = sandbox
        .massgen()
        .args([
            "eval",
            "@examples/eval-demo",
            "--no-baselines",
            "--concurrency",
            "1",
            "--max-cost",
            "0.0001",
            "--out",
            "budget",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3), "{}", describe(&output));
    assert!(
        text(&output.stderr).contains("--max-cost budget"),
        "{}",
        describe(&output)
    );
    assert!(text(&output.stdout).contains("eval-demo/vote · vote"));
    let lines = std::fs::read_to_string(sandbox.root.join("budget").join("results.jsonl"))
        .unwrap()
        .lines()
        .count();
    assert!((1..36).contains(&lines), "{lines} items");
}

#[test]
fn a_rerun_with_another_dataset_is_refused_unless_fresh() {
    let sandbox = Sandbox::new();
    let first = sandbox
        .massgen()
        .args([
            "eval",
            "@examples/eval-demo",
            "--no-baselines",
            "--limit",
            "3",
            "--out",
            "o",
        ])
        .output()
        .unwrap();
    assert_eq!(first.status.code(), Some(0), "{}", describe(&first));
    let second = sandbox
        .massgen()
        .args([
            "eval",
            "@examples/eval-demo",
            "--no-baselines",
            "--limit",
            "4",
            "--out",
            "o",
        ])
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(1), "{}", describe(&second));
    assert!(
        text(&second.stderr).contains("holds another run"),
        "{}",
        describe(&second)
    );
    let fresh = sandbox
        .massgen()
        .args([
            "eval",
            "@examples/eval-demo",
            "--no-baselines",
            "--limit",
            "4",
            "--out",
            "o",
            "--fresh",
        ])
        .output()
        .unwrap();
    assert_eq!(fresh.status.code(), Some(0), "{}", describe(&fresh));
}

#[test]
fn a_bad_dataset_or_strategy_is_a_config_error_naming_the_place() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "bad.jsonl",
        "{\"question\": \"q\", \"answer\": \"a\"}\nnot json\n",
    );
    let output = sandbox
        .massgen()
        .args(["eval", "bad.jsonl", "--config", "@examples/eval-demo/vote"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("bad.jsonl") && stderr.contains("line 2"),
        "{stderr}"
    );
    let unknown = sandbox
        .massgen()
        .args(["eval", "@examples/eval-demo", "--strategy", "majority"])
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(1), "{}", describe(&unknown));
    assert!(
        text(&unknown.stderr).contains("--strategy majority: not a strategy"),
        "{}",
        describe(&unknown)
    );
    sandbox.write("good.jsonl", "{\"question\": \"q\", \"answer\": \"a\"}\n");
    let none = sandbox
        .massgen()
        .args(["eval", "good.jsonl"])
        .output()
        .unwrap();
    assert_eq!(none.status.code(), Some(1));
    assert!(text(&none.stderr).contains("--config"));
}

#[test]
fn the_judge_decides_judge_items_its_prompt_is_kept_and_its_cost_counted_apart() {
    let sandbox = Sandbox::new();
    let demo: Vec<&str> = massgen::eval::demo::DATASET.lines().take(3).collect();
    let judged: String = demo
        .iter()
        .map(|line| {
            let mut item: serde_json::Value = serde_json::from_str(line).unwrap();
            item["scorer"] = "judge".into();
            item.to_string() + "\n"
        })
        .collect();
    sandbox.write("judged.jsonl", &judged);
    sandbox.write(
        "judge.yaml",
        "agent:\n  id: judge\n  backend:\n    type: scripted\n    model: gpt-4o-mini\n    \
         tokens_per_second: 0\n    answer: \"It agrees with the reference.\\nCORRECT\"\n",
    );
    let args = [
        "eval",
        "judged.jsonl",
        "--config",
        "@examples/eval-demo/vote",
        "--no-baselines",
        "--out",
        "j",
    ];
    let unjudged = sandbox.massgen().args(args).output().unwrap();
    assert_eq!(unjudged.status.code(), Some(1), "{}", describe(&unjudged));
    assert!(
        text(&unjudged.stderr).contains("--judge"),
        "{}",
        describe(&unjudged)
    );

    let output = sandbox
        .massgen()
        .args(args)
        .args(["--judge", "judge.yaml"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
    let out = sandbox.root.join("j");
    let prompt = std::fs::read_to_string(out.join("judge_prompt.txt")).unwrap();
    assert!(prompt.contains("## Reference answer"), "{prompt}");
    let results = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    assert_eq!(results.lines().count(), 3);
    for line in results.lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(row["correct"], true, "{line}");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert!(
        summary["judge_cost_usd"].as_f64().unwrap() > 0.0,
        "{summary}"
    );
    assert!(
        text(&output.stdout).contains("The judge cost $"),
        "{}",
        describe(&output)
    );
}

#[test]
fn turns_log_under_the_output_directory_unless_no_logs() {
    let sandbox = Sandbox::new();
    let run = |global: &[&str], out: &str| {
        let output = sandbox
            .massgen()
            .args(global)
            .args([
                "eval",
                "@examples/eval-demo",
                "--no-baselines",
                "--limit",
                "2",
                "--out",
                out,
            ])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", describe(&output));
        std::fs::read_to_string(sandbox.root.join(out).join("results.jsonl")).unwrap()
    };
    let logged = run(&[], "logged");
    for line in logged.lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        let dir = sandbox
            .root
            .join("logged")
            .join(row["log_dir"].as_str().unwrap());
        assert!(dir.join("turn_1").is_dir(), "{}", dir.display());
    }
    assert!(!sandbox.root.join(".massgen").join("massgen_logs").exists());
    let quiet = run(&["--no-logs"], "quiet");
    assert!(
        quiet.lines().all(|line| !line.contains("log_dir")),
        "{quiet}"
    );
    assert!(!sandbox.root.join("quiet").join("logs").exists());
}

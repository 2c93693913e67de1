//! The real `openai` Python package (tests/peers' venv) as the client.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness;
use crate::served::{HANG, PAIR, Served, terminate};

/// The real `openai` package (tests/peers' venv) as the client: whole and streamed
/// completions, the model list, a conversation, an error for each status (400, 401, 404,
/// 413, 500 here; 429 below), and 16 requests at once against `--max-concurrent 4`.
#[test]
fn the_openai_python_client_works_against_serve() {
    let Some(python) = harness::peer(".venv/bin/python") else {
        return;
    };
    let slow_pair = PAIR.replace("tokens_per_second: 0", "tokens_per_second: 30");
    let broken =
        "agent:\n  id: broken\n  backend: {type: scripted, tokens_per_second: 0, fail: error}\n";
    let served = Served::start_with(
        &[("serve.yaml", &slow_pair), ("broken.yaml", broken)],
        &[
            "--config",
            "broken.yaml",
            "--api-key",
            "sk-serve-0123456789",
            "--max-concurrent",
            "4",
        ],
    );
    let output = Command::new(python)
        .arg(harness::peers().join("openai_client.py"))
        .args([&served.base, "sk-serve-0123456789"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let seen: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(seen["whole"]["content"], "The answer is 4.", "{seen}");
    assert_eq!(seen["whole"]["finish_reason"], "stop");
    assert!(seen["whole"]["total_tokens"].as_u64().unwrap() > 0);
    assert_eq!(seen["stream"]["content"], "The answer is 4.", "{seen}");
    assert_eq!(seen["stream"]["finish_reason"], "stop");
    assert!(
        seen["stream"]["reasoning"]
            .as_str()
            .unwrap()
            .contains("alpha is chosen")
    );
    assert!(seen["stream"]["usage"].as_u64().unwrap() > 0);
    assert_eq!(seen["models"][0], "massgen");
    assert_eq!(seen["history"], "The answer is 4.");
    assert_eq!(
        seen["errors"],
        json!({"bad_messages": 400, "unknown_model": 404, "wrong_key": 401, "no_answer": 500,
               "too_large": 413})
    );
    let statuses: Vec<u64> = seen["concurrent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|status| status.as_u64().unwrap())
        .collect();
    assert_eq!(statuses.len(), 16);
    let ok = statuses.iter().filter(|status| **status == 200).count();
    let busy = statuses.iter().filter(|status| **status == 429).count();
    assert_eq!(ok + busy, 16, "{statuses:?}");
    assert!(
        ok >= 4 && busy >= 1,
        "4 run at once, the rest are told to retry: {statuses:?}"
    );
}

/// The `openai` client hangs up mid-stream, then the server is sent SIGTERM while another
/// `openai` request waits on a turn: both turns end cancelled and saved, the waiting client
/// gets its 500, and the server exits 0.
#[test]
fn openai_clients_that_hang_up_or_outlive_the_server_leave_saved_turns() {
    let Some(python) = harness::peer(".venv/bin/python") else {
        return;
    };
    let script = harness::peers().join("openai_client.py");
    let mut served = Served::start(HANG, &["--grace", "1"]);
    let output = Command::new(&python)
        .arg(&script)
        .args([served.base.as_str(), "unused", "disconnect"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("closed"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let deadline = Instant::now() + Duration::from_secs(15);
    while served.cancelled_turns() == 0 {
        assert!(Instant::now() < deadline, "the hung-up turn was not saved");
        std::thread::sleep(Duration::from_millis(100));
    }

    let mut waiting = Command::new(&python)
        .arg(&script)
        .args([served.base.as_str(), "unused", "wait"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut said = BufReader::new(waiting.stdout.take().unwrap());
    let mut line = String::new();
    said.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "sending");
    std::thread::sleep(Duration::from_millis(800));
    terminate(&served);
    line.clear();
    said.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "500", "the cancelled turn has no answer");
    let _ = waiting.wait();
    assert_eq!(served.wait_exit(), Some(0));
    assert_eq!(
        served.cancelled_turns(),
        2,
        "both turns were saved as cancelled"
    );
}

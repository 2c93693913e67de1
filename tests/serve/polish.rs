//! What `massgen serve` says matches what happened: one access-log line per request (never
//! the key), `serve --help` lists no flag that does nothing there, `include_reasoning`
//! gives the coordination progress as `reasoning_content`, and a wrong method gets an
//! OpenAI-shaped 405 naming the methods the path takes.

use std::io::BufRead;
use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::served::{PAIR, question};
use crate::support::sandbox::Sandbox;
use crate::support::serve::{self, Listening};

const KEY: &str = "polish-secret-key-0123456789";

/// A `massgen serve` whose standard error is kept, line by line.
struct Logged {
    child: Child,
    base: String,
    lines: Arc<Mutex<Vec<String>>>,
    _sandbox: Sandbox,
}

impl Logged {
    fn start() -> Self {
        let sandbox = Sandbox::new();
        sandbox.write("serve.yaml", PAIR);
        let Listening {
            child,
            base,
            stderr,
        } = Listening::start(serve::massgen(), &sandbox, &["--api-key", KEY]);
        let lines = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&lines);
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                kept.lock().unwrap().push(line);
            }
        });
        Self {
            child,
            base,
            lines,
            _sandbox: sandbox,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The first line containing `needle`, waiting up to 10 s for it.
    fn line_with(&self, needle: &str) -> String {
        let started = Instant::now();
        loop {
            if let Some(line) = self
                .lines
                .lock()
                .unwrap()
                .iter()
                .find(|line| line.contains(needle))
            {
                return line.clone();
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "no line with {needle:?} in {:?}",
                self.lines.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Logged {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_gets_one_access_log_line_without_the_key() {
    let served = Logged::start();
    let client = massgen::backend::http_client().unwrap();
    let answered = client
        .post(served.url("/v1/chat/completions"))
        .bearer_auth(KEY)
        .json(&question("2+2?"))
        .send()
        .await
        .unwrap();
    assert_eq!(answered.status(), 200);
    let _ = answered.text().await.unwrap();
    let turn = served.line_with("POST /v1/chat/completions 200 ");
    assert!(turn.starts_with("massgen serve: "), "{turn}");
    assert!(
        turn.contains(" ms model=massgen id=chatcmpl-")
            && turn.contains(" log=.massgen/massgen_logs/log_"),
        "{turn}"
    );

    let refused = client
        .get(served.url("/v1/models?api_key=x"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    let line = served.line_with("GET /v1/models 401 ");
    assert!(!line.contains("api_key"), "the query is not logged: {line}");
    client.get(served.url("/nowhere")).send().await.unwrap();
    served.line_with("GET /nowhere 404 ");
    let everything = served.lines.lock().unwrap().join("\n");
    assert!(!everything.contains(KEY), "{everything}");
}

#[test]
fn serve_help_lists_only_flags_that_work_under_serve() {
    let sandbox = Sandbox::new();
    let help = sandbox
        .massgen()
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(help.status.success() && text.contains("--port"), "{text}");
    for idle in ["--display", "--no-mouse"] {
        assert!(!text.contains(idle), "serve --help lists {idle}:\n{text}");
    }
    for given in [
        &["--display", "plain", "serve"][..],
        &["--no-mouse", "serve"][..],
        &["serve", "--display", "plain"][..],
        &["serve", "--no-mouse"][..],
    ] {
        let output = sandbox
            .massgen()
            .args(given)
            .env_remove("MASSGEN_NO_MOUSE")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{given:?}: {stderr}");
        assert!(
            stderr.contains("--display") || stderr.contains("--no-mouse"),
            "{given:?}: {stderr}"
        );
        assert!(!stderr.contains("listening"), "{given:?}: {stderr}");
        if given[0] != "serve" {
            assert!(stderr.contains("would do nothing there"), "{stderr}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn include_reasoning_gives_the_coordination_as_reasoning_content() {
    let served = Logged::start();
    let client = massgen::backend::http_client().unwrap();
    let mut asked = question("2+2?");
    asked["include_reasoning"] = json!(true);
    let body: Value = client
        .post(served.url("/v1/chat/completions"))
        .bearer_auth(KEY)
        .json(&asked)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let message = &body["choices"][0]["message"];
    assert_eq!(message["content"], "The answer is 4.", "{body}");
    let reasoning = message["reasoning_content"].as_str().unwrap_or_default();
    for said in ["alpha answered", "beta votes for alpha", "alpha is chosen"] {
        assert!(reasoning.contains(said), "{said:?} missing: {body}");
    }
    let plain: Value = client
        .post(served.url("/v1/chat/completions"))
        .bearer_auth(KEY)
        .json(&question("2+2?"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        plain["choices"][0]["message"]
            .get("reasoning_content")
            .is_none(),
        "only when asked: {plain}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_method_is_an_openai_shaped_405_naming_the_right_one() {
    let served = Logged::start();
    let client = massgen::backend::http_client().unwrap();
    for (method, path, allowed) in [
        (reqwest::Method::GET, "/v1/chat/completions", "POST"),
        (reqwest::Method::POST, "/health", "GET"),
        (reqwest::Method::DELETE, "/v1/models", "GET"),
    ] {
        let response = client
            .request(method.clone(), served.url(path))
            .bearer_auth(KEY)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 405, "{method} {path}");
        let allow = response.headers()["allow"].to_str().unwrap().to_string();
        assert!(allow.contains(allowed), "{method} {path}: Allow {allow}");
        let body: Value = response.json().await.unwrap_or(Value::Null);
        assert_eq!(body["error"]["code"], "method_not_allowed", "{body}");
        assert_eq!(body["error"]["type"], "invalid_request_error", "{body}");
        let message = body["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(path) && message.contains(allowed),
            "{message}"
        );
        served.line_with(&format!("{method} {path} 405 "));
    }
    let missing = client.get(served.url("/v2/nothing")).send().await.unwrap();
    assert_eq!(missing.status(), 404);
    let body: Value = missing.json().await.unwrap();
    assert_eq!(body["error"]["code"], "unknown_url", "{body}");
}

//! Requests built to cost memory (100,000 tiny messages, four at once) and a short key on
//! every interface.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{PAIR, Server, error_code};
use crate::support::sandbox::Sandbox;

#[test]
fn a_hundred_thousand_messages_are_refused_with_little_memory() {
    let server = Server::start(&[]);
    let (status, _, _) = server.send("GET /health HTTP/1.1\r\n", "");
    assert_eq!(status, 200);
    let (idle, _) = server.memory();
    let message = serde_json::json!({"role": "user", "content": "a"});
    let body =
        serde_json::json!({"model": "massgen", "messages": vec![message; 100_000]}).to_string();
    assert!(
        body.len() < 4 << 20,
        "within the body limit: {}",
        body.len()
    );
    let head = "POST /v1/chat/completions HTTP/1.1\r\nContent-Type: application/json\r\n";
    std::thread::scope(|scope| {
        let senders: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| server.send(head, &body)))
            .collect();
        for sender in senders {
            let (status, _, reply) = sender.join().unwrap();
            assert!(
                status == 400 || status == 429,
                "{status}: {}",
                &reply[..reply.len().min(300)]
            );
            if status == 400 {
                assert!(reply.contains("more than 2048 messages"), "{reply}");
            } else {
                assert_eq!(error_code(&reply), "rate_limit_exceeded");
            }
        }
    });
    let (_, peak) = server.memory();
    assert!(
        peak < idle + (40 << 20),
        "peak {} MB against {} MB idle",
        peak >> 20,
        idle >> 20
    );
    assert_eq!(server.turns_run(), 0);
}

#[test]
fn a_short_key_is_refused_before_listening_on_every_interface() {
    let sandbox = Sandbox::new();
    sandbox.write("serve.yaml", PAIR);
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("massgen"))
        .args([
            "--config",
            "serve.yaml",
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
        ])
        .args(["--api-key", "abcde"])
        .current_dir(&sandbox.root)
        .env("HOME", sandbox.root.join("home"))
        .env_remove("MASSGEN_SERVE_API_KEY")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(
        status.and_then(|status| status.code()),
        Some(1),
        "refused at start, as a bad argument: {stderr}"
    );
    assert!(
        stderr.contains("5 characters") && stderr.contains("at least 32"),
        "{stderr}"
    );
    assert!(!stderr.contains("listening on"), "{stderr}");
}

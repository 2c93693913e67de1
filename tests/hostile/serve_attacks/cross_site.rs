//! A web page the user has open, against `massgen serve` on loopback with no key: posts
//! that need no CORS preflight (text, forms), a foreign `Origin`, a rebound `Host`, and
//! shipped examples by name.

use super::{Server, error_code, question};

const CHAT: &str = "POST /v1/chat/completions HTTP/1.1\r\n";

#[test]
fn bodies_a_page_can_post_without_asking_are_refused_and_no_turn_runs() {
    let server = Server::start(&[]);
    for content_type in [
        Some("text/plain;charset=UTF-8"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data; boundary=x"),
        Some("application/json; charset=utf-16"),
        None,
    ] {
        let header =
            content_type.map_or(String::new(), |value| format!("Content-Type: {value}\r\n"));
        let (status, _, body) = server.send(&format!("{CHAT}{header}"), &question("2+2?"));
        assert_eq!(status, 415, "{content_type:?}: {body}");
        assert_eq!(error_code(&body), "unsupported_media_type", "{body}");
        assert!(body.contains("application/json"), "{body}");
    }
    assert_eq!(server.turns_run(), 0, "no refused body ran a turn");
    let (status, _, body) = server.send(
        &format!("{CHAT}Content-Type: Application/JSON; charset=\"utf-8\"\r\n"),
        &question("2+2?"),
    );
    assert_eq!(status, 200, "JSON is still taken: {body}");
}

#[test]
fn a_foreign_origin_is_refused_and_same_origin_and_curl_are_served() {
    let server = Server::start(&[]);
    let json = "Content-Type: application/json\r\n";
    for origin in ["http://evil.example", "null", "http://localhost:1"] {
        let (status, headers, body) = server.send(
            &format!("{CHAT}{json}Origin: {origin}\r\n"),
            &question("2+2?"),
        );
        assert_eq!(status, 403, "{origin}: {body}");
        assert_eq!(error_code(&body), "origin_not_allowed");
        assert!(
            !headers.contains("access-control-allow-origin"),
            "{headers}"
        );
    }
    let (status, headers, _) = server.send(
        "OPTIONS /v1/chat/completions HTTP/1.1\r\nOrigin: http://evil.example\r\n\
         Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\n",
        "",
    );
    assert_eq!(status, 403, "no preflight is granted to a foreign page");
    assert!(!headers.contains("access-control-allow"), "{headers}");
    assert_eq!(server.turns_run(), 0, "no foreign page ran a turn");

    let own = format!("Origin: http://127.0.0.1:{}\r\n", server.port());
    let (status, _, body) = server.send(&format!("{CHAT}{json}{own}"), &question("2+2?"));
    assert_eq!(status, 200, "same origin: {body}");
    let (status, _, body) = server.send(&format!("{CHAT}{json}"), &question("2+2?"));
    assert_eq!(status, 200, "no Origin (curl, SDKs): {body}");
}

#[test]
fn an_allowed_origin_gets_cors_for_itself_only() {
    let server = Server::start(&["--allowed-origin", "http://localhost:3000"]);
    let (status, headers, _) = server.send(
        "OPTIONS /v1/chat/completions HTTP/1.1\r\nOrigin: http://localhost:3000\r\n\
         Access-Control-Request-Method: POST\r\n",
        "",
    );
    assert_eq!(status, 204);
    assert!(
        headers.contains("access-control-allow-origin: http://localhost:3000"),
        "{headers}"
    );
    let (status, headers, _) = server.send(
        "GET /v1/models HTTP/1.1\r\nOrigin: http://localhost:3000\r\n",
        "",
    );
    assert_eq!(status, 200);
    assert!(
        !headers.contains("access-control-allow-origin: *"),
        "{headers}"
    );
    let (status, _, _) = server.send(
        "GET /v1/models HTTP/1.1\r\nOrigin: http://localhost:3001\r\n",
        "",
    );
    assert_eq!(status, 403);
}

#[test]
fn a_rebound_host_is_refused_even_for_health() {
    let server = Server::start(&[]);
    let port = server.port().to_string();
    for (head, body) in [
        ("GET /health HTTP/1.1\r\n", String::new()),
        ("GET /v1/models HTTP/1.1\r\n", String::new()),
        (
            "POST /v1/chat/completions HTTP/1.1\r\nContent-Type: application/json\r\n",
            question("2+2?"),
        ),
    ] {
        for host in [format!("evil.example:{port}"), "evil.example".to_string()] {
            let (status, _, reply) = server.send(&format!("{head}Host: {host}\r\n"), &body);
            assert_eq!(status, 403, "{head} Host {host}: {reply}");
            assert_eq!(error_code(&reply), "host_not_allowed");
            assert!(reply.contains("--allowed-host evil.example"), "{reply}");
        }
    }
    assert_eq!(server.turns_run(), 0);
    for host in [format!("localhost:{port}"), format!("[::1]:{port}")] {
        let (status, _, _) = server.send(&format!("GET /health HTTP/1.1\r\nHost: {host}\r\n"), "");
        assert_eq!(status, 200, "{host}");
    }
    let allowed = Server::start(&["--allowed-host", "massgen.internal"]);
    let (status, _, _) = allowed.send("GET /health HTTP/1.1\r\nHost: massgen.internal\r\n", "");
    assert_eq!(status, 200, "a name the user allowed");
}

#[test]
fn shipped_examples_are_served_only_when_the_user_says_so() {
    let server = Server::start(&[]);
    let mut body: serde_json::Value = serde_json::from_str(&question("2+2?")).unwrap();
    body["model"] = "massgen/demo/three_agents".into();
    let json = "Content-Type: application/json\r\n";
    let (status, _, reply) = server.send(&format!("{CHAT}{json}"), &body.to_string());
    assert_eq!(status, 404, "{reply}");
    assert!(reply.contains("--allow-examples"), "{reply}");
    let (_, _, models) = server.send("GET /v1/models HTTP/1.1\r\n", "");
    assert!(!models.contains("massgen/"), "{models}");
    assert_eq!(server.turns_run(), 0);

    let opted_in = Server::start(&["--allow-examples"]);
    let (_, _, models) = opted_in.send("GET /v1/models HTTP/1.1\r\n", "");
    assert!(models.contains("massgen/demo/three_agents"), "{models}");
}

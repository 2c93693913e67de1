//! Connections that never finish a request: more idle half-sent ones than the open-file
//! limit allows must not lock out `/health`, and one alone is closed after the read
//! timeout, headers or body; headers larger than 32 KiB are refused.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::Server;

/// Lets this test process hold a thousand sockets even where the default limit is 1024.
fn raise_open_file_limit() {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let wanted = limit.maximum.map_or(8192, |maximum| maximum.min(8192));
    if limit.current.is_some_and(|current| current < wanted) {
        let _ = setrlimit(
            Resource::Nofile,
            Rlimit {
                current: Some(wanted),
                maximum: limit.maximum,
            },
        );
    }
}

fn half_sent(server: &Server) -> Option<TcpStream> {
    let mut stream = TcpStream::connect(&server.address).ok()?;
    let _ = stream.write_all(
        format!(
            "POST /v1/chat/completions HTTP/1.1\r\nHost: {}\r\nContent-Ty",
            server.address
        )
        .as_bytes(),
    );
    Some(stream)
}

#[test]
fn more_half_sent_requests_than_descriptors_leave_health_answering() {
    raise_open_file_limit();
    let server = Server::start(&[]);
    // The server's limit is 1024 descriptors.
    let idle: Vec<TcpStream> = (0..1100).filter_map(|_| half_sent(&server)).collect();
    assert!(idle.len() > 1050, "opened {}", idle.len());
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let mut health = TcpStream::connect(&server.address).unwrap();
    health
        .set_read_timeout(Some(Duration::from_secs(3)))
        .unwrap();
    health
        .write_all(
            format!(
                "GET /health HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                server.address
            )
            .as_bytes(),
        )
        .unwrap();
    let mut reply = Vec::new();
    let _ = health.read_to_end(&mut reply);
    let reply = String::from_utf8_lossy(&reply);
    assert!(
        reply.starts_with("HTTP/1.1 200"),
        "/health after {:?} with {} idle connections: {reply:?}",
        started.elapsed(),
        idle.len()
    );
    assert!(started.elapsed() < Duration::from_secs(3));
    drop(idle);
}

#[test]
fn a_request_that_stalls_is_closed_after_the_read_timeout() {
    let server = Server::start(&["--read-timeout", "1"]);
    let mut headers = half_sent(&server).unwrap();
    headers
        .set_read_timeout(Some(Duration::from_secs(6)))
        .unwrap();
    let started = Instant::now();
    let mut rest = Vec::new();
    let closed = headers.read_to_end(&mut rest).is_ok();
    assert!(
        closed && started.elapsed() < Duration::from_secs(5),
        "half-sent headers still open after {:?}",
        started.elapsed()
    );

    let mut body = TcpStream::connect(&server.address).unwrap();
    body.set_read_timeout(Some(Duration::from_secs(6))).unwrap();
    body.write_all(
        format!(
            "POST /v1/chat/completions HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: 1000\r\n\r\n{{\"model\": ",
            server.address
        )
        .as_bytes(),
    )
    .unwrap();
    let started = Instant::now();
    let mut reply = Vec::new();
    let _ = body.read_to_end(&mut reply);
    let reply = String::from_utf8_lossy(&reply);
    assert!(
        reply.starts_with("HTTP/1.1 408") && reply.contains("--read-timeout"),
        "{reply:?} after {:?}",
        started.elapsed()
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn headers_larger_than_32_kib_are_refused() {
    let server = Server::start(&[]);
    let padding = "a".repeat(100 << 10);
    let (status, _, _) = server.send(&format!("GET /health HTTP/1.1\r\nX-Pad: {padding}\r\n"), "");
    assert_eq!(status, 431, "100 KiB of headers");
    let (status, _, _) = server.send("GET /health HTTP/1.1\r\nX-Pad: short\r\n", "");
    assert_eq!(status, 200);
}

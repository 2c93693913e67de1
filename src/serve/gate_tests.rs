//! The gate's decisions on `Host` and `Origin` headers, without a server.

use super::*;

fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        map.insert(*name, HeaderValue::from_str(value).unwrap());
    }
    map
}

fn loopback(hosts: &[&str], origins: &[&str]) -> Gate {
    let hosts: Vec<String> = hosts.iter().map(ToString::to_string).collect();
    let origins: Vec<String> = origins
        .iter()
        .map(|origin| normalize_origin(origin).unwrap())
        .collect();
    Gate::new("127.0.0.1:4000".parse().unwrap(), &hosts, &origins)
}

#[test]
fn only_this_servers_names_pass_as_host() {
    let gate = loopback(&[], &[]);
    for host in [
        "127.0.0.1:4000",
        "localhost:4000",
        "LOCALHOST:4000",
        "[::1]:4000",
    ] {
        assert!(
            gate.check_host(&headers(&[("host", host)])).is_ok(),
            "{host}"
        );
    }
    assert!(
        gate.check_host(&HeaderMap::new()).is_ok(),
        "no Host: no browser"
    );
    for host in [
        "evil.example",
        "evil.example:4000",
        "localhost:4001",
        "localhost",
        "127.0.0.1",
        "localhost.:4000",
        "127.0.0.1:4000@evil",
        "",
    ] {
        let error = gate.check_host(&headers(&[("host", host)])).unwrap_err();
        assert_eq!(error.status, StatusCode::FORBIDDEN, "{host}");
        assert!(
            error.message.contains("--allowed-host"),
            "{}",
            error.message
        );
    }
}

#[test]
fn allowed_host_names_pass_on_any_or_their_own_port() {
    let gate = loopback(&["api.example.com", "box.lan:8080"], &[]);
    for host in ["api.example.com", "API.example.com:443", "box.lan:8080"] {
        assert!(
            gate.check_host(&headers(&[("host", host)])).is_ok(),
            "{host}"
        );
    }
    assert!(
        gate.check_host(&headers(&[("host", "box.lan:4000")]))
            .is_err()
    );
    assert!(check_allowed_host("a b").is_err());
    assert!(check_allowed_host("http://x").is_err());
}

#[test]
fn every_address_with_no_allowed_host_leaves_host_to_the_api_key() {
    let open = Gate::new("0.0.0.0:4000".parse().unwrap(), &[], &[]);
    assert!(
        open.check_host(&headers(&[("host", "box.lan:4000")]))
            .is_ok()
    );
    let named = Gate::new("0.0.0.0:4000".parse().unwrap(), &["box.lan".into()], &[]);
    assert!(
        named
            .check_host(&headers(&[("host", "box.lan:4000")]))
            .is_ok()
    );
    assert!(
        named
            .check_host(&headers(&[("host", "evil.example:4000")]))
            .is_err()
    );
    let same = headers(&[("host", "box.lan:4000"), ("origin", "http://box.lan:4000")]);
    assert!(matches!(open.check_origin(&same), Ok(Origin::Same)));
    let other = headers(&[("host", "box.lan:4000"), ("origin", "http://evil.example")]);
    assert!(open.check_origin(&other).is_err());
}

#[test]
fn an_origin_must_be_this_server_or_allowed() {
    let gate = loopback(&[], &["http://localhost:3000/"]);
    let host = ("host", "localhost:4000");
    assert!(matches!(
        gate.check_origin(&headers(&[host])),
        Ok(Origin::Absent)
    ));
    for same in ["http://localhost:4000", "http://127.0.0.1:4000"] {
        assert!(
            matches!(
                gate.check_origin(&headers(&[host, ("origin", same)])),
                Ok(Origin::Same)
            ),
            "{same}"
        );
    }
    assert!(matches!(
        gate.check_origin(&headers(&[host, ("origin", "http://localhost:3000")])),
        Ok(Origin::Cross(_))
    ));
    for foreign in [
        "null",
        "http://evil.example",
        "http://localhost:3001",
        "http://localhost:4000.evil.example",
        "file://",
        "",
    ] {
        let error = gate
            .check_origin(&headers(&[host, ("origin", foreign)]))
            .unwrap_err();
        assert_eq!(error.status, StatusCode::FORBIDDEN, "{foreign}");
        assert!(
            error.message.contains("--allowed-origin"),
            "{}",
            error.message
        );
    }
}

#[test]
fn origins_are_normalized_as_browsers_send_them() {
    assert_eq!(
        normalize_origin("HTTP://LocalHost:80/").unwrap(),
        "http://localhost"
    );
    assert_eq!(
        normalize_origin("https://chat.example.com:8443").unwrap(),
        "https://chat.example.com:8443"
    );
    for bad in [
        "localhost:3000",
        "ftp://x",
        "http://x/path",
        "http://",
        "null",
    ] {
        assert!(normalize_origin(bad).is_err(), "{bad}");
    }
}

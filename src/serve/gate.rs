//! Which requests may reach the API at all. `Host` must name this server (its address
//! with its port, or a name allowed with --allowed-host), so a web page that rebinds its
//! own name to this machine cannot read answers; an `Origin`, when sent, must be this
//! server's own or one allowed with --allowed-origin, so no other web page can drive it.
//! Only an allowed cross origin gets CORS headers, and only its own name in them.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::errors::ApiError;

pub struct Gate {
    names: Vec<HostName>,
    /// Off only on an unspecified address (0.0.0.0) with no --allowed-host: the names
    /// clients use are unknown there, and the API key that address requires guards it.
    check_host: bool,
    /// Normalized (`scheme://host[:port]`, lower case, default port left out).
    origins: Vec<String>,
}

#[derive(Debug, PartialEq)]
struct HostName {
    host: String,
    /// `None`: any port.
    port: Option<u16>,
}

#[derive(Debug)]
enum Origin {
    Absent,
    Same,
    /// Allowed with --allowed-origin: answered with CORS headers naming it.
    Cross(HeaderValue),
}

impl Gate {
    /// `allowed_hosts` and `allowed_origins` as checked by [`check_allowed_host`] and
    /// [`normalize_origin`].
    pub fn new(served: SocketAddr, allowed_hosts: &[String], allowed_origins: &[String]) -> Self {
        let port = served.port();
        let ip = served.ip();
        let mut names = Vec::new();
        if ip.is_loopback() || ip.is_unspecified() {
            for host in ["127.0.0.1", "localhost", "[::1]"] {
                names.push(HostName {
                    host: host.to_string(),
                    port: Some(port),
                });
            }
        }
        if !ip.is_unspecified() {
            let host = SocketAddr::new(ip, port).to_string();
            let own = parse_authority(&host).map(|(host, _)| host);
            if let Some(host) = own.filter(|own| names.iter().all(|name| name.host != *own)) {
                names.push(HostName {
                    host,
                    port: Some(port),
                });
            }
        }
        names.extend(allowed_hosts.iter().filter_map(|name| host_name(name).ok()));
        Self {
            names,
            check_host: !ip.is_unspecified() || !allowed_hosts.is_empty(),
            origins: allowed_origins.to_vec(),
        }
    }

    fn allows(&self, host: &str, port: u16) -> bool {
        self.names
            .iter()
            .any(|name| name.host == host && name.port.is_none_or(|allowed| allowed == port))
    }

    fn check_host(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let Some(value) = headers.get(header::HOST) else {
            // Browsers always send one; a client that sends none is no web page.
            return Ok(());
        };
        if !self.check_host {
            return Ok(());
        }
        let parsed = value.to_str().ok().and_then(parse_authority);
        if let Some((host, port)) = &parsed
            && self.allows(host, port.unwrap_or(80))
        {
            return Ok(());
        }
        let suggestion = parsed.map_or_else(|| "NAME".to_string(), |(host, _)| host);
        Err(ApiError::forbidden(
            format!(
                "`Host: {}` does not name this server ({}): a web page can reach a server on \
                 this machine under its own name (DNS rebinding), so other names are refused. \
                 If clients reach massgen serve by this name, start it with --allowed-host \
                 {suggestion}",
                shown(value),
                self.own_names()
            ),
            "host_not_allowed",
        ))
    }

    fn own_names(&self) -> String {
        self.names
            .iter()
            .map(|name| match name.port {
                Some(port) => format!("{}:{port}", name.host),
                None => name.host.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn check_origin(&self, headers: &HeaderMap) -> Result<Origin, ApiError> {
        let Some(value) = headers.get(header::ORIGIN) else {
            return Ok(Origin::Absent);
        };
        let text = value.to_str().unwrap_or_default().to_ascii_lowercase();
        if let Ok(origin) = normalize_origin(&text) {
            if self.origins.contains(&origin) {
                return Ok(Origin::Cross(value.clone()));
            }
            if self.is_own_origin(&origin, headers) {
                return Ok(Origin::Same);
            }
        }
        Err(ApiError::forbidden(
            format!(
                "requests from the web page at `{}` are refused: only this server's own pages \
                 and origins given with --allowed-origin may call massgen serve from a \
                 browser. To let that page run turns, start it with --allowed-origin URL",
                shown(value)
            ),
            "origin_not_allowed",
        ))
    }

    fn is_own_origin(&self, origin: &str, headers: &HeaderMap) -> bool {
        let Some((scheme, authority)) = origin.split_once("://") else {
            return false;
        };
        let Some((host, port)) = parse_authority(authority) else {
            return false;
        };
        let port = port.unwrap_or(if scheme == "https" { 443 } else { 80 });
        if self.check_host {
            return self.allows(&host, port);
        }
        let requested = headers
            .get(header::HOST)
            .and_then(|value| value.to_str().ok())
            .and_then(parse_authority);
        requested.is_some_and(|(name, named_port)| name == host && named_port.unwrap_or(80) == port)
    }
}

/// Refuses what [`Gate`] refuses; answers an allowed cross origin's preflight.
pub async fn check(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    if let Err(error) = gate.check_host(request.headers()) {
        return error.into_response();
    }
    let origin = match gate.check_origin(request.headers()) {
        Ok(origin) => origin,
        Err(error) => return error.into_response(),
    };
    let Origin::Cross(origin) = origin else {
        return next.run(request).await;
    };
    let mut response = if request.method() == Method::OPTIONS {
        let mut preflight = StatusCode::NO_CONTENT.into_response();
        let headers = preflight.headers_mut();
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("GET, POST"),
        );
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static("authorization, content-type, x-massgen-run-id"),
        );
        headers.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static("600"),
        );
        preflight
    } else {
        next.run(request).await
    };
    let headers = response.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.append(header::VARY, HeaderValue::from_static("origin"));
    response
}

/// Checks an --allowed-host value: `NAME` (any port) or `NAME:PORT`.
pub fn check_allowed_host(text: &str) -> Result<(), String> {
    host_name(text).map(drop)
}

fn host_name(text: &str) -> Result<HostName, String> {
    let invalid = || {
        format!(
            "--allowed-host `{text}` is not a host name: give NAME or NAME:PORT, as clients \
             send it in `Host` (api.example.com, myhost.lan:4000, [fd00::1]:4000)"
        )
    };
    let (host, port) = parse_authority(&text.trim().to_ascii_lowercase()).ok_or_else(invalid)?;
    Ok(HostName { host, port })
}

/// An --allowed-origin value as browsers send it: `http://host[:port]`, lower case, the
/// scheme's default port left out, no path.
pub fn normalize_origin(text: &str) -> Result<String, String> {
    let invalid = || {
        format!(
            "--allowed-origin `{text}` is not an origin: give the scheme, host and port of the \
             web page, as in http://localhost:3000 or https://chat.example.com"
        )
    };
    let lower = text.trim().to_ascii_lowercase();
    let lower = lower.strip_suffix('/').unwrap_or(&lower);
    let (scheme, authority) = lower.split_once("://").ok_or_else(invalid)?;
    let default_port = match scheme {
        "http" => 80,
        "https" => 443,
        _ => return Err(invalid()),
    };
    let (host, port) = parse_authority(authority).ok_or_else(invalid)?;
    Ok(match port {
        Some(port) if port != default_port => format!("{scheme}://{host}:{port}"),
        _ => format!("{scheme}://{host}"),
    })
}

/// `host[:port]` or `[v6]:port`, the host in lower case; `None` when it is neither.
fn parse_authority(text: &str) -> Option<(String, Option<u16>)> {
    let (host, port) = if text.starts_with('[') {
        let end = text.find(']')?;
        let (host, rest) = text.split_at(end + 1);
        match rest {
            "" => (host, None),
            _ => (host, Some(rest.strip_prefix(':')?)),
        }
    } else {
        match text.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (text, None),
        }
    };
    let port = match port {
        Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            Some(digits.parse::<u16>().ok()?)
        }
        Some(_) => return None,
        None => None,
    };
    let valid = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_');
    let bracketed = host.len() > 2
        && host.starts_with('[')
        && host[1..host.len() - 1]
            .bytes()
            .all(|b| b.is_ascii_hexdigit() || matches!(b, b':' | b'.'));
    (bracketed || (!host.is_empty() && host.bytes().all(valid)))
        .then(|| (host.to_ascii_lowercase(), port))
}

/// A header's value for a message: printable ASCII, at most 100 characters.
fn shown(value: &HeaderValue) -> String {
    match value.to_str() {
        Ok(text) if text.chars().count() > 100 => {
            format!("{}…", text.chars().take(100).collect::<String>())
        }
        Ok(text) => text.to_string(),
        Err(_) => "(not printable ASCII)".to_string(),
    }
}

#[cfg(test)]
#[path = "gate_tests.rs"]
mod tests;

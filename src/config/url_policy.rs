//! Which MCP server URLs MassGen's security checks let through (`validate_url`): a
//! loopback or private address only with `allow_localhost` / `allow_private_ips`, a listed
//! host always, never a port that serves SSH, mail, DNS or a database.

use std::net::IpAddr;

const MAX_URL_LENGTH: usize = 2048;
const DANGEROUS_PORTS: [u16; 13] = [
    22, 23, 25, 53, 135, 139, 445, 1433, 1521, 3306, 3389, 5432, 6379,
];

/// The URL keys of a server's `security:` block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UrlRules {
    /// Hosts that skip the address checks.
    pub allowed_hostnames: Vec<String>,
    pub resolve_dns: bool,
    pub allow_private_ips: bool,
    pub allow_localhost: bool,
}

impl UrlRules {
    /// `url` allowed, or the rule that refuses it and how to allow it.
    pub fn check(&self, url: &str) -> Result<(), (String, String)> {
        if url.len() > MAX_URL_LENGTH {
            return Err((
                format!("the URL is longer than {MAX_URL_LENGTH} characters"),
                "shorten it".into(),
            ));
        }
        let parsed = reqwest::Url::parse(url.trim())
            .map_err(|error| (format!("the URL cannot be read: {error}"), String::new()))?;
        let host = parsed
            .host_str()
            .unwrap_or_default()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_lowercase();
        let allowed_host = self
            .allowed_hostnames
            .iter()
            .any(|name| name.to_lowercase() == host);
        if !allowed_host {
            self.check_host(&host, &parsed)?;
        }
        if let Some(port) = parsed.port()
            && DANGEROUS_PORTS.contains(&port)
        {
            return Err((
                format!(
                    "port {port} is refused for every level (it serves SSH, mail, DNS, a database…)"
                ),
                "serve the MCP server on another port".into(),
            ));
        }
        Ok(())
    }

    fn check_host(&self, host: &str, url: &reqwest::Url) -> Result<(), (String, String)> {
        let localhost_help = "add `allow_localhost: true` (and `allow_private_ips: true` for \
                              a private network) to the server's `security:` block, or list \
                              the host in `security.allowed_hostnames`";
        if !self.allow_localhost && (host == "localhost" || host == "ip6-localhost") {
            return Err((
                format!("the host `{host}` is refused without `allow_localhost`"),
                localhost_help.into(),
            ));
        }
        let addresses: Vec<IpAddr> = match host.parse::<IpAddr>() {
            Ok(address) => vec![address],
            Err(_) if self.resolve_dns => {
                use std::net::ToSocketAddrs;
                let port = url.port_or_known_default().unwrap_or(80);
                (host, port)
                    .to_socket_addrs()
                    .map_err(|error| {
                        (
                            format!(
                                "`{host}` could not be resolved ({error}) and `resolve_dns` is on"
                            ),
                            "check the host name, or turn `resolve_dns` off".to_string(),
                        )
                    })?
                    .map(|address| address.ip())
                    .collect()
            }
            Err(_) => Vec::new(),
        };
        for address in addresses {
            let loopback_allowed = self.allow_localhost && address.is_loopback();
            if !self.allow_private_ips && !loopback_allowed && forbidden(address) {
                return Err((
                    format!(
                        "the address {address} of `{host}` is loopback, private or reserved, \
                         refused without `allow_private_ips`"
                    ),
                    localhost_help.into(),
                ));
            }
        }
        Ok(())
    }
}

/// Python's `is_private or is_loopback or is_link_local or is_reserved or is_multicast or
/// is_unspecified`.
fn forbidden(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            v4.is_private()
                || v4.is_loopback()
                || v4.is_link_local()
                || v4.is_multicast()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || (a == 192 && b == 0 && c == 2)
                || (a == 198 && b == 51 && c == 100)
                || (a == 203 && b == 0 && c == 113)
                || a == 0
                || a >= 240
                || (a == 192 && b == 0 && c == 0)
                || (a == 198 && (b == 18 || b == 19))
        }
        IpAddr::V6(v6) => {
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || (first == 0x2001 && v6.segments()[1] == 0x0db8)
                || v6
                    .to_ipv4_mapped()
                    .is_some_and(|v4| forbidden(IpAddr::V4(v4)))
        }
    }
}

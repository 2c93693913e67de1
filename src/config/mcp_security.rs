//! MassGen's MCP server checks (`mcp_tools/security.py`) under a server's `security:`
//! block — `level` (strict, moderate, permissive), `allowed_executables`, `env`,
//! `allowed_hostnames`, `resolve_dns`, `allow_private_ips`, `allow_localhost`: the command,
//! arguments, environment, working directory or URL a policy forbids, and the rule that
//! forbids it.

use std::net::IpAddr;
use std::path::{Component, Path};

use super::secret::Secret;

const MAX_COMMAND_LENGTH: usize = 1000;
const MAX_ARG_LENGTH: usize = 500;
const MAX_ARGS_COUNT: usize = 50;
const MAX_URL_LENGTH: usize = 2048;
const MAX_ENV_KEY_LENGTH: usize = 100;
const MAX_ENV_VALUE_LENGTH: usize = 1000;
const MAX_CWD_LENGTH: usize = 500;
const SHELL_CHARACTERS: [char; 9] = ['&', '|', ';', '`', '$', '(', ')', '<', '>'];
const ENV_VALUE_PATTERNS: [&str; 5] = ["$(", "`", "&", ";", "|"];
const DANGEROUS_PORTS: [u16; 13] = [
    22, 23, 25, 53, 135, 139, 445, 1433, 1521, 3306, 3389, 5432, 6379,
];
const STRICT_EXECUTABLES: [&str; 37] = [
    "python",
    "python3",
    "python3.8",
    "python3.9",
    "python3.10",
    "python3.11",
    "python3.12",
    "python3.13",
    "python3.14",
    "py",
    "uv",
    "uvx",
    "pipx",
    "pip",
    "pip3",
    "node",
    "npm",
    "npx",
    "yarn",
    "pnpm",
    "bun",
    "deno",
    "java",
    "ruby",
    "go",
    "rust",
    "cargo",
    "fastmcp",
    "srt",
    "mcp-server-filesystem",
    "sh",
    "bash",
    "zsh",
    "fish",
    "powershell",
    "pwsh",
    "cmd",
];

/// `security.level`; MassGen checks any other value as `strict`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Level {
    #[default]
    Strict,
    Moderate,
    Permissive,
}

impl Level {
    pub const NAMES: [&'static str; 3] = ["strict", "moderate", "permissive"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "strict" => Some(Self::Strict),
            "moderate" => Some(Self::Moderate),
            "permissive" => Some(Self::Permissive),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Strict => "strict",
            Self::Moderate => "moderate",
            Self::Permissive => "permissive",
        }
    }

    fn executables(self) -> Vec<&'static str> {
        let mut names: Vec<&str> = STRICT_EXECUTABLES.to_vec();
        match self {
            Self::Strict => {}
            Self::Moderate => names.extend(["git", "nodejs"]),
            Self::Permissive => names.extend(["git", "curl", "wget", "nodejs"]),
        }
        names
    }
}

/// The `security:` block of one server.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    pub level: Level,
    /// Replaces the level's executables when not empty.
    pub allowed_executables: Vec<String>,
    /// `env.level`, the server's level unless set.
    pub env_level: Level,
    /// `env.mode: allowlist` (else denylist).
    pub env_allowlist: bool,
    pub allowed_vars: Vec<String>,
    /// Replaces the level's denied variables when not empty.
    pub denied_vars: Vec<String>,
    /// Hosts that skip the address checks.
    pub allowed_hostnames: Vec<String>,
    pub resolve_dns: bool,
    pub allow_private_ips: bool,
    pub allow_localhost: bool,
}

/// Which server key a policy refused, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub key: &'static str,
    pub rule: String,
    pub help: String,
}

fn refused(key: &'static str, rule: String, help: impl Into<String>) -> Refused {
    Refused {
        key,
        rule,
        help: help.into(),
    }
}

impl Policy {
    /// A stdio server's `command`, `args`, `env` and `cwd` (MassGen's `prepare_command` and
    /// friends).
    pub fn check_stdio(
        &self,
        command: &str,
        args: &[String],
        env: &[(String, Secret)],
        cwd: Option<&Path>,
    ) -> Result<(), Refused> {
        self.check_command(command)?;
        for (index, arg) in args.iter().enumerate() {
            if arg.len() > MAX_ARG_LENGTH {
                return Err(refused(
                    "args",
                    format!("argument {index} is longer than {MAX_ARG_LENGTH} characters"),
                    "pass long values through a file or the server's own config",
                ));
            }
        }
        for (name, value) in env {
            self.check_variable(name, value.expose())?;
        }
        if let Some(cwd) = cwd {
            if cwd.as_os_str().len() > MAX_CWD_LENGTH {
                return Err(refused(
                    "cwd",
                    format!("the working directory is longer than {MAX_CWD_LENGTH} characters"),
                    "use a shorter path",
                ));
            }
            if cwd.components().any(|part| part == Component::ParentDir) {
                return Err(refused(
                    "cwd",
                    "the working directory climbs out with `..`".into(),
                    "write the directory without `..`",
                ));
            }
        }
        Ok(())
    }

    fn check_command(&self, command: &str) -> Result<(), Refused> {
        let no_shell = "give the program alone in `command` and its arguments in `args`";
        if command.len() > MAX_COMMAND_LENGTH {
            return Err(refused(
                "command",
                format!("the command is longer than {MAX_COMMAND_LENGTH} characters"),
                no_shell,
            ));
        }
        if let Some(found) = command.chars().find(|ch| SHELL_CHARACTERS.contains(ch)) {
            return Err(refused(
                "command",
                format!("the command holds the shell character `{found}`"),
                no_shell,
            ));
        }
        if command.contains("../") || command.contains(".\\") {
            return Err(refused(
                "command",
                "the command climbs directories (`../`)".into(),
                "name the program by its own path",
            ));
        }
        let parts = shell_words::split(command).map_err(|error| {
            refused("command", format!("the command cannot be split: {error}"), no_shell)
        })?;
        let Some(program) = parts.first() else {
            return Err(refused("command", "the command is empty".into(), no_shell));
        };
        if parts.len() > MAX_ARGS_COUNT {
            return Err(refused(
                "command",
                format!("the command has more than {MAX_ARGS_COUNT} words"),
                no_shell,
            ));
        }
        let base = Path::new(program)
            .file_name()
            .map(|name| name.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let base = [".exe", ".bat", ".cmd", ".ps1"]
            .iter()
            .find_map(|ext| base.strip_suffix(ext))
            .unwrap_or(&base)
            .to_string();
        let allowed: Vec<String> = if self.allowed_executables.is_empty() {
            self.level
                .executables()
                .into_iter()
                .map(String::from)
                .collect()
        } else {
            self.allowed_executables
                .iter()
                .map(|name| name.to_lowercase())
                .collect()
        };
        if allowed.contains(&base) {
            return Ok(());
        }
        let rule = if self.allowed_executables.is_empty() {
            format!(
                "level `{}` does not allow the executable `{base}`",
                self.level.name()
            )
        } else {
            format!("`allowed_executables` does not list `{base}`")
        };
        Err(refused(
            "command",
            rule,
            format!(
                "add it to `security.allowed_executables` if you trust it; allowed now: {}",
                allowed.join(", ")
            ),
        ))
    }

    fn check_variable(&self, name: &str, value: &str) -> Result<(), Refused> {
        let key = "env";
        if name.len() > MAX_ENV_KEY_LENGTH || value.len() > MAX_ENV_VALUE_LENGTH {
            return Err(refused(
                key,
                format!(
                    "`{name}` is longer than {MAX_ENV_KEY_LENGTH} characters or its value \
                     longer than {MAX_ENV_VALUE_LENGTH}"
                ),
                "shorten it",
            ));
        }
        let upper = name.to_uppercase();
        let listed = |names: &[String]| names.iter().any(|listed| listed.to_uppercase() == upper);
        if self.env_allowlist {
            if !self.allowed_vars.is_empty() && !listed(&self.allowed_vars) {
                return Err(refused(
                    key,
                    format!("`{name}` is not in `security.env.allowed_vars`"),
                    "add it to `security.env.allowed_vars`",
                ));
            }
        } else {
            let denied = if self.denied_vars.is_empty() {
                let mut names = vec!["LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "PYTHONPATH"];
                names.extend(["PWD", "OLDPWD"]);
                if self.env_level == Level::Strict {
                    names.extend(["PATH", "HOME", "USER", "USERNAME", "SHELL"]);
                }
                names.into_iter().map(String::from).collect()
            } else {
                self.denied_vars.clone()
            };
            if listed(&denied) {
                return Err(refused(
                    key,
                    format!(
                        "`{name}` is denied (env level `{}`)",
                        self.env_level.name()
                    ),
                    "leave it out, or set `security.env.denied_vars` to the names you deny",
                ));
            }
        }
        if let Some(found) = ENV_VALUE_PATTERNS
            .iter()
            .find(|pattern| value.contains(*pattern))
        {
            return Err(refused(
                key,
                format!("the value of `{name}` holds `{found}`"),
                "MassGen refuses shell syntax in server environment values",
            ));
        }
        if value.contains("${") && !one_plain_reference(value) {
            return Err(refused(
                key,
                format!("the value of `{name}` holds a `${{…}}` that is not one plain variable"),
                "write at most one `${NAME}` per value",
            ));
        }
        Ok(())
    }

    /// A streamable-HTTP server's `url` (MassGen's `validate_url`).
    pub fn check_url(&self, url: &str) -> Result<(), Refused> {
        let key = "url";
        if url.len() > MAX_URL_LENGTH {
            return Err(refused(
                key,
                format!("the URL is longer than {MAX_URL_LENGTH} characters"),
                "shorten it",
            ));
        }
        let parsed = reqwest::Url::parse(url.trim())
            .map_err(|error| refused(key, format!("the URL cannot be read: {error}"), ""))?;
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
            return Err(refused(
                key,
                format!("port {port} is refused for every level (it serves SSH, mail, DNS, a database…)"),
                "serve the MCP server on another port",
            ));
        }
        Ok(())
    }

    fn check_host(&self, host: &str, url: &reqwest::Url) -> Result<(), Refused> {
        let localhost_help = "add `allow_localhost: true` (and `allow_private_ips: true` for \
                              a private network) to the server's `security:` block, or list \
                              the host in `security.allowed_hostnames`";
        if !self.allow_localhost && (host == "localhost" || host == "ip6-localhost") {
            return Err(refused(
                "url",
                format!("the host `{host}` is refused without `allow_localhost`"),
                localhost_help,
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
                        refused(
                            "url",
                            format!("`{host}` could not be resolved ({error}) and `resolve_dns` is on"),
                            "check the host name, or turn `resolve_dns` off",
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
                return Err(refused(
                    "url",
                    format!(
                        "the address {address} of `{host}` is loopback, private or reserved, \
                         refused without `allow_private_ips`"
                    ),
                    localhost_help,
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
                || v6.to_ipv4_mapped().is_some_and(|v4| forbidden(IpAddr::V4(v4)))
        }
    }
}

/// `^[^$]*\$\{[A-Z_][A-Z0-9_]*\}[^$]*$`: one `${NAME}` and no other `$`.
fn one_plain_reference(value: &str) -> bool {
    let Some(start) = value.find("${") else {
        return false;
    };
    let rest = &value[start + 2..];
    let Some(end) = rest.find('}') else {
        return false;
    };
    let name = &rest[..end];
    let valid_name = name
        .chars()
        .next()
        .is_some_and(|first| first.is_ascii_uppercase() || first == '_')
        && name
            .chars()
            .all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit() || ch == '_');
    valid_name && !value[..start].contains('$') && !rest[end + 1..].contains('$')
}

#[cfg(test)]
#[path = "mcp_security_tests.rs"]
mod tests;

//! MassGen's MCP server checks (`mcp_tools/security.py`) under a server's `security:`
//! block — `level` (strict, moderate, permissive), `allowed_executables`, `env`,
//! `allowed_hostnames`, `resolve_dns`, `allow_private_ips`, `allow_localhost`: the command,
//! arguments, environment, working directory or URL a policy forbids, and the rule that
//! forbids it.

use std::path::{Component, Path};

use super::secret::Secret;
use super::url_policy::UrlRules;

const MAX_COMMAND_LENGTH: usize = 1000;
const MAX_ARG_LENGTH: usize = 500;
const MAX_ARGS_COUNT: usize = 50;
const MAX_ENV_KEY_LENGTH: usize = 100;
const MAX_ENV_VALUE_LENGTH: usize = 1000;
const MAX_CWD_LENGTH: usize = 500;
const SHELL_CHARACTERS: [char; 9] = ['&', '|', ';', '`', '$', '(', ')', '<', '>'];
const ENV_VALUE_PATTERNS: [&str; 5] = ["$(", "`", "&", ";", "|"];
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
    /// `allowed_hostnames`, `resolve_dns`, `allow_private_ips`, `allow_localhost`.
    pub url: UrlRules,
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
            refused(
                "command",
                format!("the command cannot be split: {error}"),
                no_shell,
            )
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
                    format!("`{name}` is denied (env level `{}`)", self.env_level.name()),
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
        self.url
            .check(url)
            .map_err(|(rule, help)| refused("url", rule, help))
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

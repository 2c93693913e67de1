//! How an agent's commands run (`command_line_execution_mode`): `local` in massgen's OS
//! sandbox, `docker` in a container of the agent's own (the `command_line_docker_*`
//! settings), or `srt` — massgen's sandbox under MassGen's srt policy (no network, reads
//! confined).

use std::path::PathBuf;

use super::yaml_node::Location;

/// MassGen's runtime image, and the one it switches to when sudo is enabled.
pub const DEFAULT_DOCKER_IMAGE: &str = "ghcr.io/massgen/mcp-runtime:latest";
pub const SUDO_DOCKER_IMAGE: &str = "ghcr.io/massgen/mcp-runtime-sudo:latest";

#[derive(Clone, Debug, Default, PartialEq)]
pub enum ExecutionMode {
    #[default]
    Local,
    Docker(Box<DockerSettings>),
    Srt(SrtSettings),
}

impl ExecutionMode {
    pub const NAMES: [&'static str; 3] = ["local", "docker", "srt"];
}

/// `command_line_docker_network_mode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DockerNetwork {
    /// MassGen's default: no network at all.
    #[default]
    None,
    Bridge,
    Host,
}

impl DockerNetwork {
    pub const NAMES: [&'static str; 3] = ["none", "bridge", "host"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "none" => Some(Self::None),
            "bridge" => Some(Self::Bridge),
            "host" => Some(Self::Host),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Bridge => "bridge",
            Self::Host => "host",
        }
    }
}

/// The `command_line_docker_*` settings of one agent.
#[derive(Clone, Debug, PartialEq)]
pub struct DockerSettings {
    /// `command_line_docker_image`, already switched to the sudo image where MassGen does.
    pub image: String,
    pub network: DockerNetwork,
    /// `command_line_docker_memory_limit`: Docker's notation (`2g`, `512m`).
    pub memory_limit: Option<String>,
    /// `command_line_docker_cpu_limit`: CPUs, fractions allowed.
    pub cpu_limit: Option<f64>,
    pub enable_sudo: bool,
    pub credentials: DockerCredentials,
    pub packages: DockerPackages,
    /// Where `command_line_execution_mode: docker` was written.
    pub written_at: Option<Location>,
}

/// Host files a container may see read-only (MassGen's credential mounts) under
/// `/home/massgen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CredentialMount {
    SshKeys,
    GitConfig,
    GhConfig,
    NpmConfig,
    PypiConfig,
    ClaudeConfig,
    CodexConfig,
    GeminiConfig,
}

impl CredentialMount {
    pub const NAMES: [&'static str; 8] = [
        "ssh_keys",
        "git_config",
        "gh_config",
        "npm_config",
        "pypi_config",
        "claude_config",
        "codex_config",
        "gemini_config",
    ];

    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name.trim() {
            "ssh_keys" => Self::SshKeys,
            "git_config" => Self::GitConfig,
            "gh_config" => Self::GhConfig,
            "npm_config" => Self::NpmConfig,
            "pypi_config" => Self::PypiConfig,
            "claude_config" => Self::ClaudeConfig,
            "codex_config" => Self::CodexConfig,
            "gemini_config" => Self::GeminiConfig,
            _ => return None,
        })
    }

    /// Relative to the home directory, on the host and under `/home/massgen` in the
    /// container.
    pub fn home_path(self) -> &'static str {
        match self {
            Self::SshKeys => ".ssh",
            Self::GitConfig => ".gitconfig",
            Self::GhConfig => ".config/gh",
            Self::NpmConfig => ".npmrc",
            Self::PypiConfig => ".pypirc",
            Self::ClaudeConfig => ".claude",
            Self::CodexConfig => ".codex",
            Self::GeminiConfig => ".gemini",
        }
    }
}

/// `command_line_docker_credentials`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DockerCredentials {
    pub mount: Vec<CredentialMount>,
    /// `additional_mounts: {host_path: {bind, mode}}`.
    pub additional_mounts: Vec<ExtraMount>,
    /// `env_file`: read with `~/.massgen/.env` before it and `./.env` after it.
    pub env_file: Option<PathBuf>,
    /// `env_vars`: passed from massgen's environment by name.
    pub env_vars: Vec<String>,
    /// `env_vars_from_file`: only these of the env files.
    pub env_vars_from_file: Vec<String>,
    /// `pass_all_env`: every variable of massgen's environment (MassGen warns: dangerous).
    pub pass_all_env: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtraMount {
    pub host: PathBuf,
    pub bind: PathBuf,
    pub read_only: bool,
}

/// `command_line_docker_packages.preinstall`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DockerPackages {
    pub python: Vec<String>,
    pub npm: Vec<String>,
    /// Installed with `sudo apt-get`, so only with sudo enabled.
    pub system: Vec<String>,
}

/// `command_line_srt_read_mode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SrtReadMode {
    /// MassGen's default: the home directory is unreadable, system paths readable.
    #[default]
    Confined,
    /// Only the agent's paths and a system baseline.
    Strict,
    /// Everything but a list of secret stores.
    Open,
}

impl SrtReadMode {
    pub const NAMES: [&'static str; 3] = ["confined", "strict", "open"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "confined" => Some(Self::Confined),
            "strict" => Some(Self::Strict),
            "open" => Some(Self::Open),
            _ => None,
        }
    }
}

/// The `command_line_srt_*` settings of one agent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SrtSettings {
    pub read_mode: SrtReadMode,
    /// Readable on top of what the mode allows.
    pub allow_read: Vec<PathBuf>,
    /// Never readable, even inside a readable system directory.
    pub deny_read: Vec<PathBuf>,
    /// Unix socket paths a command may reach.
    pub allow_unix_sockets: Vec<PathBuf>,
}

/// Secret stores MassGen's srt `open` mode keeps unreadable, relative to the home
/// directory, and outside it.
pub const SRT_SECRET_HOME_PATHS: [&str; 12] = [
    ".ssh",
    ".aws",
    ".gnupg",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".docker/config.json",
    ".git-credentials",
    ".kube",
    ".azure",
    ".config/gcloud",
    ".config/gh",
];
pub const SRT_SECRET_PATHS: [&str; 1] = ["/etc/shadow"];

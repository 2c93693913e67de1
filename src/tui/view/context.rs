//! What `/context` shows beyond the folded state: the config's context paths and file,
//! the last question's `@path` attachments, the current directory and whether Ctrl+P
//! attaches it to each question (with the status bar's badge for it), and the agents'
//! memory files.

use std::path::PathBuf;

use crate::config::ContextPath;
use crate::protocol::AgentId;

/// Whether each question gets the current directory attached (Ctrl+P cycles it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CwdMode {
    #[default]
    Off,
    /// As `@<cwd>` would.
    Read,
    /// As `@<cwd>:w` would.
    Write,
}

impl CwdMode {
    /// Off → read → write → off.
    pub fn next(self) -> Self {
        match self {
            Self::Off => Self::Read,
            Self::Read => Self::Write,
            Self::Write => Self::Off,
        }
    }

    /// What agents may do with the directory, or `None` when it is not attached.
    pub fn access(self) -> Option<&'static str> {
        match self {
            Self::Off => None,
            Self::Read => Some("read"),
            Self::Write => Some("read+write"),
        }
    }
}

/// What `/context` shows that the folded state does not know: the config and the app's
/// own choices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContextInfo {
    /// `orchestrator.context_paths` of the config.
    pub config_paths: Vec<ContextPath>,
    pub config_file: Option<PathBuf>,
    /// The `@path` attachments of the last question asked (the current directory too, when
    /// Ctrl+P attached it).
    pub attached: Vec<crate::protocol::ContextPath>,
    pub cwd: PathBuf,
    /// The user's home directory, shortened to `~` in the badge.
    pub home: Option<PathBuf>,
    pub cwd_mode: CwdMode,
    /// Each agent's memory files (`memory/short_term/…`, `memory/long_term/…` in its
    /// workspace), listed when `/context` opens.
    pub memories: Vec<(AgentId, Vec<String>)>,
}

impl ContextInfo {
    /// The status bar's `📁 ~/proj [read]`, while the directory is attached.
    pub fn badge(&self) -> Option<String> {
        let access = self.cwd_mode.access()?;
        Some(format!("📁 {} [{access}]", self.short_cwd()))
    }

    fn short_cwd(&self) -> String {
        let shortened = self
            .home
            .as_deref()
            .filter(|home| !home.as_os_str().is_empty())
            .and_then(|home| self.cwd.strip_prefix(home).ok());
        match shortened {
            Some(rest) if rest.as_os_str().is_empty() => "~".to_string(),
            Some(rest) => format!("~/{}", rest.display()),
            None => self.cwd.display().to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ctrl_p_cycles_off_read_write_and_the_badge_shortens_home() {
        assert_eq!(CwdMode::Off.next(), CwdMode::Read);
        assert_eq!(CwdMode::Read.next(), CwdMode::Write);
        assert_eq!(CwdMode::Write.next(), CwdMode::Off);
        let mut info = ContextInfo {
            cwd: PathBuf::from("/home/ann/proj"),
            home: Some(PathBuf::from("/home/ann")),
            ..ContextInfo::default()
        };
        assert_eq!(info.badge(), None);
        info.cwd_mode = CwdMode::Read;
        assert_eq!(info.badge().as_deref(), Some("📁 ~/proj [read]"));
        info.cwd_mode = CwdMode::Write;
        info.home = Some(PathBuf::from("/elsewhere"));
        assert_eq!(
            info.badge().as_deref(),
            Some("📁 /home/ann/proj [read+write]")
        );
    }
}

//! `/context`: the paths agents may read or write — the config's context paths (shared by
//! every agent), this turn's `@path` attachments and the current directory when Ctrl+P
//! attaches it — and how to change each. Also the CWD toggle's state and badge.

use std::path::{Path, PathBuf};

use ratatui::style::Modifier;
use ratatui::text::Line;

use crate::config::{ContextPath, Permission};
use crate::tui::render::{truncate, wrap};
use crate::tui::state::UiState;
use crate::tui::theme::Theme;

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

pub fn lines(
    info: &ContextInfo,
    state: &UiState,
    theme: &Theme,
    width: usize,
) -> Vec<Line<'static>> {
    let heading = |text: &str| {
        Line::styled(
            text.to_string(),
            theme.accent().add_modifier(Modifier::BOLD),
        )
    };
    let row = |path: &Path, access: &str| {
        let path = path.display().to_string();
        let text = format!("  {:<10} {path}", access);
        Line::styled(truncate(&text, width), theme.text())
    };
    let mut lines = vec![heading("From the config (every agent)")];
    if info.config_paths.is_empty() {
        lines.push(Line::styled("  none", theme.dim()));
    }
    for context in &info.config_paths {
        let access = match context.permission {
            Permission::Read => "read",
            Permission::Write => "read+write",
        };
        lines.push(row(&context.path, access));
        for protected in &context.protected_paths {
            let text = format!("  {:<10}   protected: {}", "", protected.display());
            lines.push(Line::styled(truncate(&text, width), theme.dim()));
        }
    }
    if info
        .config_paths
        .iter()
        .any(|context| context.permission == Permission::Write)
    {
        lines.push(Line::styled(
            truncate(
                "  read+write: agents read; the winner writes while presenting",
                width,
            ),
            theme.dim(),
        ));
    }
    if !state.tools.workspaces.is_empty() {
        lines.push(Line::default());
        lines.push(heading("Each agent's own directories"));
    }
    for dirs in &state.tools.workspaces {
        let index = state.agent_index(&dirs.agent).unwrap_or(0);
        lines.push(Line::styled(
            truncate(&dirs.agent.to_string(), width),
            theme.agent(index),
        ));
        lines.push(row(&dirs.workspace, "read+write"));
        lines.push(row(&dirs.temp, "read"));
    }
    lines.push(Line::default());
    lines.push(heading("Attached to the last question (@path)"));
    if info.attached.is_empty() {
        lines.push(Line::styled("  none", theme.dim()));
    }
    for attached in &info.attached {
        let access = if attached.writable {
            "read+write"
        } else {
            "read"
        };
        lines.push(row(&attached.path, access));
    }
    lines.push(Line::default());
    lines.push(heading("Current directory (Ctrl+P: off → read → write)"));
    let state = info.cwd_mode.access().unwrap_or("off");
    lines.push(row(&info.cwd, state));
    lines.push(Line::default());
    lines.push(heading("How to change them"));
    let config = info.config_file.as_ref().map_or_else(
        || "the config file".to_string(),
        |file| file.display().to_string(),
    );
    let help = [
        format!("orchestrator.context_paths in {config} (/config opens it; read at start)"),
        "@path reads, @path:w may write, for one question; @\"with spaces\"".to_string(),
        "Ctrl+P attaches the current directory to each question".to_string(),
    ];
    for text in help {
        for line in wrap(&format!("• {text}"), width) {
            lines.push(Line::styled(line, theme.dim()));
        }
    }
    lines
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

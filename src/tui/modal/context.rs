//! `/context`: the paths agents may read or write — the config's context paths (shared by
//! every agent), this turn's `@path` attachments and the current directory when Ctrl+P
//! attaches it — and how to change each; each agent's directories with its memory files.

use std::path::Path;

use ratatui::style::Modifier;
use ratatui::text::Line;

use crate::config::Permission;
use crate::tui::render::wrap::{truncate, wrap};
use crate::tui::state::UiState;
use crate::tui::theme::Theme;
use crate::tui::view::ContextInfo;

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
        let memories = info
            .memories
            .iter()
            .find(|(agent, _)| agent == &dirs.agent)
            .map(|(_, files)| files.as_slice())
            .unwrap_or_default();
        for file in memories {
            lines.push(row(Path::new(file), "memory"));
        }
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

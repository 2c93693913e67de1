//! `/skills`: the skills agents are told about (`use_skills`) — each one's name,
//! description, where it was found and its `SKILL.md` — or why there are none.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::tui::render::wrap::{truncate, wrap};
use crate::tui::state::UiState;
use crate::tui::theme::Theme;

pub fn lines(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let Some(listed) = &state.tools.skills else {
        return wrapped(
            "Skills are off (set orchestrator.coordination.use_skills: true)",
            theme,
            width,
        );
    };
    if listed.skills.is_empty() {
        let text = format!("No skills found in {}", listed.searched.join(", "));
        return wrapped(&text, theme, width);
    }
    let mut lines = Vec::new();
    for skill in &listed.skills {
        lines.push(Line::from(vec![
            Span::styled(
                truncate(&skill.name, width),
                theme.accent().add_modifier(Modifier::BOLD),
            ),
            Span::styled(format!("  {}", skill.source.name()), theme.dim()),
        ]));
        let description = wrap(&skill.description, width.saturating_sub(2));
        lines.extend(
            description
                .into_iter()
                .map(|line| Line::styled(format!("  {line}"), theme.text())),
        );
        let file = format!("  {}", skill.file.display());
        lines.push(Line::styled(truncate(&file, width), theme.dim()));
        lines.push(Line::default());
    }
    lines
}

fn wrapped(text: &str, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    wrap(text, width)
        .into_iter()
        .map(|line| Line::styled(line, theme.dim()))
        .collect()
}

//! The agents view's lines: the agents (id, backend type, model, system message), or one
//! agent's rows with the open choice list or text field, the save path, and what the keys
//! do at each step.

use ratatui::text::{Line, Span};

use crate::backend::catalog;
use crate::tui::agents_form::{AGENT_ROWS, AgentsForm, ModelList, Stage};
use crate::tui::render::format::plural;
use crate::tui::render::wrap::{display_width, truncate};
use crate::tui::theme::Theme;

/// Choice rows shown at once; the list scrolls with the highlight.
const CHOICES_SHOWN: usize = 8;

/// The lines that fit `height`, kept around the row the keys act on (the view does not
/// scroll otherwise: ↑↓ move the highlight).
pub fn page(
    form: Option<&AgentsForm>,
    theme: &Theme,
    width: usize,
    height: usize,
) -> (Vec<Line<'static>>, usize) {
    let Some(form) = form else {
        return (
            vec![Line::styled("The agents view is closed.", theme.dim())],
            0,
        );
    };
    let mut focus = 0;
    let mut lines = build(form, theme, width, &mut focus);
    let start = (focus + 2)
        .saturating_sub(height)
        .min(lines.len().saturating_sub(height));
    lines.truncate(start + height);
    lines.drain(..start);
    (lines, 0)
}

/// Every line of the view; `focus` is set to the line the keys act on.
fn build(form: &AgentsForm, theme: &Theme, width: usize, focus: &mut usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(intro) = &form.intro {
        lines.push(Line::styled(truncate(intro, width), theme.text()));
    }
    match &form.stage {
        Stage::List | Stage::Discard | Stage::SavePath { .. } | Stage::Overwrite { .. } => {
            *focus = list(form, theme, width, &mut lines);
        }
        Stage::Agent { row } => *focus = agent(form, Some(*row), None, theme, width, &mut lines),
        Stage::Text { row, text } => {
            let editing = format!("{text}▏");
            *focus = agent(form, Some(*row), Some(&editing), theme, width, &mut lines);
        }
        Stage::ChooseType { selected } => {
            agent(form, Some(1), None, theme, width, &mut lines);
            *focus = lines.len() + (*selected).min(CHOICES_SHOWN - 1);
            let names: Vec<String> = catalog::OFFERED
                .iter()
                .map(|kind| kind.name().to_string())
                .collect();
            choices(&names, *selected, theme, width, &mut lines);
        }
        Stage::ChooseModel { typed, selected } => {
            let typed_line = format!("{typed}▏");
            *focus = agent(form, Some(2), Some(&typed_line), theme, width, &mut lines);
            *focus = models(form, typed, *selected, theme, width, &mut lines).unwrap_or(*focus);
        }
    }
    lines.push(Line::default());
    if matches!(
        form.stage,
        Stage::SavePath { .. } | Stage::Overwrite { .. } | Stage::Discard
    ) {
        *focus = lines.len();
    }
    match &form.stage {
        Stage::SavePath { path } => {
            let label = "Save to: ";
            lines.push(Line::from(vec![
                Span::styled(label, theme.accent()),
                Span::styled(
                    truncate(&format!("{path}▏"), width.saturating_sub(label.len())),
                    theme.text(),
                ),
            ]));
        }
        Stage::Overwrite { path } => lines.push(Line::styled(
            truncate(
                &format!("{path} exists: y replaces it, any other key keeps it"),
                width,
            ),
            theme.warn(),
        )),
        Stage::Discard => lines.push(Line::styled(
            truncate(
                "Changes not applied: u uses them, Esc again drops them",
                width,
            ),
            theme.warn(),
        )),
        Stage::List
        | Stage::Agent { .. }
        | Stage::ChooseType { .. }
        | Stage::ChooseModel { .. }
        | Stage::Text { .. } => {}
    }
    if let Some(note) = &form.note {
        lines.push(Line::styled(truncate(note, width), theme.good()));
    }
    lines
}

/// The agents, one a line; the index of the selected one's line.
fn list(form: &AgentsForm, theme: &Theme, width: usize, lines: &mut Vec<Line<'static>>) -> usize {
    let title = if form.quickstart {
        format!("Quickstart · {}", plural(form.drafts.len(), "agent"))
    } else {
        format!("Agents for the next turn · {}", form.drafts.len())
    };
    lines.push(Line::styled(truncate(&title, width), theme.accent()));
    let id_width = column(form.drafts.iter().map(|d| d.id.as_str()), 16);
    let type_width = column(form.drafts.iter().map(|d| d.kind.name()), 14);
    let model_width = column(form.drafts.iter().map(|d| d.model.as_str()), 28);
    let focus = lines.len() + form.selected;
    for (index, draft) in form.drafts.iter().enumerate() {
        let chosen = index == form.selected;
        let marker = if chosen { "▸ " } else { "  " };
        let message = draft.system_message.as_deref().unwrap_or("");
        let row = format!(
            "{marker}{:id_width$}  {:type_width$}  {:model_width$}  {message}",
            truncate(&draft.id, id_width),
            draft.kind.name(),
            truncate(&draft.model, model_width),
        );
        let style = if chosen {
            theme.agent(index).patch(theme.selected())
        } else {
            theme.agent(index)
        };
        lines.push(Line::styled(truncate(row.trim_end(), width), style));
    }
    focus
}

fn agent(
    form: &AgentsForm,
    row: Option<usize>,
    editing: Option<&str>,
    theme: &Theme,
    width: usize,
    lines: &mut Vec<Line<'static>>,
) -> usize {
    let Some(draft) = form.current() else {
        return lines.len();
    };
    lines.push(Line::styled(
        truncate(
            &format!(
                "Agent {} of {}: {}",
                form.selected + 1,
                form.drafts.len(),
                draft.id
            ),
            width,
        ),
        theme.accent(),
    ));
    let values = [
        draft.id.clone(),
        draft.kind.name().to_string(),
        draft.model.clone(),
        draft
            .system_message
            .clone()
            .unwrap_or_else(|| "(none)".into()),
        draft
            .base_url
            .clone()
            .unwrap_or_else(|| "(the provider's default)".into()),
    ];
    let focus = lines.len() + row.unwrap_or(0);
    for (index, (label, value)) in AGENT_ROWS.iter().zip(values).enumerate() {
        let on = row == Some(index);
        let value = match editing {
            Some(text) if on => text.to_string(),
            Some(_) | None => value,
        };
        let marker = if on { "▸ " } else { "  " };
        let label = format!("{marker}{label:<15} ");
        let room = width.saturating_sub(display_width(&label));
        lines.push(Line::from(vec![
            Span::styled(label, if on { theme.accent() } else { theme.dim() }),
            Span::styled(
                truncate(&value, room),
                if on {
                    theme.text().patch(theme.selected())
                } else {
                    theme.text()
                },
            ),
        ]));
    }
    focus
}

/// The model choices; the highlighted one's line, if any.
fn models(
    form: &AgentsForm,
    typed: &str,
    selected: usize,
    theme: &Theme,
    width: usize,
    lines: &mut Vec<Line<'static>>,
) -> Option<usize> {
    let kind = form.current()?.kind;
    let status = match form.models_of(kind) {
        Some(ModelList::Loading) => Some("loading the provider's model list…".to_string()),
        Some(ModelList::Unavailable(why)) => Some(format!("no model list ({why}): type the name")),
        Some(ModelList::Listed(_)) | None => None,
    };
    if let Some(status) = status {
        lines.push(Line::styled(truncate(&status, width), theme.dim()));
    }
    let shown = form.model_choices(kind, typed);
    if shown.is_empty() && !typed.trim().is_empty() {
        let line = format!("no listed model matches: Enter takes `{}`", typed.trim());
        lines.push(Line::styled(truncate(&line, width), theme.dim()));
    }
    let first = lines.len();
    choices(&shown, selected, theme, width, lines);
    (lines.len() > first).then(|| first + selected.min(CHOICES_SHOWN - 1))
}

fn choices(
    names: &[String],
    selected: usize,
    theme: &Theme,
    width: usize,
    lines: &mut Vec<Line<'static>>,
) {
    let start = (selected + 1).saturating_sub(CHOICES_SHOWN);
    for (index, name) in names.iter().enumerate().skip(start).take(CHOICES_SHOWN) {
        let on = index == selected;
        let text = truncate(&format!("    {} {name}", if on { "●" } else { "○" }), width);
        lines.push(Line::styled(
            text,
            if on { theme.selected() } else { theme.text() },
        ));
    }
    let hidden = names.len().saturating_sub(start + CHOICES_SHOWN);
    if hidden > 0 {
        lines.push(Line::styled(format!("    … {hidden} more"), theme.dim()));
    }
}

fn column<'a>(values: impl Iterator<Item = &'a str>, at_most: usize) -> usize {
    values.map(display_width).max().unwrap_or(0).min(at_most)
}

/// The keys of the form's step, for the frame's bottom line.
pub fn hint(form: Option<&AgentsForm>) -> &'static str {
    match form.map(|form| (&form.stage, form.quickstart)) {
        Some((Stage::List, true)) => " a add · d remove · Enter edit · s save and start · Esc ",
        Some((Stage::List, false)) | None => {
            " a add · d remove · Enter edit · s save · u use them · Esc "
        }
        Some((Stage::Agent { .. }, _)) => " ↑↓ row · Enter change · Esc back ",
        Some((Stage::ChooseType { .. }, _)) => " ↑↓ choose · Enter take · Esc back ",
        Some((Stage::ChooseModel { .. }, _)) => " type to filter · ↑↓ · Enter take · Esc ",
        Some((Stage::Text { .. } | Stage::SavePath { .. }, _)) => " Enter done · Esc back ",
        Some((Stage::Overwrite { .. }, _)) => " y replace · any other key: keep ",
        Some((Stage::Discard, _)) => " u use them · Esc drop them ",
    }
}

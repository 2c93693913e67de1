//! The plan modals: the planning options popover, the approval of a plan just made (its
//! figures and every task, only those on screen formatted), and the plan selector of
//! Execute mode (the newest plans and the highlighted one's details; for "Latest (auto)",
//! the plan `latest` would run).

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::plan_list::{SELECTOR_PLANS, latest_runnable, selector_rows};
use super::tasks::{description_style, icon, windowed};
use crate::protocol::{PlanOutcome, PlanStatus, TaskPriority, TaskView};
use crate::tui::choices::Choices;
use crate::tui::render::format::short_plan_id;
use crate::tui::render::wrap::{display_width, truncate, wrap};
use crate::tui::state::{SavedPlan, UiState, preview};
use crate::tui::theme::Theme;
use crate::tui::view::View;

/// Characters of the prompt the selector's details show.
const PROMPT_CHARS: usize = 100;

/// `Plan depth:      ◂ Medium (20-50 tasks) ▸`, one line per option, the chosen row
/// reversed.
pub fn options(choices: &Choices, theme: &Theme, row: usize) -> Vec<Line<'static>> {
    choices
        .option_rows()
        .iter()
        .enumerate()
        .map(|(at, (label, value))| {
            let label_style = if at == row {
                theme.selected()
            } else {
                theme.dim()
            };
            Line::from(vec![
                Span::styled(format!("{label:<16}"), label_style),
                Span::styled(format!("◂ {value} ▸"), theme.accent()),
            ])
        })
        .collect()
}

/// `Tasks: N · High priority: H · With dependencies: D`, the prompt, then every task.
pub fn approval(
    state: &UiState,
    theme: &Theme,
    width: usize,
    scroll: usize,
    height: usize,
) -> (Vec<Line<'static>>, usize) {
    let Some(plan) = &state.planning.plan else {
        return (vec![Line::styled("No plan to approve.", theme.dim())], 0);
    };
    let tasks = &plan.info.tasks;
    let high = tasks
        .iter()
        .filter(|task| task.priority == TaskPriority::High)
        .count();
    let linked = tasks
        .iter()
        .filter(|task| !task.depends_on.is_empty())
        .count();
    let head = vec![
        Line::styled(
            format!(
                "Tasks: {} · High priority: {high} · With dependencies: {linked}",
                tasks.len()
            ),
            theme.accent(),
        ),
        Line::styled(
            truncate(
                &format!("{} · {}", plan.info.id, preview(&plan.info.prompt, width)),
                width,
            ),
            theme.dim(),
        ),
        Line::default(),
    ];
    windowed(head, tasks.len(), scroll, height, |at| {
        tasks
            .get(at)
            .map_or_else(Line::default, |task| task_line(task, theme, width))
    })
}

/// `○ T003 [high] Draft the core … ← T002`
fn task_line(task: &TaskView, theme: &Theme, width: usize) -> Line<'static> {
    let (icon, style) = icon(task.status, theme);
    let head = format!("{icon} {} ", task.id);
    let tag = match task.priority {
        TaskPriority::High => "[high] ",
        TaskPriority::Low => "[low] ",
        TaskPriority::Medium => "",
    };
    let after = if task.depends_on.is_empty() {
        String::new()
    } else {
        format!(" ← {}", task.depends_on.join(", "))
    };
    let after = truncate(&after, width / 3);
    let room = width.saturating_sub(display_width(&head) + tag.len() + display_width(&after));
    Line::from(vec![
        Span::styled(head, style),
        Span::styled(tag, theme.warn()),
        Span::styled(
            truncate(&task.description, room),
            description_style(task, theme),
        ),
        Span::styled(after, theme.dim()),
    ])
}

/// "Latest (auto)" and the newest plans, the chosen one reversed, then its details.
pub fn selector(
    state: &UiState,
    view: &View,
    theme: &Theme,
    width: usize,
    selected: usize,
) -> Vec<Line<'static>> {
    let plans = match (&state.planning.plans, view.modals.plans_loading) {
        (_, true) | (None, false) => {
            return vec![Line::styled("Loading plans…", theme.dim())];
        }
        (Some(plans), false) if plans.is_empty() => {
            let none = "No saved plans yet: switch to Planning (Shift+Tab) and describe the work";
            return wrap(none, width)
                .into_iter()
                .map(|line| Line::styled(line, theme.dim()))
                .collect();
        }
        (Some(plans), false) => plans,
    };
    let selected = selected.min(selector_rows(state) - 1);
    let row = |at: usize, text: String| {
        let (mark, style) = if at == selected {
            ("▸ ", theme.selected())
        } else {
            ("  ", theme.text())
        };
        Line::from(vec![Span::raw(mark), Span::styled(text, style)])
    };
    let mut lines = vec![row(0, "Latest (auto)".into())];
    for (at, plan) in plans.iter().take(SELECTOR_PLANS).enumerate() {
        let label = format!(
            "{} ({})",
            short_plan_id(&plan.info.id, 18),
            plan.info.status.name()
        );
        lines.push(row(at + 1, label));
    }
    lines.push(Line::default());
    // "Latest (auto)" stands for the plan `latest` runs, if any can run.
    let (title, shown) = match selected.checked_sub(1) {
        None => (
            "Latest runs",
            latest_runnable(state).and_then(|at| plans.get(at)),
        ),
        Some(at) => ("Plan", plans.get(at)),
    };
    lines.extend(details(title, shown, theme, width));
    lines
}

/// The highlighted plan in a box: status, creation time, task count, prompt (or that no
/// plan can run).
fn details(
    title: &str,
    plan: Option<&SavedPlan>,
    theme: &Theme,
    width: usize,
) -> Vec<Line<'static>> {
    let inner = width.saturating_sub(4).max(10);
    let Some(plan) = plan else {
        let body = vec![vec![Span::styled(
            truncate("no plan can be executed yet", inner),
            theme.warn(),
        )]];
        return framed(&format!("┌─ {title} "), body, theme, inner);
    };
    let info = &plan.info;
    let mut body = vec![
        vec![
            Span::styled("Status: ", theme.dim()),
            Span::styled(info.status.name(), status_style(info.status, theme)),
        ],
        vec![
            Span::styled("Created: ", theme.dim()),
            Span::styled(created(&info.created_at), theme.text()),
        ],
        vec![
            Span::styled("Tasks: ", theme.dim()),
            Span::styled(
                info.outcome
                    .as_ref()
                    .map_or_else(|| info.tasks.len().to_string(), PlanOutcome::done_words),
                theme.text(),
            ),
        ],
    ];
    if let Some(detail) = &info.detail {
        body.push(vec![Span::styled(truncate(detail, inner), theme.warn())]);
    }
    let mut prompt: String = info.prompt.chars().take(PROMPT_CHARS).collect();
    if info.prompt.chars().count() > PROMPT_CHARS {
        prompt.push('…');
    }
    let prompt = format!("Prompt: {}", prompt.replace('\n', " "));
    for (at, line) in wrap(&prompt, inner).into_iter().enumerate() {
        let style = if at == 0 { theme.dim() } else { theme.text() };
        body.push(vec![Span::styled(line, style)]);
    }
    let mut lines = framed(&format!("┌─ {title}: {} ", info.id), body, theme, inner);
    lines.push(Line::styled("v: view the full plan", theme.dim()));
    lines
}

/// `body` in a box `inner` columns wide inside, under the top line `top`.
fn framed(
    top: &str,
    body: Vec<Vec<Span<'static>>>,
    theme: &Theme,
    inner: usize,
) -> Vec<Line<'static>> {
    let top = truncate(top, inner + 3);
    let mut lines = vec![Line::styled(
        format!(
            "{top}{}┐",
            "─".repeat((inner + 3).saturating_sub(display_width(&top)))
        ),
        theme.dim(),
    )];
    for spans in body {
        let used: usize = spans.iter().map(|span| display_width(&span.content)).sum();
        let mut line = vec![Span::styled("│ ", theme.dim())];
        line.extend(spans);
        line.push(Span::raw(" ".repeat(inner.saturating_sub(used))));
        line.push(Span::styled(" │", theme.dim()));
        lines.push(Line::from(line));
    }
    lines.push(Line::styled(
        format!("└{}┘", "─".repeat(inner + 2)),
        theme.dim(),
    ));
    lines
}

/// `2026-11-24 17:40` from an RFC 3339 time, as written (in its own offset).
fn created(at: &str) -> String {
    match (at.parse::<jiff::Timestamp>(), at.get(..16)) {
        (Ok(_), Some(minutes)) => minutes.replacen('T', " ", 1),
        (Ok(_) | Err(_), _) => at.to_string(),
    }
}

fn status_style(status: PlanStatus, theme: &Theme) -> Style {
    match status {
        PlanStatus::Planning => theme.warn(),
        PlanStatus::Ready | PlanStatus::Completed => theme.good().add_modifier(Modifier::BOLD),
        PlanStatus::Executing => theme.accent(),
        PlanStatus::Partial => theme.warn().add_modifier(Modifier::BOLD),
        PlanStatus::Failed => theme.bad(),
    }
}

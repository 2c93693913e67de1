//! The task-plan view: an agent's task list (live) or a saved plan's, as a dependency tree
//! under a count line and a progress bar. Only the rows on screen are formatted, however
//! long the list; the tree order was worked out when the list changed.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::chrome::window;
use super::plan_list::listed_plan;
use crate::protocol::{TaskPriority, TaskProgress, TaskStatus, TaskView};
use crate::tui::render::wrap::{display_width, truncate};
use crate::tui::state::{TaskTree, TreeRow, UiState};
use crate::tui::theme::Theme;
use crate::tui::view::TaskSource;

/// Widest progress bar.
const BAR_WIDTH: usize = 60;
/// Deeper tasks are indented no further.
const MAX_INDENT: usize = 12;

/// The view's lines from `scroll` on that fit `height`, and the furthest it can scroll.
pub fn page(
    state: &UiState,
    source: TaskSource,
    theme: &Theme,
    width: usize,
    scroll: usize,
    height: usize,
) -> (Vec<Line<'static>>, usize) {
    let found = match source {
        TaskSource::Agent(index) => state.agents.get(index).map(|card| {
            let empty = format!(
                "{} has no task plan yet: agents keep one in Planning and Execute turns.",
                card.info.id
            );
            (card.tasks.as_slice(), &card.task_tree, empty)
        }),
        TaskSource::Listed(index) => listed_plan(state, index).map(|plan| {
            let empty = format!("{} has no tasks.", plan.info.id);
            (plan.info.tasks.as_slice(), &plan.tree, empty)
        }),
    };
    let Some((tasks, tree, empty)) = found else {
        return (vec![Line::styled("No such task list.", theme.dim())], 0);
    };
    if tasks.is_empty() {
        return (vec![Line::styled(empty, theme.dim())], 0);
    }
    let head = vec![
        counts(tree.progress, theme),
        progress_bar(tree.progress, width.min(BAR_WIDTH), theme),
        Line::default(),
    ];
    windowed(head, tree.rows.len(), scroll, height, |at| {
        tree.rows.get(at).map_or_else(Line::default, |row| {
            tree_line(tasks, tree, *row, theme, width)
        })
    })
}

/// `head`, then `rows` lines made by `row` (only those on screen), from `scroll` on; and
/// the furthest it can scroll.
pub(super) fn windowed(
    mut head: Vec<Line<'static>>,
    rows: usize,
    scroll: usize,
    height: usize,
    row: impl Fn(usize) -> Line<'static>,
) -> (Vec<Line<'static>>, usize) {
    let total = head.len() + rows;
    let lines = window(total, scroll, height)
        .map(|at| match head.get_mut(at) {
            Some(line) => std::mem::take(line),
            None => row(at - head.len()),
        })
        .collect();
    (lines, total.saturating_sub(height))
}

/// `✓ 3/7 · ● 1 in progress · ◌ 1 blocked` (the last two only when there are any).
fn counts(progress: TaskProgress, theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::styled(
        format!("✓ {}/{}", progress.done, progress.total),
        theme.good().add_modifier(Modifier::BOLD),
    )];
    if progress.in_progress > 0 {
        spans.push(Span::styled(
            format!(" · ● {} in progress", progress.in_progress),
            theme.accent(),
        ));
    }
    if progress.blocked > 0 {
        spans.push(Span::styled(
            format!(" · ◌ {} blocked", progress.blocked),
            theme.warn(),
        ));
    }
    Line::from(spans)
}

/// `█` done, `▓` in progress, `░` the rest, over `width` cells.
fn progress_bar(progress: TaskProgress, width: usize, theme: &Theme) -> Line<'static> {
    let cells = |count: usize| (count * width).checked_div(progress.total).unwrap_or(0);
    let done = cells(progress.done);
    let working = cells(progress.in_progress).min(width - done);
    Line::from(vec![
        Span::styled("█".repeat(done), theme.good()),
        Span::styled("▓".repeat(working), theme.accent()),
        Span::styled("░".repeat(width - done - working), theme.dim()),
    ])
}

/// `  ✓ T002 Draft the model (+ also after T001)  [high]  ← current`
fn tree_line(
    tasks: &[TaskView],
    tree: &TaskTree,
    row: TreeRow,
    theme: &Theme,
    width: usize,
) -> Line<'static> {
    let Some(task) = tasks.get(row.task) else {
        return Line::default();
    };
    let parent = row.parent.and_then(|parent| tasks.get(parent));
    let also: Vec<&str> = task
        .depends_on
        .iter()
        .map(String::as_str)
        .filter(|dependency| parent.is_none_or(|parent| parent.id != *dependency))
        .collect();
    // Many dependencies must not crowd out the description.
    let also = if also.is_empty() {
        String::new()
    } else {
        truncate(&format!(" (+ also after {})", also.join(", ")), width / 3)
    };
    let tag = match task.priority {
        TaskPriority::High => "  [high]",
        TaskPriority::Medium | TaskPriority::Low => "",
    };
    let current = if tree.current == Some(row.task) {
        "  ← current"
    } else {
        ""
    };
    let (icon, style) = icon(task.status, theme);
    let head = format!(
        "{}{icon} {} ",
        "  ".repeat(row.depth.min(MAX_INDENT)),
        task.id
    );
    let room = width.saturating_sub(
        display_width(&head) + display_width(&also) + display_width(tag) + display_width(current),
    );
    Line::from(vec![
        Span::styled(head, style),
        Span::styled(
            truncate(&task.description, room),
            description_style(task, theme),
        ),
        Span::styled(also, theme.dim()),
        Span::styled(tag, theme.warn()),
        Span::styled(current, theme.accent()),
    ])
}

/// A status's icon and style: ○ pending, ● in progress, ✓ completed, ✔ verified, ◌ blocked.
pub(super) fn icon(status: TaskStatus, theme: &Theme) -> (&'static str, Style) {
    match status {
        TaskStatus::Pending => ("○", theme.text()),
        TaskStatus::InProgress => ("●", theme.accent()),
        TaskStatus::Completed => ("✓", theme.good()),
        TaskStatus::Verified => ("✔", theme.good().add_modifier(Modifier::BOLD)),
        TaskStatus::Blocked => ("◌", theme.warn()),
    }
}

/// Finished tasks read dimmer than what is left.
pub(super) fn description_style(task: &TaskView, theme: &Theme) -> Style {
    if task.status.is_done() {
        theme.dim()
    } else {
        theme.text()
    }
}

//! The mode bar above the composer: plan mode, agents and refinement, then the planning
//! options button (Planning) or the chosen plan (Execute). Narrow terminals get MassGen's
//! compact labels. A notice follows the bar, or takes its own lines above it when the two
//! do not fit on one.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::View;
use super::chrome::replay_bar;
use super::format::short_plan_id;
use super::wrap::{display_width, truncate, wrap};
use crate::protocol::Mode;
use crate::tui::state::UiState;
use crate::tui::theme::Theme;

/// How much a bar spells out, widest first.
#[derive(Clone, Copy)]
struct Tier {
    /// `Plan`, `Agents` before their toggles; `Refine ◉ on` rather than `◉ Refine`.
    labels: bool,
    /// `Normal Planning Executing` rather than `Norm Plan Exec`.
    long_modes: bool,
    /// `⋮ P options` rather than `⋮ P`; a longer cut of the plan id.
    long_extra: bool,
}

const TIERS: [Tier; 4] = [
    Tier {
        labels: true,
        long_modes: true,
        long_extra: true,
    },
    Tier {
        labels: true,
        long_modes: false,
        long_extra: true,
    },
    Tier {
        labels: true,
        long_modes: false,
        long_extra: false,
    },
    Tier {
        labels: false,
        long_modes: false,
        long_extra: false,
    },
];

/// Shown after the bar when there is room and nothing to say.
const KEYS_HINT: &str = "   Shift+Tab mode · A agents · R refine";
/// Most lines a notice takes above the bar.
const NOTICE_LINES: usize = 2;

/// Rows the bar needs at `width`: one, plus the notice's own lines when it does not fit
/// beside the bar.
pub fn height(state: &UiState, view: &View, width: u16) -> u16 {
    match (&state.replay, &view.notice) {
        (None, Some(notice)) if inline_tier(view, notice, usize::from(width)).is_none() => {
            let lines = wrap(notice, usize::from(width).max(1)).len();
            1 + u16::try_from(lines.clamp(1, NOTICE_LINES)).unwrap_or(1)
        }
        (Some(_), _) | (None, _) => 1,
    }
}

/// The mode choice; in a replay, in its place, what is being replayed and how.
pub fn mode_bar(state: &UiState, view: &View, theme: &Theme, area: Rect, buf: &mut Buffer) {
    if let Some(replay) = &state.replay {
        return replay_bar(replay, view, theme, area, buf);
    }
    let width = usize::from(area.width);
    let notice = view.notice.as_deref();
    let inline = notice.and_then(|notice| inline_tier(view, notice, width));
    let tier = inline.unwrap_or_else(|| {
        TIERS
            .iter()
            .copied()
            .find(|tier| spans_width(&spans(view, theme, *tier)) <= width)
            .unwrap_or(TIERS[TIERS.len() - 1])
    });
    let mut bar = spans(view, theme, tier);
    let used = spans_width(&bar);
    let mut lines = Vec::new();
    match (notice, inline.is_some()) {
        (Some(notice), true) => bar.push(Span::styled(format!("   {notice}"), theme.warn())),
        (Some(notice), false) => {
            let mut wrapped = wrap(notice, width.max(1));
            if wrapped.len() > NOTICE_LINES {
                let rest = wrapped[NOTICE_LINES - 1..].join(" ");
                wrapped.truncate(NOTICE_LINES - 1);
                wrapped.push(truncate(&rest, width));
            }
            let room = usize::from(area.height).saturating_sub(1);
            lines.extend(
                wrapped
                    .into_iter()
                    .take(room)
                    .map(|line| Line::styled(format!(" {}", line.trim_start()), theme.warn())),
            );
        }
        (None, _) if used + display_width(KEYS_HINT) <= width => {
            bar.push(Span::styled(KEYS_HINT, theme.dim()));
        }
        (None, _) => {}
    }
    lines.push(Line::from(bar));
    Paragraph::new(lines).render(area, buf);
}

/// The widest tier whose bar leaves room for `notice` on the same line.
fn inline_tier(view: &View, notice: &str, width: usize) -> Option<Tier> {
    let theme = Theme::default();
    let wanted = display_width(notice) + 3;
    TIERS
        .iter()
        .copied()
        .find(|tier| spans_width(&spans(view, &theme, *tier)) + wanted <= width)
}

fn spans_width(spans: &[Span<'_>]) -> usize {
    spans.iter().map(|span| display_width(&span.content)).sum()
}

/// ` Plan ○ Normal ◉ Planning ○ Executing │ Agents ◉ Multi ○ Single │ Refine ◉ on  ⋮ P
/// options`, as much of it as `tier` spells out.
fn spans(view: &View, theme: &Theme, tier: Tier) -> Vec<Span<'static>> {
    let choice = |chosen: bool, label: String| {
        let (mark, style) = if chosen {
            ("◉", theme.accent())
        } else {
            ("○", theme.dim())
        };
        Span::styled(format!("{mark} {label}"), style)
    };
    let gap = || Span::raw(" ");
    let separator = || Span::styled(" │ ", theme.dim());
    let mut spans = vec![gap()];
    if tier.labels {
        spans.push(Span::styled("Plan ", theme.dim()));
    }
    for (mode, long, short) in [
        (Mode::Normal, "Normal", "Norm"),
        (Mode::Planning, "Planning", "Plan"),
        (Mode::Execute, "Executing", "Exec"),
    ] {
        if mode != Mode::Normal {
            spans.push(gap());
        }
        let label = if tier.long_modes { long } else { short };
        spans.push(choice(view.mode == mode, label.to_string()));
    }
    spans.push(separator());
    if tier.labels {
        spans.push(Span::styled("Agents ", theme.dim()));
    }
    let choices = &view.choices;
    spans.push(choice(choices.single.is_none(), "Multi".into()));
    spans.push(gap());
    spans.push(match &choices.single {
        Some(agent) => choice(true, format!("Single: {agent}")),
        None => choice(false, "Single".into()),
    });
    spans.push(separator());
    match (tier.labels, choices.refine) {
        (true, on) => {
            spans.push(Span::styled("Refine ", theme.dim()));
            spans.push(choice(on, (if on { "on" } else { "off" }).into()));
        }
        (false, on) => spans.push(choice(
            on,
            (if on { "Refine" } else { "Refine off" }).into(),
        )),
    }
    match view.mode {
        Mode::Normal => {}
        Mode::Planning => spans.push(Span::styled(
            if tier.long_extra {
                "  ⋮ P options"
            } else {
                "  ⋮ P"
            },
            theme.accent(),
        )),
        Mode::Execute => {
            let plan = choices.plan.as_deref().map_or_else(
                || "Latest".to_string(),
                |id| short_plan_id(id, if tier.long_extra { 18 } else { 13 }),
            );
            spans.push(Span::styled(format!("  📂 {plan}"), theme.accent()));
        }
    }
    spans
}

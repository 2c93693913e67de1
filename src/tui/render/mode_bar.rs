//! The mode bar above the composer: plan mode (the running turn's while one runs), agents,
//! refinement and strategy, then the planning options button (Planning) or the plan (Execute).
//! Narrow terminals get MassGen's compact labels. A notice follows the bar (or a replay's
//! bar), or takes its own lines above it when the two do not fit on one. The tier is picked
//! once a frame from plain widths; only the bar drawn is styled.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::chrome::{replay_bar, replay_fixed};
use super::format::short_plan_id;
use super::notice;
use super::wrap::display_width;
use crate::protocol::{Mode, Strategy};
use crate::tui::choices::NextQuestion;
use crate::tui::focus;
use crate::tui::state::UiState;
use crate::tui::theme::Theme;
use crate::tui::view::View;
use ratatui::style::Style;

/// How much a bar spells out, widest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tier {
    /// `Plan`, `Agents` before their toggles; `Refine ◉ on` rather than `◉ Refine`.
    labels: bool,
    /// `Normal Planning Executing` rather than `Norm Plan Exec`.
    long_modes: bool,
    /// `⋮ P options` rather than `⋮ P`; a longer cut of the plan id.
    long_extra: bool,
    /// `Strategy ◉ vote` rather than `◉ vote`.
    strategy_label: bool,
}

const TIERS: [Tier; 5] = [
    Tier {
        labels: true,
        long_modes: true,
        long_extra: true,
        strategy_label: true,
    },
    Tier {
        labels: true,
        long_modes: false,
        long_extra: true,
        strategy_label: true,
    },
    Tier {
        labels: true,
        long_modes: false,
        long_extra: false,
        strategy_label: true,
    },
    Tier {
        labels: true,
        long_modes: false,
        long_extra: false,
        strategy_label: false,
    },
    Tier {
        labels: false,
        long_modes: false,
        long_extra: false,
        strategy_label: false,
    },
];

/// How this frame's bar is laid out, worked out once: its tier, and the notice beside it
/// or on its own lines above it.
#[derive(Clone, Debug)]
pub struct BarLayout {
    tier: Tier,
    /// The notice follows the bar on its line.
    inline: bool,
    /// The notice's own lines above the bar (not inline).
    notice_lines: Vec<String>,
    /// Rows the bar takes: one, plus the notice's own lines.
    pub height: u16,
}

/// The bar's layout at `width` on a screen `screen_height` rows tall.
pub fn layout(
    state: &UiState,
    view: &View,
    next: &NextQuestion,
    width: u16,
    screen_height: u16,
) -> BarLayout {
    let width = usize::from(width);
    let compact = TIERS[TIERS.len() - 1];
    let mut layout = BarLayout {
        tier: compact,
        inline: false,
        notice_lines: Vec::new(),
        height: 1,
    };
    if let Some(replay) = &state.replay {
        match view.notice.as_deref() {
            Some(notice)
                if display_width(&replay_fixed(replay, view)) + display_width(notice) + 3
                    <= width =>
            {
                layout.inline = true;
            }
            Some(notice) => layout.put_notice_above(notice, width, screen_height),
            None => {}
        }
        return layout;
    }
    let bar = BarContent::of(state, view, next);
    let widths = TIERS.map(|tier| bar.width(tier));
    let widest = |room: usize| {
        TIERS
            .iter()
            .zip(widths)
            .find(|(_, used)| used + room <= width)
            .map(|(tier, _)| *tier)
    };
    let Some(notice) = view.notice.as_deref() else {
        layout.tier = widest(0).unwrap_or(compact);
        return layout;
    };
    if let Some(tier) = widest(display_width(notice) + 3) {
        layout.tier = tier;
        layout.inline = true;
        return layout;
    }
    layout.tier = widest(0).unwrap_or(compact);
    layout.put_notice_above(notice, width, screen_height);
    layout
}

impl BarLayout {
    fn put_notice_above(&mut self, notice: &str, width: usize, screen_height: u16) {
        self.notice_lines = notice::wrapped(notice, width, notice::most_lines(screen_height));
        self.height = 1 + u16::try_from(self.notice_lines.len().max(1)).unwrap_or(1);
    }
}

/// The mode choice (in a replay, in its place, what is being replayed and how), under the
/// notice's own lines if it has them.
pub fn mode_bar(
    state: &UiState,
    view: &View,
    next: &NextQuestion,
    layout: &BarLayout,
    theme: &Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let room = usize::from(area.height).saturating_sub(1);
    let mut lines = notice::styled(&layout.notice_lines, room, theme);
    let inline = view.notice.as_deref().filter(|_| layout.inline);
    lines.push(match &state.replay {
        Some(replay) => replay_bar(replay, view, inline, theme, area.width),
        None => bar_line(state, view, next, layout, theme, area.width),
    });
    Paragraph::new(lines).render(area, buf);
}

/// The bar at the layout's tier, then the notice if the layout puts it beside the bar, or
/// the keys' hint when there is no notice and room for it.
fn bar_line(
    state: &UiState,
    view: &View,
    next: &NextQuestion,
    layout: &BarLayout,
    theme: &Theme,
    width: u16,
) -> Line<'static> {
    let bar = BarContent::of(state, view, next);
    let mut spans = Vec::new();
    bar.pieces(layout.tier, &mut |text, role| {
        spans.push(Span::styled(text.to_string(), role.style(theme)));
    });
    let used: usize = spans.iter().map(|span| display_width(&span.content)).sum();
    match view.notice.as_deref() {
        Some(notice) if layout.inline => {
            spans.push(Span::styled(format!("   {notice}"), theme.warn()));
        }
        Some(_) => {}
        None => {
            // Shown when there is room and nothing to say.
            if let Some(hint) = focus::mode_bar_hints(view)
                .iter()
                .find(|hint| used + display_width(hint) <= usize::from(width))
            {
                spans.push(Span::styled(*hint, theme.dim()));
            }
        }
    }
    Line::from(spans)
}

/// How a piece of the bar is styled.
#[derive(Clone, Copy)]
enum Role {
    Plain,
    Dim,
    Chosen,
    Unchosen,
}

impl Role {
    fn style(self, theme: &Theme) -> Style {
        match self {
            Self::Plain => Style::default(),
            Self::Dim | Self::Unchosen => theme.dim(),
            Self::Chosen => theme.accent(),
        }
    }
}

/// What the bar says, before any tier spells it out.
struct BarContent<'a> {
    /// The running turn's mode while one runs, else the one chosen for the next question.
    mode: Mode,
    /// The plan Execute runs (`None`: the latest).
    plan: Option<&'a str>,
    single: Option<&'a str>,
    refine: bool,
    /// `None`: the config's strategy, not known here.
    strategy: Option<Strategy>,
    view: &'a View,
}

impl<'a> BarContent<'a> {
    fn of(state: &'a UiState, view: &'a View, next: &'a NextQuestion) -> Self {
        let (mode, plan) = if state.is_running() {
            let plan = state.turn.options.plan.as_deref();
            (state.turn.mode, plan.filter(|plan| *plan != "latest"))
        } else {
            (next.mode, next.choices.plan.as_deref())
        };
        Self {
            mode,
            plan,
            single: next.choices.single.as_ref().map(|agent| agent.as_str()),
            refine: next.choices.refine,
            strategy: next.choices.shown_strategy(state.turn.options.strategy),
            view,
        }
    }

    /// Columns the bar takes at `tier`, measured without styling.
    fn width(&self, tier: Tier) -> usize {
        let mut used = 0;
        self.pieces(tier, &mut |text, _| used += display_width(text));
        used
    }

    /// ` Plan ○ Normal ◉ Planning ○ Executing │ Agents ◉ Multi ○ Single │ Refine ◉ on │
    /// Strategy ◉ vote  ⋮ P options`, as much of it as `tier` spells out, piece by piece.
    fn pieces(&self, tier: Tier, put: &mut impl FnMut(&str, Role)) {
        put(" ", Role::Plain);
        if tier.labels {
            put("Plan ", Role::Dim);
        }
        for (mode, long, short) in [
            (Mode::Normal, "Normal", "Norm"),
            (Mode::Planning, "Planning", "Plan"),
            (Mode::Execute, "Executing", "Exec"),
        ] {
            if mode != Mode::Normal {
                put(" ", Role::Plain);
            }
            let label = if tier.long_modes { long } else { short };
            choice(self.mode == mode, label, put);
        }
        put(" │ ", Role::Dim);
        if tier.labels {
            put("Agents ", Role::Dim);
        }
        choice(self.single.is_none(), "Multi", put);
        put(" ", Role::Plain);
        match self.single {
            Some(agent) => {
                choice(true, "Single: ", put);
                put(agent, Role::Chosen);
            }
            None => choice(false, "Single", put),
        }
        put(" │ ", Role::Dim);
        let on = self.refine;
        if tier.labels {
            put("Refine ", Role::Dim);
            choice(on, if on { "on" } else { "off" }, put);
        } else {
            choice(on, if on { "Refine" } else { "Refine off" }, put);
        }
        put(" │ ", Role::Dim);
        if tier.strategy_label {
            put("Strategy ", Role::Dim);
        }
        match self.strategy {
            Some(strategy) => choice(true, strategy.as_str(), put),
            None => choice(false, "config", put),
        }
        match self.mode {
            Mode::Normal => {}
            Mode::Planning => put(
                focus::options_button(self.view, tier.long_extra),
                Role::Chosen,
            ),
            Mode::Execute => {
                let plan = self.plan.map_or_else(
                    || "Latest".to_string(),
                    |id| short_plan_id(id, if tier.long_extra { 18 } else { 13 }),
                );
                put("  📂 ", Role::Chosen);
                put(&plan, Role::Chosen);
            }
        }
    }
}

/// `◉ label` chosen, `○ label` not.
fn choice(chosen: bool, label: &str, put: &mut impl FnMut(&str, Role)) {
    let (mark, role) = if chosen {
        ("◉ ", Role::Chosen)
    } else {
        ("○ ", Role::Unchosen)
    };
    put(mark, role);
    put(label, role);
}

#[cfg(test)]
#[path = "mode_bar_tests.rs"]
mod tests;

//! `/approvals`: the session's decisions about tool calls, newest last: when, which agent,
//! allowed or denied, by whom (a rule, the hardline list, the risk, you, the policy, an
//! earlier grant, the budget, the timeout), for how long, the call, and the rule or the
//! message.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::protocol::{Decider, GrantScope, Verdict};
use crate::tui::render::wrap::{truncate, wrap_styled};
use crate::tui::state::{DecidedApproval, UiState};
use crate::tui::theme::Theme;

/// Who made a decision, as the list names them.
pub fn decided_by(decider: Decider) -> &'static str {
    match decider {
        Decider::Rule => "a rule",
        Decider::Hardline => "the hardline list",
        Decider::Risk => "low risk",
        Decider::Human => "you",
        Decider::Policy => "the policy",
        Decider::Grant => "an earlier grant",
        Decider::Budget => "the budget",
        Decider::Timeout => "the timeout",
    }
}

pub fn lines(state: &UiState, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let decided = &state.approvals.decided;
    if decided.is_empty() {
        return vec![
            Line::styled("No tool call was checked in this session yet.", theme.dim()),
            Line::default(),
            Line::styled(
                truncate(
                    "Calls are checked when an agent's config has a `permissions:` block.",
                    width,
                ),
                theme.dim(),
            ),
        ];
    }
    let zone = shown_zone();
    let mut lines = Vec::new();
    for (at, decision) in decided.iter().enumerate() {
        if at > 0 {
            lines.push(Line::default());
        }
        lines.extend(decision_lines(state, decision, &zone, theme, width));
    }
    lines
}

/// `14:02:11  scout  ✓ allowed by you · this session`, then the call and the rule or the
/// message, indented.
fn decision_lines(
    state: &UiState,
    decision: &DecidedApproval,
    zone: &TimeZone,
    theme: &Theme,
    width: usize,
) -> Vec<Line<'static>> {
    let record = &decision.record;
    let colour = state
        .agent_index(&record.agent)
        .map_or_else(|| theme.accent(), |index| theme.agent(index));
    let (verdict, verdict_style) = match record.verdict {
        Verdict::Allow => ("✓ allowed", theme.good()),
        Verdict::Deny => ("✗ denied", theme.bad()),
    };
    let mut first = vec![
        Span::styled(format!("{}  ", clock(decision.at, zone)), theme.dim()),
        Span::styled(
            record.agent.to_string(),
            colour.add_modifier(Modifier::BOLD),
        ),
        Span::raw("  "),
        Span::styled(verdict, verdict_style.add_modifier(Modifier::BOLD)),
        Span::styled(format!(" by {}", decided_by(record.decider)), theme.text()),
    ];
    if record.verdict == Verdict::Allow {
        let scope = match record.scope {
            GrantScope::Once => "once",
            GrantScope::Session => "for this session",
            GrantScope::Always => "always (saved for this project)",
        };
        first.push(Span::styled(format!(" · {scope}"), theme.dim()));
    }
    if let Some(waited) = record.waited_ms {
        first.push(Span::styled(
            format!(" · after {} s", crate::tui::render::format::seconds(waited)),
            theme.dim(),
        ));
    }
    let mut lines = vec![Line::from(first)];
    let indent = |segments: Vec<(String, ratatui::style::Style)>| {
        wrap_styled(&segments, width.saturating_sub(4).max(1))
            .into_iter()
            .map(|mut line| {
                line.spans.insert(0, Span::raw("    "));
                line
            })
            .collect::<Vec<_>>()
    };
    lines.extend(indent(vec![(record.preview.clone(), theme.text())]));
    let why = match (&record.message, &record.rule) {
        (Some(message), _) => vec![
            ("message: ".to_string(), theme.dim()),
            (message.clone(), theme.text()),
        ],
        (None, Some(rule)) => vec![
            ("rule: ".to_string(), theme.dim()),
            (rule.clone(), theme.accent()),
        ],
        (None, None) => vec![(record.reason.clone(), theme.dim())],
    };
    lines.extend(indent(why));
    lines
}

/// `14:02:11` in the local time zone (UTC in tests, so snapshots read the same anywhere).
fn clock(at: Timestamp, zone: &TimeZone) -> String {
    at.to_zoned(zone.clone()).strftime("%H:%M:%S").to_string()
}

fn shown_zone() -> TimeZone {
    if cfg!(test) {
        TimeZone::UTC
    } else {
        crate::local_time::zone()
    }
}

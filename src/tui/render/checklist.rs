//! An agent's checklist as its card and the votes view show it, `☑ 3/4 E1 8 · E2 4 · E3 5 ·
//! E4 8 → new answer`, folded to fit: the per-criterion scores go first.

use ratatui::text::{Line, Span};

use super::wrap::{display_width, truncate};
use crate::protocol::symbols::CHECKLIST;
use crate::protocol::{ChecklistResult, ChecklistVerdict};
use crate::tui::theme::Theme;

/// The checklist in at most `width` columns.
pub fn checklist_line(result: &ChecklistResult, theme: &Theme, width: usize) -> Line<'static> {
    let verdict_style = match result.verdict {
        ChecklistVerdict::Vote => theme.good(),
        ChecklistVerdict::NewAnswer => theme.warn(),
    };
    let head = format!("{CHECKLIST} {}/{}", result.passed, result.scores.len());
    let verdict = format!(" → {}", verdict_words(result.verdict));
    let mut spans = vec![Span::styled(head.clone(), verdict_style)];
    let scores_width: usize = result
        .scores
        .iter()
        .enumerate()
        .map(|(at, score)| {
            display_width(&format!("{} {}", score.id, score.score)) + if at == 0 { 1 } else { 3 }
        })
        .sum();
    if display_width(&head) + scores_width + display_width(&verdict) <= width {
        for (at, score) in result.scores.iter().enumerate() {
            spans.push(Span::styled(if at == 0 { " " } else { " · " }, theme.dim()));
            spans.push(Span::styled(
                format!("{} {}", score.id, score.score),
                if score.passed {
                    theme.text()
                } else {
                    theme.warn()
                },
            ));
        }
    } else if display_width(&head) + display_width(&verdict) > width {
        return Line::styled(truncate(&format!("{head}{verdict}"), width), verdict_style);
    }
    spans.push(Span::styled(verdict, verdict_style));
    Line::from(spans)
}

/// What the verdict lets the agent do next, in words.
fn verdict_words(verdict: ChecklistVerdict) -> &'static str {
    match verdict {
        ChecklistVerdict::Vote => "vote",
        ChecklistVerdict::NewAnswer => "new answer",
    }
}

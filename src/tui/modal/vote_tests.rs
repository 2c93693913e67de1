//! `/inspect` on a turn whose votes newer answers reset: the votes that counted, then apart
//! and dimmed the reset ones, each naming the answer that reset it.

use insta::assert_snapshot;
use ratatui::text::Line;

use super::turns;
use crate::tui::test_votes;
use crate::tui::theme::Theme;

fn text(line: &Line) -> String {
    line.spans
        .iter()
        .map(|span| span.content.as_ref())
        .collect()
}

/// The lines below `heading` up to the next blank one.
fn section<'a>(lines: &'a [Line<'static>], heading: &str) -> &'a [Line<'static>] {
    let start = lines
        .iter()
        .position(|line| text(line) == heading)
        .unwrap_or_else(|| panic!("no {heading:?} in {lines:#?}"))
        + 1;
    let end = lines[start..]
        .iter()
        .position(|line| text(line).is_empty())
        .map_or(lines.len(), |offset| start + offset);
    &lines[start..end]
}

#[tokio::test(start_paused = true)]
async fn inspect_lists_reset_votes_apart_from_those_that_counted() {
    let state = test_votes::state().await;
    let theme = Theme::default();
    let lines = turns::lines(&state, &theme, 120, 0);
    let tally: u32 = state
        .votes
        .final_tally
        .as_ref()
        .unwrap()
        .iter()
        .map(|count| count.votes)
        .sum();
    assert_eq!(tally, 2);
    let counted: Vec<String> = section(&lines, "Votes that counted · 2")
        .iter()
        .map(text)
        .collect();
    assert_eq!(counted.len(), 2, "as many as the tally: {counted:?}");
    assert!(counted.iter().all(|line| line.contains("(agent1.2)")));
    let reset = section(&lines, "Reset votes, not counted · 2");
    assert_eq!(
        reset.iter().map(text).collect::<Vec<_>>(),
        [
            "reviewer → reviewer (agent2.1), reset by author's answer agent1.1: The best \
             answer available so far.",
            "reviewer → author (agent1.1), reset by author's answer agent1.2: author's plan is \
             the better one."
        ]
    );
    assert!(reset.iter().all(|line| line.style == theme.dim()));
    let page: Vec<String> = lines.iter().map(text).collect();
    assert_snapshot!("inspect_reset_votes", page.join("\n"));
}

//! `/export` of a turn whose votes newer answers reset: one `#` title, `##` per part, `###`
//! below, the answers' own headings nested under theirs; the votes that counted apart from
//! the reset ones.

use insta::assert_snapshot;

use super::markdown;
use crate::tui::test_votes;

/// Every heading outside code blocks: (level, title).
fn headings(markdown: &str) -> Vec<(usize, &str)> {
    let mut in_code = false;
    let mut found = Vec::new();
    for line in markdown.lines() {
        if line.starts_with("```") || line.starts_with("~~~") {
            in_code = !in_code;
        }
        let level = line.chars().take_while(|&ch| ch == '#').count();
        if !in_code && level > 0 && line[level..].starts_with(' ') {
            found.push((level, &line[level + 1..]));
        }
    }
    found
}

#[tokio::test(start_paused = true)]
async fn export_nests_every_heading_and_lists_reset_votes_apart() {
    let state = test_votes::state().await;
    let text = markdown(&state.turns[0]);
    let found = headings(&text);
    assert_eq!(found.iter().filter(|(level, _)| *level == 1).count(), 1);
    assert_eq!(found[0], (1, "Turn 1"));
    let parts: Vec<&str> = found
        .iter()
        .filter(|(level, _)| *level == 2)
        .map(|(_, title)| *title)
        .collect();
    assert_eq!(
        parts,
        [
            "Question",
            "Answers",
            "Votes",
            "Final answer",
            "Tokens and cost"
        ]
    );
    for pair in found.windows(2) {
        assert!(
            pair[1].0 <= pair[0].0 + 1,
            "{:?} skips a level after {:?}",
            pair[1],
            pair[0]
        );
    }
    assert!(text.contains(
        "### Votes that counted · 2\n\n\
         - **author** → author (agent1.2): Mine covers staleness.\n\
         - **reviewer** → author (agent1.2): author's plan is the better one.\n"
    ));
    assert!(text.contains(
        "### Reset votes, not counted · 2\n\n\
         - **reviewer** → reviewer (agent2.1), reset by author's answer agent1.1: The best \
         answer available so far.\n\
         - **reviewer** → author (agent1.1), reset by author's answer agent1.2: author's plan is \
         the better one.\n"
    ));
    assert_snapshot!("export_reset_votes", text);
}

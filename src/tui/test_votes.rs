//! The reset-vote scenario the vote displays are tested on: `reviewer` answers and votes
//! first; each of `author`'s two answers resets the vote standing then; the votes then
//! settle on `author`'s second answer, 2–0.

use crate::protocol::Event;
use crate::tui::state::UiState;
use crate::tui::test_support::{fold, timed_turns};

pub const QUESTION: &str = "How should the service cache reads?";

/// `author` answers at 600 ms and again at 1200 ms; `reviewer`, ten times faster, answers
/// at 100 ms and votes after each of them: for itself (reset by `author`'s first answer),
/// for `author`'s first answer (reset by its second), then for the second, which counts.
/// The answers carry headings of their own, as models' answers do.
pub const YAML: &str = r##"
agents:
  - id: author
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 600
      answers:
        - "# Plan\nCache reads in memory."
        - "# Plan\nA write-through cache in front of the database.\n\n## Why\nReads stay fast and never stale.\n\nRisks\n-----\nMemory grows with the key space."
      vote_for: author
      vote_reason: "Mine covers staleness."
  - id: reviewer
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 100
      answer: "Cache nothing until it is measured."
      vote_for: author
      vote_reason: "author's plan is the better one."
"##;

pub async fn events() -> Vec<Event> {
    timed_turns(YAML, &[QUESTION]).await
}

pub async fn state() -> UiState {
    fold(&events().await)
}

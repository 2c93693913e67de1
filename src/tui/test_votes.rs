//! The reset-vote scenarios the vote displays (the TUI's tally, `status.json`) are tested
//! on: a real one, where `reviewer` answers and votes first, each of `author`'s two answers
//! resets the vote standing then, and the votes settle on `author`'s second answer, 2–0;
//! and a hand-made one, where an answer resets only some of the votes.

use crate::protocol::{AgentId, AgentInfo, AnonId, AnswerLabel, Event, EventMsg, Mode, VoteCount};
use crate::tui::state::UiState;
use crate::tui::test_support::{event, fold, timed_turns};

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

/// Hand-made, as coordination would report it if an answer reset only some votes: `a` and
/// `b` answer; `c` votes for `a`, `a` for `b`; `c`'s answer then resets `a`'s vote only;
/// `b` votes for `a`, and is dropped. Each vote carries coordination's standing tally.
pub fn partial_reset() -> Vec<Event> {
    let roster = AgentInfo::roster(
        ["a", "b", "c"].map(|id| (AgentId::new(id), "scripted".into(), "m".into())),
    );
    let anon = |name: &str| -> AnonId {
        let info = roster.iter().find(|info| info.id.as_str() == name);
        info.map(|info| info.anon_id.clone()).unwrap()
    };
    let answer = |agent: &str, reset: &[&str]| EventMsg::AnswerSubmitted {
        label: AnswerLabel::answer(&anon(agent), 1),
        anon_id: anon(agent),
        content: format!("{agent}'s answer"),
        votes_reset: Some(reset.iter().map(|voter| AgentId::new(*voter)).collect()),
    };
    let vote = |target: &str, standing: &[(&str, &[&str])]| EventMsg::VoteCast {
        target: AgentId::new(target),
        target_anon: anon(target),
        target_label: AnswerLabel::answer(&anon(target), 1),
        reason: format!("{target} is best"),
        standing: Some(
            standing
                .iter()
                .map(|(candidate, voters)| VoteCount {
                    agent: AgentId::new(*candidate),
                    anon_id: anon(candidate),
                    votes: u32::try_from(voters.len()).unwrap(),
                    voters: voters.iter().map(|voter| AgentId::new(*voter)).collect(),
                })
                .collect(),
        ),
    };
    let started = EventMsg::TurnStarted {
        options: Default::default(),
        question: QUESTION.into(),
        mode: Mode::Normal,
        agents: roster.clone(),
        log_dir: None,
    };
    let killed = EventMsg::AgentKilled {
        reason: "the model call failed".into(),
    };
    let no_votes: &[&str] = &[];
    [
        (None, started),
        (Some("a"), answer("a", &[])),
        (Some("b"), answer("b", &[])),
        (Some("c"), vote("a", &[("a", &["c"]), ("b", no_votes)])),
        (Some("a"), vote("b", &[("a", &["c"]), ("b", &["a"])])),
        (Some("c"), answer("c", &["a"])),
        (
            Some("b"),
            vote("a", &[("a", &["b", "c"]), ("b", no_votes), ("c", no_votes)]),
        ),
        (Some("b"), killed),
    ]
    .into_iter()
    .zip(1..)
    .map(|((agent, msg), seq)| event(seq, agent, msg))
    .collect()
}

/// `events` as a log from before massgen recorded the fields `keys` (`standing`,
/// `votes_reset`): written out, those taken off every event, and read back.
pub fn without(events: &[Event], keys: &[&str]) -> Vec<Event> {
    events
        .iter()
        .map(|event| {
            let mut line = serde_json::to_value(event).unwrap();
            if let Some(msg) = line["msg"].as_object_mut() {
                for key in keys {
                    msg.remove(*key);
                }
            }
            serde_json::from_value(line).unwrap()
        })
        .collect()
}

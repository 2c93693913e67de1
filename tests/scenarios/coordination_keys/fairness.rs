//! MassGen's fairness knobs: the lead cap holds a fast agent back until a slow one
//! answers (its round is not started, and a `new_answer` over the cap is refused),
//! `max_midstream_injections_per_round` caps the peers' answers injected into one round,
//! and `defer_peer_updates_until_restart` keeps them for the agent's next round.
//! `novelty_injection: aggressive` asks restarted agents to question their approach.

use crate::support::{assert_completed, run_once, transcript, transcript_of};
use massgen::backend::Message;
use massgen::protocol::EventMsg;

/// a answers four times, fast; b answers once, slowly.
fn fast_and_slow(orchestrator: &str) -> String {
    format!(
        r#"
agents:
  - id: a
    backend: {{type: scripted, tokens_per_second: 0, first_token_ms: 100, answers: ["a one", "a two", "a three", "a four"], vote_for: a}}
  - id: b
    backend: {{type: scripted, tokens_per_second: 0, first_token_ms: 3000, answer: "b one", vote_for: a}}
orchestrator: {{{orchestrator}}}
"#
    )
}

fn position(lines: &[String], wanted: &str) -> usize {
    lines
        .iter()
        .position(|line| line == wanted)
        .unwrap_or_else(|| panic!("no `{wanted}` in {lines:#?}"))
}

#[tokio::test(start_paused = true)]
async fn the_lead_cap_holds_a_fast_agent_back_until_the_slow_one_answers() {
    // MassGen's default cap of 2: a third answer from a while b has none would lead by 3.
    let (events, _scenario) = run_once(&fast_and_slow(""), "q").await;
    let lines = transcript(&events);
    let b_answers = position(&lines, "b answers agent2.1");
    assert!(
        position(&lines, "a answers agent1.2") < b_answers,
        "{lines:#?}"
    );
    assert!(
        position(&lines, "a round 3 sees [agent1.2,agent2.1]") > b_answers,
        "a waits for b's answer before its third round: {lines:#?}"
    );
    assert!(
        position(&lines, "a answers agent1.3") > b_answers,
        "{lines:#?}"
    );
    assert_completed(&events);
}

#[tokio::test(start_paused = true)]
async fn without_fairness_the_fast_agent_answers_at_its_own_pace() {
    let (events, _scenario) = run_once(&fast_and_slow("fairness_enabled: false"), "q").await;
    let lines = transcript(&events);
    assert!(
        position(&lines, "a answers agent1.4") < position(&lines, "b answers agent2.1"),
        "{lines:#?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_new_answer_over_the_lead_cap_is_refused_with_massgens_message() {
    // Without injection nobody is held back before a round (as in MassGen), so a's third
    // answer reaches the gate and is refused; a votes instead.
    let (events, scenario) = run_once(&fast_and_slow("disable_injection: true"), "q").await;
    let a = transcript_of(&events, "a");
    let refused = position(&a, "a retry 2 FairnessLeadCap");
    assert_eq!(a[refused - 1], "a round 3 sees [agent1.2]", "{a:#?}");
    assert_eq!(a[refused + 1], "a votes a (agent1.2)", "{a:#?}");
    let told = scenario.requests_of("a").iter().any(|request| {
        format!("{:?}", request.messages).contains(
            "Fairness lead cap reached: submitting another `new_answer` would put you 3 \
             answer(s) ahead of the slowest active peer (cap=2). Please wait for peers to \
             catch up or vote for an existing answer.",
        )
    });
    assert!(told, "a is told why");
    assert_completed(&events);
}

/// c works with a tool call after call; a answers first (c restarts), then b and d
/// answer together while c works.
const FOUR_AGENTS: &str = r#"
agents:
  - id: a
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 100, answer: "Answer from a", vote_for: a}
  - id: b
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 150, answer: "Answer from b", vote_for: a}
  - id: c
    backend:
      type: scripted
      tokens_per_second: 0
      first_token_ms: 60
      answer: "Answer from c"
      vote_for: a
      tool_calls: [{name: lookup, arguments: {q: "x"}}]
      tool_call_rounds: 12
  - id: d
    backend: {type: scripted, tokens_per_second: 0, first_token_ms: 160, answer: "Answer from d", vote_for: a}
"#;

async fn lines_of_c(orchestrator: &str) -> Vec<String> {
    let yaml = format!("{FOUR_AGENTS}orchestrator: {{{orchestrator}}}\n");
    let (events, _scenario) = run_once(&yaml, "q").await;
    assert_completed(&events);
    transcript_of(&events, "c")
}

#[tokio::test(start_paused = true)]
async fn the_injection_cap_lets_only_the_newest_update_into_a_round() {
    let capped = lines_of_c("max_midstream_injections_per_round: 1").await;
    assert_eq!(
        capped
            .iter()
            .filter(|line| line.contains("update injected"))
            .collect::<Vec<_>>(),
        ["c update injected [agent4.1]"],
        "d answered last; b's answer waits: {capped:#?}"
    );
    assert!(
        capped.contains(&"c round 3 sees [agent1.1,agent2.1,agent3.1,agent4.1]".to_string()),
        "{capped:#?}"
    );
    let uncapped = lines_of_c("max_midstream_injections_per_round: 2").await;
    assert!(
        uncapped.contains(&"c update injected [agent2.1,agent4.1]".to_string()),
        "{uncapped:#?}"
    );
    let off = lines_of_c("fairness_enabled: false, max_midstream_injections_per_round: 1").await;
    assert!(
        off.contains(&"c update injected [agent2.1,agent4.1]".to_string()),
        "without fairness the cap is off: {off:#?}"
    );
}

#[tokio::test(start_paused = true)]
async fn deferred_updates_arrive_when_the_next_round_starts() {
    let c = lines_of_c("defer_peer_updates_until_restart: true").await;
    assert_eq!(
        c,
        [
            "c round 1 sees []",
            "c answers agent3.1",
            "c round 2 sees [agent1.1,agent2.1,agent3.1,agent4.1]",
            "c votes a (agent1.1)",
        ],
        "no restart and no injection mid-round"
    );
    let immediate = lines_of_c("").await;
    assert_eq!(
        immediate.get(1).map(String::as_str),
        Some("c round 2 sees [agent1.1]")
    );
}

#[tokio::test(start_paused = true)]
async fn a_refused_answer_is_an_enforcement_event() {
    let (events, _scenario) = run_once(&fast_and_slow("disable_injection: true"), "q").await;
    assert!(events.iter().any(|event| matches!(
        &event.msg,
        EventMsg::EnforcementRetry { detail, .. } if detail.contains("Fairness lead cap reached")
    )));
}

#[tokio::test(start_paused = true)]
async fn the_example_config_holds_eager_back_until_careful_answers() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/configs/scripted/fairness.yaml"
    );
    let yaml = std::fs::read_to_string(path).unwrap();
    let (events, _scenario) = run_once(&yaml, "q").await;
    assert_completed(&events);
    let lines = transcript(&events);
    let careful_answers = position(&lines, "careful answers agent2.1");
    assert!(
        position(&lines, "eager answers agent1.1") < careful_answers,
        "{lines:#?}"
    );
    let second = lines
        .iter()
        .position(|line| line.starts_with("eager round 2 "))
        .unwrap();
    assert!(second > careful_answers, "{lines:#?}");
}

/// Whether b's coordination rounds (repeats merged) was sent MassGen's novelty pressure.
async fn pressed_rounds(coordination: &str) -> Vec<bool> {
    let yaml = format!("{FOUR_AGENTS}orchestrator: {{coordination: {{{coordination}}}}}\n");
    let (events, scenario) = run_once(&yaml, "q").await;
    assert_completed(&events);
    let mut pressed: Vec<bool> = scenario
        .requests_of("b")
        .iter()
        .filter_map(|request| match request.messages.first()? {
            Message::System { content } if content.contains("<massgen_coordination") => {
                Some(content.contains("<novelty_pressure priority=\"medium\">\nBefore committing"))
            }
            _ => None,
        })
        .collect();
    pressed.dedup();
    pressed
}

#[tokio::test(start_paused = true)]
async fn aggressive_novelty_injection_presses_agents_from_their_second_round() {
    assert_eq!(
        pressed_rounds("novelty_injection: aggressive").await,
        [false, true],
        "not in the first round, in every later one"
    );
    for level in ["none", "gentle", "moderate"] {
        assert_eq!(
            pressed_rounds(&format!("novelty_injection: {level}")).await,
            [false],
            "{level} acts on checklist convergence only"
        );
    }
}

/// `agent`'s coordination lines with its fairness holds and releases among them.
fn with_holds(events: &[massgen::protocol::Event], agent: &str) -> Vec<String> {
    let lines = transcript(events);
    let mut coordination = lines.iter();
    let mut out = Vec::new();
    for event in events {
        let mine = event
            .agent
            .as_ref()
            .is_some_and(|who| who.as_str() == agent);
        match &event.msg {
            EventMsg::FairnessHold { lead, cap } if mine => {
                out.push(format!("{agent} held (lead {lead}/{cap})"));
            }
            EventMsg::FairnessReleased if mine => out.push(format!("{agent} released")),
            _ => {}
        }
        // The transcript has one line per event it shows; keep them in step.
        if transcript(std::slice::from_ref(event)).len() == 1
            && let Some(line) = coordination.next()
        {
            out.push(line.clone());
        }
    }
    out
}

#[tokio::test(start_paused = true)]
async fn the_hold_is_announced_and_so_is_its_release() {
    let (events, _scenario) = run_once(&fast_and_slow(""), "q").await;
    let lines = with_holds(&events, "a");
    let held = position(&lines, "a held (lead 2/2)");
    let released = position(&lines, "a released");
    assert!(position(&lines, "a answers agent1.2") < held, "{lines:#?}");
    assert!(held < position(&lines, "b answers agent2.1"), "{lines:#?}");
    assert!(
        position(&lines, "b answers agent2.1") < released,
        "let go once b catches up: {lines:#?}"
    );
    assert_eq!(
        lines[released + 1],
        "a round 3 sees [agent1.2,agent2.1]",
        "{lines:#?}"
    );
    // Every hold is lifted before a's next round: a never starts a round while held.
    let holds = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.starts_with("a held"));
    for (index, _) in holds {
        let next = lines[index + 1..]
            .iter()
            .find(|later| later.starts_with("a round") || *later == "a released");
        assert!(
            next.is_none_or(|next| next == "a released"),
            "line {index}: {lines:#?}"
        );
    }
    let b = with_holds(&events, "b");
    assert!(
        !b.iter().any(|line| line.starts_with("b held")),
        "b is never ahead: {b:#?}"
    );
    assert_completed(&events);

    let (free, _scenario) = run_once(&fast_and_slow("fairness_enabled: false"), "q").await;
    assert!(
        !free
            .iter()
            .any(|event| matches!(event.msg, EventMsg::FairnessHold { .. })),
        "no cap, no hold"
    );
}

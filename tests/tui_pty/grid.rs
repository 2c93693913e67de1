//! The real binary in a 200×50 pseudo-terminal with six agents: every card at once in a
//! grid while they work and after the final view (`f`), one card under tabs after `g`, the
//! grid again after a second `g`; and the choice kept into the next turn.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::pty::{Launch, Pty};

/// Every agent's card title is on screen, and no tab bar.
fn grid(text: &str) -> bool {
    (1..=6).all(|n| text.contains(&format!("agent{n} · model-{n}"))) && !text.contains("1:agent1")
}

/// The tab bar, and one card.
fn one_card(text: &str) -> bool {
    text.contains("1:agent1 model-1")
        && text.contains("6:agent6 model-6")
        && (1..=6)
            .filter(|n| text.contains(&format!("agent{n} · model-{n}")))
            .count()
            == 1
}

#[test]
fn six_agents_share_a_200x50_screen_and_g_switches_to_one_card() {
    let home = tempfile::tempdir().unwrap();
    let agents: String = (1..=6)
        .map(|n| {
            format!(
                "  - id: agent{n}\n    backend:\n      type: scripted\n      model: model-{n}\n      \
                 answer: \"Answer {n} to {{question}}\"\n      tokens_per_second: 40\n"
            )
        })
        .collect();
    std::fs::write(home.path().join("six.yaml"), format!("agents:\n{agents}")).unwrap();
    let mut pty = Pty::launch(
        home.path(),
        &["--config", "six.yaml"],
        Launch::sized(50, 200),
    );
    pty.wait_until(|text| text.contains("Type a question below"), "welcome");
    pty.press(b"Six views?\r");
    pty.wait_until(
        |text| text.contains("Six views?") && grid(text),
        "the grid while the agents work",
    );
    pty.wait_until(
        |text| text.contains("wins") && text.contains("Final answer"),
        "the final view",
    );
    pty.press(b"\x1b");
    pty.press(b"f");
    pty.wait_until(grid, "f: back to the grid");
    pty.wait_until(|text| text.contains("g: one card"), "the status bar's hint");
    pty.press(b"g");
    pty.wait_until(one_card, "g: one card under tabs");
    pty.wait_until(|text| text.contains("g: all cards"), "the hint turns");
    // The next turn keeps the choice.
    pty.press(b"i");
    pty.press(b"Again?\r");
    pty.wait_until(|text| text.contains("Again?") && one_card(text), "kept");
    pty.wait_until(|text| text.contains("Final answer"), "the next final view");
    pty.press(b"\x1b");
    pty.press(b"g");
    pty.wait_until(grid, "g from the final view: the grid");
    pty.press(b"q");
    pty.finish();
}

//! The memory section: own memories in full (short-term) or by description (long-term),
//! peers' memories by anonymous name, and where it goes in the system prompt.

use super::*;

fn file(tier: Tier, name: &str, text: &str) -> MemoryFile {
    MemoryFile {
        tier,
        name: name.into(),
        text: text.into(),
    }
}

#[test]
fn an_empty_view_still_explains_the_tiers_and_how_to_save() {
    let section = memory_section(&MemoryView::default());
    assert!(section.contains("### Storage Tiers"));
    assert!(section.contains("*No short-term memories yet*"));
    assert!(section.contains("`memory/short_term/{name}.md`"));
    assert!(!section.contains("Available Long-Term Memories"));
    assert!(!section.contains("For Comparison"));
}

#[test]
fn own_and_peer_memories_are_shown_as_massgen_shows_them() {
    let view = MemoryView {
        own: vec![
            file(
                Tier::ShortTerm,
                "prefs",
                "---\nname: prefs\n---\nLikes tabs",
            ),
            file(
                Tier::LongTerm,
                "deep",
                "---\ndescription: A long analysis\n---\nbody not shown",
            ),
        ],
        peers: vec![(
            "agent2".into(),
            vec![
                file(Tier::ShortTerm, "notes", "Peer note"),
                file(
                    Tier::LongTerm,
                    "study",
                    "---\ndescription: Peer study\n---\nhidden",
                ),
            ],
        )],
    };
    let section = memory_section(&view);
    assert!(
        section.contains("- `prefs.md`\n  ```\n  Likes tabs\n  ```"),
        "{section}"
    );
    assert!(
        section.contains("<id>memory/long_term/deep.md</id>\n<summary>A long analysis</summary>")
    );
    assert!(!section.contains("body not shown"));
    assert!(
        section.contains("**agent2:**\n*short_term:*\n- `notes.md`\n  ```\n  Peer note\n  ```")
    );
    assert!(section.contains("*long_term:*\n- `study.md`: Peer study"));
    assert!(!section.contains("hidden"));
}

#[test]
fn the_section_goes_inside_the_system_prompt() {
    let mut messages = vec![
        Message::system(
            "<system_prompt>\n<core priority=\"critical\">\nx\n</core>\n</system_prompt>",
        ),
        Message::user("question"),
    ];
    add_to_system_prompt(&mut messages, &MemoryView::default());
    let Message::System { content } = &messages[0] else {
        panic!("system first");
    };
    assert!(
        content.ends_with("</memory>\n</system_prompt>"),
        "{content}"
    );
    assert!(
        content.contains("</core>\n<memory priority=\"high\">\n## Decision Documentation System")
    );
}

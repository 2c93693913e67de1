//! A tool the provider ran (web search, code execution) on an agent's card and in the
//! tool-call view: its query or code, `✓ provider`, and the pages with their links.

use super::tests::{FRANCE, both_sizes, draw, modal_view, view};
use crate::protocol::{EventMsg, ProviderToolCall, Source};
use crate::tui::state::{CardItem, ToolState};
use crate::tui::test_support::{apply_as, demo_until, first_answer};
use crate::tui::view::ModalKind;

fn searched() -> EventMsg {
    EventMsg::ProviderTool(ProviderToolCall {
        call_id: "srvtoolu_01".into(),
        tool: "web_search".into(),
        input: "capital of France".into(),
        sources: vec![
            Source {
                title: "Paris - Wikipedia".into(),
                url: "https://en.wikipedia.org/wiki/Paris".into(),
            },
            Source {
                title: "France | History, Map, Flag, Capital".into(),
                url: "https://www.britannica.com/place/France".into(),
            },
        ],
        output: String::new(),
        ok: true,
    })
}

fn ran() -> EventMsg {
    EventMsg::ProviderTool(ProviderToolCall {
        call_id: "ci_01".into(),
        tool: "code_interpreter".into(),
        input: "print(len('Paris'))".into(),
        sources: Vec::new(),
        output: "5".into(),
        ok: true,
    })
}

#[tokio::test(start_paused = true)]
async fn a_provider_search_is_a_finished_tool_card() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(&mut state, 0, [searched(), ran()]);
    let card = &state.agents[0];
    assert_eq!(card.running_tools, 0);
    let tools: Vec<_> = card.items.iter().filter_map(CardItem::tool).collect();
    assert_eq!(tools[0].name, "provider/web_search");
    assert_eq!(tools[0].arguments, "capital of France");
    assert_eq!(
        tools[0].state,
        ToolState::Provider {
            ok: true,
            output: "Paris - Wikipedia — https://en.wikipedia.org/wiki/Paris\n\
                     France | History, Map, Flag, Capital — https://www.britannica.com/place/France"
                .into(),
        }
    );
    let screen = format!("{:?}", draw(&state, &view(), 160, 48));
    assert!(
        screen.contains("🔧 provider/web_search capital of Fran"),
        "{screen}"
    );
    assert!(screen.contains("✓ provider"), "{screen}");
    both_sizes("provider_tool_card", &state, &view());
}

#[tokio::test(start_paused = true)]
async fn the_tool_view_lists_the_pages_with_their_links() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(&mut state, 0, [searched()]);
    let view = modal_view(ModalKind::Tools {
        agent: 0,
        selected: 0,
    });
    let screen = format!("{:?}", draw(&state, &view, 160, 48));
    assert!(
        screen.contains("Result ✓ (run by the provider)"),
        "{screen}"
    );
    assert!(
        screen.contains("https://en.wikipedia.org/wiki/Paris"),
        "{screen}"
    );
    both_sizes("modal_provider_tool", &state, &view);
}

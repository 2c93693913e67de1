//! A folded run of calls to one MCP server counts the calls it hides: `+1 more search
//! call`, `+2 more search calls`.

use super::tests::{FRANCE, WEB_SEARCH, draw, screen_text, view};
use crate::tui::test_support::{apply_as, demo_until, first_answer, tool_begin};

#[tokio::test(start_paused = true)]
async fn one_hidden_call_is_a_call_and_more_are_calls() {
    for (calls, said) in [(4, "(+1 more search call;"), (5, "(+2 more search calls;")] {
        let mut state = demo_until(FRANCE, first_answer).await;
        let msgs: Vec<_> = (0..calls)
            .map(|call| tool_begin(&format!("s{call}"), WEB_SEARCH, "{}"))
            .collect();
        apply_as(&mut state, 0, msgs);
        let screen = screen_text(&draw(&state, &view(), 160, 48));
        assert!(screen.contains(said), "{calls} calls: {screen}");
    }
}

//! The final view fills the body with the whole final answer as markdown, scrolled from
//! its top; small terminals and `z` give the cards the timeline's rows.

use super::tests::{both_sizes, draw, screen_text, tiny_size, view};
use crate::tui::state::UiState;
use crate::tui::test_support::{demo_until, first_answer, fold, scripted_turns};
use crate::tui::view::View;

const MARKDOWN_ANSWER: &str = "## Paris\\n\\nThe capital of France is **Paris**, on the Seine.\\n\\n\
- population: about 2.1 million\\n- region: Île-de-France\\n\\n```python\\nprint('Paris')\\n```\\n\\n\
> Quoted from the *encyclopedia*.\\n\\nline 12\\nline 13\\nline 14\\nline 15\\nline 16\\nline 17\\n\
line 18\\nline 19\\nline 20\\nline 21\\nline 22\\nline 23\\nline 24\\nline 25\\nthe end";

async fn finished_with_markdown() -> UiState {
    let yaml = format!(
        "agents:\n  - id: writer\n    backend: {{type: scripted, answer: \"{MARKDOWN_ANSWER}\", \
         vote_for: writer}}\n  - id: critic\n    backend: {{type: scripted, vote_for: writer}}\n"
    );
    fold(&scripted_turns(&yaml, &["What is the capital of France?"]).await)
}

fn final_view(scroll: usize) -> View {
    let mut view = view();
    view.final_view.shown = true;
    view.final_view.scroll = scroll;
    view
}

#[tokio::test(start_paused = true)]
async fn the_final_view_renders_the_whole_answer_as_markdown() {
    let state = finished_with_markdown().await;
    let screen = screen_text(&draw(&state, &final_view(0), 160, 48));
    assert!(screen.contains("Final answer · writer"), "{screen}");
    assert!(screen.contains("• population"), "bullets are drawn");
    assert!(
        !screen.contains("**Paris**"),
        "emphasis is drawn, not shown raw"
    );
    assert!(
        screen.contains("the end"),
        "the whole answer fits at 160×48"
    );
    both_sizes("final_view", &state, &final_view(0));
    tiny_size("final_view", &state, &final_view(0));
}

#[tokio::test(start_paused = true)]
async fn the_final_view_scrolls_and_never_past_its_end() {
    let state = finished_with_markdown().await;
    let top = screen_text(&draw(&state, &final_view(0), 80, 24));
    assert!(top.contains("Paris") && !top.contains("the end"), "{top}");
    let view = final_view(usize::MAX);
    let bottom = screen_text(&draw(&state, &view, 80, 24));
    assert!(bottom.contains("the end"), "{bottom}");
    assert!(view.final_view.scroll_max.get() > 0);
    assert!(
        bottom.contains(" of "),
        "the position is shown when it scrolls"
    );
}

#[tokio::test(start_paused = true)]
async fn cards_show_without_a_final_answer_even_when_chosen() {
    let state = demo_until("q", first_answer).await;
    let screen = screen_text(&draw(&state, &final_view(0), 80, 24));
    assert!(!screen.contains("Final answer"), "{screen}");
}

#[tokio::test(start_paused = true)]
async fn a_40_by_10_terminal_still_shows_the_focused_card() {
    let state = demo_until("What is the capital of France?", first_answer).await;
    let screen = screen_text(&draw(&state, &view(), 40, 10));
    let name = state.agents[0].info.id.to_string();
    assert!(screen.contains(&name), "{screen}");
    assert!(!screen.contains("Timeline"), "the timeline gives way");
    tiny_size("mid_turn", &state, &view());
}

#[tokio::test(start_paused = true)]
async fn z_gives_the_card_the_timelines_rows_at_80_columns() {
    let state = demo_until("What is the capital of France?", first_answer).await;
    let normal = screen_text(&draw(&state, &view(), 80, 24));
    assert!(normal.contains("Timeline"));
    let mut maximized = view();
    maximized.cards.maximized = true;
    let screen = screen_text(&draw(&state, &maximized, 80, 24));
    assert!(!screen.contains("Timeline"), "{screen}");
}

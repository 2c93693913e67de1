//! `/help` lists every slash command from the commands' one table (issue 28, item 10), and
//! `/history` hangs a wrapped question under its first word, not a fixed column away.

use crate::tui::slash::{SLASH_COMMANDS, help_row};
use crate::tui::test_support::{demo_turns, fold};
use crate::tui::theme::Theme;

#[test]
fn help_lists_every_command_from_the_commands_table() {
    let theme = Theme::default();
    let text: Vec<String> = super::help::help_lines(&theme, 120)
        .iter()
        .map(ToString::to_string)
        .collect();
    for command in &SLASH_COMMANDS {
        let (usage, about) = help_row(command);
        let row = text
            .iter()
            .find(|line| line.starts_with(&format!("{usage} ")))
            .unwrap_or_else(|| panic!("{usage}: {text:#?}"));
        let first: Vec<&str> = about.split_whitespace().take(3).collect();
        assert!(row.contains(&first.join(" ")), "{row}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_wrapped_question_hangs_under_its_first_word() {
    let question = "And of Italy, asked in rather more words than one line of thirty holds?";
    let state = fold(&demo_turns(&["What is the capital of France?", question]).await);
    let text: Vec<String> = super::history::lines(&state, &Theme::default(), 30)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        text.iter().any(|line| line == "1 ▸ What is the capital of"),
        "{text:#?}"
    );
    let second = text
        .iter()
        .position(|line| line.starts_with("2 ▸ And of Italy"))
        .unwrap_or_else(|| panic!("{text:#?}"));
    let next = &text[second + 1];
    assert!(
        next.starts_with("    ") && !next.starts_with("     "),
        "under the question's first word: {next:?}"
    );
}

//! Snapshots of the approval view — a command, a write with its diff (scrolled too), an
//! MCP call, each at 80×24 and 160×48; two calls queued; the deny-with-message field —
//! and of `/approvals` with a few decisions and with none.

use insta::assert_snapshot;

use crate::protocol::ApprovalRequest;
use crate::tui::approval::ApprovalForm;
use crate::tui::render::tests::{FRANCE, both_sizes, draw, modal_view, screen_text, small_size};
use crate::tui::state::UiState;
use crate::tui::test_approvals::{
    LONG_COMMAND, asked, command_request, decided_msg, decisions, mcp_request, write_request,
};
use crate::tui::test_support::{apply_as, demo_turns, event, fold};
use crate::tui::view::{ModalKind, View};

/// The demo's agents mid-turn, with `requests` waiting (asked by their agents).
async fn waiting(requests: Vec<ApprovalRequest>) -> (UiState, View) {
    let mut state = fold(&demo_turns(&[FRANCE]).await);
    for request in requests {
        let agent = request.agent.to_string();
        state.apply(&event(50, Some(&agent), asked(request)));
    }
    let mut view = modal_view(ModalKind::Approval);
    let first = state.approvals.first().unwrap().request.request_id.clone();
    view.modals.approval = Some(ApprovalForm::new(&first));
    view.clocks.approval_secs_left = Some(272);
    (state, view)
}

#[tokio::test(start_paused = true)]
async fn a_command_shows_as_a_wrapped_dollar_line_with_its_rule_and_risk() {
    let (state, view) = waiting(vec![command_request("r1", LONG_COMMAND)]).await;
    let screen = screen_text(&draw(&state, &view, 80, 24));
    for wanted in [
        "scout wants to run a command",
        "$ cargo test",
        "git status --short",
        "command(*)",
        "medium",
        "Denied in 4:32",
        ".massgen/settings.local.json",
    ] {
        assert!(screen.contains(wanted), "{wanted}: {screen}");
    }
    assert!(!screen.contains(" of 1"), "one call: no queue position");
    both_sizes("approval_command", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn an_obfuscated_command_shows_as_written_and_as_checked() {
    let mut request = command_request("r1", r"\c\u\r\l -s https://example.com/x");
    request.target = "curl -s https://example.com/x".into();
    let (state, view) = waiting(vec![request]).await;
    let screen = screen_text(&draw(&state, &view, 80, 24));
    assert!(
        screen.contains(r"$ \c\u\r\l -s https://example.com/x"),
        "{screen}"
    );
    assert!(
        screen.contains("checked as: curl -s https://example.com/x"),
        "{screen}"
    );
    let (state, view) = waiting(vec![command_request("r2", "ls -la")]).await;
    let screen = screen_text(&draw(&state, &view, 80, 24));
    assert!(
        !screen.contains("checked as"),
        "the same text twice: {screen}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_filed_request_names_the_file_that_answers_it_too() {
    let mut request = command_request("r1", "ls -la");
    request.answer_file = Some(".massgen/approvals/scout/resp_0123.json".into());
    let (state, view) = waiting(vec![request]).await;
    let screen = screen_text(&draw(&state, &view, 80, 24));
    assert!(
        screen.contains("answer in .massgen/approvals/scout/resp_0123.json"),
        "{screen}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_write_shows_its_diff_and_scrolls_when_it_is_long() {
    let (state, mut view) = waiting(vec![write_request("r1")]).await;
    let screen = screen_text(&draw(&state, &view, 80, 24));
    assert!(screen.contains("+++ b/src/lib.rs"), "{screen}");
    assert!(screen.contains("↑↓ PgUp PgDn scroll"), "{screen}");
    assert!(!screen.contains("added_26"), "below the fold: {screen}");
    both_sizes("approval_write_diff", &state, &view);
    view.modals.stack[0].scroll = 30;
    let scrolled = screen_text(&draw(&state, &view, 80, 24));
    assert!(scrolled.contains("added_26"), "{scrolled}");
    assert!(scrolled.contains("// end"), "{scrolled}");
    small_size("approval_write_diff_scrolled", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn an_mcp_call_shows_its_arguments_as_indented_json() {
    let (state, view) = waiting(vec![mcp_request("r1")]).await;
    let screen = screen_text(&draw(&state, &view, 160, 48));
    for wanted in [
        "critic wants to call a tool",
        "linear/create_issue",
        r#""title": "Approvals in the TUI","#,
        r#""key": "MAS","#,
    ] {
        assert!(screen.contains(wanted), "{wanted}: {screen}");
    }
    both_sizes("approval_mcp", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn queued_calls_show_one_of_two_and_the_status_bar_counts_them() {
    let (state, view) = waiting(vec![command_request("r1", "ls"), mcp_request("r2")]).await;
    let screen = screen_text(&draw(&state, &view, 80, 24));
    assert!(screen.contains("1 of 2"), "{screen}");
    assert!(screen.contains("⚠ 2 approvals waiting"), "{screen}");
    small_size("approval_queued", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn deny_with_a_message_shows_the_field() {
    let (state, mut view) = waiting(vec![command_request("r1", "npm publish")]).await;
    let form = view.modals.approval.as_mut().unwrap();
    form.start_message();
    "publish from CI instead"
        .chars()
        .for_each(|ch| form.type_char(ch));
    let screen = screen_text(&draw(&state, &view, 80, 24));
    assert!(
        screen.contains("Message to the agent: publish from CI instead"),
        "{screen}"
    );
    assert!(screen.contains("Enter send the denial"), "{screen}");
    small_size("approval_deny_message", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn slash_approvals_lists_the_decisions_newest_last() {
    let mut state = fold(&demo_turns(&[FRANCE]).await);
    let records = decisions();
    apply_as(&mut state, 0, records.into_iter().map(decided_msg));
    let view = modal_view(ModalKind::Approvals);
    let screen = screen_text(&draw(&state, &view, 160, 48));
    for wanted in [
        "Approvals · 4 decisions",
        "✓ allowed by you · for this session",
        "✗ denied by the hardline list",
        "message: use the staging tracker instead",
        "✗ denied by the timeout",
        "rule: command(*)",
    ] {
        assert!(screen.contains(wanted), "{wanted}: {screen}");
    }
    let hardline = screen.find("rm -rf /").unwrap();
    let timeout = screen.find("git push origin main").unwrap();
    assert!(hardline < timeout, "newest last");
    both_sizes("approvals_list", &state, &view);
}

#[tokio::test(start_paused = true)]
async fn slash_approvals_says_when_nothing_was_decided() {
    let state = fold(&demo_turns(&[FRANCE]).await);
    let view = modal_view(ModalKind::Approvals);
    let screen = screen_text(&draw(&state, &view, 80, 24));
    assert!(
        screen.contains("No tool call was checked in this session yet."),
        "{screen}"
    );
    assert_snapshot!("approvals_empty_80x24", draw(&state, &view, 80, 24));
}

//! Counts read as English: "1 answer", "1 file", never "1 answers".

use super::tests::{FRANCE, draw, modal_view, view};
use crate::protocol::EventMsg;
use crate::tui::modal::ModalKind;
use crate::tui::test_support::{apply_as, demo_until, first_answer};

fn screen(backend: &ratatui::backend::TestBackend) -> String {
    backend
        .buffer()
        .content()
        .iter()
        .map(|cell| cell.symbol())
        .collect()
}

#[tokio::test(start_paused = true)]
async fn one_answer_and_one_file_are_singular() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(
        &mut state,
        0,
        [EventMsg::WorkspaceSnapshot {
            files: 1,
            bytes: 20,
            skipped: Vec::new(),
        }],
    );
    let cards = screen(&draw(&state, &view(), 160, 48));
    assert!(cards.contains("workspace saved: 1 file,"), "{cards}");
    assert!(!cards.contains("1 files"), "{cards}");

    let status = screen(&draw(&state, &modal_view(ModalKind::Status), 160, 48));
    assert!(status.contains("· 1 answer"), "{status}");
    assert!(!status.contains("1 answers"), "{status}");

    let table = screen(&draw(&state, &modal_view(ModalKind::Coordination), 160, 48));
    assert!(table.contains("1 answer, 0 votes"), "{table}");
    assert!(!table.contains("1 answers"), "{table}");
}

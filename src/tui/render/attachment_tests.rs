//! The files attached to an agent's question, on its card: one reads name, kind and size;
//! several read their names while they fit, else fold to a count and total size.

use super::tests::{FRANCE, both_sizes, draw, view};
use crate::protocol::{Attachment, EventMsg};
use crate::tui::test_support::{apply_as, demo_until, first_answer};

fn png(name: &str, size: usize) -> Attachment {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.resize(size, 0);
    Attachment::inline(name, bytes).unwrap_or_else(|| unreachable!())
}

fn pdf(name: &str, size: usize) -> Attachment {
    let mut bytes = b"%PDF-1.7\n".to_vec();
    bytes.resize(size, 0);
    Attachment::inline(name, bytes).unwrap_or_else(|| unreachable!())
}

fn sent(attachments: Vec<Attachment>) -> EventMsg {
    EventMsg::AttachmentsSent { attachments }
}

#[tokio::test(start_paused = true)]
async fn the_card_shows_the_attached_files() {
    let mut state = demo_until(FRANCE, first_answer).await;
    apply_as(&mut state, 0, [sent(vec![png("photo.png", 120 * 1024)])]);
    let several = vec![
        png("street-map-of-paris.png", 3 * 1024 * 1024),
        pdf("annual-report-2025.pdf", 1024 * 1024),
        png("eiffel.png", 200 * 1024),
    ];
    apply_as(&mut state, 1, [sent(several.clone())]);
    assert_eq!(state.agents[0].attachments.len(), 1);
    assert_eq!(state.agents[1].attachments, several);
    let screen = format!("{:?}", draw(&state, &view(), 160, 48));
    assert!(
        screen.contains("📎 photo.png · image · 120 KiB"),
        "{screen}"
    );
    assert!(screen.contains("📎 3 files · 4.2 MiB"), "{screen}");
    both_sizes("attachment_card", &state, &view());
}

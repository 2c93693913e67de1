//! Ctrl+C (cancel the turn, clear the composer, quit on a second press) and notices
//! that go away by themselves.

use std::time::{Duration, Instant};

use super::{App, Effect};
use crate::protocol::Op;

/// How long a second Ctrl+C has to quit.
pub const QUIT_WINDOW: Duration = Duration::from_secs(2);
/// How long a notice stays on screen.
pub const NOTICE_TTL: Duration = Duration::from_secs(6);

impl App {
    /// Ctrl+C: cancel the running turn (what the agents did is saved), else clear the
    /// composer, else ask to quit; a second press within `QUIT_WINDOW` quits.
    pub(super) fn interrupt(&mut self) -> Vec<Effect> {
        let now = Instant::now();
        let armed = self
            .interrupt_armed
            .take()
            .is_some_and(|at| now.duration_since(at) < QUIT_WINDOW);
        if armed {
            return vec![Effect::Quit];
        }
        if self.state.is_running() {
            self.interrupt_armed = Some(now);
            if self.cancel_pending {
                self.view.notice = Some("still cancelling… Ctrl+C again quits".into());
                return Vec::new();
            }
            self.cancel_pending = true;
            self.view.notice =
                Some("cancelling the turn; its work is saved (Ctrl+C again quits)".into());
            return vec![Effect::Send(Op::Cancel)];
        }
        if !self.view.composer.is_empty() {
            // Cleared text stays one Up away.
            let text = self.view.composer.text();
            self.remember(text);
            self.view.composer.clear();
            self.view.popup = None;
            self.history_at = None;
            self.view.notice = Some("cleared (Up brings it back)".into());
            return Vec::new();
        }
        self.interrupt_armed = Some(now);
        self.view.notice = Some("press Ctrl+C again to quit".into());
        Vec::new()
    }

    /// Notices go away after `NOTICE_TTL`; true when one just did. The time left until
    /// the one on screen goes, if any, is when the screen must be drawn again.
    pub fn expire_notice(&mut self, now: Instant) -> (bool, Option<Instant>) {
        let Some(notice) = &self.view.notice else {
            self.notice_shown = None;
            return (false, None);
        };
        let since = match &self.notice_shown {
            Some((shown, since)) if shown == notice => *since,
            Some(_) | None => {
                self.notice_shown = Some((notice.clone(), now));
                now
            }
        };
        if now.duration_since(since) >= NOTICE_TTL {
            self.view.notice = None;
            self.notice_shown = None;
            return (true, None);
        }
        (false, Some(since + NOTICE_TTL))
    }
}

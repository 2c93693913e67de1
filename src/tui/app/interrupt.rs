//! What Ctrl+C and the notices remember between keys: when a press armed the next one to
//! quit, whether a cancel is on its way, and since when the notice on screen has shown (it
//! goes away by itself).

use std::time::{Duration, Instant};

/// How long a second Ctrl+C has to quit.
pub const QUIT_WINDOW: Duration = Duration::from_secs(2);
/// How long a notice stays on screen.
pub const NOTICE_TTL: Duration = Duration::from_secs(6);

#[derive(Clone, Debug, Default)]
pub(super) struct Interrupt {
    /// When Ctrl+C last cancelled the turn or asked to quit: a second press within
    /// `QUIT_WINDOW` quits.
    armed: Option<Instant>,
    /// A cancel was sent and the turn has not ended yet: another Ctrl+C quits.
    pub(super) cancel_pending: bool,
}

impl Interrupt {
    /// A Ctrl+C at `now`: whether it is the second within `QUIT_WINDOW` (it quits). The
    /// earlier press is used up either way.
    pub(super) fn second_press(&mut self, now: Instant) -> bool {
        self.armed
            .take()
            .is_some_and(|at| now.duration_since(at) < QUIT_WINDOW)
    }

    /// The press at `now` arms the next one to quit.
    pub(super) fn arm(&mut self, now: Instant) {
        self.armed = Some(now);
    }

    /// Any other key: the next Ctrl+C starts over.
    pub(super) fn disarm(&mut self) {
        self.armed = None;
    }
}

/// The notice on screen and since when, so it can go away after `NOTICE_TTL`.
#[derive(Clone, Debug, Default)]
pub(super) struct NoticeTimer {
    shown: Option<(String, Instant)>,
}

impl NoticeTimer {
    /// Takes `notice` away once it has shown for `NOTICE_TTL`; true when it just went.
    /// The time it goes, while one is on screen, is when the screen must be drawn again.
    pub(super) fn expire(
        &mut self,
        notice: &mut Option<String>,
        now: Instant,
    ) -> (bool, Option<Instant>) {
        let Some(text) = notice.as_ref() else {
            self.shown = None;
            return (false, None);
        };
        let since = match &self.shown {
            Some((shown, since)) if shown == text => *since,
            Some(_) | None => {
                self.shown = Some((text.clone(), now));
                now
            }
        };
        if now.duration_since(since) >= NOTICE_TTL {
            *notice = None;
            self.shown = None;
            return (true, None);
        }
        (false, Some(since + NOTICE_TTL))
    }
}

//! When the app loop draws a frame: only when something on screen changed, and otherwise
//! only when something that moves by itself steps on (a spinner, a clock's second, each at
//! its own cadence); nothing changes and nothing moves: no frame at all. What the user does
//! is drawn within `FRAME` (about 60 frames a second at most). What draws itself (streamed
//! tokens, spinners, clocks) is coalesced into frames spaced by what frames cost: at least
//! `BUDGET` times the last frames' drawing time apart, so that drawing them takes no more
//! than about 1/`BUDGET` of a core however large the screen (a small screen streams at up
//! to 60 frames a second, six agents in a 200×50 grid at several a second).
//!
//! Pure: the loop tells the pacer what changed, when it drew and how long the frame took,
//! and asks it when the next frame is due; time is passed in, so tests drive it with plain
//! `Instant`s.

use std::time::Duration;

use tokio::time::Instant;

/// The shortest time between two frames (about 60 a second): what the user does is
/// drawn this soon.
pub const FRAME: Duration = Duration::from_millis(16);
/// Frames that draw themselves (streamed news, spinners, clocks) are at least this many
/// times a frame's drawing time apart: drawing them takes at most about 0.6 % of a core.
/// At 16 ms a full 200×50 screen redrawn for six streams cost 3× the CPU of the whole
/// headless turn (BENCHMARKS.md, "Watching many agents").
pub const BUDGET: u32 = 160;
/// However costly frames are, one that draws itself comes at least this often.
pub const SLOWEST: Duration = Duration::from_millis(250);

/// Something on screen that steps on by itself: at `origin` and every `period` before
/// and after it (a spinner's frames, a clock's seconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cadence {
    pub origin: Instant,
    pub period: Duration,
}

impl Cadence {
    pub fn new(origin: Instant, period: Duration) -> Self {
        Self { origin, period }
    }

    /// The first step strictly after `at`.
    pub fn next_after(self, at: Instant) -> Instant {
        let period = self.period.as_nanos().max(1);
        let nanos = |n: u128| Duration::from_nanos(u64::try_from(n).unwrap_or(u64::MAX));
        match at.checked_duration_since(self.origin) {
            Some(since) => self.origin + nanos((since.as_nanos() / period + 1) * period),
            None => {
                // `at` is before the origin: the step just after it, counted back.
                let before = self.origin.duration_since(at).as_nanos();
                self.origin - nanos((before - 1) / period * period)
            }
        }
    }
}

/// What a frame is owed for: the user (drawn within `FRAME`) or news that draws itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owed {
    User,
    News,
}

/// Whether a frame is owed and for what, when the last one was drawn, and what frames cost
/// to draw lately.
#[derive(Clone, Debug)]
pub struct FramePacer {
    owed: Option<Owed>,
    last_frame: Option<Instant>,
    /// Drawing time of recent frames, a moving average (each frame weighs 1/8).
    cost: Duration,
}

impl Default for FramePacer {
    fn default() -> Self {
        Self::new()
    }
}

impl FramePacer {
    /// Nothing drawn yet: the first frame is due at once.
    pub fn new() -> Self {
        Self {
            owed: Some(Owed::User),
            last_frame: None,
            cost: Duration::ZERO,
        }
    }

    /// Something the user did changed the screen (a key, a click, a resize, a notice):
    /// drawn `FRAME` after the last frame at the earliest.
    pub fn changed(&mut self) {
        self.owed = Some(Owed::User);
    }

    /// The orchestrator's news changed the screen (tokens, statuses): drawn a
    /// [`news_gap`](Self::news_gap) after the last frame at the earliest, so a stream's
    /// tokens share frames.
    pub fn streamed(&mut self) {
        self.owed.get_or_insert(Owed::News);
    }

    /// Whether a change waits for its frame.
    pub fn owes_frame(&self) -> bool {
        self.owed.is_some()
    }

    /// A frame was drawn at `at` in `took`: everything changed so far is on screen. A frame
    /// slower than one that already spaces frames `SLOWEST` apart counts as that one, so a
    /// stalled write (Ctrl+S, a slow link) holds the next frames back only briefly.
    pub fn drew(&mut self, at: Instant, took: Duration) {
        let took = took.min(SLOWEST / BUDGET);
        self.cost = match self.last_frame {
            None => took,
            Some(_) => (self.cost * 7 + took) / 8,
        };
        self.owed = None;
        self.last_frame = Some(at);
    }

    /// The shortest time between the last frame and one that draws itself: `BUDGET` times
    /// what frames cost lately, between `FRAME` and `SLOWEST`.
    pub fn news_gap(&self) -> Duration {
        (self.cost * BUDGET).clamp(FRAME, SLOWEST)
    }

    /// When the next frame is due, given what moves on screen now; `None`: not until
    /// something changes. What the user did is drawn `FRAME` after the last frame; news
    /// and the next step of what moves, `news_gap` after it.
    pub fn due(&self, now: Instant, moving: &[Cadence]) -> Option<Instant> {
        let Some(last) = self.last_frame else {
            return Some(now);
        };
        let news = last + self.news_gap();
        let owed = self.owed.map(|owed| match owed {
            Owed::User => last + FRAME,
            Owed::News => news,
        });
        moving
            .iter()
            .map(|cadence| cadence.next_after(last).max(news))
            .chain(owed)
            .min()
    }

    /// Whether a frame is due at `now`.
    pub fn is_due(&self, now: Instant, moving: &[Cadence]) -> bool {
        self.due(now, moving).is_some_and(|due| due <= now)
    }
}

#[cfg(test)]
#[path = "pacer_tests.rs"]
mod tests;

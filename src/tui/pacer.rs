//! When the app loop draws a frame: only when something on screen changed, at most one
//! frame per `FRAME` (a burst of tokens is coalesced into the next frame), and otherwise
//! only when something that moves by itself steps on: a spinner, a clock's second, each
//! at its own cadence. Nothing changes and nothing moves: no frame at all.
//!
//! Pure: the loop tells the pacer what changed and when it drew, and asks it when the next
//! frame is due; time is passed in, so tests drive it with plain `Instant`s.

use std::time::Duration;

use tokio::time::Instant;

/// The shortest time between two frames (about 60 a second).
pub const FRAME: Duration = Duration::from_millis(16);

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

/// Whether a frame is owed and when the last one was drawn.
#[derive(Clone, Debug)]
pub struct FramePacer {
    dirty: bool,
    last_frame: Option<Instant>,
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
            dirty: true,
            last_frame: None,
        }
    }

    /// Something on screen changed (an event folded, a key, a resize, a notice).
    pub fn changed(&mut self) {
        self.dirty = true;
    }

    /// Whether a change waits for its frame.
    pub fn owes_frame(&self) -> bool {
        self.dirty
    }

    /// A frame was drawn at `at`: everything changed so far is on screen.
    pub fn drew(&mut self, at: Instant) {
        self.dirty = false;
        self.last_frame = Some(at);
    }

    /// When the next frame is due, given what moves on screen now; `None`: not until
    /// something changes. A change is drawn one `FRAME` after the last frame at the
    /// earliest; a cadence's step, at that step (and that `FRAME` apart too).
    pub fn due(&self, now: Instant, moving: &[Cadence]) -> Option<Instant> {
        let Some(last) = self.last_frame else {
            return Some(now);
        };
        let earliest = last + FRAME;
        if self.dirty {
            return Some(earliest);
        }
        moving
            .iter()
            .map(|cadence| cadence.next_after(last).max(earliest))
            .min()
    }

    /// Whether a frame is due at `now`.
    pub fn is_due(&self, now: Instant, moving: &[Cadence]) -> bool {
        self.due(now, moving).is_some_and(|due| due <= now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPINNER: Duration = Duration::from_millis(100);

    /// Steps `pacer` through `[start, end)` one millisecond at a time, calling `event`
    /// before each step's check, as the loop does; the instants frames were drawn at.
    fn run(
        pacer: &mut FramePacer,
        start: Instant,
        end: Instant,
        moving: &[Cadence],
        mut event: impl FnMut(Instant, &mut FramePacer),
    ) -> Vec<Instant> {
        let mut frames = Vec::new();
        let mut now = start;
        while now < end {
            event(now, pacer);
            if pacer.is_due(now, moving) {
                pacer.drew(now);
                frames.push(now);
            }
            now += Duration::from_millis(1);
        }
        frames
    }

    #[test]
    fn the_first_frame_is_due_at_once() {
        let now = Instant::now();
        let pacer = FramePacer::new();
        assert!(pacer.is_due(now, &[]));
    }

    #[test]
    fn a_burst_of_a_thousand_tokens_in_10_ms_is_one_frame() {
        let start = Instant::now();
        let mut pacer = FramePacer::new();
        pacer.drew(start);
        let mut tokens = 0;
        // 100 tokens a millisecond for the first 10 ms after a frame.
        let frames = run(
            &mut pacer,
            start + Duration::from_millis(1),
            start + Duration::from_secs(1),
            &[],
            |now, pacer| {
                if now < start + Duration::from_millis(11) {
                    tokens += 100;
                    pacer.changed();
                }
            },
        );
        assert_eq!(tokens, 1_000);
        assert_eq!(
            frames,
            vec![start + FRAME],
            "one frame shows the whole burst"
        );
    }

    #[test]
    fn a_steady_stream_is_drawn_at_most_once_per_frame_time() {
        let start = Instant::now();
        let mut pacer = FramePacer::new();
        pacer.drew(start);
        // A token every millisecond for a second.
        let frames = run(
            &mut pacer,
            start,
            start + Duration::from_secs(1),
            &[],
            |_, pacer| pacer.changed(),
        );
        assert!(frames.windows(2).all(|pair| pair[1] - pair[0] >= FRAME));
        assert_eq!(frames.len(), 62, "{frames:?}");
    }

    #[test]
    fn a_change_after_a_quiet_spell_is_drawn_at_once() {
        let start = Instant::now();
        let mut pacer = FramePacer::new();
        pacer.drew(start);
        let key = start + Duration::from_secs(3);
        assert!(!pacer.owes_frame());
        pacer.changed();
        assert!(pacer.owes_frame());
        assert!(pacer.is_due(key, &[]), "a key press is not held back");
        pacer.drew(key);
        assert!(!pacer.owes_frame(), "the frame showed it");
    }

    #[test]
    fn nothing_changing_and_nothing_moving_draws_nothing_for_10_s() {
        let start = Instant::now();
        let mut pacer = FramePacer::new();
        pacer.drew(start);
        assert_eq!(pacer.due(start, &[]), None);
        let frames = run(
            &mut pacer,
            start,
            start + Duration::from_secs(10),
            &[],
            |_, _| {},
        );
        assert!(frames.is_empty(), "{frames:?}");
    }

    #[test]
    fn a_spinner_alone_is_drawn_at_its_cadence_only() {
        let start = Instant::now();
        let mut pacer = FramePacer::new();
        pacer.drew(start);
        let spinner = Cadence::new(start - Duration::from_millis(30), SPINNER);
        let frames = run(
            &mut pacer,
            start,
            start + Duration::from_secs(2),
            &[spinner],
            |_, _| {},
        );
        assert_eq!(frames.len(), 20, "{frames:?}");
        assert_eq!(frames[0], start + Duration::from_millis(70));
        assert!(frames.windows(2).all(|pair| pair[1] - pair[0] == SPINNER));
    }

    #[test]
    fn clocks_step_on_their_own_seconds() {
        let start = Instant::now();
        let mut pacer = FramePacer::new();
        pacer.drew(start);
        let second = Duration::from_secs(1);
        let turn = Cadence::new(start - Duration::from_millis(200), second);
        let agent = Cadence::new(start + Duration::from_millis(500), second);
        let frames = run(
            &mut pacer,
            start,
            start + Duration::from_secs(3),
            &[turn, agent],
            |_, _| {},
        );
        let offsets: Vec<u128> = frames.iter().map(|at| (*at - start).as_millis()).collect();
        assert_eq!(offsets, vec![500, 800, 1500, 1800, 2500, 2800]);
    }

    #[test]
    fn a_change_between_spinner_steps_does_not_add_frames_closer_than_frame_time() {
        let start = Instant::now();
        let mut pacer = FramePacer::new();
        pacer.drew(start);
        let spinner = Cadence::new(start, SPINNER);
        let frames = run(
            &mut pacer,
            start + Duration::from_millis(1),
            start + Duration::from_millis(200),
            &[spinner],
            |now, pacer| {
                if now == start + Duration::from_millis(90) {
                    pacer.changed();
                }
            },
        );
        let offsets: Vec<u128> = frames.iter().map(|at| (*at - start).as_millis()).collect();
        assert_eq!(
            offsets,
            vec![90, 106],
            "the step at 100 waits for the frame time"
        );
    }

    #[test]
    fn a_cadence_counts_steps_on_both_sides_of_its_origin() {
        let origin = Instant::now() + Duration::from_secs(10);
        let cadence = Cadence::new(origin, Duration::from_secs(1));
        let before = origin - Duration::from_millis(2_500);
        assert_eq!(cadence.next_after(before), origin - Duration::from_secs(2));
        assert_eq!(
            cadence.next_after(origin - Duration::from_secs(2)),
            origin - Duration::from_secs(1)
        );
        assert_eq!(cadence.next_after(origin), origin + Duration::from_secs(1));
        assert_eq!(
            cadence.next_after(origin + Duration::from_millis(1_999)),
            origin + Duration::from_secs(2)
        );
    }
}

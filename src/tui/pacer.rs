//! When the app loop draws a frame: only when something on screen changed, at most one
//! frame per `FRAME` (a burst of tokens is coalesced into the next frame), and otherwise
//! only when something that moves by itself steps on: a spinner, a clock's second, each
//! at its own cadence. Nothing changes and nothing moves: no frame at all.
//!
//! Pure: the loop tells the pacer what changed and when it drew, and asks it when the next
//! frame is due; time is passed in, so tests drive it with plain `Instant`s.

use std::time::Duration;

use tokio::time::Instant;

/// The shortest time between two frames (about 60 a second): what the user does is
/// drawn this soon.
pub const FRAME: Duration = Duration::from_millis(16);
/// The shortest time between two frames drawn for streamed news alone: a spinner's step,
/// so while agents stream the screen moves once per spinner frame with every token since.
/// At 16 ms a full 200×50 screen redrawn for six streams cost 3× the CPU of the whole
/// headless turn; at 100 ms, 1.1–1.4× (BENCHMARKS.md, "Watching many agents").
pub const STREAM_FRAME: Duration = Duration::from_millis(100);

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

/// Whether a frame is owed (and how soon after the last one), and when the last one was
/// drawn.
#[derive(Clone, Debug)]
pub struct FramePacer {
    owed: Option<Duration>,
    last_frame: Option<Instant>,
    stream_frame: Duration,
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
            owed: Some(FRAME),
            last_frame: None,
            stream_frame: STREAM_FRAME,
        }
    }

    /// Streamed news is drawn at most once per `gap` (never less than `FRAME`).
    #[cfg(test)]
    pub fn with_stream_frame(mut self, gap: Duration) -> Self {
        self.stream_frame = gap.max(FRAME);
        self
    }

    /// Something the user did changed the screen (a key, a click, a resize, a notice):
    /// drawn `FRAME` after the last frame at the earliest.
    pub fn changed(&mut self) {
        self.owe(FRAME);
    }

    /// The orchestrator's news changed the screen (tokens, statuses): drawn `stream_frame`
    /// after the last frame at the earliest, so a stream's tokens share frames.
    pub fn streamed(&mut self) {
        self.owe(self.stream_frame);
    }

    fn owe(&mut self, gap: Duration) {
        self.owed = Some(self.owed.map_or(gap, |owed| owed.min(gap)));
    }

    /// Whether a change waits for its frame.
    pub fn owes_frame(&self) -> bool {
        self.owed.is_some()
    }

    /// A frame was drawn at `at`: everything changed so far is on screen.
    pub fn drew(&mut self, at: Instant) {
        self.owed = None;
        self.last_frame = Some(at);
    }

    /// When the next frame is due, given what moves on screen now; `None`: not until
    /// something changes. A change is drawn its gap after the last frame; a cadence's
    /// step, at that step; never two frames closer than `FRAME`.
    pub fn due(&self, now: Instant, moving: &[Cadence]) -> Option<Instant> {
        let Some(last) = self.last_frame else {
            return Some(now);
        };
        let earliest = last + FRAME;
        let owed = self.owed.map(|gap| last + gap);
        moving
            .iter()
            .map(|cadence| cadence.next_after(last))
            .chain(owed)
            .min()
            .map(|due| due.max(earliest))
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
                    pacer.streamed();
                }
            },
        );
        assert_eq!(tokens, 1_000);
        assert_eq!(
            frames,
            vec![start + STREAM_FRAME],
            "one frame shows the whole burst"
        );
    }

    #[test]
    fn a_steady_stream_is_drawn_once_per_stream_frame() {
        let start = Instant::now();
        let mut pacer = FramePacer::new();
        pacer.drew(start);
        // A token every millisecond for a second.
        let frames = run(
            &mut pacer,
            start,
            start + Duration::from_secs(1),
            &[],
            |_, pacer| pacer.streamed(),
        );
        assert_eq!(frames.len(), 9, "{frames:?}");
        assert!(
            frames
                .windows(2)
                .all(|pair| pair[1] - pair[0] == STREAM_FRAME)
        );
    }

    #[test]
    fn keys_are_drawn_within_a_frame_time_even_while_streaming() {
        let start = Instant::now();
        let mut pacer = FramePacer::new();
        pacer.drew(start);
        let key = start + Duration::from_millis(20);
        let frames = run(
            &mut pacer,
            start,
            start + Duration::from_millis(150),
            &[],
            |now, pacer| {
                pacer.streamed();
                if now == key {
                    pacer.changed();
                }
            },
        );
        let offsets: Vec<u128> = frames.iter().map(|at| (*at - start).as_millis()).collect();
        assert_eq!(
            offsets,
            vec![20, 120],
            "the key at once, the stream 100 ms later"
        );
    }

    #[test]
    fn changes_are_drawn_at_most_once_per_frame_time() {
        let start = Instant::now();
        let mut pacer = FramePacer::new().with_stream_frame(Duration::ZERO);
        pacer.drew(start);
        // A change every millisecond for a second (held keys, a streamed burst at the
        // shortest gap allowed).
        let frames = run(
            &mut pacer,
            start,
            start + Duration::from_secs(1),
            &[],
            |_, pacer| pacer.streamed(),
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

//! Tests of the frame pacer: what is drawn when, for keys, streams, spinners and clocks.

use super::*;

const SPINNER: Duration = Duration::from_millis(100);

/// A frame's drawing time for which news is drawn every 100 ms.
const TENTH: Duration = Duration::from_micros(625);

/// A pacer whose frames cost `took` to draw, the first drawn at `at`.
fn drawn(at: Instant, took: Duration) -> FramePacer {
    let mut pacer = FramePacer::new();
    pacer.drew(at, took);
    pacer
}

/// Steps `pacer` through `[start, end)` one millisecond at a time, calling `event`
/// before each step's check, as the loop does; the instants frames were drawn at. Each
/// frame costs what the pacer's first one did.
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
            let took = pacer.cost;
            pacer.drew(now, took);
            frames.push(now);
        }
        now += Duration::from_millis(1);
    }
    frames
}

/// Milliseconds from `start` to each of `frames`.
fn millis_after(start: Instant, frames: &[Instant]) -> Vec<u128> {
    frames.iter().map(|at| (*at - start).as_millis()).collect()
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
    let mut pacer = drawn(start, TENTH);
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
        vec![start + Duration::from_millis(100)],
        "one frame shows the whole burst"
    );
}

#[test]
fn a_steady_stream_is_drawn_once_per_news_gap() {
    let start = Instant::now();
    let mut pacer = drawn(start, TENTH);
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
            .all(|pair| pair[1] - pair[0] == Duration::from_millis(100))
    );
}

#[test]
fn keys_are_drawn_within_a_frame_time_even_while_streaming() {
    let start = Instant::now();
    let mut pacer = drawn(start, TENTH);
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
    let offsets = millis_after(start, &frames);
    assert_eq!(
        offsets,
        vec![20, 120],
        "the key at once, the stream 100 ms later"
    );
}

#[test]
fn changes_are_drawn_at_most_once_per_frame_time() {
    let start = Instant::now();
    // Frames that cost nothing: news is drawn as often as keys are.
    let mut pacer = drawn(start, Duration::ZERO);
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
    let mut pacer = drawn(start, Duration::ZERO);
    let key = start + Duration::from_secs(3);
    assert!(!pacer.owes_frame());
    pacer.changed();
    assert!(pacer.owes_frame());
    assert!(pacer.is_due(key, &[]), "a key press is not held back");
    pacer.drew(key, Duration::ZERO);
    assert!(!pacer.owes_frame(), "the frame showed it");
}

#[test]
fn nothing_changing_and_nothing_moving_draws_nothing_for_10_s() {
    let start = Instant::now();
    let mut pacer = drawn(start, Duration::ZERO);
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
    let mut pacer = drawn(start, Duration::ZERO);
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
    let mut pacer = drawn(start, Duration::ZERO);
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
    let offsets = millis_after(start, &frames);
    assert_eq!(offsets, vec![500, 800, 1500, 1800, 2500, 2800]);
}

#[test]
fn a_change_between_spinner_steps_does_not_add_frames_closer_than_frame_time() {
    let start = Instant::now();
    let mut pacer = drawn(start, Duration::ZERO);
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
    let offsets = millis_after(start, &frames);
    assert_eq!(
        offsets,
        vec![90, 106],
        "the step at 100 waits for the frame time"
    );
}

#[test]
fn the_news_gap_is_the_budget_times_what_frames_cost() {
    let start = Instant::now();
    let gap = |took: Duration| drawn(start, took).news_gap();
    assert_eq!(gap(Duration::ZERO), FRAME, "never closer than a frame time");
    assert_eq!(gap(Duration::from_micros(50)), FRAME);
    assert_eq!(gap(Duration::from_micros(200)), Duration::from_millis(32));
    assert_eq!(gap(Duration::from_millis(1)), Duration::from_millis(160));
    assert_eq!(
        gap(Duration::from_millis(40)),
        SLOWEST,
        "never further apart"
    );
}

#[test]
fn one_slow_frame_moves_the_cost_an_eighth_of_the_way() {
    let start = Instant::now();
    let mut pacer = drawn(start, Duration::from_micros(200));
    pacer.drew(start + FRAME, Duration::from_micros(1_000));
    assert_eq!(pacer.cost, Duration::from_micros(300));
    for step in 2..40 {
        pacer.drew(start + FRAME * step, Duration::from_micros(100));
    }
    assert!(
        pacer.news_gap() < Duration::from_millis(20),
        "{:?}",
        pacer.news_gap()
    );
}

#[test]
fn streaming_while_frames_are_costly_draws_within_the_budget() {
    let start = Instant::now();
    // A 200×50 grid of six streaming cards: about 1 ms a frame.
    let mut pacer = drawn(start, Duration::from_millis(1));
    let spinner = Cadence::new(start, SPINNER);
    let frames = run(
        &mut pacer,
        start,
        start + Duration::from_secs(2),
        &[spinner],
        |_, pacer| pacer.streamed(),
    );
    assert!(
        frames
            .windows(2)
            .all(|pair| pair[1] - pair[0] >= Duration::from_millis(160))
    );
    // 12 frames of 1 ms in 2 s: 0.6 % of a core.
    assert_eq!(frames.len(), 12, "{frames:?}");
}

#[test]
fn a_key_is_drawn_at_once_however_costly_frames_are() {
    let start = Instant::now();
    let mut pacer = drawn(start, Duration::from_millis(5));
    pacer.streamed();
    let key = start + Duration::from_millis(40);
    assert!(!pacer.is_due(key, &[]), "news waits for its gap");
    pacer.changed();
    assert!(pacer.is_due(key, &[]), "a key does not");
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

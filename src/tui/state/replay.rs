//! What the state knows of a replay (`massgen replay`): where the recorded events come
//! from, how they are paced, whether all have played, and the replay's clock.

use std::path::{Path, PathBuf};

use jiff::Timestamp;

use super::UiState;

#[derive(Clone, Debug, PartialEq)]
pub struct ReplayState {
    /// The path the recorded events were read from.
    pub source: PathBuf,
    /// Times the recorded pace.
    pub speed: f64,
    /// One step per key press instead of the recorded pace.
    pub step: bool,
    /// Every recorded event has been played.
    pub finished: bool,
    /// When the newest played event happened: clocks show recorded time, not the wall's.
    pub clock: Timestamp,
}

impl UiState {
    pub(super) fn start_replay(&mut self, at: Timestamp, source: &Path, speed: f64, step: bool) {
        self.replay = Some(ReplayState {
            source: source.to_path_buf(),
            speed,
            step,
            finished: false,
            clock: at,
        });
    }

    pub(super) fn finish_replay(&mut self) {
        if let Some(replay) = self.replay.as_mut() {
            replay.finished = true;
        }
    }

    /// A replay's clock is the time of the newest event it played.
    pub(super) fn tick_replay_clock(&mut self, at: Timestamp) {
        if let Some(replay) = self.replay.as_mut() {
            replay.clock = at;
        }
    }
}

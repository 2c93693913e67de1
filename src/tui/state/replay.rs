//! What the state knows of a replay (`massgen replay`): where the recorded events come
//! from, how they are paced, whether all have played, and the replay's clock.

use std::path::{Path, PathBuf};

use jiff::Timestamp;

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

impl ReplayState {
    /// A replay of the events recorded at `source` starts; its clock at `at`.
    pub(super) fn new(at: Timestamp, source: &Path, speed: f64, step: bool) -> Self {
        Self {
            source: source.to_path_buf(),
            speed,
            step,
            finished: false,
            clock: at,
        }
    }
}

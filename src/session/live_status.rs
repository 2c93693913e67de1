//! `status.json` kept current while a turn runs: every event of the turn folds into a
//! [`StatusTracker`], and one background task rewrites the file from it every 2 s, on the
//! blocking pool. A slow disk delays the next write instead of queueing more; the event
//! path only takes a short lock.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio::time::MissedTickBehavior;

use super::derived::StatusTracker;
use super::{pretty_json, write_atomic};
use crate::protocol::Event;

/// How often MassGen refreshes `status.json`.
pub const STATUS_PERIOD: Duration = Duration::from_secs(2);
/// How soon to look again for the turn's start, so the file appears as the turn begins.
const START_POLL: Duration = Duration::from_millis(100);

pub struct LiveStatus {
    tracker: Arc<Mutex<StatusTracker>>,
    /// Dropping it stops the task.
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl LiveStatus {
    /// Starts rewriting `path` every `period`, first as soon as the turn has started.
    /// Must be called within a tokio runtime.
    pub fn start(path: PathBuf, period: Duration) -> Self {
        let tracker = Arc::new(Mutex::new(StatusTracker::default()));
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(refresh(path, period, Arc::clone(&tracker), stopped));
        Self {
            tracker,
            stop,
            task,
        }
    }

    pub fn apply(&self, event: &Event) {
        if let Ok(mut tracker) = self.tracker.lock() {
            tracker.apply(event);
        }
    }

    /// Stops the task and waits for a write in progress, so a later write of the file
    /// (the final state) is the last one.
    pub async fn stop(self) {
        drop(self.stop);
        if let Err(error) = self.task.await {
            tracing::warn!(%error, "the status.json writer failed");
        }
    }
}

async fn refresh(
    path: PathBuf,
    period: Duration,
    tracker: Arc<Mutex<StatusTracker>>,
    mut stopped: oneshot::Receiver<()>,
) {
    let mut ticks = tokio::time::interval(period);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Skip);
    let mut warned = false;
    loop {
        tokio::select! {
            _ = &mut stopped => return,
            _ = ticks.tick() => {}
        }
        let Some(contents) = snapshot(&tracker) else {
            ticks.reset_after(START_POLL.min(period));
            continue;
        };
        let target = path.clone();
        let written = tokio::task::spawn_blocking(move || write_atomic(&target, &contents))
            .await
            .unwrap_or_else(|error| Err(std::io::Error::other(error)));
        if let Err(error) = written
            && !warned
        {
            warned = true;
            tracing::warn!(path = %path.display(), %error, "status.json not written");
        }
    }
}

/// The file's contents now, once the turn has started.
fn snapshot(tracker: &Mutex<StatusTracker>) -> Option<Vec<u8>> {
    let tracker = tracker.lock().ok()?;
    tracker
        .has_started()
        .then(|| pretty_json(&tracker.to_json(jiff::Timestamp::now())))
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::protocol::{AgentInfo, AnswerLabel, EventMsg, Mode};
    use crate::tui::test_support::event;

    const QUICK: Duration = Duration::from_millis(40);

    fn read(path: &std::path::Path) -> Option<Value> {
        serde_json::from_slice(&std::fs::read(path).ok()?).ok()
    }

    async fn settle() {
        tokio::time::sleep(QUICK * 4).await;
    }

    #[tokio::test]
    async fn the_file_appears_as_soon_as_the_turn_starts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("status.json");
        let live = LiveStatus::start(path.clone(), Duration::from_secs(3600));
        tokio::time::sleep(START_POLL).await;
        live.apply(&started());
        tokio::time::sleep(START_POLL * 3).await;
        assert_eq!(read(&path).unwrap()["meta"]["question"], "q");
        live.stop().await;
    }

    fn started() -> Event {
        let roster = AgentInfo::roster([(
            crate::protocol::AgentId::new("solo"),
            "scripted".to_string(),
            "m".to_string(),
        )]);
        event(
            1,
            None,
            EventMsg::TurnStarted {
                options: Default::default(),
                question: "q".into(),
                mode: Mode::Normal,
                agents: roster,
                log_dir: None,
            },
        )
    }

    #[tokio::test]
    async fn the_file_follows_the_turn_and_stops_when_told() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("status.json");
        let live = LiveStatus::start(path.clone(), QUICK);
        settle().await;
        assert!(!path.exists(), "nothing to show before the turn starts");

        let started = started();
        let EventMsg::TurnStarted { agents, .. } = &started.msg else {
            unreachable!()
        };
        let anon = agents[0].anon_id.clone();
        live.apply(&started);
        settle().await;
        let status = read(&path).unwrap();
        assert_eq!(status["meta"]["question"], "q");
        assert_eq!(status["agents"]["solo"]["answer_count"], 0);

        live.apply(&event(
            2,
            Some("solo"),
            EventMsg::AnswerSubmitted {
                label: AnswerLabel::answer(&anon, 1),
                anon_id: anon,
                content: "a".into(),
                votes_reset: None,
            },
        ));
        settle().await;
        assert_eq!(read(&path).unwrap()["agents"]["solo"]["answer_count"], 1);

        live.stop().await;
        std::fs::remove_file(&path).unwrap();
        settle().await;
        assert!(!path.exists(), "no write after stop");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert!(names.is_empty(), "no temporary file left: {names:?}");
    }
}

//! How far an eval is: a [`Progress`] snapshot after every finished item (done and total
//! per contender and overall, accuracy so far, spend, ETA), sent over a channel to
//! whichever display shows it; and the plain display, one line per item or one status line.

use std::io::Write;
use std::time::Duration;

use serde::Serialize;
use tokio::sync::mpsc;

/// One contender's share of the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ContenderProgress {
    pub name: String,
    pub done: usize,
    pub total: usize,
    pub correct: usize,
}

/// The item that just finished.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finished {
    pub contender: String,
    pub item: String,
    pub correct: bool,
    pub error: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Progress {
    pub contenders: Vec<ContenderProgress>,
    pub done: usize,
    pub total: usize,
    pub correct: usize,
    /// Spent so far by the answers (and the judge), in USD.
    pub spent_usd: f64,
    /// Seconds left at the pace so far; `None` before the first item of this run.
    pub eta_seconds: Option<f64>,
    pub last: Option<Finished>,
}

impl Progress {
    pub fn accuracy(&self) -> Option<f64> {
        (self.done > 0).then(|| self.correct as f64 / self.done as f64)
    }
}

/// Keeps the counts and makes snapshots.
#[derive(Debug)]
pub struct Tracker {
    progress: Progress,
    concurrency: usize,
    /// Items run (not resumed) in this run and their summed wall time.
    timed: usize,
    time_spent: Duration,
}

impl Tracker {
    /// `totals`: each contender's name and item count, in order.
    pub fn new(totals: &[(String, usize)], concurrency: usize) -> Self {
        let contenders: Vec<ContenderProgress> = totals
            .iter()
            .map(|(name, total)| ContenderProgress {
                name: name.clone(),
                total: *total,
                ..ContenderProgress::default()
            })
            .collect();
        Self {
            progress: Progress {
                total: contenders.iter().map(|row| row.total).sum(),
                contenders,
                ..Progress::default()
            },
            concurrency: concurrency.max(1),
            timed: 0,
            time_spent: Duration::ZERO,
        }
    }

    /// Counts a result; `took` is its wall time when it ran now (`None`: resumed).
    pub fn record(
        &mut self,
        finished: Finished,
        cost_usd: f64,
        took: Option<Duration>,
    ) -> Progress {
        let progress = &mut self.progress;
        if let Some(row) = progress
            .contenders
            .iter_mut()
            .find(|row| row.name == finished.contender)
        {
            row.done += 1;
            row.correct += usize::from(finished.correct);
        }
        progress.done += 1;
        progress.correct += usize::from(finished.correct);
        progress.spent_usd += cost_usd;
        if let Some(took) = took {
            self.timed += 1;
            self.time_spent += took;
        }
        let left = progress.total.saturating_sub(progress.done);
        progress.eta_seconds = (self.timed > 0).then(|| {
            let mean = self.time_spent.as_secs_f64() / self.timed as f64;
            mean * left as f64 / self.concurrency.min(left.max(1)) as f64
        });
        progress.last = Some(finished);
        progress.clone()
    }

    /// Adds spend that belongs to no item (the judge's).
    pub fn spend(&mut self, cost_usd: f64) {
        self.progress.spent_usd += cost_usd;
    }

    pub fn snapshot(&self) -> Progress {
        self.progress.clone()
    }
}

/// One line for a finished item, as the plain display prints it off a terminal.
pub fn item_line(progress: &Progress) -> String {
    let Some(last) = &progress.last else {
        return status_line(progress);
    };
    let verdict = match (&last.error, last.correct) {
        (Some(error), _) => format!("error: {error}"),
        (None, true) => "correct".into(),
        (None, false) => "wrong".into(),
    };
    format!(
        "[{}/{}] {} · {}: {verdict} ({})",
        progress.done,
        progress.total,
        last.contender,
        last.item,
        status_line(progress)
    )
}

/// The overall status: items, accuracy so far, spend and ETA.
pub fn status_line(progress: &Progress) -> String {
    let accuracy = progress.accuracy().map_or_else(
        || "–".into(),
        |accuracy| format!("{:.1}%", accuracy * 100.0),
    );
    let eta = progress.eta_seconds.map_or_else(
        || "–".into(),
        |seconds| format!("{}s", seconds.ceil() as u64),
    );
    format!(
        "{}/{} items · {accuracy} correct · ${:.4} spent · ETA {eta}",
        progress.done, progress.total, progress.spent_usd
    )
}

/// Prints snapshots as they come until the channel closes: on a terminal one status line
/// rewritten in place, else one line per finished item.
pub async fn print(
    mut snapshots: mpsc::UnboundedReceiver<Progress>,
    on_terminal: bool,
    mut out: impl Write,
) {
    let mut drew = false;
    while let Some(progress) = snapshots.recv().await {
        let _ = if on_terminal {
            drew = true;
            write!(out, "\r\x1b[2K{}", status_line(&progress))
        } else {
            writeln!(out, "{}", item_line(&progress))
        };
        let _ = out.flush();
    }
    if drew {
        let _ = writeln!(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(contender: &str, correct: bool) -> Finished {
        Finished {
            contender: contender.into(),
            item: "q1".into(),
            correct,
            error: None,
        }
    }

    #[test]
    fn counts_per_contender_and_overall_with_an_eta() {
        let mut tracker = Tracker::new(&[("a".into(), 4), ("b".into(), 4)], 2);
        let first = tracker.record(finished("a", true), 0.5, Some(Duration::from_secs(2)));
        assert_eq!((first.done, first.total, first.correct), (1, 8, 1));
        // 7 left at 2 s each, 2 at a time.
        assert_eq!(first.eta_seconds, Some(7.0));
        let second = tracker.record(finished("b", false), 0.25, None);
        assert_eq!(second.contenders[0].done, 1);
        assert_eq!(second.contenders[1].correct, 0);
        assert_eq!(second.accuracy(), Some(0.5));
        assert!((second.spent_usd - 0.75).abs() < 1e-9);
        assert_eq!(second.eta_seconds, Some(6.0));
    }

    #[test]
    fn resumed_items_give_no_eta_until_one_runs() {
        let mut tracker = Tracker::new(&[("a".into(), 2)], 4);
        let progress = tracker.record(finished("a", true), 0.0, None);
        assert_eq!(progress.eta_seconds, None);
        assert!(status_line(&progress).contains("ETA –"));
    }

    #[test]
    fn lines_name_the_item_and_the_status() {
        let mut tracker = Tracker::new(&[("vote".into(), 2)], 1);
        let progress = tracker.record(finished("vote", false), 0.001, Some(Duration::ZERO));
        let line = item_line(&progress);
        assert!(line.starts_with("[1/2] vote · q1: wrong"), "{line}");
        assert!(line.contains("0.0% correct"), "{line}");
    }

    #[tokio::test]
    async fn the_plain_printer_writes_a_line_per_item_off_a_terminal() {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut tracker = Tracker::new(&[("a".into(), 2)], 1);
        tx.send(tracker.record(finished("a", true), 0.0, None))
            .unwrap();
        tx.send(tracker.record(finished("a", false), 0.0, None))
            .unwrap();
        drop(tx);
        let mut plain = Vec::new();
        print(rx, false, &mut plain).await;
        let plain = String::from_utf8(plain).unwrap();
        assert_eq!(plain.lines().count(), 2, "{plain}");

        let (tx, rx) = mpsc::unbounded_channel();
        tx.send(tracker.snapshot()).unwrap();
        drop(tx);
        let mut live = Vec::new();
        print(rx, true, &mut live).await;
        let live = String::from_utf8(live).unwrap();
        assert!(live.starts_with("\r\x1b[2K2/2 items"), "{live:?}");
    }
}

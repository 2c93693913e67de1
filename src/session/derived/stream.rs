//! The end-of-turn pass over a turn's `events.jsonl`, one line at a time: what each agent
//! streamed goes straight to `agent_outputs/`, and only the events the other derived files
//! read are kept, streamed text folded away, so a log of any length is never held whole.

use std::collections::HashSet;
use std::fs::File;
use std::hash::Hash;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::agents::{final_presentation_path, output_path, output_piece};
use crate::protocol::{AgentId, AnswerLabel, Event, EventMsg};
use crate::session::event_log::each_event;
use crate::session::{write_atomic, write_atomic_with};

/// The turn's events with streamed text folded away (see [`Compactor`]): what every
/// derived file but `agent_outputs/agent_<id>.txt`, and the session's record of the turn,
/// read. A log that cannot be read to its end gives the events before the fault.
pub fn read_compacted(path: &Path) -> io::Result<Vec<Event>> {
    let mut compactor = Compactor::default();
    each_event(path, |event| compactor.push(event))?;
    Ok(compactor.finish())
}

/// Writes every file derived from the turn's log in `attempt_dir`, reading the log once;
/// gives back its compacted events (for the session's record), and how many files were
/// written or the first failure.
pub fn write_derived(attempt_dir: &Path) -> (Vec<Event>, io::Result<usize>) {
    let mut compactor = Compactor::default();
    let mut outputs = StreamedOutputs::new(attempt_dir);
    let log = attempt_dir.join("events.jsonl");
    if let Err(error) = each_event(&log, |event| {
        outputs.take(&event);
        compactor.push(event);
    }) && error.kind() != io::ErrorKind::NotFound
    {
        tracing::warn!(path = %log.display(), %error, "the event log is read up to a fault");
    }
    let events = compactor.finish();
    let streamed = outputs.finish();
    let written = super::each_compacted(&events, |relative, contents| {
        write_atomic_with(&attempt_dir.join(relative), contents)
    });
    let written = match (written, streamed) {
        (Ok(compacted), Ok(streamed)) => Ok(compacted + streamed),
        (Err(error), _) | (_, Err(error)) => Err(error),
    };
    (events, written)
}

/// Keeps a turn's events as the derived files need them. Streamed text (text, reasoning,
/// the presentation) is read only for `agent_outputs/`; what the rest read of it is when
/// it came and from whom: the first event of the turn, each agent's last activity, the
/// last event of the turn. So a delta is kept, its text emptied, only while it is its
/// agent's latest event (or when it is the log's first): at most one per agent, put back
/// in log order at the end. A large team's turn streams in short interleaved runs, so
/// keeping every run's ends kept most of its deltas.
/// Agent ids and answer labels, read anew for every event (a large team's round lists
/// every answer it sees), are shared between the kept events.
#[derive(Default)]
struct Compactor {
    kept: Vec<Event>,
    /// Each agent's latest event when it is a delta, with where it goes in `kept` (the
    /// length of `kept` when it came), in log order.
    latest_deltas: Vec<(usize, Event)>,
    agents: HashSet<AgentId>,
    labels: HashSet<AnswerLabel>,
}

impl Compactor {
    fn push(&mut self, mut event: Event) {
        self.share_names(&mut event);
        if let Some(index) = self
            .latest_deltas
            .iter()
            .position(|(_, delta)| delta.agent == event.agent)
        {
            self.latest_deltas.remove(index);
        }
        let first = self.kept.is_empty() && self.latest_deltas.is_empty();
        match streamed_text(&mut event.msg) {
            Some(text) if !first => {
                *text = String::new();
                self.latest_deltas.push((self.kept.len(), event));
            }
            Some(text) => {
                *text = String::new();
                self.kept.push(event);
            }
            None => self.kept.push(event),
        }
    }

    fn share_names(&mut self, event: &mut Event) {
        if let Some(agent) = event.agent.as_mut() {
            share(&mut self.agents, agent);
        }
        match &mut event.msg {
            EventMsg::RoundStarted { answers_seen, .. } => {
                for label in answers_seen {
                    share(&mut self.labels, label);
                }
            }
            EventMsg::AnswerSubmitted {
                label, votes_reset, ..
            } => {
                share(&mut self.labels, label);
                for agent in votes_reset.iter_mut().flatten() {
                    share(&mut self.agents, agent);
                }
            }
            EventMsg::VoteCast {
                target,
                target_label,
                ..
            } => {
                share(&mut self.agents, target);
                share(&mut self.labels, target_label);
            }
            _ => {}
        }
    }

    fn finish(self) -> Vec<Event> {
        let mut events = Vec::with_capacity(self.kept.len() + self.latest_deltas.len());
        let mut deltas = self.latest_deltas.into_iter().peekable();
        for (index, event) in self.kept.into_iter().enumerate() {
            while let Some((_, delta)) = deltas.next_if(|(at, _)| *at <= index) {
                events.push(delta);
            }
            events.push(event);
        }
        events.extend(deltas.map(|(_, delta)| delta));
        events
    }
}

/// Makes `value` the copy of it in `shared` (cheap to clone), adding it there if new.
fn share<T: Clone + Eq + Hash>(shared: &mut HashSet<T>, value: &mut T) {
    if let Some(copy) = shared.get(value) {
        *value = copy.clone();
    } else {
        shared.insert(value.clone());
    }
}

fn streamed_text(msg: &mut EventMsg) -> Option<&mut String> {
    match msg {
        EventMsg::TextDelta { text }
        | EventMsg::ReasoningDelta { text }
        | EventMsg::FinalPresentationDelta { text } => Some(text),
        _ => None,
    }
}

/// `agent_outputs/` written while the log is read: each agent's file grows in a temporary
/// beside it, renamed over it at the end; a final presentation is written when it comes.
struct StreamedOutputs {
    attempt_dir: PathBuf,
    files: Vec<(AgentId, OutputFile)>,
    written: usize,
    /// The first failure; nothing more is written after it.
    failed: Option<io::Error>,
}

struct OutputFile {
    path: PathBuf,
    temporary: PathBuf,
    writer: BufWriter<File>,
    /// Some text is written: the file's leading white space is behind.
    started: bool,
}

impl StreamedOutputs {
    fn new(attempt_dir: &Path) -> Self {
        Self {
            attempt_dir: attempt_dir.to_path_buf(),
            files: Vec::new(),
            written: 0,
            failed: None,
        }
    }

    fn take(&mut self, event: &Event) {
        let Some(agent) = event.agent.as_ref() else {
            return;
        };
        if self.failed.is_some() {
            return;
        }
        if let Err(error) = self.write(agent, &event.msg) {
            self.failed = Some(error);
        }
    }

    fn write(&mut self, agent: &AgentId, msg: &EventMsg) -> io::Result<()> {
        let file = self.file(agent)?;
        if let Some(piece) = output_piece(msg) {
            let piece = if file.started {
                &piece
            } else {
                piece.trim_start()
            };
            if !piece.is_empty() {
                file.started = true;
                file.writer.write_all(piece.as_bytes())?;
            }
        } else if let EventMsg::FinalPresentationDone { content, .. } = msg {
            let path = self.attempt_dir.join(final_presentation_path(agent));
            write_atomic(&path, content.as_bytes())?;
            self.written += 1;
        }
        Ok(())
    }

    fn file(&mut self, agent: &AgentId) -> io::Result<&mut OutputFile> {
        let index = match self.files.iter().position(|(id, _)| id == agent) {
            Some(index) => index,
            None => {
                let path = self.attempt_dir.join(output_path(agent));
                let name = path
                    .file_name()
                    .map(|name| name.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let temporary = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                let writer = BufWriter::with_capacity(64 * 1024, File::create(&temporary)?);
                let file = OutputFile {
                    path,
                    temporary,
                    writer,
                    started: false,
                };
                self.files.push((agent.clone(), file));
                self.files.len() - 1
            }
        };
        Ok(&mut self.files[index].1)
    }

    /// Puts every agent's file in place; how many files were written.
    fn finish(self) -> io::Result<usize> {
        let mut result = self.failed.map_or(Ok(self.written), Err);
        for (_, mut file) in self.files {
            if let Ok(count) = result {
                result = file.place().map(|()| count + 1);
            }
            if result.is_err() {
                let _ = std::fs::remove_file(&file.temporary);
            }
        }
        result
    }
}

impl OutputFile {
    fn place(&mut self) -> io::Result<()> {
        self.writer.flush()?;
        self.writer.get_ref().sync_all()?;
        std::fs::rename(&self.temporary, &self.path)
    }
}

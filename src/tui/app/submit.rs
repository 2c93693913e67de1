//! Enter in the composer: a slash command, a question (with its `@path` attachments
//! checked) or input for running agents; and Up/Down through earlier questions.

use super::{App, Effect};
use crate::config::{ALLOW_FLAG, Grantor, refusal};
use crate::protocol::{Mode, Op};
use crate::workspace::{ParsedPrompt, parse_prompt};

impl App {
    /// Enter: a slash command, else a question when idle, else human input for the agents.
    /// In Execute mode an empty Enter runs the chosen plan as it is.
    pub(super) fn submit(&mut self) -> Vec<Effect> {
        let text = self.view.composer.text().trim().to_string();
        let run_plan = self.view.mode == Mode::Execute && !self.state.is_running();
        if text.is_empty() && !run_plan {
            return Vec::new();
        }
        self.view.composer.clear();
        self.history_at = None;
        if let Some(command) = text.strip_prefix('/') {
            return self.command(command.trim());
        }
        if !text.is_empty() {
            self.remember(text.clone());
        }
        if self.state.is_running() {
            return vec![Effect::Send(Op::InjectHumanInput { text })];
        }
        let mut parsed = parse_prompt(&text, &self.cwd);
        if !parsed.missing.is_empty() {
            self.view.composer.set_text(&text);
            self.view.notice = Some(format!(
                "not found: @{} (paths are taken from {})",
                parsed.missing.join(", @"),
                self.cwd.display()
            ));
            return Vec::new();
        }
        self.attach_cwd(&mut parsed);
        if let Some(notice) = self.refused_attachment(&parsed) {
            self.view.composer.set_text(&text);
            self.view.notice = Some(notice);
            return Vec::new();
        }
        self.view.context.attached.clone_from(&parsed.paths);
        vec![Effect::Send(Op::Submit {
            text: parsed.text,
            mode: self.view.mode,
            context_paths: parsed.paths,
            options: self.view.choices.options(self.view.mode),
        })]
    }

    /// Why an `@path` of `parsed` is not attached: the same rule as for a question given
    /// on the command line.
    fn refused_attachment(&self, parsed: &ParsedPrompt) -> Option<String> {
        if self.allow_outside_project {
            return None;
        }
        let project = self.cwd.canonicalize().unwrap_or_else(|_| self.cwd.clone());
        parsed.paths.iter().find_map(|attached| {
            let refused = refusal(&attached.path, &project, Grantor::Attachment)?;
            Some(format!(
                "@{} {}; not attached (attach files inside it, or start massgen with {ALLOW_FLAG})",
                attached.path.display(),
                refused.describe()
            ))
        })
    }

    pub(super) fn remember(&mut self, text: String) {
        if self.history.last() != Some(&text) {
            self.history.push(text);
        }
    }

    /// Up (`step < 0`) and Down through earlier questions; the draft being written is kept
    /// and comes back after the newest entry.
    pub(super) fn recall(&mut self, step: isize) {
        if self.history.is_empty() {
            return;
        }
        let last = self.history.len() - 1;
        let next = match (self.history_at, step < 0) {
            (None, true) => {
                self.draft = Some(self.view.composer.text());
                Some(last)
            }
            (None, false) => return,
            (Some(at), true) => Some(at.saturating_sub(1)),
            (Some(at), false) if at < last => Some(at + 1),
            (Some(_), false) => None,
        };
        self.history_at = next;
        let text = match next {
            Some(at) => self.history.get(at).cloned().unwrap_or_default(),
            None => self.draft.take().unwrap_or_default(),
        };
        self.view.composer.set_text(&text);
    }
}

//! Enter in the composer: a slash command, a question (with its `@path` attachments
//! checked) or input for running agents.

use super::{App, Effect};
use crate::config::{ALLOW_FLAG, Grantor, refusal};
use crate::protocol::{Mode, Op};
use crate::workspace::{ParsedPrompt, parse_prompt};

impl App {
    /// Enter: a slash command, else a question when idle, else human input for the agents.
    /// In Execute mode an empty Enter runs the chosen plan as it is.
    pub(super) fn submit(&mut self) -> Vec<Effect> {
        let text = self.view.input.composer.text().trim().to_string();
        let run_plan = self.next.mode == Mode::Execute && !self.state.is_running();
        if text.is_empty() && !run_plan {
            return Vec::new();
        }
        self.view.input.composer.clear();
        self.history.leave();
        if let Some(command) = text.strip_prefix('/') {
            return self.command(command.trim());
        }
        if !text.is_empty() {
            self.history.remember(text.clone());
        }
        if self.state.is_running() {
            return vec![Effect::Send(Op::InjectHumanInput {
                text,
                targets: Vec::new(),
            })];
        }
        let mut parsed = parse_prompt(&text, &self.place.cwd);
        if !parsed.missing.is_empty() {
            self.view.input.composer.set_text(&text);
            self.view.notice = Some(format!(
                "not found: @{} (paths are taken from {})",
                parsed.missing.join(", @"),
                self.place.cwd.display()
            ));
            return Vec::new();
        }
        self.attach_cwd(&mut parsed);
        if let Some(notice) = self.refused_attachment(&parsed) {
            self.view.input.composer.set_text(&text);
            self.view.notice = Some(notice);
            return Vec::new();
        }
        self.view.context.attached.clone_from(&parsed.paths);
        vec![Effect::Send(Op::Submit {
            text: parsed.text,
            mode: self.next.mode,
            context_paths: parsed.paths,
            options: self.next.choices.options(self.next.mode),
        })]
    }

    /// Why an `@path` of `parsed` is not attached: the same rule as for a question given
    /// on the command line.
    fn refused_attachment(&self, parsed: &ParsedPrompt) -> Option<String> {
        if self.place.allow_outside_project {
            return None;
        }
        let project = self
            .place
            .cwd
            .canonicalize()
            .unwrap_or_else(|_| self.place.cwd.clone());
        parsed.paths.iter().find_map(|attached| {
            let refused = refusal(&attached.path, &project, Grantor::Attachment)?;
            Some(format!(
                "@{} {}; not attached (attach files inside it, or start massgen with {ALLOW_FLAG})",
                attached.path.display(),
                refused.describe()
            ))
        })
    }
}

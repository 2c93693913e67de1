//! The views and keys from MassGen's TUI (behaviour §3): `/context`, `/metrics` (`M`),
//! `/history` (`h`), the override of the final answer (Ctrl+O), the current-directory
//! toggle (Ctrl+P) and `/export`.

use crossterm::event::{KeyCode, KeyEvent};

use super::{App, Effect};
use crate::protocol::{ContextPath, Op};
use crate::tui::export;
use crate::tui::modal;
use crate::tui::state::Phase;
use crate::tui::view::{CwdMode, ModalKind};
use crate::workspace::ParsedPrompt;

/// What Ctrl+O says before voting is done.
pub(super) const OVERRIDE_NOT_YET: &str = "override is available once voting is done";

impl App {
    /// Ctrl+O, Ctrl+P and Ctrl+G (answer now), wherever the focus is; `None` for other keys.
    pub(super) fn view_ctrl_key(&mut self, code: KeyCode) -> Option<Vec<Effect>> {
        match code {
            KeyCode::Char('o') => {
                self.open_override();
                Some(Vec::new())
            }
            KeyCode::Char('p') => {
                self.toggle_cwd();
                Some(Vec::new())
            }
            KeyCode::Char('g') => Some(self.answer_now()),
            _ => None,
        }
    }

    /// Voting is done: the winner presents, or the turn it won has ended (and is the
    /// conversation's last).
    fn override_ready(&self) -> bool {
        let state = &self.state;
        state.turn.winner.is_some()
            && match state.turn.phase {
                Phase::Presenting => true,
                Phase::Idle => state.turns.last().is_some_and(|record| {
                    record.turn == state.turn.number && record.winner.is_some()
                }),
                Phase::Coordinating | Phase::Voting => false,
            }
    }

    fn open_override(&mut self) {
        if self.is_replay() {
            self.view.notice = Some("this is a replay: its final answers are as recorded".into());
        } else if !self.override_ready() {
            self.view.notice = Some(OVERRIDE_NOT_YET.into());
        } else {
            self.view
                .modals
                .stack
                .retain(|modal| !matches!(modal.kind, ModalKind::Override { .. }));
            let selected = modal::first_override_choice(&self.state);
            self.open(ModalKind::Override { selected });
        }
    }

    /// Enter in the override view sends the choice; other keys are the browser's.
    pub(super) fn override_key(&mut self, key: KeyEvent, selected: usize) -> Option<Vec<Effect>> {
        if key.code != KeyCode::Enter {
            return None;
        }
        self.view.modals.close_top();
        if !self.override_ready() {
            self.view.notice = Some(OVERRIDE_NOT_YET.into());
            return Some(Vec::new());
        }
        let Some(label) = modal::override_choice(&self.state, selected) else {
            return Some(Vec::new());
        };
        self.view.notice = Some(format!("👤 {label} becomes the final answer"));
        Some(vec![Effect::Send(Op::OverrideFinal { label })])
    }

    /// Ctrl+P: off → read → write → off.
    fn toggle_cwd(&mut self) {
        let context = &mut self.view.context;
        context.cwd_mode = context.cwd_mode.next();
        let dir = context.cwd.display();
        self.view.notice = Some(match context.cwd_mode {
            CwdMode::Off => "the current directory is no longer attached".to_string(),
            CwdMode::Read => format!("each question attaches {dir} (read); Ctrl+P: write"),
            CwdMode::Write => format!("each question attaches {dir} (read+write); Ctrl+P: off"),
        });
    }

    /// Adds the current directory to a question's attachments while Ctrl+P has it on, as
    /// `@<cwd>` (or `@<cwd>:w`) would.
    pub(super) fn attach_cwd(&self, parsed: &mut ParsedPrompt) {
        let writable = match self.view.context.cwd_mode {
            CwdMode::Off => return,
            CwdMode::Read => false,
            CwdMode::Write => true,
        };
        let cwd = self.place.cwd.clone();
        match parsed
            .paths
            .iter_mut()
            .find(|attached| attached.path == cwd)
        {
            Some(attached) => attached.writable |= writable,
            None => parsed.paths.push(ContextPath {
                path: cwd,
                writable,
            }),
        }
    }

    /// `/export` (the last finished turn), `/export N`, `/export PATH` or `/export N PATH`.
    pub(super) fn export(&mut self, arguments: &[&str]) -> Vec<Effect> {
        let (number, path) = match arguments {
            [] => (None, None),
            [first, rest @ ..] => match first.parse::<u32>() {
                Ok(number) => (Some(number), rest.first().copied()),
                Err(_) => (None, Some(*first)),
            },
        };
        let record = match number {
            Some(number) => self.state.turns.iter().find(|record| record.turn == number),
            None => self.state.turns.last(),
        };
        let Some(record) = record else {
            self.view.notice = Some(match number {
                Some(number) => format!("/export {number}: no such finished turn"),
                None => "/export: no finished turn yet".to_string(),
            });
            return Vec::new();
        };
        let path = path.map_or_else(
            || export::default_path(&self.place.cwd, record.turn),
            |path| self.place.cwd.join(path),
        );
        vec![Effect::Export {
            turn: record.turn,
            path,
            markdown: export::markdown(record),
        }]
    }
}

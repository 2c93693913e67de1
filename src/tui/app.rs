//! The app's reaction to keys, pastes and events: it owns the folded state, the view and
//! the composer, and answers each input with the effects to carry out (ops to send, quit).
//! No terminal and no channels here, so every key path is unit-tested.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use std::path::PathBuf;
use std::time::Instant;

use crate::protocol::{AgentInfo, Event, EventMsg, Op};
use crate::tui::choices::NextQuestion;
use crate::tui::focus::Focus;
use crate::tui::state::UiState;
use crate::tui::theme::Theme;
use crate::tui::view::{ModalKind, View};
use endings::Endings;
use history::History;
use interrupt::{Interrupt, NoticeTimer};
use roster::Roster;

/// What the loop must do after an input.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    Send(Op),
    /// Show this file in the desktop's default application (`/config`).
    OpenFile(PathBuf),
    /// Put this text on the clipboard (OSC 52).
    Copy(String),
    Quit,
    /// Write turn `turn` as Markdown to `path`, or beside it if a file is there (`/export`).
    Export {
        turn: u32,
        path: PathBuf,
        markdown: String,
    },
    /// Fetch `kind`'s model list for the agents view (answered by `App::models_listed`).
    FetchModels {
        kind: crate::config::BackendKind,
        base_url: Option<String>,
    },
    /// Write the agents view's config to `path`, replacing a file only when `overwrite`
    /// (answered by `App::agents_saved`).
    SaveAgents {
        path: PathBuf,
        yaml: String,
        overwrite: bool,
    },
}

#[derive(Clone, Debug, Default)]
pub struct App {
    pub state: UiState,
    pub view: View,
    /// The plan mode and choices the next question is asked with (the mode bar shows them).
    pub next: NextQuestion,
    /// Dark or light (Ctrl+T); plain under `NO_COLOR`.
    pub theme: Theme,
    place: Workplace,
    /// Submitted questions for Up/Down.
    history: History,
    interrupt: Interrupt,
    notice_timer: NoticeTimer,
    /// A destructive command (`/clear`) was typed once; typing it again confirms it.
    confirm_pending: Option<String>,
    /// Questions answered (or skipped) whose closing the runtime has not reported yet.
    answered: Vec<String>,
    endings: Endings,
    /// The plan the last planning turn made, ready and not yet approved or kept (`P`
    /// opens its approval in Planning).
    awaiting_approval: Option<String>,
    roster: Roster,
}

/// Where the session runs, as the command line and the config set it.
#[derive(Clone, Debug, Default)]
struct Workplace {
    /// Where `@path` completion looks and attachments are taken from.
    cwd: PathBuf,
    /// `--allow-outside-project`: `@path` may attach `/`, the home directory or a system
    /// directory.
    allow_outside_project: bool,
    /// The config file `/config` opens.
    config_file: Option<PathBuf>,
}

impl App {
    pub fn new(agents: Vec<AgentInfo>) -> Self {
        Self {
            state: UiState::new(agents),
            view: View::new(),
            ..Self::default()
        }
    }

    pub fn on_event(&mut self, event: &Event) {
        let undelivered = matches!(event.msg, EventMsg::TurnFinished { .. })
            .then(|| {
                self.state
                    .queued_input
                    .iter()
                    .find(|queued| queued.delivered_to.is_empty())
                    .map(|queued| queued.text.clone())
            })
            .flatten();
        let entries = self.state.timeline.len();
        let listing = matches!(event.msg, EventMsg::PlansListed { .. });
        let shown = if listing {
            self.shown_plans()
        } else {
            Vec::new()
        };
        self.state.apply(event);
        // A paused timeline stays where it is; the count of newer entries grows.
        self.view
            .timeline
            .keep_place(self.state.timeline.len() - entries);
        // A closed question's notice first: the end of the turn has more to say.
        self.sync_question(event);
        self.sync_approval(event);
        self.keep_final_answer(&event.msg);
        if matches!(event.msg, EventMsg::ReplayStarted { .. }) {
            self.replay_started();
        } else if matches!(event.msg, EventMsg::TurnStarted { .. }) {
            self.turn_started();
        } else if let EventMsg::TurnFinished {
            outcome, winner, ..
        } = &event.msg
        {
            self.turn_finished(*outcome, winner.as_ref(), undelivered);
        } else if listing {
            self.plans_listed(&shown);
        } else if let EventMsg::AgentsReplaced { agents } = &event.msg {
            self.agents_replaced(agents);
        } else if let EventMsg::Warning { message } = &event.msg {
            self.agents_refused(message);
        } else if let EventMsg::SessionResumed {
            notice: Some(notice),
            ..
        } = &event.msg
        {
            // `--continue` took another config's session: say so where the user looks.
            self.view.notice = Some(notice.clone());
        }
        let count = self.state.agents.len();
        if self.view.cards.focused >= count {
            self.view.cards.focused = count.saturating_sub(1);
        }
    }

    /// Pasted text goes into the composer as it is, newlines included (or into the open
    /// question's text field).
    pub fn on_paste(&mut self, text: &str) {
        if self.agents_open() {
            self.agents_paste(text);
            return;
        }
        if self.view.modals.top() == Some(ModalKind::Question) {
            self.question_paste(text);
            return;
        }
        if self.view.modals.top() == Some(ModalKind::Approval) {
            self.approval_paste(text);
            return;
        }
        self.view.input.focused = true;
        self.view.input.composer.insert(text);
        self.refresh_popup();
    }

    /// The config file `/config` opens and `/status` names.
    pub fn with_config_file(mut self, path: Option<PathBuf>) -> Self {
        self.view.context.config_file.clone_from(&path);
        self.place.config_file = path;
        self
    }

    /// Completes `@path` against `cwd`.
    pub fn with_cwd(mut self, cwd: PathBuf) -> Self {
        self.view.context.cwd.clone_from(&cwd);
        self.view.context.home = std::env::var_os("HOME").map(PathBuf::from);
        self.place.cwd = cwd;
        self
    }

    /// The config's `orchestrator.context_paths`, for `/context`.
    pub fn with_context_paths(mut self, paths: Vec<crate::config::ContextPath>) -> Self {
        self.view.context.config_paths = paths;
        self
    }

    /// `@path` may attach what a run refuses without `--allow-outside-project`.
    pub fn allowing_outside_project(mut self, allow: bool) -> Self {
        self.place.allow_outside_project = allow;
        self
    }

    pub fn on_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let effects = self.key(key);
        if self.is_replay() {
            self.keep_replay_effects(effects)
        } else {
            effects
        }
    }

    fn key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if key.kind == KeyEventKind::Release {
            return Vec::new();
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            return self.interrupt();
        }
        if ctrl && key.code == KeyCode::Char('t') {
            self.theme = self.theme.toggled();
            self.view.input.composer.restyle(&self.theme);
            return Vec::new();
        }
        if ctrl && let Some(effects) = self.view_ctrl_key(key.code) {
            return effects;
        }
        self.interrupt.disarm();
        let question_open = self.view.modals.top() == Some(ModalKind::Question);
        let approval_open = self.view.modals.top() == Some(ModalKind::Approval);
        if key.code == KeyCode::BackTab {
            if approval_open {
                return Vec::new();
            }
            if question_open {
                self.question_back();
                return Vec::new();
            }
            return self.cycle_mode();
        }
        self.view.notice = None;
        if self.agents_open() {
            return self.agents_key(key);
        }
        if question_open {
            return self.question_key(key);
        }
        if approval_open {
            return self.approval_view_key(key);
        }
        // The same focus the hints on screen are made for (`tui/focus.rs`).
        match Focus::of(&self.view) {
            Focus::Modal => self.modal_key(key),
            Focus::Composer | Focus::Completing => self.composer_key(key),
            Focus::Body => self.command_key(key),
        }
    }

    /// Ctrl+C: cancel the running turn (what the agents did is saved), else clear the
    /// composer, else ask to quit; a second press within `QUIT_WINDOW` quits.
    fn interrupt(&mut self) -> Vec<Effect> {
        let now = Instant::now();
        if self.interrupt.second_press(now) {
            return vec![Effect::Quit];
        }
        if self.state.is_running() {
            self.interrupt.arm(now);
            if self.interrupt.cancel_pending {
                self.view.notice = Some("still cancelling… Ctrl+C again quits".into());
                return Vec::new();
            }
            self.interrupt.cancel_pending = true;
            self.view.notice =
                Some("cancelling the turn; its work is saved (Ctrl+C again quits)".into());
            return vec![Effect::Send(Op::Cancel)];
        }
        if !self.view.input.composer.is_empty() {
            // Cleared text stays one Up away.
            let text = self.view.input.composer.text();
            self.history.remember(text);
            self.view.input.composer.clear();
            self.view.input.popup = None;
            self.history.leave();
            self.view.notice = Some("cleared (Up brings it back)".into());
            return Vec::new();
        }
        self.interrupt.arm(now);
        self.view.notice = Some("press Ctrl+C again to quit".into());
        Vec::new()
    }

    /// Notices go away after `NOTICE_TTL`; true when one just did. The time left until
    /// the one on screen goes, if any, is when the screen must be drawn again.
    pub fn expire_notice(&mut self, now: Instant) -> (bool, Option<Instant>) {
        self.notice_timer.expire(&mut self.view.notice, now)
    }
}

mod agents;
#[cfg(test)]
mod agents_tests;
mod answer_now;
#[cfg(test)]
mod answer_now_tests;
mod approval;
#[cfg(test)]
mod approval_tests;
mod body_keys;
#[cfg(test)]
mod chosen_answer_tests;
#[cfg(test)]
mod command_tests;
mod commands;
mod composer_keys;
mod endings;
mod files;
#[cfg(test)]
mod files_tests;
mod final_view;
#[cfg(test)]
mod final_view_tests;
#[cfg(test)]
mod focus_tests;
mod grid;
#[cfg(test)]
mod grid_tests;
mod history;
#[cfg(test)]
mod history_tests;
mod interrupt;
mod mouse;
#[cfg(test)]
mod mouse_tests;
mod plan;
#[cfg(test)]
mod plan_flow_tests;
#[cfg(test)]
mod plan_tests;
mod question;
#[cfg(test)]
mod question_tests;
mod replay;
#[cfg(test)]
mod replay_tests;
mod roster;
mod scroll;
mod strategy;
#[cfg(test)]
mod strategy_tests;
mod submit;
#[cfg(test)]
mod tests;
mod turn_end;
#[cfg(test)]
mod turn_end_tests;
#[cfg(test)]
mod view_tests;
mod views;
#[cfg(test)]
mod views_tests;

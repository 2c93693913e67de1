//! The app's reaction to keys, pastes and events: it owns the folded state, the view and
//! the composer, and answers each input with the effects to carry out (ops to send, quit).
//! No terminal and no channels here, so every key path is unit-tested.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use std::path::PathBuf;
use std::time::Instant;

use crate::protocol::{AgentInfo, Event, EventMsg, Op, TurnOutcome};
use crate::tui::choices::NextQuestion;
use crate::tui::focus::Focus;
use crate::tui::state::UiState;
use crate::tui::theme::Theme;
use crate::tui::view::{ModalKind, View};

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
    /// Submitted questions, oldest first, for Up/Down.
    history: Vec<String>,
    /// Where Up/Down is in `history` (`None` = editing a new entry).
    history_at: Option<usize>,
    /// The draft being written when Up first recalled history; Down past the newest entry
    /// brings it back.
    draft: Option<String>,
    /// Where `@path` completion looks.
    cwd: PathBuf,
    /// `--allow-outside-project`: `@path` may attach `/`, the home directory or a system
    /// directory.
    allow_outside_project: bool,
    /// When Ctrl+C last cancelled the turn or asked to quit: a second press within
    /// `QUIT_WINDOW` quits.
    interrupt_armed: Option<Instant>,
    /// The notice on screen and since when, so it can go away after `NOTICE_TTL`.
    notice_shown: Option<(String, Instant)>,
    /// A cancel was sent and the turn has not ended yet: another Ctrl+C quits.
    cancel_pending: bool,
    /// A destructive command (`/clear`) was typed once; typing it again confirms it.
    confirm_pending: Option<String>,
    config_file: Option<PathBuf>,
    /// Questions answered (or skipped) whose closing the runtime has not reported yet.
    answered: Vec<String>,
    /// How each live turn of this session ended: outcome, and whether a final answer was
    /// presented (for the exit code; a replay's turns are not counted).
    turn_endings: Vec<(TurnOutcome, bool)>,
    /// The newest final answer of a live turn, as presented or as the user chose it
    /// (`--output-file` gets it when the session ends).
    latest_answer: Option<String>,
    /// The plan the last planning turn made, ready and not yet approved or kept (`P`
    /// opens its approval in Planning).
    awaiting_approval: Option<String>,
    /// The run's agents as the agents view starts from them.
    agent_drafts: Vec<crate::config::AgentDraft>,
    /// The agents sent with `Op::ReplaceAgents`, until the runtime says it took them.
    applying_agents: Option<Vec<crate::config::AgentDraft>>,
}

impl App {
    pub fn new(agents: Vec<AgentInfo>) -> Self {
        Self {
            state: UiState::new(agents),
            view: View {
                composer_focused: true,
                // Until a frame has measured the content, scrolling is not limited.
                card_scroll_max: std::cell::Cell::new(usize::MAX),
                modal_scroll_max: std::cell::Cell::new(usize::MAX),
                ..View::default()
            },
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
        if self.view.timeline_scroll > 0 {
            self.view.timeline_scroll += self.state.timeline.len() - entries;
        }
        // A closed question's notice first: the end of the turn has more to say.
        self.sync_question(event);
        if let EventMsg::FinalPresentationDone { content, .. }
        | EventMsg::FinalOverridden { content, .. } = &event.msg
            && !self.is_replay()
        {
            self.latest_answer = Some(content.clone());
        }
        if matches!(event.msg, EventMsg::ReplayStarted { .. }) {
            // A replay is watched, not asked: single keys (`?`, `n`, `q`) from the start.
            self.view.composer_focused = false;
            self.view.popup = None;
        } else if matches!(event.msg, EventMsg::TurnStarted { .. }) {
            self.view.final_view = false;
            self.set_card_scroll(0);
            self.view.timeline_scroll = 0;
            self.awaiting_approval = None;
        } else if let EventMsg::TurnFinished {
            outcome, winner, ..
        } = &event.msg
        {
            self.cancel_pending = false;
            if !self.is_replay() {
                let presented = self.state.final_answer().is_some_and(|answer| answer.done);
                self.turn_endings.push((*outcome, presented));
            }
            if let Some(text) = undelivered {
                self.view.notice = Some(format!(
                    "not delivered, the agents finished first: {text} (Up brings it back)"
                ));
            }
            // The final answer is on the winner's card: show it.
            if let Some(index) = winner.as_ref().and_then(|id| self.state.agent_index(id)) {
                self.focus(index);
            }
            // …and fills the body, read from its top.
            if self.state.final_answer().is_some_and(|answer| answer.done) {
                self.show_final();
            }
            self.offer_plan();
            self.end_execution(*outcome);
        } else if listing {
            self.view.plans_loading = false;
            self.keep_shown_plans(&shown);
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
        if self.view.focused >= count {
            self.view.focused = count.saturating_sub(1);
        }
    }

    /// How each live turn of the session ended (see `turn_endings`).
    pub fn turn_endings(&self) -> &[(TurnOutcome, bool)] {
        &self.turn_endings
    }

    /// The newest final answer of a live turn (see `latest_answer`).
    pub fn latest_answer(&self) -> Option<&str> {
        self.latest_answer.as_deref()
    }

    /// Pasted text goes into the composer as it is, newlines included (or into the open
    /// question's text field).
    pub fn on_paste(&mut self, text: &str) {
        if self.agents_open() {
            self.agents_paste(text);
            return;
        }
        if self.view.modals.last().map(|modal| modal.kind) == Some(ModalKind::Question) {
            self.question_paste(text);
            return;
        }
        self.view.composer_focused = true;
        self.view.composer.insert(text);
        self.refresh_popup();
    }

    /// The config file `/config` opens and `/status` names.
    pub fn with_config_file(mut self, path: Option<PathBuf>) -> Self {
        self.view.context.config_file.clone_from(&path);
        self.config_file = path;
        self
    }

    /// Completes `@path` against `cwd`.
    pub fn with_cwd(mut self, cwd: PathBuf) -> Self {
        self.view.context.cwd.clone_from(&cwd);
        self.view.context.home = std::env::var_os("HOME").map(PathBuf::from);
        self.cwd = cwd;
        self
    }

    /// The config's `orchestrator.context_paths`, for `/context`.
    pub fn with_context_paths(mut self, paths: Vec<crate::config::ContextPath>) -> Self {
        self.view.context.config_paths = paths;
        self
    }

    /// `@path` may attach what a run refuses without `--allow-outside-project`.
    pub fn allowing_outside_project(mut self, allow: bool) -> Self {
        self.allow_outside_project = allow;
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
            self.view.composer.restyle(&self.theme);
            return Vec::new();
        }
        if ctrl && let Some(effects) = self.view_ctrl_key(key.code) {
            return effects;
        }
        self.interrupt_armed = None;
        let question_open =
            self.view.modals.last().map(|modal| modal.kind) == Some(ModalKind::Question);
        if key.code == KeyCode::BackTab {
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
        // The same focus the hints on screen are made for (`tui/focus.rs`).
        match Focus::of(&self.view) {
            Focus::Modal => self.modal_key(key),
            Focus::Composer | Focus::Completing => self.composer_key(key),
            Focus::Body => self.command_key(key),
        }
    }
}

mod agents;
#[cfg(test)]
mod agents_tests;
#[cfg(test)]
mod chosen_answer_tests;
#[cfg(test)]
mod command_tests;
mod commands;
mod composer_keys;
mod files;
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
mod scroll;
mod submit;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod turn_end_tests;
#[cfg(test)]
mod view_tests;
mod views;
#[cfg(test)]
mod views_tests;

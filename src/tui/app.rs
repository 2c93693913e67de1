//! The app's reaction to keys, pastes and events: it owns the folded state, the view and
//! the composer, and answers each input with the effects to carry out (ops to send, quit).
//! No terminal and no channels here, so every key path is unit-tested.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use std::path::PathBuf;

use super::complete::{self, PopupKind};
use super::composer::ComposerKey;
use super::modal::{self, Modal, ModalKind};
use super::render::View;
use super::state::UiState;
use super::theme::Theme;
use crate::protocol::{AgentInfo, Event, EventMsg, Mode, Op};

/// What the loop must do after an input.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    Send(Op),
    Quit,
}

#[derive(Clone, Debug, Default)]
pub struct App {
    pub state: UiState,
    pub view: View,
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
    /// Ctrl+C was pressed once at an empty, idle composer: a second press quits.
    quit_armed: bool,
    /// A cancel was sent and the turn has not ended yet: another Ctrl+C quits.
    cancel_pending: bool,
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
        let entries = self.state.timeline.len();
        self.state.apply(event);
        // A paused timeline stays where it is; the count of newer entries grows.
        if self.view.timeline_scroll > 0 {
            self.view.timeline_scroll += self.state.timeline.len() - entries;
        }
        if matches!(event.msg, EventMsg::TurnStarted { .. }) {
            self.view.card_scroll = 0;
            self.view.timeline_scroll = 0;
        } else if matches!(event.msg, EventMsg::TurnFinished { .. }) {
            self.cancel_pending = false;
        }
        let count = self.state.agents.len();
        if self.view.focused >= count {
            self.view.focused = count.saturating_sub(1);
        }
    }

    /// Pasted text goes into the composer as it is, newlines included.
    pub fn on_paste(&mut self, text: &str) {
        self.view.composer_focused = true;
        // Many terminals paste line breaks as a bare carriage return.
        self.view
            .composer
            .insert(&text.replace("\r\n", "\n").replace('\r', "\n"));
        self.refresh_popup();
    }

    /// Completes `@path` against `cwd`.
    pub fn with_cwd(mut self, cwd: PathBuf) -> Self {
        self.cwd = cwd;
        self
    }

    pub fn on_key(&mut self, key: KeyEvent) -> Vec<Effect> {
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
        self.quit_armed = false;
        if key.code == KeyCode::BackTab {
            self.cycle_mode();
            return Vec::new();
        }
        self.view.notice = None;
        if !self.view.modals.is_empty() {
            self.modal_key(key);
            return Vec::new();
        }
        if self.view.composer_focused {
            self.composer_key(key)
        } else {
            self.command_key(key)
        }
    }

    /// Ctrl+C: clear the composer, else cancel the turn, else quit (after a second press).
    fn interrupt(&mut self) -> Vec<Effect> {
        if !self.view.composer.is_empty() {
            self.view.composer.clear();
            self.history_at = None;
            return Vec::new();
        }
        if self.state.is_running() {
            if self.cancel_pending {
                return vec![Effect::Quit];
            }
            self.cancel_pending = true;
            self.view.notice = Some("cancelling the turn… (Ctrl+C again quits)".into());
            return vec![Effect::Send(Op::Cancel)];
        }
        if self.quit_armed {
            return vec![Effect::Quit];
        }
        self.quit_armed = true;
        self.view.notice = Some("press Ctrl+C again to quit".into());
        Vec::new()
    }

    fn cycle_mode(&mut self) {
        if self.state.is_running() {
            self.view.notice = Some("the mode cannot change while a turn runs".into());
            return;
        }
        self.view.mode = match self.view.mode {
            Mode::Normal => Mode::Planning,
            Mode::Planning => Mode::Execute,
            Mode::Execute => Mode::Normal,
        };
        self.view.notice = None;
    }

    fn composer_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if let Some(popup) = self.view.popup.as_mut() {
            let accept = match key.code {
                KeyCode::Tab => true,
                // Enter takes a command suggestion; for paths it sends the question.
                KeyCode::Enter => popup.kind == PopupKind::Command && key.modifiers.is_empty(),
                KeyCode::Up | KeyCode::Down => {
                    popup.step(key.code == KeyCode::Down);
                    return Vec::new();
                }
                KeyCode::Esc => {
                    self.view.popup = None;
                    return Vec::new();
                }
                _ => false,
            };
            if accept {
                let text = popup.accept(&self.view.composer.text());
                self.view.composer.set_text(&text);
                self.refresh_popup();
                return Vec::new();
            }
        }
        let single_line = self.view.composer.line_count() <= 1;
        let effects = match key.code {
            KeyCode::Esc => {
                self.view.composer_focused = false;
                Vec::new()
            }
            KeyCode::Up if single_line => {
                self.recall(-1);
                Vec::new()
            }
            KeyCode::Down if single_line => {
                self.recall(1);
                Vec::new()
            }
            _ => match self.view.composer.key(key) {
                ComposerKey::Submit => self.submit(),
                ComposerKey::Edited | ComposerKey::Unused => Vec::new(),
            },
        };
        self.refresh_popup();
        effects
    }

    /// Suggestions for what the composer holds now.
    fn refresh_popup(&mut self) {
        self.view.popup = if self.view.composer_focused {
            complete::suggest(&self.view.composer.text(), &self.cwd)
        } else {
            None
        };
    }

    /// Enter: a slash command, else a question when idle, else human input for the agents.
    fn submit(&mut self) -> Vec<Effect> {
        let text = self.view.composer.text().trim().to_string();
        if text.is_empty() {
            return Vec::new();
        }
        self.view.composer.clear();
        self.history_at = None;
        if let Some(command) = text.strip_prefix('/') {
            return self.command(command.trim());
        }
        if self.history.last() != Some(&text) {
            self.history.push(text.clone());
        }
        let op = if self.state.is_running() {
            Op::InjectHumanInput { text }
        } else {
            Op::Submit {
                text,
                mode: self.view.mode,
                context_paths: Vec::new(),
            }
        };
        vec![Effect::Send(op)]
    }

    fn command(&mut self, command: &str) -> Vec<Effect> {
        let name = command.split_whitespace().next().unwrap_or_default();
        match name {
            "help" | "h" | "?" => self.open(ModalKind::Help),
            "table" | "r" => self.open(ModalKind::Coordination),
            "quit" | "exit" | "q" => return vec![Effect::Quit],
            "cancel" if self.state.is_running() => {
                self.cancel_pending = true;
                return vec![Effect::Send(Op::Cancel)];
            }
            "cancel" => self.view.notice = Some("no turn is running".into()),

            "status" => self.open(ModalKind::Status),
            "vote" | "votes" | "v" => self.open(ModalKind::Votes),
            "cost" | "costs" | "c" => self.open(ModalKind::Costs),
            "answers" | "b" => self.open_answers(),
            "timeline" | "events" | "t" | "o" => self.open(ModalKind::Timeline),
            "inspect" | "i" => self.open(ModalKind::Turns {
                selected: self.state.turns.len().saturating_sub(1),
            }),
            "clear" | "reset" | "config" => {
                self.view.notice = Some(format!("/{name} is not available yet"));
            }
            other => {
                self.view.notice = Some(format!("unknown command /{other}: /help lists them"));
            }
        }
        Vec::new()
    }

    fn open(&mut self, kind: ModalKind) {
        self.view.modals.push(Modal::new(kind));
    }

    fn open_answers(&mut self) {
        let count = modal::answer_count(&self.state);
        self.open(ModalKind::Answers {
            selected: count.saturating_sub(1),
        });
    }

    fn modal_key(&mut self, key: KeyEvent) {
        let max_scroll = self.view.modal_scroll_max.get();
        // How many items the top modal can step through with ← →.
        let choices = self.view.modals.last().map_or(0, |top| match top.kind {
            ModalKind::Answers { .. } => modal::answer_count(&self.state),
            ModalKind::Tools { agent, .. } => modal::tool_count(&self.state, agent),
            ModalKind::Turns { .. } => self.state.turns.len(),
            ModalKind::Help
            | ModalKind::Votes
            | ModalKind::Costs
            | ModalKind::Timeline
            | ModalKind::AgentOutput { .. }
            | ModalKind::Status
            | ModalKind::Coordination => 0,
        });
        let Some(top) = self.view.modals.last_mut() else {
            return;
        };
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => {
                self.view.modals.pop();
            }
            KeyCode::Down => top.scroll = (top.scroll + 1).min(max_scroll),
            KeyCode::Up => top.scroll = top.scroll.saturating_sub(1),
            KeyCode::PageDown => top.scroll = (top.scroll + 10).min(max_scroll),
            KeyCode::PageUp => top.scroll = top.scroll.saturating_sub(10),
            KeyCode::Home => top.scroll = 0,
            KeyCode::Left | KeyCode::Right => {
                let step = |selected: &mut usize, count: usize| {
                    *selected = if key.code == KeyCode::Left {
                        selected.saturating_sub(1)
                    } else {
                        (*selected + 1).min(count.saturating_sub(1))
                    };
                };
                match &mut top.kind {
                    ModalKind::Answers { selected }
                    | ModalKind::Tools { selected, .. }
                    | ModalKind::Turns { selected } => step(selected, choices),
                    ModalKind::Help
                    | ModalKind::Votes
                    | ModalKind::Costs
                    | ModalKind::Timeline
                    | ModalKind::AgentOutput { .. }
                    | ModalKind::Status
                    | ModalKind::Coordination => {}
                }
                top.scroll = 0;
            }
            _ => {}
        }
    }

    /// Up (`step < 0`) and Down through earlier questions; the draft being written is kept
    /// and comes back after the newest entry.
    fn recall(&mut self, step: isize) {
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

    /// Scrolls the top modal, else the focused pane, towards older content.
    pub fn scroll_up(&mut self, lines: usize) {
        if let Some(top) = self.view.modals.last_mut() {
            top.scroll = (top.scroll + lines).min(self.view.modal_scroll_max.get());
        } else if self.view.timeline_focused {
            let furthest = self.state.timeline.len().saturating_sub(1);
            self.view.timeline_scroll = (self.view.timeline_scroll + lines).min(furthest);
        } else {
            self.view.card_scroll =
                (self.view.card_scroll + lines).min(self.view.card_scroll_max.get());
        }
    }

    /// Scrolls back towards the newest content.
    pub fn scroll_down(&mut self, lines: usize) {
        if let Some(top) = self.view.modals.last_mut() {
            top.scroll = top.scroll.saturating_sub(lines);
        } else if self.view.timeline_focused {
            self.view.timeline_scroll = self.view.timeline_scroll.saturating_sub(lines);
        } else {
            self.view.card_scroll = self.view.card_scroll.saturating_sub(lines);
        }
    }

    /// Single keys, with the composer left (Esc).
    fn command_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let count = self.state.agents.len();
        match key.code {
            KeyCode::Char('i' | '/') => self.view.composer_focused = true,
            KeyCode::Char('q') if !self.state.is_running() => return vec![Effect::Quit],
            KeyCode::Char('q') => {
                self.view.notice = Some("a turn is running: Ctrl+C cancels it".into());
            }
            KeyCode::Tab | KeyCode::Right if count > 0 => {
                self.focus((self.view.focused + 1) % count);
            }
            KeyCode::Left if count > 0 => self.focus((self.view.focused + count - 1) % count),
            KeyCode::Char(digit @ '1'..='9') => {
                let index = usize::from(digit as u8 - b'1');
                if index < count {
                    self.focus(index);
                }
            }
            KeyCode::Char('z') => self.view.maximized = !self.view.maximized,
            KeyCode::Char('p') => self.view.timeline_focused = !self.view.timeline_focused,
            KeyCode::Char('e') => self.view.reasoning_expanded = !self.view.reasoning_expanded,
            KeyCode::Char('?') => self.open(ModalKind::Help),
            KeyCode::Char('v') => self.open(ModalKind::Votes),
            KeyCode::Char('c') => self.open(ModalKind::Costs),
            KeyCode::Char('a') => self.open_answers(),
            KeyCode::Char('t') => self.open(ModalKind::Timeline),
            KeyCode::Char('s') => self.open(ModalKind::Status),
            KeyCode::Char('r') => self.open(ModalKind::Coordination),
            KeyCode::Char('d') => {
                let agent = self.view.focused;
                let count = modal::tool_count(&self.state, agent);
                self.open(ModalKind::Tools {
                    agent,
                    selected: count.saturating_sub(1),
                });
            }
            KeyCode::Char('o') => self.open(ModalKind::AgentOutput {
                agent: self.view.focused,
            }),
            KeyCode::Up => self.scroll_up(1),
            KeyCode::PageUp => self.scroll_up(10),
            KeyCode::Down => self.scroll_down(1),
            KeyCode::PageDown => self.scroll_down(10),
            KeyCode::End => {
                self.view.card_scroll = 0;
                self.view.timeline_scroll = 0;
            }
            _ => {}
        }
        Vec::new()
    }

    fn focus(&mut self, index: usize) {
        if index != self.view.focused {
            self.view.focused = index;
            self.view.card_scroll = 0;
        }
    }
}

#[cfg(test)]
mod tests;

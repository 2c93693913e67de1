//! The app's commands: slash commands typed in the composer, and the keys of an open
//! modal (single keys once the composer is left are `body_keys.rs`'s).

use crossterm::event::{KeyCode, KeyEvent};

use super::{App, Effect};
use crate::protocol::Op;
use crate::tui::modal;
use crate::tui::view::ModalKind;

/// Every name `command` knows, aliases included: typed exactly, Enter runs it as it is,
/// whatever completion suggests.
pub(super) const COMMAND_NAMES: [&str; 48] = [
    "help",
    "h",
    "?",
    "table",
    "r",
    "quit",
    "exit",
    "q",
    "cancel",
    "status",
    "mcp",
    "p",
    "skills",
    "workspace",
    "w",
    "files",
    "vote",
    "votes",
    "v",
    "map",
    "consensus",
    "cost",
    "costs",
    "c",
    "answers",
    "b",
    "timeline",
    "t",
    "events",
    "o",
    "inspect",
    "i",
    "plan",
    "tasks",
    "agents",
    "refine",
    "strategy",
    "debate",
    "final",
    "f",
    "copy",
    "context",
    "metrics",
    "m",
    "history",
    "approvals",
    "export",
    "single",
];

/// Commands that lose something: typed twice in a row to take effect (and `/quit` while
/// a turn runs).
pub(super) const CONFIRMED: [&str; 2] = ["clear", "reset"];

pub(super) fn is_command_name(name: &str) -> bool {
    COMMAND_NAMES.contains(&name) || CONFIRMED.contains(&name) || name == "config"
}

impl App {
    pub(super) fn command(&mut self, command: &str) -> Vec<Effect> {
        let mut words = command.split_whitespace();
        let name = words.next().unwrap_or_default();
        let argument = words.next();
        // `/exit` confirms `/quit` (and the other way round): they are one command.
        let confirming = match name {
            "exit" | "q" => "quit",
            other => other,
        };
        let confirmed = std::mem::take(&mut self.confirm_pending).as_deref() == Some(confirming);
        match name {
            "help" | "h" | "?" => self.open(ModalKind::Help),
            "table" | "r" => self.open(ModalKind::Coordination),
            // Mid-turn, quitting cancels the turn: typed twice, as Ctrl+C is pressed twice
            // (once is enough when the turn is being cancelled already).
            "quit" | "exit" | "q" => return self.quit(name, confirmed),
            "cancel" => return self.cancel(),

            "status" => self.open(ModalKind::Status),
            "mcp" | "p" => self.open(ModalKind::Servers),
            "skills" => self.open(ModalKind::Skills),
            "workspace" | "w" | "files" => self.open_files(),
            "vote" | "votes" | "v" => self.open(ModalKind::Votes),
            "map" | "consensus" => self.open(ModalKind::ConsensusMap),
            "cost" | "costs" | "c" => self.open(ModalKind::Costs),
            "answers" | "b" => self.open_answers(),
            "timeline" | "t" => self.open(ModalKind::Timeline),
            "events" | "o" => self.open_events(argument),
            "inspect" | "i" => self.open_inspect(argument),
            "plan" => return self.plan_key(),
            "tasks" => self.open_tasks(),
            "agents" => self.open_agents(),
            "single" => self.cycle_agents(),
            "refine" => self.toggle_refine(),
            "strategy" => self.strategy_command(argument),
            "debate" => self.open(ModalKind::Debate),
            "final" | "f" => self.show_final(),
            "copy" => return self.copy_final(),
            "context" => {
                self.list_memories();
                self.open(ModalKind::Context);
            }
            "metrics" | "m" => self.open(ModalKind::Metrics),
            "history" => self.open(ModalKind::History),
            "approvals" => self.open(ModalKind::Approvals),
            "export" => {
                return self.export(&command.split_whitespace().skip(1).collect::<Vec<_>>());
            }
            "clear" | "reset" => return self.clear(name, confirmed),
            "config" => return self.open_config(),
            other => self.unknown_command(other),
        }
        Vec::new()
    }

    /// `/quit`: mid-turn it cancels the turn, typed twice as Ctrl+C is pressed twice (once
    /// is enough when the turn is being cancelled already).
    fn quit(&mut self, name: &str, confirmed: bool) -> Vec<Effect> {
        if self.state.is_running()
            && !self.interrupt.cancel_pending
            && !self.is_replay()
            && !confirmed
        {
            self.view.notice = Some(format!(
                "a turn is running: /{name} again cancels it (its work is saved) and quits"
            ));
            self.confirm_pending = Some("quit".to_string());
            return Vec::new();
        }
        vec![Effect::Quit]
    }

    /// `/cancel`: the running turn (what the agents did is saved).
    fn cancel(&mut self) -> Vec<Effect> {
        if !self.state.is_running() {
            self.view.notice = Some("no turn is running".into());
            return Vec::new();
        }
        self.interrupt.cancel_pending = true;
        vec![Effect::Send(Op::Cancel)]
    }

    /// `/clear` (`/reset`): between turns and typed twice, the conversation is forgotten
    /// (its turns stay in the session).
    fn clear(&mut self, name: &str, confirmed: bool) -> Vec<Effect> {
        if self.state.is_running() {
            self.view.notice = Some("a turn is running: /cancel it first".into());
            return Vec::new();
        }
        if !confirmed && !self.is_replay() {
            self.view.notice = Some(format!(
                "/{name} forgets this conversation (its turns stay in the session): \
                 type /{name} again to confirm"
            ));
            self.confirm_pending = Some(name.to_string());
            return Vec::new();
        }
        self.follow_newest();
        vec![Effect::Send(Op::ClearHistory)]
    }

    /// `/config`: the session's config file in the desktop's application.
    fn open_config(&mut self) -> Vec<Effect> {
        if let Some(path) = &self.place.config_file {
            return vec![Effect::OpenFile(path.clone())];
        }
        self.view.notice = Some(
            "this session has no config file (the built-in demo, an @examples config or \
             --model)"
                .into(),
        );
        Vec::new()
    }

    fn unknown_command(&mut self, name: &str) {
        self.view.notice = Some(format!("unknown command /{name}: /help lists them"));
    }

    /// Lists each agent's memory files for `/context` (filesystem memory mode).
    fn list_memories(&mut self) {
        self.view.context.memories = self
            .state
            .tools
            .workspaces
            .iter()
            .filter_map(|dirs| {
                let files = crate::workspace::memory::list(&dirs.workspace).ok()?;
                (!files.is_empty()).then(|| (dirs.agent.clone(), files))
            })
            .collect();
    }

    pub(super) fn open(&mut self, kind: ModalKind) {
        self.view.modals.open(kind);
    }

    /// `/inspect` (the newest turn chosen), `/inspect all`, or `/inspect N` (turn N).
    fn open_inspect(&mut self, argument: Option<&str>) {
        let newest = self.state.turns.len().saturating_sub(1);
        let selected = match argument {
            None | Some("all") => Some(newest),
            Some(number) => number.parse::<u32>().ok().and_then(|turn| {
                self.state
                    .turns
                    .iter()
                    .position(|record| record.turn == turn)
            }),
        };
        match selected {
            Some(selected) => {
                self.open(ModalKind::Turns { selected });
                self.open_on_chosen_answer();
            }
            None => {
                let turns = &self.state.turns;
                let known = turns.first().zip(turns.last()).map_or_else(
                    || "no finished turn yet".to_string(),
                    |(first, last)| format!("turns {}–{}", first.turn, last.turn),
                );
                self.view.notice = Some(format!(
                    "/inspect {}: no such finished turn ({known}); /inspect lists them",
                    argument.unwrap_or_default()
                ));
            }
        }
    }

    /// `/inspect` scrolled to the chosen answer of its turn, when the last frame's size says
    /// it would not show at the top.
    fn open_on_chosen_answer(&mut self) {
        let Some(screen) = self.view.hits.borrow().screen else {
            return;
        };
        if let Some(top) = self.view.modals.top_mut()
            && let ModalKind::Turns { selected } = top.kind
        {
            top.scroll = modal::inspect_scroll(&self.state, &self.theme, screen, selected);
        }
    }

    /// `/events` (the last turn), `/events N` (the last N turns) or `/events all`.
    fn open_events(&mut self, argument: Option<&str>) {
        let turns = match argument {
            None => Some(1),
            Some("all") => Some(usize::MAX),
            Some(number) => number.parse::<usize>().ok().filter(|count| *count > 0),
        };
        match turns {
            Some(turns) => self.open(ModalKind::Events { turns }),
            None => {
                self.view.notice = Some(format!(
                    "/events {}: give a number of turns (1, 2, …) or `all`",
                    argument.unwrap_or_default()
                ));
            }
        }
    }

    pub(super) fn open_answers(&mut self) {
        self.open(ModalKind::Answers {
            selected: modal::answer_to_open(&self.state),
        });
    }

    pub(super) fn modal_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if let Some(effects) = self.plan_modal_key(key) {
            return effects;
        }
        if self.files_key(key) {
            return Vec::new();
        }
        let max_scroll = self.view.modals.scroll_max.get();
        let Some(top) = self.view.modals.top_mut() else {
            return Vec::new();
        };
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => {
                self.view.modals.close_top();
            }
            KeyCode::Down => top.scroll = (top.scroll + 1).min(max_scroll),
            KeyCode::Up => top.scroll = top.scroll.saturating_sub(1),
            KeyCode::PageDown => top.scroll = (top.scroll + 10).min(max_scroll),
            KeyCode::PageUp => top.scroll = top.scroll.saturating_sub(10),
            KeyCode::Home => top.scroll = 0,
            KeyCode::Left | KeyCode::Right => {
                if let Some((selected, choices)) = modal::selection(&mut top.kind, &self.state) {
                    *selected = if key.code == KeyCode::Left {
                        selected.saturating_sub(1)
                    } else {
                        (*selected + 1).min(choices.saturating_sub(1))
                    };
                }
                top.scroll = 0;
                self.open_on_chosen_answer();
            }
            _ => {}
        }
        Vec::new()
    }
}

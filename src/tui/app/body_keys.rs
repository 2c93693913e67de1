//! Single keys once the composer is left (Esc): `i` and `/` go back to typing, the digits,
//! Tab and the arrows choose a card, letters open the views, toggle the layout or act on
//! the final answer, and the scrolling keys move the focused pane.

use crossterm::event::{KeyCode, KeyEvent};

use super::{App, Effect};
use crate::tui::modal;
use crate::tui::view::{FOLLOW_THE_END, ModalKind};

impl App {
    /// Single keys, with the composer left (Esc).
    pub(super) fn command_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let count = self.state.agents.len();
        let focused = self.view.cards.focused;
        match key.code {
            KeyCode::Char('i') => self.view.input.focused = true,
            KeyCode::Char('/') => return self.start_command(),
            KeyCode::Char('q') if !self.state.is_running() || self.is_replay() => {
                return vec![Effect::Quit];
            }
            KeyCode::Char('n' | ' ') => return self.step(),
            KeyCode::Char('q') => self.quit_refused(),
            KeyCode::Tab | KeyCode::Right if count > 0 => self.show_card((focused + 1) % count),
            KeyCode::Left if count > 0 => self.show_card((focused + count - 1) % count),
            KeyCode::Char(digit @ '1'..='9') => self.show_card(usize::from(digit as u8 - b'1')),
            KeyCode::Char('z') => self.toggle_zoom(),
            KeyCode::Char('g') => self.toggle_grid(),
            KeyCode::Char('f') => self.toggle_final(),
            KeyCode::Char('y') => return self.copy_final(),
            KeyCode::Char('p') => self.view.timeline.focused = !self.view.timeline.focused,
            KeyCode::Char('e') => self.toggle_reasoning(),
            KeyCode::Char('A') => self.cycle_agents(),
            KeyCode::Char('R') => self.toggle_refine(),
            KeyCode::Char('S') => self.cycle_strategy(),
            KeyCode::Char('D') => self.open(ModalKind::Debate),
            KeyCode::Char('P') => return self.plan_key(),
            KeyCode::Char('T') => self.open_tasks(),
            KeyCode::Char('?') => self.open(ModalKind::Help),
            KeyCode::Char('v') => self.open(ModalKind::Votes),
            KeyCode::Char('C') => self.open(ModalKind::ConsensusMap),
            KeyCode::Char('c') => self.open(ModalKind::Costs),
            KeyCode::Char('a') => self.open_answers(),
            KeyCode::Char('t') => self.open(ModalKind::Timeline),
            KeyCode::Char('s') => self.open(ModalKind::Status),
            KeyCode::Char('m') => self.open(ModalKind::Servers),
            KeyCode::Char('w') => self.open_files(),
            KeyCode::Char('r') => self.open(ModalKind::Coordination),
            KeyCode::Char('M') => self.open(ModalKind::Metrics),
            KeyCode::Char('h') => self.open(ModalKind::History),
            KeyCode::Char('d') => self.open_tools(),
            KeyCode::Char('o') => self.open(ModalKind::AgentOutput { agent: focused }),
            KeyCode::Up => self.scroll_up(1),
            KeyCode::PageUp => self.scroll_up(10),
            KeyCode::Down => self.scroll_down(1),
            KeyCode::PageDown => self.scroll_down(10),
            KeyCode::Home if self.view.final_view.shown => self.view.final_view.scroll = 0,
            KeyCode::End if self.view.final_view.shown => {
                self.view.final_view.scroll = FOLLOW_THE_END;
            }
            KeyCode::End => self.follow_newest(),
            // The timeline row a click selected: its answer, vote or agent's output.
            KeyCode::Enter if self.view.timeline.focused => {
                self.open_timeline_entry();
            }
            _ => {}
        }
        Vec::new()
    }

    /// `/` starts a command: it goes into the composer, never lost.
    fn start_command(&mut self) -> Vec<Effect> {
        self.view.input.focused = true;
        self.view.input.composer.set_text("/");
        self.composer_changed()
    }

    fn quit_refused(&mut self) {
        self.view.notice = Some("a turn is running: Ctrl+C cancels it".into());
    }

    /// The card at `index` (if there is one) in the body, focused.
    fn show_card(&mut self, index: usize) {
        if index < self.state.agents.len() {
            self.view.final_view.shown = false;
            self.view.cards.focus(index);
        }
    }

    /// `z`: the focused card fills the body, or gives it back; from the final view it
    /// always fills it.
    fn toggle_zoom(&mut self) {
        let cards = &mut self.view.cards;
        if self.view.final_view.shown {
            self.view.final_view.shown = false;
            cards.maximized = true;
        } else {
            cards.maximized = !cards.maximized;
        }
    }

    fn toggle_reasoning(&mut self) {
        let cards = &mut self.view.cards;
        cards.reasoning_expanded = !cards.reasoning_expanded;
    }

    /// `d`: the focused agent's tool calls, on the newest.
    fn open_tools(&mut self) {
        let agent = self.view.cards.focused;
        let count = modal::tool_count(&self.state, agent);
        self.open(ModalKind::Tools {
            agent,
            selected: count.saturating_sub(1),
        });
    }

    /// `End`: the focused card and the timeline follow the newest output again.
    pub(super) fn follow_newest(&mut self) {
        self.view.cards.follow();
        self.view.timeline.scroll = 0;
    }
}

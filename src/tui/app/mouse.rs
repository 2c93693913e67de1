//! The mouse, routed by where the last frame drew things (`View::hits`): the wheel scrolls
//! the modal, the timeline or the card under the pointer; a click focuses a card or the
//! composer, selects a timeline row, and a second click on the selected row (or Enter)
//! opens its answer, its vote or its agent's output.

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};

use super::App;
use crate::tui::modal;
use crate::tui::state::EntryKind;
use crate::tui::view::{Hit, ModalKind};

/// Lines one wheel notch scrolls.
const WHEEL_LINES: usize = 3;

impl App {
    /// Whether the screen changes.
    pub fn on_mouse(&mut self, mouse: MouseEvent) -> bool {
        let hit = self.view.hits.borrow().at(mouse.column, mouse.row);
        match mouse.kind {
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown => {
                self.wheel(hit, mouse.kind == MouseEventKind::ScrollUp)
            }
            MouseEventKind::Down(MouseButton::Left) => self.click(hit),
            MouseEventKind::Down(MouseButton::Right | MouseButton::Middle)
            | MouseEventKind::Up(_)
            | MouseEventKind::Drag(_)
            | MouseEventKind::Moved
            | MouseEventKind::ScrollLeft
            | MouseEventKind::ScrollRight => false,
        }
    }

    /// With a modal open the wheel scrolls it wherever the pointer is (it covers the
    /// screen's middle); else the pane under the pointer, a card being focused first.
    fn wheel(&mut self, hit: Option<Hit>, up: bool) -> bool {
        if self.view.modals.is_empty() {
            match hit {
                Some(Hit::Timeline | Hit::TimelineRow(_)) => self.view.timeline.focused = true,
                Some(Hit::Card(index)) => {
                    self.view.timeline.focused = false;
                    self.view.cards.focus(index);
                }
                // The final view scrolls as its own pane (`scroll_up` knows it).
                Some(Hit::FinalView) => self.view.timeline.focused = false,
                Some(Hit::Composer | Hit::Modal) | None => return false,
            }
        }
        if up {
            self.scroll_up(WHEEL_LINES);
        } else {
            self.scroll_down(WHEEL_LINES);
        }
        true
    }

    fn click(&mut self, hit: Option<Hit>) -> bool {
        if !self.view.modals.is_empty() {
            return false;
        }
        match hit {
            Some(Hit::Card(index)) => {
                self.view.cards.focus(index);
                self.view.timeline.focused = false;
                self.view.timeline.selected = None;
                self.view.input.focused = false;
                self.view.input.popup = None;
            }
            Some(Hit::TimelineRow(entry)) => {
                self.view.timeline.focused = true;
                self.view.input.focused = false;
                self.view.input.popup = None;
                if self.view.timeline.selected == Some(entry) {
                    self.open_timeline_entry();
                } else {
                    self.view.timeline.selected = Some(entry);
                }
            }
            Some(Hit::Timeline) => {
                self.view.timeline.focused = true;
                self.view.input.focused = false;
            }
            Some(Hit::Composer) => {
                self.view.input.focused = true;
                self.view.timeline.selected = None;
            }
            Some(Hit::Modal | Hit::FinalView) | None => return false,
        }
        true
    }

    /// Opens what the selected timeline row is about: an answer in the answers browser,
    /// a vote or the winner in the votes view, anything else of an agent in its output.
    /// False when no row is selected.
    pub(super) fn open_timeline_entry(&mut self) -> bool {
        let Some(entry) = self
            .view
            .timeline
            .selected
            .and_then(|index| self.state.timeline.get(index))
        else {
            self.view.timeline.selected = None;
            return false;
        };
        let agent = entry
            .agent
            .as_ref()
            .and_then(|agent| self.state.agent_index(agent));
        let kind = match &entry.kind {
            EntryKind::Answer { label, .. } => {
                let shown =
                    agent.and_then(|agent| modal::answer_position(&self.state, agent, label));
                match shown {
                    Some(selected) => Some(ModalKind::Answers { selected }),
                    None => {
                        self.view.notice = Some(format!(
                            "answer {label} is from an earlier turn: /inspect shows it"
                        ));
                        return true;
                    }
                }
            }
            EntryKind::Presenting { .. }
            | EntryKind::FinalDone { .. }
            | EntryKind::Overridden { .. } => {
                self.show_final();
                return true;
            }
            EntryKind::Vote { .. }
            | EntryKind::VoteIgnored { .. }
            | EntryKind::Winner { .. }
            | EntryKind::Strategy(_) => Some(ModalKind::Votes),
            EntryKind::TurnStarted { .. }
            | EntryKind::Restarted { .. }
            | EntryKind::Injected { .. }
            | EntryKind::FairnessHold { .. }
            | EntryKind::FairnessReleased
            | EntryKind::RoundTimeLimit { .. }
            | EntryKind::Compressed { .. }
            | EntryKind::Checklist { .. }
            | EntryKind::Approach { .. }
            | EntryKind::PostEvaluation { .. }
            | EntryKind::OrchestrationRestart { .. }
            | EntryKind::Enforcement { .. }
            | EntryKind::Retrying { .. }
            | EntryKind::Error { .. }
            | EntryKind::Killed { .. }
            | EntryKind::Timeout { .. }
            | EntryKind::Cancelled
            | EntryKind::AnswerNow { .. }
            | EntryKind::HumanInput { .. }
            | EntryKind::ToolRefused { .. }
            | EntryKind::Warning { .. }
            | EntryKind::TurnFinished { .. }
            | EntryKind::PlanningMode { .. }
            | EntryKind::Persona { .. }
            | EntryKind::Subtasks { .. }
            | EntryKind::Stopped { .. }
            | EntryKind::Criteria { .. }
            | EntryKind::ToolBlocked { .. }
            | EntryKind::QuestionAsked { .. }
            | EntryKind::QuestionAnswered { .. }
            | EntryKind::QuestionClosed { .. }
            | EntryKind::Plan { .. }
            | EntryKind::ToolCall { .. } => agent.map(|agent| ModalKind::AgentOutput { agent }),
        };
        if let Some(kind) = kind {
            self.open(kind);
        }
        true
    }
}

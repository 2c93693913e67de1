//! Plan mode, agents and refinement from the keyboard: Shift+Tab, `A`, `R`, `P`, `T` (and
//! their slash commands), refused while a turn runs; the keys of the planning options
//! popover, the plan approval and the plan selector; and offering a finished plan.

use crossterm::event::{KeyCode, KeyEvent};

use super::{App, Effect};
use crate::protocol::{AgentId, Mode, Op, PlanStatus};
use crate::tui::modal::{ModalKind, TaskSource, listed_plan};
use crate::tui::render::short_plan_id;

/// Why Shift+Tab does nothing while a turn runs.
pub const MODE_LOCKED: &str =
    "Cannot change plan mode during execution: wait for the turn to end or cancel it (Ctrl+C)";
const AGENTS_LOCKED: &str =
    "Cannot change agent mode during execution: wait for the turn to end or cancel it (Ctrl+C)";
const REFINE_LOCKED: &str =
    "Cannot change refinement during execution: wait for the turn to end or cancel it (Ctrl+C)";

impl App {
    /// Shift+Tab: Normal → Planning → Execute → Normal. Entering Execute asks for the
    /// saved plans and opens the selector on "Latest (auto)".
    pub(super) fn cycle_mode(&mut self) -> Vec<Effect> {
        if self.state.is_running() {
            self.view.notice = Some(MODE_LOCKED.into());
            return Vec::new();
        }
        self.view.notice = None;
        // The plan views of the mode being left go with it (an unapproved plan stays
        // saved: the selector offers it).
        self.view.modals.retain(|modal| {
            !matches!(
                modal.kind,
                ModalKind::PlanOptions { .. }
                    | ModalKind::PlanSelector { .. }
                    | ModalKind::PlanApproval
            )
        });
        self.view.mode = match self.view.mode {
            Mode::Normal => Mode::Planning,
            Mode::Planning => Mode::Execute,
            Mode::Execute => Mode::Normal,
        };
        if self.view.mode == Mode::Execute {
            self.view.choices.plan = None;
            return self.open_plan_selector();
        }
        Vec::new()
    }

    /// `A`: every agent, then each one alone, then every agent again.
    pub(super) fn cycle_agents(&mut self) {
        if self.state.is_running() {
            self.view.notice = Some(AGENTS_LOCKED.into());
            return;
        }
        let agents: Vec<AgentId> = self
            .state
            .agents
            .iter()
            .map(|card| card.info.id.clone())
            .collect();
        self.view.choices.next_agent(&agents);
    }

    /// `R`: refinement on or off.
    pub(super) fn toggle_refine(&mut self) {
        if self.state.is_running() {
            self.view.notice = Some(REFINE_LOCKED.into());
            return;
        }
        self.view.choices.refine = !self.view.choices.refine;
    }

    /// `P`: the planning options in Planning, the plan selector in Execute.
    pub(super) fn plan_key(&mut self) -> Vec<Effect> {
        match self.view.mode {
            Mode::Normal => {
                self.view.notice = Some(
                    "P opens the planning options in Planning and the plan selector in \
                     Execute (Shift+Tab changes the mode)"
                        .into(),
                );
                Vec::new()
            }
            Mode::Planning => {
                self.open(ModalKind::PlanOptions { row: 0 });
                Vec::new()
            }
            Mode::Execute => self.open_plan_selector(),
        }
    }

    /// `T`: the focused agent's task plan.
    pub(super) fn open_tasks(&mut self) {
        self.open(ModalKind::TaskPlan {
            source: TaskSource::Agent(self.view.focused),
        });
    }

    fn open_plan_selector(&mut self) -> Vec<Effect> {
        let selected = self.view.choices.plan.as_ref().map_or(0, |chosen| {
            self.state
                .plans
                .iter()
                .flatten()
                .position(|plan| &plan.info.id == chosen)
                .map_or(0, |at| at + 1)
        });
        self.open(ModalKind::PlanSelector { selected });
        self.view.plans_loading = true;
        vec![Effect::Send(Op::ListPlans)]
    }

    /// Keys of the plan modals; `None` when the key is not theirs (scrolling, say).
    pub(super) fn plan_modal_key(&mut self, key: KeyEvent) -> Option<Vec<Effect>> {
        let top = self.view.modals.last()?.kind;
        match top {
            ModalKind::PlanOptions { .. } => {
                self.options_key(key);
                Some(Vec::new())
            }
            ModalKind::PlanApproval => self.approval_key(key),
            ModalKind::PlanSelector { selected } => self.selector_key(key, selected),
            ModalKind::Help
            | ModalKind::Votes
            | ModalKind::Costs
            | ModalKind::Answers { .. }
            | ModalKind::Timeline
            | ModalKind::AgentOutput { .. }
            | ModalKind::Status
            | ModalKind::Coordination
            | ModalKind::Tools { .. }
            | ModalKind::Turns { .. }
            | ModalKind::Events { .. }
            | ModalKind::Servers
            | ModalKind::Files { .. }
            | ModalKind::TaskPlan { .. }
            | ModalKind::Question => None,
        }
    }

    /// ↑↓ choose the row, ← → change its value, Enter or Esc close.
    fn options_key(&mut self, key: KeyEvent) {
        let Some(top) = self.view.modals.last_mut() else {
            return;
        };
        let ModalKind::PlanOptions { row } = &mut top.kind else {
            return;
        };
        match key.code {
            KeyCode::Up => *row = row.saturating_sub(1),
            KeyCode::Down => *row = (*row + 1).min(crate::tui::choices::OPTION_ROWS - 1),
            KeyCode::Left | KeyCode::Right => {
                let row = *row;
                self.view.choices.step(row, key.code == KeyCode::Right);
            }
            KeyCode::Enter | KeyCode::Esc | KeyCode::Char('q' | 'P') => {
                self.view.modals.pop();
            }
            _ => {}
        }
    }

    /// Enter executes the plan now; Esc keeps it for later.
    fn approval_key(&mut self, key: KeyEvent) -> Option<Vec<Effect>> {
        let id = self.state.plan.as_ref().map(|plan| plan.info.id.clone());
        match (key.code, id) {
            (KeyCode::Enter, Some(id)) => {
                self.view.modals.pop();
                self.view.mode = Mode::Execute;
                self.view.choices.plan = Some(id);
                Some(vec![Effect::Send(Op::Submit {
                    text: String::new(),
                    mode: Mode::Execute,
                    context_paths: Vec::new(),
                    options: self.view.choices.options(Mode::Execute),
                })])
            }
            (KeyCode::Esc | KeyCode::Char('q'), id) => {
                self.view.modals.pop();
                if let Some(id) = id {
                    self.view.notice = Some(format!(
                        "plan {id} kept: Shift+Tab to Execute runs it later"
                    ));
                }
                Some(Vec::new())
            }
            (KeyCode::Enter, None) => {
                self.view.modals.pop();
                Some(Vec::new())
            }
            _ => None,
        }
    }

    /// ↑↓ choose, Enter takes the plan (the composer then sends it), `v` shows it whole.
    fn selector_key(&mut self, key: KeyEvent, selected: usize) -> Option<Vec<Effect>> {
        let rows = crate::tui::modal::selector_rows(&self.state);
        let selected = selected.min(rows - 1);
        let chosen = |app: &Self| {
            selected
                .checked_sub(1)
                .and_then(|at| listed_plan(&app.state, at))
                .map(|plan| plan.info.id.clone())
        };
        match key.code {
            KeyCode::Up | KeyCode::Down => {
                let next = if key.code == KeyCode::Up {
                    selected.saturating_sub(1)
                } else {
                    (selected + 1).min(rows - 1)
                };
                if let Some(top) = self.view.modals.last_mut() {
                    top.kind = ModalKind::PlanSelector { selected: next };
                }
            }
            KeyCode::Enter => {
                let plan = chosen(self);
                let label = plan
                    .as_deref()
                    .map_or_else(|| "the latest plan".to_string(), |id| short_plan_id(id, 18));
                self.view.choices.plan = plan;
                self.view.modals.pop();
                self.view.composer_focused = true;
                self.view.notice = Some(format!(
                    "Enter runs {label}; anything typed first goes with it as instructions"
                ));
            }
            KeyCode::Char('v') if self.state.plans.as_ref().is_some_and(|p| !p.is_empty()) => {
                let index = selected.saturating_sub(1);
                self.open(ModalKind::TaskPlan {
                    source: TaskSource::Listed(index),
                });
            }
            KeyCode::Esc | KeyCode::Char('q') => {
                self.view.modals.pop();
            }
            _ => return None,
        }
        Some(Vec::new())
    }

    /// After a planning turn: its plan to approve (unless it runs on by itself or this is
    /// a replay), or why it failed.
    pub(super) fn offer_plan(&mut self) {
        if self.is_replay() || self.state.mode != Mode::Planning {
            return;
        }
        let Some(plan) = &self.state.plan else {
            return;
        };
        match plan.info.status {
            PlanStatus::Ready if !self.state.turn_options.auto_execute => {
                self.open(ModalKind::PlanApproval);
            }
            PlanStatus::Failed => {
                self.view.notice = Some(format!(
                    "plan {} failed: {}",
                    plan.info.id,
                    plan.info.detail.as_deref().unwrap_or("no reason given")
                ));
            }
            PlanStatus::Ready
            | PlanStatus::Planning
            | PlanStatus::Executing
            | PlanStatus::Completed => {}
        }
    }
}

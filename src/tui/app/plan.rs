//! Plan mode, agents and refinement from the keyboard: Shift+Tab, `A`, `R`, `P`, `T` (and
//! their slash commands), refused while a turn runs or in a replay; the keys of the
//! planning options popover, the plan approval and the plan selector; offering a finished
//! plan, and back to Normal once a plan has run.

use crossterm::event::{KeyCode, KeyEvent};

use super::replay::REPLAY_CHOICES;
use super::{App, Effect};
use crate::protocol::{AgentId, Mode, Op, PlanStatus, TurnOutcome};
use crate::tui::modal::{latest_runnable, listed_plan, selector_row};
use crate::tui::render::format::short_plan_id;
use crate::tui::view::{ModalKind, TaskSource};

/// Why Shift+Tab does nothing while a turn runs.
pub const MODE_LOCKED: &str =
    "Cannot change plan mode while a turn runs: wait for it to end or cancel it (Ctrl+C)";
const AGENTS_LOCKED: &str =
    "Cannot change agent mode while a turn runs: wait for it to end or cancel it (Ctrl+C)";
const REFINE_LOCKED: &str =
    "Cannot change refinement while a turn runs: wait for it to end or cancel it (Ctrl+C)";

impl App {
    /// Whether the mode and choices must stay as they are (a replay, or a turn running):
    /// if so, says why.
    pub(super) fn choices_locked(&mut self, locked: &str) -> bool {
        let why = if self.is_replay() {
            REPLAY_CHOICES
        } else if self.state.is_running() {
            locked
        } else {
            return false;
        };
        self.view.notice = Some(why.into());
        true
    }

    /// The plan views go with the mode they belong to (an unapproved plan stays saved:
    /// the selector offers it).
    fn close_plan_modals(&mut self) {
        self.view.modals.stack.retain(|modal| {
            !matches!(
                modal.kind,
                ModalKind::PlanOptions { .. }
                    | ModalKind::PlanSelector { .. }
                    | ModalKind::PlanApproval
            )
        });
    }

    /// Shift+Tab: Normal → Planning → Execute → Normal. Entering Execute asks for the
    /// saved plans and opens the selector on "Latest (auto)".
    pub(super) fn cycle_mode(&mut self) -> Vec<Effect> {
        if self.choices_locked(MODE_LOCKED) {
            return Vec::new();
        }
        self.view.notice = None;
        self.close_plan_modals();
        self.next.mode = match self.next.mode {
            Mode::Normal => Mode::Planning,
            Mode::Planning => Mode::Execute,
            Mode::Execute => Mode::Normal,
        };
        if self.next.mode == Mode::Execute {
            self.next.choices.plan = None;
            return self.open_plan_selector();
        }
        Vec::new()
    }

    /// `A`: every agent, then each one alone, then every agent again.
    pub(super) fn cycle_agents(&mut self) {
        if self.choices_locked(AGENTS_LOCKED) {
            return;
        }
        let agents: Vec<AgentId> = self
            .state
            .agents
            .iter()
            .map(|card| card.info.id.clone())
            .collect();
        self.next.choices.next_agent(&agents);
    }

    /// `R`: refinement on or off.
    pub(super) fn toggle_refine(&mut self) {
        if self.choices_locked(REFINE_LOCKED) {
            return;
        }
        self.next.choices.refine = !self.next.choices.refine;
    }

    /// `P`: the planning options in Planning (the approval of the plan the last planning
    /// turn made, while it waits for one), the plan selector in Execute.
    pub(super) fn plan_key(&mut self) -> Vec<Effect> {
        if self.is_replay() {
            self.view.notice = Some(REPLAY_CHOICES.into());
            return Vec::new();
        }
        match self.next.mode {
            Mode::Normal => {
                self.view.notice = Some(
                    "P opens the planning options in Planning and the plan selector in \
                     Execute (Shift+Tab changes the mode)"
                        .into(),
                );
                Vec::new()
            }
            Mode::Planning if self.approvable().is_some() => {
                self.open(ModalKind::PlanApproval);
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
            source: TaskSource::Agent(self.view.cards.focused),
        });
    }

    /// The plan the last planning turn made, while it is ready and waits for approval.
    fn approvable(&self) -> Option<&str> {
        let waiting = self.awaiting_approval.as_deref()?;
        self.state
            .planning
            .plan
            .as_ref()
            .filter(|plan| plan.info.id == waiting && plan.info.status == PlanStatus::Ready)
            .map(|plan| plan.info.id.as_str())
    }

    fn open_plan_selector(&mut self) -> Vec<Effect> {
        let selected = selector_row(&self.state, self.next.choices.plan.as_deref());
        self.open(ModalKind::PlanSelector { selected });
        self.view.modals.plans_loading = true;
        vec![Effect::Send(Op::ListPlans)]
    }

    /// Keys of the plan modals; `None` when the key is not theirs (scrolling, say).
    pub(super) fn plan_modal_key(&mut self, key: KeyEvent) -> Option<Vec<Effect>> {
        let top = self.view.modals.top()?;
        match top {
            ModalKind::PlanOptions { .. } => {
                self.options_key(key);
                Some(Vec::new())
            }
            ModalKind::PlanApproval => self.approval_key(key),
            ModalKind::PlanSelector { selected } => self.selector_key(key, selected),
            ModalKind::Override { selected } => self.override_key(key, selected),
            ModalKind::Help
            | ModalKind::Votes
            | ModalKind::ConsensusMap
            | ModalKind::Debate
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
            | ModalKind::Skills
            | ModalKind::Files { .. }
            | ModalKind::TaskPlan { .. }
            | ModalKind::Question
            | ModalKind::Approval
            | ModalKind::Approvals
            | ModalKind::Context
            | ModalKind::Metrics
            | ModalKind::History
            | ModalKind::Agents => None,
        }
    }

    /// ↑↓ choose the row, ← → change its value, Enter or Esc close.
    fn options_key(&mut self, key: KeyEvent) {
        let Some(top) = self.view.modals.top_mut() else {
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
                self.next.choices.step(row, key.code == KeyCode::Right);
            }
            KeyCode::Enter | KeyCode::Esc | KeyCode::Char('q' | 'P') => {
                self.view.modals.close_top();
            }
            _ => {}
        }
    }

    /// Enter executes the plan now; Esc keeps it for later.
    fn approval_key(&mut self, key: KeyEvent) -> Option<Vec<Effect>> {
        let id = self
            .state
            .planning
            .plan
            .as_ref()
            .map(|plan| plan.info.id.clone());
        match (key.code, id) {
            (KeyCode::Enter, Some(id)) => {
                self.view.modals.close_top();
                self.awaiting_approval = None;
                self.next.mode = Mode::Execute;
                self.next.choices.plan = Some(id);
                Some(vec![Effect::Send(Op::Submit {
                    text: String::new(),
                    mode: Mode::Execute,
                    context_paths: Vec::new(),
                    options: self.next.choices.options(Mode::Execute),
                })])
            }
            (KeyCode::Esc | KeyCode::Char('q'), id) => {
                self.view.modals.close_top();
                // Kept for later: Execute offers it, and `P` is the options' again.
                self.awaiting_approval = None;
                if let Some(id) = id {
                    self.view.notice = Some(format!(
                        "plan {id} kept: Shift+Tab to Execute runs it later"
                    ));
                }
                Some(Vec::new())
            }
            (KeyCode::Enter, None) => {
                self.view.modals.close_top();
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
                if let Some(top) = self.view.modals.top_mut() {
                    top.kind = ModalKind::PlanSelector { selected: next };
                }
            }
            KeyCode::Enter => {
                let plan = chosen(self);
                let label = plan
                    .as_deref()
                    .map_or_else(|| "the latest plan".to_string(), |id| short_plan_id(id, 18));
                self.next.choices.plan = plan;
                self.view.modals.close_top();
                self.view.input.focused = true;
                self.view.notice = Some(format!(
                    "Enter runs {label}; anything typed first goes with it as instructions"
                ));
            }
            KeyCode::Char('v') => {
                // "Latest (auto)" shows the plan `latest` runs.
                let index = selected
                    .checked_sub(1)
                    .or_else(|| latest_runnable(&self.state));
                if let Some(index) = index.filter(|at| listed_plan(&self.state, *at).is_some()) {
                    self.open(ModalKind::TaskPlan {
                        source: TaskSource::Listed(index),
                    });
                }
            }
            KeyCode::Esc | KeyCode::Char('q') => {
                self.view.modals.close_top();
            }
            _ => return None,
        }
        Some(Vec::new())
    }

    /// After a planning turn: its plan to approve (unless it runs on by itself or this is
    /// a replay), or why it failed. The approval does not open over a question being
    /// typed: a notice says how to open it.
    pub(super) fn offer_plan(&mut self) {
        if self.is_replay() || self.state.turn.mode != Mode::Planning {
            return;
        }
        let Some(plan) = &self.state.planning.plan else {
            return;
        };
        let id = plan.info.id.clone();
        match plan.info.status {
            PlanStatus::Ready if !self.state.turn.options.auto_execute => {
                self.awaiting_approval = Some(id.clone());
                if self.view.input.composer.is_empty() {
                    self.open(ModalKind::PlanApproval);
                } else {
                    self.view.notice = Some(format!(
                        "plan {id} is ready: P (or /plan) to review and approve"
                    ));
                }
            }
            PlanStatus::Failed => {
                self.view.notice = Some(format!(
                    "plan {id} failed: {}",
                    plan.info.detail.as_deref().unwrap_or("no reason given")
                ));
            }
            PlanStatus::Ready
            | PlanStatus::Planning
            | PlanStatus::Executing
            | PlanStatus::Partial
            | PlanStatus::Completed => {}
        }
    }

    /// After an execute turn (not a replay's): back to Normal, so the next question is
    /// not the plan run again.
    pub(super) fn end_execution(&mut self, outcome: TurnOutcome) {
        if self.is_replay() || self.state.turn.mode != Mode::Execute {
            return;
        }
        let plan = self.state.planning.plan.as_ref().map(|plan| &plan.info);
        let id = plan
            .map(|plan| plan.id.clone())
            .or_else(|| self.state.turn.options.plan.clone())
            .unwrap_or_else(|| "latest".into());
        let ended = match outcome {
            TurnOutcome::Completed => match plan.and_then(|plan| plan.outcome.as_ref()) {
                Some(left) if !left.is_finished() => format!("partial ({})", left.done_words()),
                Some(_) | None => "done".to_string(),
            },
            TurnOutcome::TimedOut => "ended (timed out)".to_string(),
            TurnOutcome::Cancelled => "ended (cancelled)".to_string(),
            TurnOutcome::Failed => "ended (failed)".to_string(),
        };
        self.close_plan_modals();
        self.next.mode = Mode::Normal;
        self.next.choices.plan = None;
        self.view.notice = Some(format!("plan {id} {ended}: back to Normal mode"));
    }

    /// What each open plan modal shows, by plan id, before a new listing replaces the
    /// plans (`None`: not a listed plan, or "Latest (auto)").
    pub(super) fn shown_plans(&self) -> Vec<Option<String>> {
        let id = |at: usize| listed_plan(&self.state, at).map(|plan| plan.info.id.clone());
        self.view
            .modals
            .stack
            .iter()
            .map(|modal| {
                if let ModalKind::PlanSelector { selected } = modal.kind {
                    // Before the first listing, the selector stands on the chosen plan.
                    match &self.state.planning.plans {
                        None => self.next.choices.plan.clone(),
                        Some(_) => selected.checked_sub(1).and_then(id),
                    }
                } else if let ModalKind::TaskPlan {
                    source: TaskSource::Listed(at),
                } = modal.kind
                {
                    id(at)
                } else {
                    None
                }
            })
            .collect()
    }

    /// A new listing came: the plan modals stay on the plans they showed (`shown`, from
    /// `shown_plans` before it replaced the old one).
    pub(super) fn plans_listed(&mut self, shown: &[Option<String>]) {
        self.view.modals.plans_loading = false;
        for (modal, id) in self.view.modals.stack.iter_mut().zip(shown) {
            let at = |id: &str| {
                self.state
                    .planning
                    .plans
                    .iter()
                    .flatten()
                    .position(|plan| plan.info.id == id)
            };
            if let ModalKind::PlanSelector { selected } = &mut modal.kind {
                *selected = selector_row(&self.state, id.as_deref());
            } else if let ModalKind::TaskPlan {
                source: TaskSource::Listed(index),
            } = &mut modal.kind
                && let Some(found) = id.as_deref().and_then(at)
            {
                *index = found;
            }
        }
    }
}

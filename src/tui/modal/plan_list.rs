//! The saved plans as the plan selector lists them: its rows ("Latest (auto)" and the
//! newest plans), the row of a plan, the plan `latest` runs, and a listed plan by index.

use crate::protocol::PlanStatus;
use crate::tui::state::{SavedPlan, UiState};

/// Plans the selector offers besides "Latest (auto)", as MassGen does.
pub const SELECTOR_PLANS: usize = 5;

/// Rows of the plan selector: "Latest (auto)" and the newest plans listed.
pub fn selector_rows(state: &UiState) -> usize {
    1 + state
        .planning
        .plans
        .as_ref()
        .map_or(0, |plans| plans.len().min(SELECTOR_PLANS))
}

/// The selector's row of the plan `id` ("Latest (auto)", row 0, for `None` or a plan it
/// does not list).
pub fn selector_row(state: &UiState, id: Option<&str>) -> usize {
    id.and_then(|id| {
        state
            .planning
            .plans
            .iter()
            .flatten()
            .take(SELECTOR_PLANS)
            .position(|plan| plan.info.id == id)
    })
    .map_or(0, |at| at + 1)
}

/// The index of the listed plan `latest` runs: the newest one ready, executing, partial
/// or completed (the runtime passes over failed plans and plans still being made).
pub fn latest_runnable(state: &UiState) -> Option<usize> {
    state
        .planning
        .plans
        .as_ref()?
        .iter()
        .position(|plan| match plan.info.status {
            PlanStatus::Ready
            | PlanStatus::Executing
            | PlanStatus::Partial
            | PlanStatus::Completed => true,
            PlanStatus::Planning | PlanStatus::Failed => false,
        })
}

/// The listed plan at `index`, newest first.
pub fn listed_plan(state: &UiState, index: usize) -> Option<&SavedPlan> {
    state.planning.plans.as_ref()?.get(index)
}

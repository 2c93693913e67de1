//! What the mode bar and the planning options hold for the next question, as the app
//! owns it and hands it to each frame: the plan mode, plan depth, whom agents may ask,
//! auto-execution, the plan Execute runs, one agent or all, refinement, the strategy; and the
//! `TurnOptions` every submit carries.

use crate::protocol::{AgentId, BroadcastTarget, Mode, PlanDepth, Strategy, TurnOptions};

/// The planning options popover's rows.
pub const OPTION_ROWS: usize = 3;

/// The next question's plan mode (Shift+Tab) and its choices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NextQuestion {
    pub mode: Mode,
    pub choices: Choices,
}

/// Depth, feedback, auto-execution, plan, agents, refinement and strategy for the next
/// question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choices {
    pub depth: PlanDepth,
    /// Whom agents ask in Planning (`Human` = "Enabled").
    pub feedback: BroadcastTarget,
    /// Planning: execute the plan as soon as it is ready.
    pub auto_execute: bool,
    /// The plan Execute runs; `None` = the newest (`latest`).
    pub plan: Option<String>,
    /// Only this agent works; `None` = all of them.
    pub single: Option<AgentId>,
    pub refine: bool,
    /// How agents reach the answer (`S`); `None`: the config's, as the user never chose.
    pub strategy: Option<Strategy>,
    /// The config's `orchestrator.strategy`, shown until a choice or a turn says otherwise;
    /// `None` when the front end was not told it.
    pub configured: Option<Strategy>,
}

impl Default for Choices {
    fn default() -> Self {
        Self {
            depth: PlanDepth::Medium,
            feedback: BroadcastTarget::Human,
            auto_execute: false,
            plan: None,
            single: None,
            refine: true,
            strategy: None,
            configured: None,
        }
    }
}

impl Choices {
    /// The choices the command line made (`--plan-depth`, `--broadcast`,
    /// `--plan-and-execute`, `--execute-plan`).
    pub fn from_options(options: &TurnOptions) -> Self {
        Self {
            depth: options.plan_depth,
            feedback: options.broadcast.unwrap_or(BroadcastTarget::Human),
            auto_execute: options.auto_execute,
            plan: options.plan.clone().filter(|plan| plan != "latest"),
            single: options.single_agent.clone(),
            refine: options.refine,
            strategy: options.strategy,
            configured: None,
        }
    }

    /// The options a question asked in `mode` is sent with: depth, feedback and
    /// auto-execution count only in Planning, the plan only in Execute.
    pub fn options(&self, mode: Mode) -> TurnOptions {
        let planning = mode == Mode::Planning;
        TurnOptions {
            plan_depth: self.depth,
            broadcast: planning.then_some(self.feedback),
            auto_execute: planning && self.auto_execute,
            plan: (mode == Mode::Execute)
                .then(|| self.plan.clone().unwrap_or_else(|| "latest".into())),
            single_agent: self.single.clone(),
            refine: self.refine,
            strategy: self.strategy,
        }
    }

    /// The strategy to show: the user's choice, else `recorded` (the one the last turn ran
    /// with), else the config's; `None` when none of them is known.
    pub fn shown_strategy(&self, recorded: Option<Strategy>) -> Option<Strategy> {
        self.strategy.or(recorded).or(self.configured)
    }

    /// Multi → the first agent → the second … → Multi.
    pub fn next_agent(&mut self, agents: &[AgentId]) {
        self.single = match &self.single {
            None => agents.first().cloned(),
            Some(current) => agents
                .iter()
                .position(|agent| agent == current)
                .and_then(|at| agents.get(at + 1))
                .cloned(),
        };
    }

    /// ← (`forward` false) or → on a row of the planning options.
    pub fn step(&mut self, row: usize, forward: bool) {
        match row {
            0 => {
                let depths = [PlanDepth::Shallow, PlanDepth::Medium, PlanDepth::Deep];
                self.depth = cycle(&depths, self.depth, forward);
            }
            1 => {
                let targets = [
                    BroadcastTarget::Human,
                    BroadcastTarget::Agents,
                    BroadcastTarget::Off,
                ];
                self.feedback = cycle(&targets, self.feedback, forward);
            }
            _ => self.auto_execute = !self.auto_execute,
        }
    }

    /// The planning options as (label, value) rows.
    pub fn option_rows(&self) -> [(&'static str, &'static str); OPTION_ROWS] {
        [
            ("Plan depth:", depth_label(self.depth)),
            ("Human feedback:", feedback_label(self.feedback)),
            (
                "Auto-execute:",
                if self.auto_execute { "on" } else { "off" },
            ),
        ]
    }
}

pub fn depth_label(depth: PlanDepth) -> &'static str {
    match depth {
        PlanDepth::Shallow => "Shallow (5-10 tasks)",
        PlanDepth::Medium => "Medium (20-50 tasks)",
        PlanDepth::Deep => "Deep (100-200+ tasks)",
    }
}

pub fn feedback_label(target: BroadcastTarget) -> &'static str {
    match target {
        BroadcastTarget::Human => "Enabled (agents ask you)",
        BroadcastTarget::Agents => "Agents only",
        BroadcastTarget::Off => "Disabled",
    }
}

/// The value after (or before) `current` in `all`, wrapping round.
fn cycle<T: Copy + PartialEq>(all: &[T], current: T, forward: bool) -> T {
    let count = all.len();
    let at = all.iter().position(|value| *value == current).unwrap_or(0);
    let next = if forward {
        (at + 1) % count
    } else {
        (at + count - 1) % count
    };
    all.get(next).copied().unwrap_or(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_follow_the_mode() {
        let mut choices = Choices {
            auto_execute: true,
            plan: Some("plan_1".into()),
            ..Choices::default()
        };
        let planning = choices.options(Mode::Planning);
        assert_eq!(planning.broadcast, Some(BroadcastTarget::Human));
        assert!(planning.auto_execute);
        assert_eq!(planning.plan, None);
        let execute = choices.options(Mode::Execute);
        assert_eq!(
            (execute.broadcast, execute.auto_execute),
            (None, false),
            "feedback and auto-execution are Planning's"
        );
        assert_eq!(execute.plan.as_deref(), Some("plan_1"));
        choices.plan = None;
        assert_eq!(
            choices.options(Mode::Execute).plan.as_deref(),
            Some("latest")
        );
        assert_eq!(choices.options(Mode::Normal), TurnOptions::default());
    }

    #[test]
    fn agents_cycle_through_each_single_agent_back_to_all() {
        let agents = [AgentId::new("a"), AgentId::new("b")];
        let mut choices = Choices::default();
        let mut seen = Vec::new();
        for _ in 0..3 {
            choices.next_agent(&agents);
            seen.push(choices.single.clone());
        }
        assert_eq!(
            seen,
            [Some(AgentId::new("a")), Some(AgentId::new("b")), None]
        );
    }

    #[test]
    fn option_values_wrap_both_ways() {
        let mut choices = Choices::default();
        choices.step(0, true);
        assert_eq!(choices.depth, PlanDepth::Deep);
        choices.step(0, true);
        assert_eq!(choices.depth, PlanDepth::Shallow);
        choices.step(1, false);
        assert_eq!(choices.feedback, BroadcastTarget::Off);
        choices.step(2, true);
        assert!(choices.auto_execute);
    }
}

//! The entries of an agent or the turn cut short: errors, an agent dropped from the turn,
//! time limits, the cost budget, the user's answer now and cancellation.

use serde_json::json;

use crate::protocol::{AgentId, Event, RoundTimeStage, TimeoutScope};
use crate::session::derived::coordination::Tracker;

impl Tracker {
    pub(super) fn agent_error(&mut self, event: &Event, agent: Option<&str>, message: &str) {
        let details = format!("ERROR: {message}");
        self.push(event, "agent_error", agent, details, json!({}));
    }

    pub(super) fn agent_killed(&mut self, event: &Event, agent: Option<&str>, reason: &str) {
        let details = format!("ERROR: {reason}");
        self.push(
            event,
            "agent_error",
            agent,
            details,
            json!({"killed": true}),
        );
    }

    pub(super) fn round_time_limit(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        stage: RoundTimeStage,
        elapsed_secs: u64,
    ) {
        let details = format!("TIMEOUT: round time limit after {elapsed_secs}s");
        let context = json!({"scope": "round", "stage": stage, "elapsed_seconds": elapsed_secs});
        self.push(event, "agent_timeout", agent, details, context);
    }

    pub(super) fn timed_out(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        scope: TimeoutScope,
        seconds: u64,
    ) {
        let details = format!(
            "TIMEOUT: {} timeout after {seconds}s",
            json!(scope).as_str().unwrap_or("turn")
        );
        let context = json!({"scope": scope, "seconds": seconds});
        self.push(event, "agent_timeout", agent, details, context);
    }

    /// MassGen has no budget event; its nearest kind keeps its readers working.
    pub(super) fn budget_reached(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        budget_usd: f64,
        spent_usd: f64,
    ) {
        let details =
            format!("TIMEOUT: cost budget ${budget_usd:.2} reached (${spent_usd:.4} spent)");
        let context = json!({"scope": "budget", "budget_usd": budget_usd, "spent_usd": spent_usd});
        self.push(event, "agent_timeout", agent, details, context);
    }

    pub(super) fn answer_now(&mut self, event: &Event, agent: Option<&str>, stopped: &[AgentId]) {
        let context = json!({"stopped": stopped});
        self.push(
            event,
            "answer_now_requested",
            agent,
            "ANSWER NOW: refinement ended by the user".into(),
            context,
        );
    }

    pub(super) fn cancelled(&mut self, event: &Event, agent: Option<&str>) {
        self.push(
            event,
            "agent_cancelled",
            agent,
            "CANCELLED".into(),
            json!({}),
        );
    }
}

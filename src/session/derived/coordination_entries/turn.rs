//! The turn's entries: its start and end, agents' status changes and rounds, restarts of
//! an agent and of the whole coordination, and updates injected mid-stream.

use serde_json::json;

use crate::protocol::{
    AgentId, AgentInfo, AgentStatus, AnswerLabel, Event, Mode, RoundTimeLimit, TurnOutcome,
};
use crate::session::derived::coordination::{Tracker, anon_of};

impl Tracker {
    pub(super) fn session_started(
        &mut self,
        event: &Event,
        question: &str,
        agents: &[AgentInfo],
        mode: Mode,
    ) {
        question.clone_into(&mut self.question);
        self.agent_ids = agents.iter().map(|info| info.id.to_string()).collect();
        let listed: Vec<String> = self.agent_ids.iter().map(|id| format!("'{id}'")).collect();
        let details = format!("Started with agents: [{}]", listed.join(", "));
        self.push(event, "session_start", None, details, json!({"mode": mode}));
    }

    pub(super) fn session_ended(
        &mut self,
        event: &Event,
        outcome: TurnOutcome,
        winner: Option<&AgentId>,
        duration_ms: u64,
    ) {
        let details = format!("Session completed in {:.1}s", duration_ms as f64 / 1000.0);
        let context = json!({"outcome": outcome, "winner": winner, "duration_ms": duration_ms});
        self.push(event, "session_end", None, details, context);
    }

    pub(super) fn status_changed(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        status: AgentStatus,
    ) {
        if let Some(agent) = agent {
            self.status(event, agent, status);
        }
    }

    /// MassGen counts rounds from 0; a round after the first completes a restart.
    pub(super) fn round_started(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        round: u32,
        answers_seen: &[AnswerLabel],
        vote_only: bool,
        time_limit: Option<&RoundTimeLimit>,
    ) {
        let Some(agent) = agent else { return };
        let massgen_round = round.saturating_sub(1);
        self.set_round(agent, massgen_round);
        if massgen_round > 0 {
            let details = format!("Completed restart - now in round {massgen_round}");
            let context = json!({"agent_round": massgen_round});
            self.push(event, "restart_completed", Some(agent), details, context);
        }
        let details = format!("Received context with {} answers", answers_seen.len());
        let context = json!({
            "available_answers": answers_seen.iter().map(anon_of).collect::<Vec<_>>(),
            "available_answer_labels": answers_seen,
            "answer_count": answers_seen.len(),
            "has_conversation_history": false,
            "vote_only": vote_only,
            "time_limit": time_limit,
        });
        self.push(event, "context_received", Some(agent), details, context);
    }

    pub(super) fn orchestration_restarted(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        attempt: u32,
        max_attempts: u32,
        reason: &str,
        instructions: &str,
    ) {
        let details =
            format!("Restarting orchestration (attempt {attempt}/{max_attempts}): {reason}");
        let context = json!({"attempt": attempt, "max_attempts": max_attempts,
                             "reason": reason, "instructions": instructions});
        self.push(event, "orchestration_restart", agent, details, context);
    }

    pub(super) fn update_injected(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        labels: &[AnswerLabel],
    ) {
        let labels: Vec<&str> = labels.iter().map(AnswerLabel::as_str).collect();
        let details = format!(
            "UPDATE_INJECTED: Mid-stream: {} answer(s) from: {}",
            labels.len(),
            labels.join(", ")
        );
        let context = json!({"answer_labels": labels});
        self.push(event, "update_injected", agent, details, context);
    }

    pub(super) fn human_input(&mut self, event: &Event, agent: Option<&str>, text: &str) {
        let details = "UPDATE_INJECTED: Mid-stream: input from: human".to_string();
        self.push(
            event,
            "update_injected",
            agent,
            details,
            json!({"text": text}),
        );
    }
}

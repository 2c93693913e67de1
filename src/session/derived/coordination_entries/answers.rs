//! The entries of answers, votes and decomposition stops, the winner, the winner's check of
//! its answer and the final answer.

use serde_json::{Value, json};

use crate::protocol::{
    AgentId, AgentStatus, AnswerLabel, Event, FinalAnswerStrategy, PostEvaluationOutcome,
    VoteCount, WinnerBasis,
};
use crate::session::derived::coordination::Tracker;

impl Tracker {
    pub(super) fn answer_submitted(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        label: &AnswerLabel,
        content: &str,
    ) {
        let Some(agent) = agent else { return };
        self.latest
            .insert(agent.to_string(), (label.to_string(), content.to_string()));
        self.last_author = Some(agent.to_string());
        self.stopped.clear();
        let details = format!("Provided answer {label}");
        self.push(
            event,
            "new_answer",
            Some(agent),
            details,
            json!({"label": label}),
        );
    }

    /// Decomposition mode's `stop`, as MassGen's `add_agent_stop` records it.
    pub(super) fn agent_stopped(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        summary: &str,
        status: &str,
    ) {
        let opening: String = summary.chars().take(100).collect();
        let details = format!("Stopped ({status}): {opening}");
        let context = json!({"summary": summary, "status": status});
        self.push(event, "agent_stopped", agent, details, context);
        self.stopped.extend(agent.map(str::to_string));
    }

    pub(super) fn vote_cast(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        target: &AgentId,
        target_label: &AnswerLabel,
        reason: &str,
    ) {
        let available: Vec<&str> = self
            .latest
            .values()
            .map(|(label, _)| label.as_str())
            .collect();
        let context = json!({
            "voted_for": target,
            "voted_for_label": target_label,
            "reason": reason,
            "available_answers": available,
        });
        let details = format!("Voted for {target_label}");
        self.push(event, "vote_cast", agent, details, context);
    }

    pub(super) fn vote_ignored(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        target: &AgentId,
        reason: &str,
        why: &str,
    ) {
        let context = json!({"voted_for": target, "reason": reason, "why": why});
        let details = format!("VOTE_IGNORED: {why}");
        self.push(event, "vote_ignored", agent, details, context);
    }

    pub(super) fn winner_selected(
        &mut self,
        event: &Event,
        winner: &AgentId,
        tally: &[VoteCount],
        is_tie: bool,
        basis: WinnerBasis,
    ) {
        self.winner = Some(winner.to_string());
        let votes: Vec<String> = tally
            .iter()
            .map(|count| format!("{}: {}", count.agent, count.votes))
            .collect();
        let final_context = json!({
            "vote_summary": format!("Votes: {}", votes.join(", ")),
            "all_answers": self.latest.values().map(|(label, _)| label).collect::<Vec<_>>(),
            "answers_for_context": self
                .latest
                .values()
                .map(|(label, content)| (label.clone(), json!(content)))
                .collect::<serde_json::Map<String, Value>>(),
        });
        let mut context = final_context.clone();
        context["tally"] = json!(tally);
        context["is_tie"] = json!(is_tie);
        context["basis"] = json!(basis);
        self.final_context = Some(final_context);
        let details = "Selected as final presenter".to_string();
        self.push(
            event,
            "final_agent_selected",
            Some(&winner.to_string()),
            details,
            context,
        );
    }

    /// The winner's presentation is a round of its own, after the highest.
    pub(super) fn final_round_started(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        label: &AnswerLabel,
        strategy: FinalAnswerStrategy,
    ) {
        let Some(agent) = agent else { return };
        let final_round = self.max_round() + 1;
        self.set_round(agent, final_round);
        self.status(event, agent, AgentStatus::Presenting);
        let details = format!("Starting final presentation round {final_round}");
        let context = json!({
            "round_type": "final",
            "final_round": final_round,
            "label": label,
            "final_answer_strategy": strategy,
        });
        self.push(event, "final_round_start", Some(agent), details, context);
    }

    pub(super) fn post_evaluation_started(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        attempt: u32,
        max_attempts: u32,
    ) {
        let details = format!("Checking the final answer (attempt {attempt}/{max_attempts})");
        let context = json!({"attempt": attempt, "max_attempts": max_attempts});
        self.push(event, "post_evaluation_start", agent, details, context);
    }

    pub(super) fn post_evaluation_finished(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        outcome: &PostEvaluationOutcome,
    ) {
        let details = match outcome {
            PostEvaluationOutcome::Submitted => "Submitted the final answer".to_string(),
            PostEvaluationOutcome::RestartRequested { reason, .. } => {
                format!("Requested an orchestration restart: {reason}")
            }
            PostEvaluationOutcome::Failed { message } => format!("The check failed: {message}"),
        };
        let context = json!({"outcome": outcome});
        self.push(event, "post_evaluation_end", agent, details, context);
    }

    pub(super) fn final_answer(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        label: &AnswerLabel,
        fallback: bool,
    ) {
        let mut context = self.final_context.clone().unwrap_or_else(|| json!({}));
        context["label"] = json!(label);
        context["fallback"] = json!(fallback);
        let details = format!("Presented final answer {label}");
        self.push(event, "final_answer", agent, details, context);
    }

    pub(super) fn final_overridden(
        &mut self,
        event: &Event,
        agent: Option<&str>,
        label: &AnswerLabel,
        chosen: &AgentId,
    ) {
        let details = format!("Final answer overridden by the user with {label}");
        let context = json!({"label": label, "agent_id": chosen});
        self.push(event, "final_answer_override", agent, details, context);
    }
}

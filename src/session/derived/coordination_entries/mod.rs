//! Which `coordination_events.json` entries each event makes, with MassGen's event types,
//! `details` texts and `context` keys (`CoordinationTracker` in MassGen 0.1.97); events
//! MassGen has no kind for keep massgen's own names (`post_evaluation_start`, …). The
//! entries of each kind of event are written in its part: the turn, answers, cut short,
//! planning.

mod answers;
mod council;
mod cut_short;
mod planning;
mod turn;

use crate::protocol::{
    Event, EventMsg, run_events, stream_deltas, tool_calls, usage_events, workspace_events,
};
use crate::session::derived::coordination::Tracker;

impl Tracker {
    pub fn fold(&mut self, event: &Event) {
        let agent = event.agent.as_ref().map(|agent| agent.to_string());
        let agent = agent.as_deref();
        match &event.msg {
            EventMsg::TurnStarted {
                question,
                agents,
                mode,
                ..
            } => self.session_started(event, question, agents, *mode),
            EventMsg::TurnFinished {
                outcome,
                winner,
                duration_ms,
            } => self.session_ended(event, *outcome, winner.as_ref(), *duration_ms),
            EventMsg::AgentStatus { status } => self.status_changed(event, agent, *status),
            EventMsg::RoundStarted {
                round,
                answers_seen,
                vote_only,
                time_limit,
            } => self.round_started(
                event,
                agent,
                *round,
                answers_seen,
                *vote_only,
                time_limit.as_ref(),
            ),
            EventMsg::AgentRestarted { reason, .. } => self.restart(event, agent, reason),
            EventMsg::UpdateInjected { labels } => self.update_injected(event, agent, labels),
            EventMsg::HumanInputDelivered { text } => self.human_input(event, agent, text),
            EventMsg::AnswerSubmitted { label, content, .. } => {
                self.answer_submitted(event, agent, label, content)
            }
            EventMsg::VoteCast {
                target,
                target_label,
                reason,
                ..
            } => self.vote_cast(event, agent, target, target_label, reason),
            EventMsg::AgentStopped { summary, status } => {
                self.agent_stopped(event, agent, summary, status)
            }
            EventMsg::VoteIgnored {
                target,
                reason,
                why,
            } => self.vote_ignored(event, agent, target, reason, why),
            EventMsg::WinnerSelected {
                winner,
                tally,
                is_tie,
                basis,
                ..
            } => self.winner_selected(event, winner, tally, *is_tie, *basis),
            EventMsg::FinalPresentationStarted { label, strategy } => {
                self.final_round_started(event, agent, label, *strategy)
            }
            EventMsg::FinalPresentationDone {
                label, fallback, ..
            } => self.final_answer(event, agent, label, *fallback),
            EventMsg::FinalOverridden {
                label,
                agent: chosen,
                ..
            } => self.final_overridden(event, agent, label, chosen),
            EventMsg::PostEvaluationStarted {
                attempt,
                max_attempts,
            } => self.post_evaluation_started(event, agent, *attempt, *max_attempts),
            EventMsg::PostEvaluationFinished { outcome } => {
                self.post_evaluation_finished(event, agent, outcome)
            }
            EventMsg::OrchestrationRestarted {
                attempt,
                max_attempts,
                reason,
                instructions,
                ..
            } => self.orchestration_restarted(
                event,
                agent,
                *attempt,
                *max_attempts,
                reason,
                instructions,
            ),
            EventMsg::AgentError { message } => self.agent_error(event, agent, message),
            EventMsg::AgentKilled { reason } => self.agent_killed(event, agent, reason),
            EventMsg::RoundTimeLimitReached {
                stage,
                elapsed_secs,
            } => self.round_time_limit(event, agent, *stage, *elapsed_secs),
            EventMsg::Timeout { scope, seconds } => self.timed_out(event, agent, *scope, *seconds),
            EventMsg::BudgetReached {
                budget_usd,
                spent_usd,
            } => self.budget_reached(event, agent, *budget_usd, *spent_usd),
            EventMsg::Cancelled => self.cancelled(event, agent),
            EventMsg::AnswerNow { stopped } => self.answer_now(event, agent, stopped),
            EventMsg::PlanningModeDecided {
                irreversible,
                blocked_tools,
            } => self.planning_mode_decided(event, agent, *irreversible, blocked_tools),
            EventMsg::PersonaAssigned {
                text,
                summary,
                reused,
            } => self.persona_assigned(event, agent, text, summary.as_deref(), *reused),
            EventMsg::ToolBlocked { tool, message, .. } => {
                self.tool_blocked(event, agent, tool, message)
            }
            EventMsg::BroadcastAsked {
                request_id,
                target,
                questions,
                wait,
                ..
            } => self.broadcast_asked(event, agent, request_id, *target, questions, *wait),
            EventMsg::BroadcastAnswered {
                request_id,
                from,
                answer,
            } => self.broadcast_answered(event, request_id, from.as_ref(), answer),
            EventMsg::BroadcastClosed {
                request_id,
                timed_out,
                responses,
            } => self.broadcast_closed(event, request_id, *timed_out, *responses),
            EventMsg::PlanUpdated { plan } => self.plan_updated(event, agent, plan),
            EventMsg::Strategy(strategy) => self.strategy_entry(event, agent, strategy),
            run_events!()
            | usage_events!()
            | workspace_events!()
            | stream_deltas!()
            | tool_calls!()
            | EventMsg::SessionResumed { .. }
            | EventMsg::McpServerStatus { .. }
            | EventMsg::AttachmentsSent { .. }
            | EventMsg::ToolRefused { .. }
            | EventMsg::EnforcementRetry { .. }
            | EventMsg::Retrying { .. }
            | EventMsg::HumanInputQueued { .. }
            | EventMsg::Approval(_)
            | EventMsg::Warning { .. }
            | EventMsg::ContextUsage { .. }
            | EventMsg::ContextCompressed { .. }
            | EventMsg::SubtasksAssigned { .. }
            | EventMsg::ChecklistSubmitted { .. }
            | EventMsg::ApproachDrafted { .. }
            | EventMsg::FairnessHold { .. }
            | EventMsg::FairnessReleased
            | EventMsg::CriteriaSet { .. }
            | EventMsg::TaskPlanChanged { .. } => {}
        }
    }
}

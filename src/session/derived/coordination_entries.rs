//! Which `coordination_events.json` entries each event makes, with MassGen's event types,
//! `details` texts and `context` keys (`CoordinationTracker` in MassGen 0.1.97); events
//! MassGen has no kind for keep massgen's own names (`post_evaluation_start`, …).

use serde_json::{Value, json};

use super::coordination::Tracker;
use super::coordination::anon_of;
use crate::protocol::{AgentStatus, AnswerLabel, Event, EventMsg, PostEvaluationOutcome};

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
            } => {
                self.question.clone_from(question);
                self.agent_ids = agents.iter().map(|info| info.id.to_string()).collect();
                let listed: Vec<String> =
                    self.agent_ids.iter().map(|id| format!("'{id}'")).collect();
                let details = format!("Started with agents: [{}]", listed.join(", "));
                self.push(event, "session_start", None, details, json!({"mode": mode}));
            }
            EventMsg::TurnFinished {
                outcome,
                winner,
                duration_ms,
            } => {
                let details = format!("Session completed in {:.1}s", *duration_ms as f64 / 1000.0);
                let context =
                    json!({"outcome": outcome, "winner": winner, "duration_ms": duration_ms});
                self.push(event, "session_end", None, details, context);
            }
            EventMsg::AgentStatus { status } => {
                if let Some(agent) = agent {
                    self.status(event, agent, *status);
                }
            }
            EventMsg::RoundStarted {
                round,
                answers_seen,
                vote_only,
                time_limit,
            } => {
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
            EventMsg::AgentRestarted { reason, .. } => {
                let Some(agent) = agent else { return };
                self.restart(event, agent, reason);
            }
            EventMsg::UpdateInjected { labels } => {
                let labels: Vec<&str> = labels.iter().map(AnswerLabel::as_str).collect();
                let details = format!(
                    "UPDATE_INJECTED: Mid-stream: {} answer(s) from: {}",
                    labels.len(),
                    labels.join(", ")
                );
                let context = json!({"answer_labels": labels});
                self.push(event, "update_injected", agent, details, context);
            }
            EventMsg::HumanInputDelivered { text } => {
                let details = "UPDATE_INJECTED: Mid-stream: input from: human".to_string();
                self.push(
                    event,
                    "update_injected",
                    agent,
                    details,
                    json!({"text": text}),
                );
            }
            EventMsg::AnswerSubmitted { label, content, .. } => {
                let Some(agent) = agent else { return };
                self.latest
                    .insert(agent.to_string(), (label.to_string(), content.clone()));
                self.last_author = Some(agent.to_string());
                let details = format!("Provided answer {label}");
                self.push(
                    event,
                    "new_answer",
                    Some(agent),
                    details,
                    json!({"label": label}),
                );
            }
            EventMsg::VoteCast {
                target,
                target_label,
                reason,
                ..
            } => {
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
            EventMsg::VoteIgnored {
                target,
                reason,
                why,
            } => {
                let context = json!({"voted_for": target, "reason": reason, "why": why});
                let details = format!("VOTE_IGNORED: {why}");
                self.push(event, "vote_ignored", agent, details, context);
            }
            EventMsg::WinnerSelected {
                winner,
                tally,
                is_tie,
                basis,
                ..
            } => {
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
            EventMsg::FinalPresentationStarted { label } => {
                let Some(agent) = agent else { return };
                let final_round = self.max_round() + 1;
                self.set_round(agent, final_round);
                self.status(event, agent, AgentStatus::Presenting);
                let details = format!("Starting final presentation round {final_round}");
                let context =
                    json!({"round_type": "final", "final_round": final_round, "label": label});
                self.push(event, "final_round_start", Some(agent), details, context);
            }
            EventMsg::FinalPresentationDone {
                label, fallback, ..
            } => {
                let mut context = self.final_context.clone().unwrap_or_else(|| json!({}));
                context["label"] = json!(label);
                context["fallback"] = json!(fallback);
                let details = format!("Presented final answer {label}");
                self.push(event, "final_answer", agent, details, context);
            }
            EventMsg::FinalOverridden {
                label,
                agent: chosen,
                ..
            } => {
                let details = format!("Final answer overridden by the user with {label}");
                let context = json!({"label": label, "agent_id": chosen});
                self.push(event, "final_answer_override", agent, details, context);
            }
            EventMsg::AgentError { message } => {
                let details = format!("ERROR: {message}");
                self.push(event, "agent_error", agent, details, json!({}));
            }
            EventMsg::AgentKilled { reason } => {
                let details = format!("ERROR: {reason}");
                self.push(
                    event,
                    "agent_error",
                    agent,
                    details,
                    json!({"killed": true}),
                );
            }
            EventMsg::RoundTimeLimitReached {
                stage,
                elapsed_secs,
            } => {
                let details = format!("TIMEOUT: round time limit after {elapsed_secs}s");
                let context =
                    json!({"scope": "round", "stage": stage, "elapsed_seconds": elapsed_secs});
                self.push(event, "agent_timeout", agent, details, context);
            }
            EventMsg::Timeout { scope, seconds } => {
                let details = format!(
                    "TIMEOUT: {} timeout after {seconds}s",
                    json!(scope).as_str().unwrap_or("turn")
                );
                let context = json!({"scope": scope, "seconds": seconds});
                self.push(event, "agent_timeout", agent, details, context);
            }
            EventMsg::BudgetReached {
                budget_usd,
                spent_usd,
            } => {
                // MassGen has no budget event; its nearest kind keeps its readers working.
                let details = format!(
                    "TIMEOUT: cost budget ${budget_usd:.2} reached (${spent_usd:.4} spent)"
                );
                let context =
                    json!({"scope": "budget", "budget_usd": budget_usd, "spent_usd": spent_usd});
                self.push(event, "agent_timeout", agent, details, context);
            }
            EventMsg::Cancelled => {
                self.push(
                    event,
                    "agent_cancelled",
                    agent,
                    "CANCELLED".into(),
                    json!({}),
                );
            }
            EventMsg::PostEvaluationStarted {
                attempt,
                max_attempts,
            } => {
                let details =
                    format!("Checking the final answer (attempt {attempt}/{max_attempts})");
                let context = json!({"attempt": attempt, "max_attempts": max_attempts});
                self.push(event, "post_evaluation_start", agent, details, context);
            }
            EventMsg::PostEvaluationFinished { outcome } => {
                let details = match outcome {
                    PostEvaluationOutcome::Submitted => "Submitted the final answer".to_string(),
                    PostEvaluationOutcome::RestartRequested { reason, .. } => {
                        format!("Requested an orchestration restart: {reason}")
                    }
                    PostEvaluationOutcome::Failed { message } => {
                        format!("The check failed: {message}")
                    }
                };
                let context = json!({"outcome": outcome});
                self.push(event, "post_evaluation_end", agent, details, context);
            }
            EventMsg::OrchestrationRestarted {
                attempt,
                max_attempts,
                reason,
                instructions,
                ..
            } => {
                let details = format!(
                    "Restarting orchestration (attempt {attempt}/{max_attempts}): {reason}"
                );
                let context = json!({"attempt": attempt, "max_attempts": max_attempts,
                                     "reason": reason, "instructions": instructions});
                self.push(event, "orchestration_restart", agent, details, context);
            }
            EventMsg::PlanningModeDecided {
                irreversible,
                blocked_tools,
            } => {
                let details = if *irreversible {
                    format!("Planning mode: {} tools blocked", blocked_tools.len())
                } else {
                    "Planning mode: nothing irreversible, tools run".to_string()
                };
                let context =
                    json!({"has_irreversible": irreversible, "blocked_tools": blocked_tools});
                self.push(event, "planning_mode_decided", agent, details, context);
            }
            EventMsg::ToolBlocked { tool, message, .. } => {
                let details = format!("Refused tool {tool}");
                let context = json!({"tool": tool, "message": message});
                self.push(event, "tool_blocked", agent, details, context);
            }
            EventMsg::BroadcastAsked {
                request_id,
                target,
                questions,
                wait,
                ..
            } => {
                let first = questions
                    .first()
                    .map_or("", |question| question.text.as_str());
                let details = format!(
                    "Created broadcast: {}...",
                    first.chars().take(50).collect::<String>()
                );
                let context = json!({
                    "request_id": request_id,
                    "question_preview": first.chars().take(100).collect::<String>(),
                    "target": target,
                    "questions": questions,
                    "wait": wait,
                });
                self.push(event, "broadcast_created", agent, details, context);
            }
            EventMsg::BroadcastAnswered {
                request_id,
                from,
                answer,
            } => {
                let from = from.as_ref().map(ToString::to_string);
                let (kind, details) = match from {
                    Some(_) => ("broadcast_response", "Responded to broadcast"),
                    None => ("human_broadcast_response", "Human responded to broadcast"),
                };
                let context =
                    json!({"request_id": request_id, "is_human": from.is_none(), "answer": answer});
                self.push(event, kind, from.as_deref(), details.into(), context);
            }
            EventMsg::BroadcastClosed {
                request_id,
                timed_out,
                responses,
            } => {
                let (kind, status) = if *timed_out {
                    ("broadcast_timeout", "timeout")
                } else {
                    ("broadcast_complete", "complete")
                };
                let context = json!({"request_id": request_id, "completion_status": status,
                                     "responses": responses});
                self.push(event, kind, None, format!("Broadcast {status}"), context);
            }
            EventMsg::PlanUpdated { plan } => {
                let details = format!(
                    "Plan {}: {}",
                    plan.id,
                    json!(plan.status).as_str().unwrap_or("updated")
                );
                let context = json!({"plan_id": plan.id, "status": plan.status,
                    "detail": plan.detail, "progress": plan.outcome});
                self.push(event, "plan_status", agent, details, context);
            }
            EventMsg::RunStarted { .. }
            | EventMsg::RunFinished
            | EventMsg::AgentsReplaced { .. }
            | EventMsg::HistoryCleared
            | EventMsg::SessionResumed { .. }
            | EventMsg::TextDelta { .. }
            | EventMsg::ReasoningDelta { .. }
            | EventMsg::ToolCallBegin { .. }
            | EventMsg::McpServerStatus { .. }
            | EventMsg::ToolRefused { .. }
            | EventMsg::WorkspaceAssigned { .. }
            | EventMsg::WorkspaceSnapshot { .. }
            | EventMsg::ToolCallEnd { .. }
            | EventMsg::ProviderTool(_)
            | EventMsg::EnforcementRetry { .. }
            | EventMsg::Retrying { .. }
            | EventMsg::Usage { .. }
            | EventMsg::RoundUsage { .. }
            | EventMsg::FinalPresentationDelta { .. }
            | EventMsg::HumanInputQueued { .. }
            | EventMsg::Warning { .. }
            | EventMsg::ReplayStarted { .. }
            | EventMsg::ReplayFinished { .. }
            | EventMsg::TaskPlanChanged { .. }
            | EventMsg::PlansListed { .. } => {}
        }
    }
}

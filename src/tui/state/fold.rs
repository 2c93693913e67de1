//! How each event changes the state: one arm per kind of event, each handing it to the
//! part it concerns (the agent's card, the turn, the votes, the plans, …) or to a change
//! that spans several (`coordination`, `turn_flow`).

use super::agent::{CardPersona, ContextGauge};
use super::attempts::{checked_notice, injected_notice};
use super::{AgentCard, ListedSkills, ReplayState, UiState, display_tool_name, refusal};
use crate::protocol::symbols::{APPROACH, CHECKLIST, STOPPED};
use crate::protocol::{AgentId, Event, EventMsg, compression_line};

impl UiState {
    pub(super) fn fold(&mut self, event: &Event) {
        let (agent, at) = (event.agent.as_ref(), event.at);
        self.timeline.fold(event);
        self.vote_ledger.fold(agent, &event.msg);
        match &event.msg {
            EventMsg::RunStarted { version, agents } => self.run_started(version, agents),
            EventMsg::AgentsReplaced { agents } => self.set_roster(agents),
            EventMsg::HistoryCleared => self.start_afresh(),
            EventMsg::SessionResumed {
                session_id,
                turns,
                history_from,
                notice,
            } => self.resume(session_id, turns, *history_from, notice.as_deref()),
            EventMsg::TurnStarted {
                question,
                mode,
                agents,
                log_dir,
                options,
            } => self.start_turn(event, question, *mode, agents, log_dir.as_ref(), options),
            EventMsg::TurnFinished {
                outcome,
                winner,
                duration_ms,
            } => self.finish_turn(event, *outcome, winner.as_ref(), *duration_ms),
            EventMsg::SubtasksAssigned { subtasks, .. } => {
                for (owner, subtask) in subtasks {
                    self.card(Some(owner), |card| card.subtask = Some(subtask.clone()));
                }
            }
            EventMsg::AgentStopped { summary, status } => self.card(agent, |card| {
                card.notice(format!("{STOPPED} stopped ({status}): {summary}"));
                card.stopped = Some(status.clone());
            }),
            EventMsg::AgentStatus { status } => {
                self.card(agent, |card| card.set_status(*status, at))
            }
            EventMsg::RoundStarted {
                round,
                answers_seen,
                time_limit,
                ..
            } => self.card(agent, |card| {
                card.start_round(*round, answers_seen, *time_limit, at)
            }),
            EventMsg::TextDelta { text } => self.card(agent, |card| card.push_text(text)),
            EventMsg::ReasoningDelta { text } => self.card(agent, |card| card.push_reasoning(text)),
            EventMsg::ToolCallBegin {
                call_id,
                tool,
                arguments,
                category,
            } => self.card(agent, |card| {
                card.begin_tool(
                    call_id,
                    &display_tool_name(tool, category.as_deref()),
                    arguments,
                )
            }),
            EventMsg::ProviderTool(call) => self.card(agent, |card| card.push_provider_tool(call)),
            EventMsg::ToolCallEnd {
                call_id,
                ok,
                output,
                duration_ms,
                ..
            } => self.card(agent, |card| {
                card.end_tool(call_id, *ok, output, *duration_ms)
            }),
            EventMsg::AnswerSubmitted {
                label,
                content,
                votes_reset,
                ..
            } => self.answer_submitted(agent, label, content, votes_reset.as_deref()),
            EventMsg::Strategy(news) => self.strategy.apply(agent, news),
            EventMsg::VoteCast {
                target,
                target_label,
                reason,
                standing,
                ..
            } => self.vote_cast(agent, target, target_label, reason, standing.as_deref()),
            EventMsg::CriteriaSet { source, criteria } => {
                let ids: Vec<&str> = criteria
                    .iter()
                    .map(|criterion| criterion.id.as_str())
                    .collect();
                self.turn.criteria =
                    Some(format!("Criteria ({}): {}", source.name(), ids.join(" ")));
            }
            EventMsg::ChecklistSubmitted { result } => self.card(agent, |card| {
                card.notice(format!("{CHECKLIST} checklist: {}", result.summary()));
                card.checklist = Some(result.clone());
            }),
            EventMsg::ApproachDrafted { approach } => self.card(agent, |card| {
                card.notice(format!("{APPROACH} approach: {}", approach.summary()));
            }),
            EventMsg::VoteIgnored { target, why, .. } => {
                self.card(agent, |card| card.vote_ignored(target, why))
            }
            EventMsg::FairnessHold { lead, cap } => {
                self.card(agent, |card| card.held = Some((*lead, *cap)))
            }
            EventMsg::FairnessReleased => self.card(agent, |card| card.held = None),
            EventMsg::UpdateInjected { labels } => {
                self.card(agent, |card| card.notice(injected_notice(labels)))
            }
            EventMsg::ContextUsage { tokens, window } => self.card(agent, |card| {
                card.context = Some(ContextGauge::new(*tokens, *window));
            }),
            EventMsg::ContextCompressed {
                reason,
                tokens_before,
                tokens_after,
                window,
                summarized,
                ..
            } => self.card(agent, |card| {
                card.context = Some(ContextGauge::new(*tokens_after, *window));
                card.notice(compression_line(
                    *reason,
                    *tokens_before,
                    *tokens_after,
                    *window,
                    *summarized,
                ));
            }),
            EventMsg::RoundTimeLimitReached { stage, .. } => {
                self.card(agent, |card| card.round_time_limit(*stage, at))
            }
            EventMsg::PostEvaluationStarted {
                attempt,
                max_attempts,
            } => self.post_evaluation_started(agent, *attempt, *max_attempts),
            EventMsg::PostEvaluationFinished { outcome } => {
                self.card(agent, |card| card.notice(checked_notice(outcome)))
            }
            EventMsg::OrchestrationRestarted {
                attempt,
                max_attempts,
                reason,
                log_dir,
                ..
            } => self.restart_attempt(*attempt, *max_attempts, reason, log_dir.as_ref()),
            EventMsg::Retrying {
                attempt,
                max_retries,
                delay_ms,
                reason,
            } => self.card(agent, |card| {
                card.retrying(reason, *delay_ms, *attempt, *max_retries)
            }),
            EventMsg::AgentError { message } => self.card(agent, |card| card.failed(message)),
            EventMsg::AgentKilled { reason } => self.agent_killed(agent, reason),
            EventMsg::Usage {
                usage, cost_usd, ..
            } => self.card(agent, |card| card.spend.add(*usage, *cost_usd)),
            EventMsg::WinnerSelected {
                winner,
                tally,
                basis,
                ..
            } => self.winner_selected(winner, tally, *basis),
            EventMsg::FinalPresentationStarted { label, .. } => self.final_started(agent, label),
            EventMsg::FinalPresentationDelta { text } => {
                self.card(agent, |card| card.push_final(text))
            }
            EventMsg::FinalPresentationDone { label, content, .. } => {
                self.card(agent, |card| card.settle_final(label, content))
            }
            EventMsg::FinalOverridden {
                label,
                agent,
                content,
            } => self.final_overridden(event.turn, label, agent, content),
            EventMsg::WorkspaceAssigned {
                workspace,
                temp,
                snapshot,
            } => self.workspace_assigned(agent, workspace, temp, snapshot),
            EventMsg::McpServerStatus { server, state } => self.server_status(agent, server, state),
            EventMsg::SkillsListed { skills, searched } => {
                self.tools.skills = Some(ListedSkills {
                    skills: skills.clone(),
                    searched: searched.clone(),
                })
            }
            EventMsg::AttachmentsSent { attachments } => {
                self.card(agent, |card| attachments.clone_into(&mut card.attachments))
            }
            EventMsg::ToolRefused { tool, path, reason } => {
                self.card(agent, |card| card.notice(refusal(tool, path, reason)))
            }
            EventMsg::WorkspaceSnapshot {
                files,
                bytes,
                skipped,
            } => self.card(agent, |card| card.snapshot(*files, *bytes, skipped.len())),
            EventMsg::HumanInputQueued { text, .. } => self.queued_input.queue(text),
            EventMsg::HumanInputDelivered { text } => self.input_delivered(agent, text),
            EventMsg::ReplayStarted {
                source,
                speed,
                step,
            } => self.replay = Some(ReplayState::new(at, source, *speed, *step)),
            EventMsg::ReplayFinished { .. } => self.replay_finished(),
            EventMsg::ToolBlocked {
                call_id,
                tool,
                arguments,
                message,
            } => self.card(agent, |card| {
                card.block_tool(call_id, tool, arguments, message)
            }),
            EventMsg::TaskPlanChanged { tasks } => self.card(agent, |card| card.set_tasks(tasks)),
            EventMsg::PersonaAssigned { text, summary, .. } => self.card(agent, |card| {
                card.persona = Some(CardPersona {
                    text: text.clone(),
                    summary: summary.clone(),
                })
            }),
            EventMsg::BroadcastAsked {
                request_id,
                target,
                questions,
                timeout_secs,
                ..
            } => self.broadcast_asked(agent, at, request_id, *target, questions, *timeout_secs),
            EventMsg::BroadcastAnswered {
                request_id,
                from,
                answer,
                ..
            } => self.broadcast_answered(agent, request_id, from.as_ref(), answer),
            EventMsg::BroadcastClosed { request_id, .. } => self.planning.settled(request_id),
            EventMsg::PlanUpdated { plan } => self.plan_updated(plan),
            EventMsg::PlansListed { plans } => self.planning.listed(plans),
            EventMsg::Approval(approval) => self.approvals.fold(approval, at),
            // Only the timeline records these.
            EventMsg::RunFinished
            | EventMsg::AgentRestarted { .. }
            | EventMsg::EnforcementRetry { .. }
            | EventMsg::RoundUsage { .. }
            | EventMsg::Timeout { .. }
            | EventMsg::BudgetReached { .. }
            | EventMsg::Cancelled
            | EventMsg::AnswerNow { .. }
            | EventMsg::Warning { .. }
            | EventMsg::PlanningModeDecided { .. } => {}
        }
    }

    /// Changes the card of `agent`, if it has one.
    pub(super) fn card(&mut self, agent: Option<&AgentId>, change: impl FnOnce(&mut AgentCard)) {
        if let Some(card) = self.agent_mut(agent) {
            change(card);
        }
    }
}

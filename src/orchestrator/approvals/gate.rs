//! One agent's gate in front of its tools: every call is checked by the permission engine
//! before it runs; an ask goes to the run's grants, then the agent's asker, within the
//! automatic-approval budget. Every checked call gets exactly one `ApprovalEvent::Decided`.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::askers::{Asker, Heard, policy_allows};
use super::pending::PendingApprovals;
use super::verdicts::{Decision, denial_text};
use crate::approvals::{
    AutoBudget, Boundary, Check, Engine, Outcome, SessionGrants, handshake_id, save_always,
};
use crate::backend::ToolCall;
use crate::config::{PermissionRule, PermissionsConfig};
use crate::orchestrator::channel::AgentSink;
use crate::protocol::{
    Action, AgentId, ApprovalAnswer, ApprovalEvent, ApprovalRequest, Decider, EventMsg, GrantScope,
};
use crate::tools::ToolRouter;

/// What outlives one agent's gate within the run: grants, waiting asks, request numbers.
#[derive(Debug, Default)]
pub struct RunShared {
    pub grants: SessionGrants,
    pub pending: Arc<PendingApprovals>,
    requests: AtomicU64,
}

/// One agent's permission check and asking.
pub struct AgentGate {
    pub(super) agent: AgentId,
    pub(super) config: PermissionsConfig,
    /// `always` grants read back from the settings file (`persist_approvals`).
    pub(super) saved: Vec<PermissionRule>,
    pub(super) settings_path: PathBuf,
    pub(super) asker: Asker,
    pub(super) budget: AutoBudget,
    pub(super) shared: Arc<RunShared>,
}

impl AgentGate {
    /// Checks `call` before it runs; `Some(message)` when it must not run, the message being
    /// what the model reads as the call's result.
    pub async fn decide(
        &self,
        sink: &AgentSink,
        router: &dyn ToolRouter,
        call: &ToolCall,
    ) -> Option<String> {
        let engine = Engine::new(&self.config, self.saved.clone(), boundary(router));
        let check = engine.check(&call.name, &call.arguments);
        let decision = match check.outcome {
            Outcome::Allow => Decision::allowed(check.decider, check.reason.clone()),
            Outcome::Deny => Decision::denied(check.decider, check.reason.clone()),
            Outcome::Ask => self.ask(sink, router, call, &check).await,
        };
        let denial = decision.denied.then(|| denial_text(&decision, &check));
        let record = decision.record(&self.agent, call, &check, denial.clone(), self.config.audit);
        sink.event(EventMsg::Approval(ApprovalEvent::Decided(record)));
        denial
    }

    async fn ask(
        &self,
        sink: &AgentSink,
        router: &dyn ToolRouter,
        call: &ToolCall,
        check: &Check,
    ) -> Decision {
        let key = SessionGrants::key(self.agent.as_str(), &call.name, &check.pattern);
        if self.shared.grants.covers(&key) {
            if self.budget.tick_auto(&self.agent) {
                return Decision::allowed(Decider::Grant, "approved earlier in this run".into());
            }
            return self.over_budget(sink, router, call, check).await;
        }
        match self.asker {
            Asker::Policy(policy) if !policy_allows(policy, check.risk) => Decision::denied(
                Decider::Policy,
                format!("{} (automation_default: {})", check.reason, policy.as_str()),
            ),
            Asker::Policy(policy) if self.budget.tick_auto(&self.agent) => Decision::allowed(
                Decider::Policy,
                format!("{} (automation_default: {})", check.reason, policy.as_str()),
            ),
            Asker::Policy(_) => self.over_budget(sink, router, call, check).await,
            Asker::Person | Asker::File(_) => {
                self.ask_someone(sink, router, call, check, check.reason.clone())
                    .await
            }
        }
    }

    /// `max_consecutive_auto` automatic approvals in a row: a person must answer this one.
    async fn over_budget(
        &self,
        sink: &AgentSink,
        router: &dyn ToolRouter,
        call: &ToolCall,
        check: &Check,
    ) -> Decision {
        let streak = self.budget.max().unwrap_or_default();
        let reason = format!(
            "{streak} automatic approvals in a row (max_consecutive_auto); {}",
            check.reason
        );
        if self.asker.asks_someone() {
            self.ask_someone(sink, router, call, check, reason).await
        } else {
            Decision::denied(Decider::Budget, reason)
        }
    }

    async fn ask_someone(
        &self,
        sink: &AgentSink,
        router: &dyn ToolRouter,
        call: &ToolCall,
        check: &Check,
        reason: String,
    ) -> Decision {
        let id = handshake_id(self.agent.as_str(), &call.name, &check.pattern);
        let number = self.shared.requests.fetch_add(1, Ordering::Relaxed) + 1;
        let timeout = self.config.approval_timeout;
        let request = ApprovalRequest {
            request_id: format!("{id}-{number}"),
            agent: self.agent.clone(),
            call_id: call.id.clone(),
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
            action: check.action,
            target: check.target.clone(),
            risk: check.risk,
            reason: reason.clone(),
            rule: check.rule.clone(),
            preview: check.preview.clone(),
            diff: (check.action == Action::WriteFile)
                .then(|| router.write_preview(&call.name, &call.arguments))
                .flatten(),
            timeout_secs: timeout.as_secs(),
            answer_file: None,
        };
        let started = tokio::time::Instant::now();
        let heard = self
            .asker
            .ask(
                &self.shared.pending,
                sink,
                &request,
                (&id, &check.pattern),
                timeout,
            )
            .await;
        let waited = started.elapsed();
        let decision = match heard {
            Heard::Answer(ApprovalAnswer::Approve { scope }) => {
                self.budget.reset(&self.agent);
                self.remember(sink, call, check, scope);
                Decision::approved(scope, reason)
            }
            Heard::Answer(ApprovalAnswer::Deny { message }) => {
                self.budget.reset(&self.agent);
                Decision::denied(Decider::Human, reason).with_message(message)
            }
            Heard::TimedOut => Decision::denied(Decider::Timeout, reason),
            Heard::Failed(why) => Decision::denied(Decider::Policy, format!("{reason}; {why}")),
        };
        decision.asked(request.request_id, waited)
    }

    /// A `session` or `always` approval covers the same call for the rest of the run; an
    /// `always` one is saved for the project too, when `persist_approvals` is on.
    fn remember(&self, sink: &AgentSink, call: &ToolCall, check: &Check, scope: GrantScope) {
        if scope == GrantScope::Once {
            return;
        }
        let key = SessionGrants::key(self.agent.as_str(), &call.name, &check.pattern);
        self.shared.grants.grant(key, scope);
        if scope == GrantScope::Always
            && self.config.persist_approvals
            && let Err(error) = save_always(&self.settings_path, check)
        {
            sink.event(EventMsg::Warning {
                message: format!(
                    "the `always` approval of {} could not be saved to {}: {error}; it holds \
                     for this run only",
                    check.preview,
                    self.settings_path.display()
                ),
            });
        }
    }
}

/// Where the agent may write now: its workspace and writable roots, from its path policy.
fn boundary(router: &dyn ToolRouter) -> Boundary {
    router
        .process_plan(false)
        .map(|plan| Boundary {
            workspace: Some(plan.workspace.clone()),
            writable: std::iter::once(plan.workspace)
                .chain(plan.writable)
                .collect(),
        })
        .unwrap_or_default()
}

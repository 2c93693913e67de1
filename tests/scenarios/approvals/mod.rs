//! Tool approvals in whole turns: every call of an agent with `permissions:` is checked
//! before it runs, asked calls are answered by a person, the file handshake or the policy,
//! and the agent reads a denial as its tool result. Each test asserts both what the agent
//! got and the `ApprovalEvent::Decided` events.

mod asking;
mod handshake;
mod headless;
mod rules;

use std::time::Duration;

use crate::support::Scenario;
use massgen::backend::Message;
use massgen::config::{Config, PermissionRule, PermissionsConfig, RuleDecision};
use massgen::orchestrator::ApprovalOptions;
use massgen::protocol::{
    ApprovalEvent, ApprovalRecord, ApprovalRequest, Decider, Event, EventMsg, Mode, Op, TurnOptions,
};

pub const EXECUTE: &str = "mcp__command_line__execute_command";

/// One scripted agent per `(id, commands)`: its first reply runs each command with
/// `execute_command`, then it answers (and votes for the first agent).
pub fn config(agents: &[(&str, &[&str])]) -> Config {
    let mut yaml = String::from("agents:\n");
    for (id, commands) in agents {
        yaml.push_str(&format!(
            "  - id: {id}\n    backend:\n      type: scripted\n      tokens_per_second: 0\n      \
             cwd: workspace_{id}\n      enable_mcp_command_line: true\n      answers: [\"done\"]\n      \
             vote_for: {first}\n      tool_calls:\n",
            first = agents[0].0
        ));
        for command in *commands {
            let arguments = serde_json::json!({ "command": command });
            yaml.push_str(&format!(
                "        - {{name: {EXECUTE}, arguments: {arguments}}}\n"
            ));
        }
    }
    crate::support::load(&yaml)
}

/// A `permissions:` block with these rules (`allow:` / `ask:` / `deny:` lists).
pub fn permissions(allow: &[&str], ask: &[&str], deny: &[&str]) -> PermissionsConfig {
    let mut rules = Vec::new();
    for (texts, decision) in [
        (allow, RuleDecision::Allow),
        (ask, RuleDecision::Ask),
        (deny, RuleDecision::Deny),
    ] {
        for text in texts {
            rules.push(PermissionRule::parse(text, decision).unwrap());
        }
    }
    PermissionsConfig {
        rules,
        approval_timeout: Duration::from_secs(30),
        ..PermissionsConfig::default()
    }
}

/// `config` with `block` as the permissions of the agent at `index`.
pub fn with_permissions(mut config: Config, index: usize, block: PermissionsConfig) -> Config {
    config.agents[index].backend.tools.permissions = Some(block);
    config
}

/// One agent, `solo`, running `commands`, with `ask` as its only rules.
pub fn solo_asking(commands: &[&str], ask: &[&str]) -> Config {
    with_permissions(config(&[("solo", commands)]), 0, permissions(&[], ask, &[]))
}

/// The deciders of the agent's `Decided` records, in order.
pub fn deciders(events: &[Event], agent: &str) -> Vec<Decider> {
    decided(events, agent)
        .iter()
        .map(|record| record.decider)
        .collect()
}

/// Starts the run: `human` puts a person at the terminal.
pub fn start(config: Config, human: bool, options: ApprovalOptions) -> Scenario {
    Scenario::start_with_approvals(tempfile::tempdir().unwrap(), config, human, options)
}

/// Runs one turn; `reply` may answer each event with an op.
pub async fn run(scenario: &mut Scenario, reply: impl Fn(&EventMsg) -> Option<Op>) -> Vec<Event> {
    scenario
        .submit_answering("Run them", Mode::Normal, TurnOptions::default(), reply)
        .await
}

/// The agent's `Decided` records, in order.
pub fn decided(events: &[Event], agent: &str) -> Vec<ApprovalRecord> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::Approval(ApprovalEvent::Decided(record))
                if event.agent.as_ref().is_some_and(|id| id.as_str() == agent) =>
            {
                assert_eq!(record.agent.as_str(), agent);
                Some(record.clone())
            }
            _ => None,
        })
        .collect()
}

/// Every `Asked` request, in order.
pub fn asked(events: &[Event]) -> Vec<ApprovalRequest> {
    events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::Approval(ApprovalEvent::Asked(request)) => Some(request.clone()),
            _ => None,
        })
        .collect()
}

/// What the agent read as the results of its tool calls, in call order.
pub fn tool_results(scenario: &Scenario, agent: &str) -> Vec<(String, String)> {
    let mut results: Vec<(String, String)> = Vec::new();
    for request in scenario.requests_of(agent) {
        for message in request.messages.iter() {
            if let Message::Tool {
                call_id, content, ..
            } = message
                && !results.iter().any(|(id, _)| id == call_id)
            {
                results.push((call_id.clone(), content.clone()));
            }
        }
    }
    results
}

/// The commands that actually ran (a `ToolCallBegin` of `execute_command`), by agent.
pub fn ran(events: &[Event], agent: &str) -> usize {
    events
        .iter()
        .filter(|event| {
            event.agent.as_ref().is_some_and(|id| id.as_str() == agent)
                && matches!(&event.msg, EventMsg::ToolCallBegin { tool, .. } if tool == EXECUTE)
        })
        .count()
}

//! Tests of the built-in tools, each in the fixture tree of `permissions::fixture`.
#![cfg(unix)]

mod command;
mod fs_read;
mod fs_write;
mod offered;
mod workspace;

use serde_json::Value;

use super::{BuiltinOutcome, BuiltinTools};
use crate::config::{CommandLineConfig, ToolSettings};
use crate::tools::permissions::fixture::Fixture;

fn settings(f: &Fixture) -> ToolSettings {
    ToolSettings {
        cwd: Some(f.ws.display().to_string()),
        command_line: Some(CommandLineConfig::default()),
        ..ToolSettings::default()
    }
}

fn tools(f: &Fixture) -> BuiltinTools {
    BuiltinTools::new(f.policy.clone(), &settings(f))
}

/// Calls `tool` by its bare name on whichever server has it.
async fn call(tools: &BuiltinTools, tool: &str, args: Value) -> BuiltinOutcome {
    let name = ["filesystem", "workspace_tools", "command_line"]
        .iter()
        .map(|server| format!("mcp__{server}__{tool}"))
        .find(|name| tools.handles(name))
        .unwrap_or_else(|| panic!("no server offers {tool}"));
    tools.call(&name, &args.to_string()).await
}

#[track_caller]
fn ok(outcome: &BuiltinOutcome) -> &str {
    assert!(
        outcome.outcome.ok,
        "expected success: {}",
        outcome.outcome.output
    );
    assert!(outcome.refusal.is_none());
    &outcome.outcome.output
}

#[track_caller]
fn failed(outcome: &BuiltinOutcome) -> &str {
    assert!(
        !outcome.outcome.ok,
        "expected failure: {}",
        outcome.outcome.output
    );
    assert!(
        outcome.refusal.is_none(),
        "not a refusal: {:?}",
        outcome.refusal
    );
    &outcome.outcome.output
}

#[track_caller]
fn refused(outcome: &BuiltinOutcome) -> &str {
    assert!(
        !outcome.outcome.ok,
        "expected a refusal: {}",
        outcome.outcome.output
    );
    let refusal = outcome.refusal.as_ref().expect("a refusal");
    assert_eq!(refusal.reason, outcome.outcome.output);
    &outcome.outcome.output
}

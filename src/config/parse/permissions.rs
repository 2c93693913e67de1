//! The `permissions:` block, under an agent's `backend:` and at the top level for every
//! agent: `true` / `false`, or a mapping of MassGen 0.1.97's keys (and `approval_timeout`).
//! Unlike MassGen, which warns and drops it, a rule or choice that cannot be read is a load
//! error: a silently dropped deny rule would let through what the user meant to stop.

use std::path::PathBuf;
use std::time::Duration;

use super::Note;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::yaml_node::{Node, Value};
use crate::config::{
    ApprovalMode, AutomationDefault, PermissionRole, PermissionRule, PermissionsConfig,
    RuleDecision,
};

const KNOWN: [&str; 11] = [
    "enabled",
    "role",
    "rules",
    "automation_default",
    "approval_mode",
    "approval_dir",
    "approval_timeout",
    "audit",
    "max_consecutive_auto",
    "persist_approvals",
    "settings_path",
];
const DECISIONS: [(&str, RuleDecision); 3] = [
    ("allow", RuleDecision::Allow),
    ("ask", RuleDecision::Ask),
    ("deny", RuleDecision::Deny),
];
const ROLES: [&str; 4] = ["read-only", "researcher", "read-write", "implementer"];
const AUTOMATION: [&str; 3] = ["risk-based", "deny-all", "allow-all"];
const MODES: [&str; 2] = ["policy", "file"];
const EXAMPLE: &str =
    "permissions: {role: read-only, rules: {deny: [\"command(git push --force*)\"]}}";

/// One block as written: the scalars it sets (`None` where it is silent, so an agent's
/// block can fall back to the top level's) and its rules.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct PermissionsBlock {
    enabled: Option<bool>,
    role: Option<PermissionRole>,
    rules: Vec<PermissionRule>,
    automation_default: Option<AutomationDefault>,
    approval_mode: Option<ApprovalMode>,
    approval_dir: Option<PathBuf>,
    approval_timeout: Option<Duration>,
    audit: Option<bool>,
    max_consecutive_auto: Option<u32>,
    persist_approvals: Option<bool>,
    settings_path: Option<PathBuf>,
}

/// The `permissions` block of `parent` (a backend or the top level), if it has one.
pub(super) fn parse_permissions(
    parent: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<Option<PermissionsBlock>, Problem> {
    let Some(node) = parent.get("permissions") else {
        return Ok(None);
    };
    let block = match &node.value {
        Value::Bool(enabled) => PermissionsBlock {
            enabled: Some(*enabled),
            ..PermissionsBlock::default()
        },
        Value::Map(_) => read_block(&Fields::of(node, parent.key_path("permissions"))?, notes)?,
        _ => {
            return Err(parent.wrong_type(
                "permissions",
                node,
                "true, false or a mapping",
                EXAMPLE,
            ));
        }
    };
    Ok(Some(block))
}

fn read_block(block: &Fields<'_>, notes: &mut Vec<Note>) -> Result<PermissionsBlock, Problem> {
    for unknown in block.unknown(&KNOWN) {
        notes.push(Note {
            loc: Some(unknown.key_loc),
            message: format!(
                "ignored: unknown key `{}` — a permissions block takes {}",
                block.key_path(&unknown.key),
                KNOWN.join(", ")
            ),
            ignored: Some(block.key_path(&unknown.key)),
        });
    }
    let max_consecutive_auto = match block.get("max_consecutive_auto") {
        None => None,
        Some(node) => Some(positive(block, "max_consecutive_auto", node)?),
    };
    Ok(PermissionsBlock {
        enabled: block.bool("enabled")?,
        role: block.choice("role", &ROLES, |text| {
            match text.trim().to_ascii_lowercase().as_str() {
                "read-only" | "researcher" => Some(PermissionRole::ReadOnly),
                "read-write" | "implementer" => Some(PermissionRole::ReadWrite),
                _ => None,
            }
        })?,
        rules: rules(block, notes)?,
        automation_default: block.choice("automation_default", &AUTOMATION, |text| {
            match text.trim().to_ascii_lowercase().as_str() {
                "risk-based" => Some(AutomationDefault::RiskBased),
                "deny-all" => Some(AutomationDefault::DenyAll),
                "allow-all" => Some(AutomationDefault::AllowAll),
                _ => None,
            }
        })?,
        approval_mode: block.choice("approval_mode", &MODES, |text| {
            match text.trim().to_ascii_lowercase().as_str() {
                "policy" => Some(ApprovalMode::Policy),
                "file" => Some(ApprovalMode::File),
                _ => None,
            }
        })?,
        approval_dir: path(block, "approval_dir")?,
        approval_timeout: block.seconds("approval_timeout", 300)?,
        audit: block.bool("audit")?,
        max_consecutive_auto,
        persist_approvals: block.bool("persist_approvals")?,
        settings_path: path(block, "settings_path")?,
    })
}

fn path(block: &Fields<'_>, key: &str) -> Result<Option<PathBuf>, Problem> {
    Ok(block
        .string(key)?
        .filter(|text| !text.trim().is_empty())
        .map(PathBuf::from))
}

fn positive(block: &Fields<'_>, key: &str, node: &Node) -> Result<u32, Problem> {
    match &node.value {
        Value::Int(number) if *number > 0 => Ok(u32::try_from(*number).unwrap_or(u32::MAX)),
        _ => Err(Problem::at(
            node.loc,
            format!("`{}` must be a whole number above 0", block.key_path(key)),
        )
        .help(format!(
            "e.g. `{key}: 25` (automatic approvals in a row), or leave it out for no cap"
        ))),
    }
}

/// `rules: {allow: [...], ask: [...], deny: [...]}`, each rule read as MassGen writes it.
fn rules(block: &Fields<'_>, notes: &mut Vec<Note>) -> Result<Vec<PermissionRule>, Problem> {
    let Some(node) = block.get("rules") else {
        return Ok(Vec::new());
    };
    let lists = Fields::of(node, block.key_path("rules"))?;
    let names: Vec<&str> = DECISIONS.iter().map(|(name, _)| *name).collect();
    for unknown in lists.unknown(&names) {
        notes.push(Note {
            loc: Some(unknown.key_loc),
            message: format!(
                "ignored: unknown key `{}` — rules are listed under allow, ask and deny",
                lists.key_path(&unknown.key)
            ),
            ignored: Some(lists.key_path(&unknown.key)),
        });
    }
    let mut found = Vec::new();
    for (key, decision) in DECISIONS {
        let Some(list) = lists.get(key) else {
            continue;
        };
        let texts = lists.strings(key)?;
        let locs: Vec<_> = match &list.value {
            Value::Seq(items) => items.iter().map(|item| item.loc).collect(),
            _ => vec![list.loc],
        };
        for (index, text) in texts.iter().enumerate() {
            let rule = PermissionRule::parse(text, decision).map_err(|why| {
                Problem::at(
                    locs.get(index).copied().unwrap_or(list.loc),
                    format!("`{}[{index}]`: {why}", lists.key_path(key)),
                )
                .help(
                    "write a rule as action(pattern), like `command(git push --force*)`, \
                     `write_file(./**)`, `read_url(*)` or `mcp(server/*)`",
                )
            })?;
            found.push(rule);
        }
    }
    Ok(found)
}

/// The block that applies to an agent: its own scalars, else the top level's; the top
/// level's rules and then its own. `None` when neither has a block or it is turned off.
pub(super) fn effective(
    top: Option<&PermissionsBlock>,
    agent: Option<&PermissionsBlock>,
) -> Option<PermissionsConfig> {
    if top.is_none() && agent.is_none() {
        return None;
    }
    let agent_or_top = |read: &dyn Fn(&PermissionsBlock) -> Option<bool>| {
        agent.and_then(read).or_else(|| top.and_then(read))
    };
    if agent_or_top(&|block| block.enabled) == Some(false) {
        return None;
    }
    let defaults = PermissionsConfig::default();
    let rules = top
        .into_iter()
        .chain(agent)
        .flat_map(|block| block.rules.iter().cloned())
        .collect();
    Some(PermissionsConfig {
        enabled: true,
        role: agent
            .and_then(|block| block.role)
            .or(top.and_then(|block| block.role)),
        rules,
        automation_default: agent
            .and_then(|block| block.automation_default)
            .or(top.and_then(|block| block.automation_default))
            .unwrap_or(defaults.automation_default),
        approval_mode: agent
            .and_then(|block| block.approval_mode)
            .or(top.and_then(|block| block.approval_mode))
            .unwrap_or(defaults.approval_mode),
        approval_dir: agent
            .and_then(|block| block.approval_dir.clone())
            .or(top.and_then(|block| block.approval_dir.clone())),
        approval_timeout: agent
            .and_then(|block| block.approval_timeout)
            .or(top.and_then(|block| block.approval_timeout))
            .unwrap_or(defaults.approval_timeout),
        audit: agent_or_top(&|block| block.audit).unwrap_or(defaults.audit),
        max_consecutive_auto: agent
            .and_then(|block| block.max_consecutive_auto)
            .or(top.and_then(|block| block.max_consecutive_auto)),
        persist_approvals: agent_or_top(&|block| block.persist_approvals)
            .unwrap_or(defaults.persist_approvals),
        settings_path: agent
            .and_then(|block| block.settings_path.clone())
            .or(top.and_then(|block| block.settings_path.clone())),
    })
}

#[cfg(test)]
#[path = "permissions_tests.rs"]
mod tests;

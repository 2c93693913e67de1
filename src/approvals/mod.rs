//! The permission engine: whether an agent's tool call is allowed, asked or denied under its
//! `permissions:` block (hardline list, rules, role, risk), and what outlives one call
//! (session grants, `always` grants saved for the project, the automatic-approval budget).
//!
//! Pure and synchronous: asking a person, the headless handshake and the ledger live with
//! the orchestrator (`orchestrator::approvals`).

mod argv;
mod boundary;
mod budget;
mod egress;
mod facets;
mod glob;
mod grants;
mod hardline;
mod lexer;
mod risk;
mod rules;
mod saved;

use serde_json::Value;

use crate::config::{PermissionRule, PermissionsConfig, RuleDecision};
use crate::protocol::{Action, Decider, Risk};
use facets::{Facet, FacetKind};

pub use boundary::Boundary;
pub use budget::AutoBudget;
pub use grants::{SessionGrants, handshake_id};
pub use saved::{load_saved_rules, save_always};

/// What the engine says about one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Allow,
    Ask,
    Deny,
}

/// The engine's finding about one call, with everything a request and a ledger line need.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub outcome: Outcome,
    /// `Rule`, `Hardline` or `Risk`: what settled it (or, for `Ask`, what asked).
    pub decider: Decider,
    /// The rule as written, when a rule decided or asked.
    pub rule: Option<String>,
    /// Why, in one sentence a person or the model reads.
    pub reason: String,
    pub risk: Risk,
    pub action: Action,
    /// The command line, path, URL or `server/tool` the action applies to.
    pub target: String,
    /// The stable key grants are remembered by (MassGen's `normalized_pattern`).
    pub pattern: String,
    /// `$ <command>`, or the tool and its arguments, on one line.
    pub preview: String,
}

/// One agent's rules, ready to check calls.
pub struct Engine {
    /// The role's presets, the config's rules and (with `persist_approvals`) the saved ones.
    rules: Vec<PermissionRule>,
    boundary: Boundary,
}

/// Where one facet stands under the rules.
enum Standing<'a> {
    Ruled(&'a PermissionRule),
    /// A URL reached by a command a rule allowed, with no rule of its own.
    AllowedWithCommand(&'a PermissionRule),
    Unmatched,
}

impl Engine {
    /// `config` is the agent's effective block, `saved` the `always` grants read back from
    /// the settings file (used only when `persist_approvals` is on).
    pub fn new(config: &PermissionsConfig, saved: Vec<PermissionRule>, boundary: Boundary) -> Self {
        let mut rules = rules::role_rules(config.role);
        rules.extend(config.rules.iter().cloned());
        if config.persist_approvals {
            rules.extend(saved);
        }
        Self { rules, boundary }
    }

    /// Checks the call of `tool` with `arguments` (the JSON text the model sent).
    pub fn check(&self, tool: &str, arguments: &str) -> Check {
        let parsed: Value = serde_json::from_str(arguments).unwrap_or(Value::Null);
        let facets = facets::facets(tool, &parsed, &self.boundary);
        let risks: Vec<(Risk, String)> = facets
            .iter()
            .map(|facet| risk::classify(facet, &self.boundary))
            .collect();
        let risk = risks
            .iter()
            .map(|(risk, _)| *risk)
            .max()
            .unwrap_or(Risk::Medium);
        let call = CallText::of(tool, arguments, &parsed);
        let finding = |index: usize, outcome, decider, rule: Option<&PermissionRule>, reason| {
            let facet = facets.get(index);
            Check {
                outcome,
                decider,
                rule: rule.map(|rule| rule.text.clone()),
                reason,
                risk,
                action: facet.map_or(Action::Mcp, |facet| facet.action),
                target: facet.map_or_else(|| tool.to_string(), |facet| facet.target.clone()),
                pattern: call.pattern.clone(),
                preview: call.preview.clone(),
            }
        };
        if call.command.as_deref().is_some_and(hardline::fork_bomb) {
            return finding(
                0,
                Outcome::Deny,
                Decider::Hardline,
                None,
                "hardline: a fork bomb".into(),
            );
        }
        for (index, facet) in facets.iter().enumerate() {
            if let Some(reason) = hardline::hardline(facet, &self.boundary) {
                return finding(index, Outcome::Deny, Decider::Hardline, None, reason);
            }
        }
        let standings = self.standings(&facets);
        let ruled = |decision: RuleDecision| {
            standings
                .iter()
                .enumerate()
                .find_map(|(index, standing)| match standing {
                    Standing::Ruled(rule) if rule.decision == decision => Some((index, *rule)),
                    _ => None,
                })
        };
        if let Some((index, rule)) = ruled(RuleDecision::Deny) {
            let reason = format!("denied by the rule `{}`", rule.text);
            return finding(index, Outcome::Deny, Decider::Rule, Some(rule), reason);
        }
        if let Some((index, rule)) = ruled(RuleDecision::Ask) {
            let reason = format!("the rule `{}` asks first", rule.text);
            return finding(index, Outcome::Ask, Decider::Rule, Some(rule), reason);
        }
        let unmatched: Vec<usize> = (0..facets.len())
            .filter(|index| matches!(standings[*index], Standing::Unmatched))
            .collect();
        if unmatched.is_empty() {
            let rule = standings.iter().find_map(|standing| match standing {
                Standing::Ruled(rule) | Standing::AllowedWithCommand(rule) => Some(*rule),
                Standing::Unmatched => None,
            });
            let reason = match rule {
                Some(rule) => format!("allowed by the rule `{}`", rule.text),
                None => "allowed by the rules".into(),
            };
            return finding(0, Outcome::Allow, Decider::Rule, rule, reason);
        }
        let worst = unmatched
            .iter()
            .copied()
            .max_by_key(|index| (risks[*index].0, std::cmp::Reverse(*index)))
            .unwrap_or(0);
        let (worst_risk, why) = &risks[worst];
        let outcome = if *worst_risk == Risk::Low {
            Outcome::Allow
        } else {
            Outcome::Ask
        };
        let reason = format!("{} risk: {why}", worst_risk.as_str());
        let mut check = finding(worst, outcome, Decider::Risk, None, reason);
        check.risk = *worst_risk.max(&risk);
        check
    }

    fn standings<'a>(&'a self, facets: &[Facet]) -> Vec<Standing<'a>> {
        let mut standings: Vec<Standing<'a>> = facets
            .iter()
            .map(|facet| match rules::decide(&self.rules, facet) {
                Some(rule) => Standing::Ruled(rule),
                None => Standing::Unmatched,
            })
            .collect();
        for (index, facet) in facets.iter().enumerate() {
            if let FacetKind::Url {
                from_command: Some((command, _)),
            } = &facet.kind
                && matches!(standings[index], Standing::Unmatched)
                && let Some(Standing::Ruled(rule)) = standings.get(*command)
                && rule.decision == RuleDecision::Allow
            {
                standings[index] = Standing::AllowedWithCommand(rule);
            }
        }
        standings
    }
}

/// The call's grant key and one-line preview.
struct CallText {
    command: Option<String>,
    pattern: String,
    preview: String,
}

/// Argument keys MassGen's `normalized_pattern` names a call by, after `command`/`cmd`.
const PATTERN_KEYS: [&str; 7] = [
    "path",
    "file_path",
    "destination",
    "destination_path",
    "url",
    "target",
    "notebook_path",
];

impl CallText {
    fn of(tool: &str, arguments: &str, parsed: &Value) -> Self {
        let text = |key: &str| {
            parsed
                .get(key)
                .and_then(Value::as_str)
                .filter(|text| !text.trim().is_empty())
        };
        let command = text("command").or_else(|| text("cmd")).map(str::trim);
        let pattern = match command {
            Some(command) => format!("command:{}", first_chars(command, 200)),
            None => match PATTERN_KEYS.iter().find_map(|key| text(key)) {
                Some(target) => format!("{tool}:{target}"),
                None => tool.to_string(),
            },
        };
        let preview = match command {
            Some(command) => format!("$ {command}"),
            None => format!("{tool} {}", first_chars(arguments.trim(), 200)),
        };
        Self {
            command: command.map(str::to_string),
            pattern,
            preview,
        }
    }
}

fn first_chars(text: &str, count: usize) -> &str {
    text.char_indices()
        .nth(count)
        .map_or(text, |(end, _)| &text[..end])
}

#[cfg(test)]
#[path = "engine_tests.rs"]
mod tests;

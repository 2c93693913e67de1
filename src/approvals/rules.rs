//! Rules against facets: the role's presets, the config's rules and the saved `always`
//! grants, deny first, then allow, then ask (MassGen's deny-wins order across all of them).

use super::facets::Facet;
use super::glob::glob_matches;
use crate::config::{PermissionRole, PermissionRule, RuleDecision};

/// The rules a role adds: `read-only` reads, asks before URLs, and neither writes nor runs
/// commands; `read-write` adds none.
pub fn role_rules(role: Option<PermissionRole>) -> Vec<PermissionRule> {
    let texts: &[(&str, RuleDecision)] = match role {
        Some(PermissionRole::ReadOnly) => &[
            ("write_file(*)", RuleDecision::Deny),
            ("command(*)", RuleDecision::Deny),
            ("read_url(*)", RuleDecision::Ask),
            ("read_file(*)", RuleDecision::Allow),
        ],
        Some(PermissionRole::ReadWrite) | None => &[],
    };
    texts
        .iter()
        .filter_map(|(text, decision)| PermissionRule::parse(text, *decision).ok())
        .collect()
}

/// The first rule, by deny → allow → ask, that matches `facet`.
pub fn decide<'a>(rules: &'a [PermissionRule], facet: &Facet) -> Option<&'a PermissionRule> {
    [RuleDecision::Deny, RuleDecision::Allow, RuleDecision::Ask]
        .into_iter()
        .find_map(|decision| {
            rules
                .iter()
                .filter(|rule| rule.decision == decision)
                .find(|rule| matches(rule, facet))
        })
}

fn matches(rule: &PermissionRule, facet: &Facet) -> bool {
    rule.action.is_none_or(|action| action == facet.action)
        && facet
            .forms
            .iter()
            .any(|form| glob_matches(&rule.pattern, form))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::approvals::Boundary;
    use crate::approvals::facets::facets;
    use serde_json::json;

    fn rule(text: &str, decision: RuleDecision) -> PermissionRule {
        PermissionRule::parse(text, decision).unwrap()
    }

    #[test]
    fn deny_wins_over_allow_and_allow_over_ask() {
        let rules = vec![
            rule("command(git *)", RuleDecision::Ask),
            rule("command(git *)", RuleDecision::Allow),
            rule("command(git push --force*)", RuleDecision::Deny),
        ];
        let call = |command: &str| {
            facets(
                "mcp__command_line__execute_command",
                &json!({ "command": command }),
                &Boundary::default(),
            )
        };
        let push = call("git push --force origin main");
        assert_eq!(
            decide(&rules, &push[0]).map(|rule| rule.decision),
            Some(RuleDecision::Deny)
        );
        let status = call("git status");
        assert_eq!(
            decide(&rules, &status[0]).map(|rule| rule.decision),
            Some(RuleDecision::Allow)
        );
        assert!(decide(&rules, &call("ls")[0]).is_none());
        let any = vec![rule("*(git status)", RuleDecision::Deny)];
        assert!(decide(&any, &status[0]).is_some());
    }

    #[test]
    fn the_read_only_role_reads_asks_urls_and_refuses_writes_and_commands() {
        let rules = role_rules(Some(PermissionRole::ReadOnly));
        assert_eq!(rules.len(), 4);
        assert!(role_rules(Some(PermissionRole::ReadWrite)).is_empty());
        let write = facets(
            "mcp__filesystem__write_file",
            &json!({"path": "a.txt"}),
            &Boundary::default(),
        );
        assert_eq!(
            decide(&rules, &write[0]).map(|rule| rule.text.as_str()),
            Some("write_file(*)")
        );
    }
}

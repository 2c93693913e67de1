//! `always` approvals saved for the project: appended as allow rules to the settings file
//! (`.massgen/settings.local.json`, `{"permissions": {"rules": {"allow": [...]}}}`, as
//! MassGen writes it) and read back as rules by the next run.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::Check;
use crate::config::{PermissionRule, RuleDecision};

/// The largest settings file read.
const MAX_SETTINGS_BYTES: u64 = 8 * crate::bounded_file::MIB;

/// The rules saved in `path`; none when the file does not exist. A file that cannot be read
/// or holds a malformed rule is an error naming it.
pub fn load_saved_rules(path: &Path) -> Result<Vec<PermissionRule>, String> {
    let text = match crate::bounded_file::read_to_string(path, MAX_SETTINGS_BYTES) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(format!("{} could not be read: {error}", path.display())),
    };
    let settings: Value = serde_json::from_str(&text)
        .map_err(|error| format!("{} is not valid JSON: {error}", path.display()))?;
    let mut rules = Vec::new();
    let lists = settings.pointer("/permissions/rules");
    for (key, decision) in [
        ("deny", RuleDecision::Deny),
        ("allow", RuleDecision::Allow),
        ("ask", RuleDecision::Ask),
    ] {
        let Some(list) = lists
            .and_then(|lists| lists.get(key))
            .and_then(Value::as_array)
        else {
            continue;
        };
        for text in list.iter().filter_map(Value::as_str) {
            rules
                .push(PermissionRule::parse(text, decision).map_err(|why| {
                    format!("{}: permissions.rules.{key}: {why}", path.display())
                })?);
        }
    }
    Ok(rules)
}

/// Saves `check`'s call as an allow rule in `path`, keeping everything else the file holds;
/// the rule saved, or `None` when the call has no target to name (saving it would allow far
/// more than what was approved).
pub fn save_always(path: &Path, check: &Check) -> std::io::Result<Option<String>> {
    if check.target.trim().is_empty() {
        return Ok(None);
    }
    let rule = format!("{}({})", check.action.as_str(), literal(&check.target));
    let mut settings = match crate::bounded_file::read_to_string(path, MAX_SETTINGS_BYTES) {
        // Someone else's settings that are not a JSON object are never overwritten.
        Ok(text) => serde_json::from_str::<Value>(&text)
            .ok()
            .filter(Value::is_object)
            .ok_or_else(|| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "{} is not a JSON object; it was left as it is",
                        path.display()
                    ),
                )
            })?,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => json!({}),
        Err(error) => return Err(error),
    };
    let allow = settings
        .as_object_mut()
        .and_then(|settings| object_at(settings, "permissions"))
        .and_then(|permissions| object_at(permissions, "rules"))
        .map(|rules| {
            rules
                .entry("allow")
                .or_insert_with(|| Value::Array(Vec::new()))
        });
    if let Some(Value::Array(allow)) = allow
        && !allow.iter().any(|saved| saved.as_str() == Some(&rule))
    {
        allow.push(Value::String(rule.clone()));
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let text = serde_json::to_string_pretty(&settings).map_err(std::io::Error::other)?;
    let partial = path.with_extension("json.partial");
    std::fs::write(&partial, text)?;
    std::fs::rename(&partial, path)?;
    Ok(Some(rule))
}

/// `target` as a glob that matches only itself: `*`, `?` and `[` become one-character sets,
/// so approving `rm *.tmp` never saves a rule that allows `rm anything.tmp`.
fn literal(target: &str) -> String {
    let mut glob = String::with_capacity(target.len());
    for ch in target.chars() {
        match ch {
            '*' | '?' | '[' => {
                glob.push('[');
                glob.push(ch);
                glob.push(']');
            }
            other => glob.push(other),
        }
    }
    glob
}

/// The object under `key`, made one if it is missing or not an object.
fn object_at<'a>(
    object: &'a mut Map<String, Value>,
    key: &str,
) -> Option<&'a mut Map<String, Value>> {
    let entry = object
        .entry(key)
        .or_insert_with(|| Value::Object(Map::new()));
    if !entry.is_object() {
        *entry = Value::Object(Map::new());
    }
    entry.as_object_mut()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Action, Decider, Risk};

    fn approved(target: &str) -> Check {
        Check {
            outcome: super::super::Outcome::Ask,
            decider: Decider::Risk,
            rule: None,
            reason: String::new(),
            risk: Risk::Medium,
            action: Action::Command,
            target: target.into(),
            pattern: format!("command:{target}"),
            preview: format!("$ {target}"),
        }
    }

    #[test]
    fn an_always_grant_is_saved_once_beside_other_settings_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".massgen/settings.local.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            &path,
            r#"{"theme": "dark", "permissions": {"rules": {"deny": ["command(rm *)"]}}}"#,
        )
        .unwrap();
        assert_eq!(
            save_always(&path, &approved("make build"))
                .unwrap()
                .as_deref(),
            Some("command(make build)")
        );
        save_always(&path, &approved("make build")).unwrap();
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(saved["theme"], "dark");
        assert_eq!(
            saved["permissions"]["rules"]["allow"],
            json!(["command(make build)"])
        );
        let rules = load_saved_rules(&path).unwrap();
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[0].decision, RuleDecision::Deny);
        assert_eq!(rules[1].text, "command(make build)");
        assert_eq!(save_always(&path, &approved("  ")).unwrap(), None);
    }

    #[test]
    fn a_saved_grant_matches_the_approved_call_and_nothing_wider() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.local.json");
        let saved = save_always(&path, &approved("rm *.tmp [ab]?"))
            .unwrap()
            .unwrap();
        assert_eq!(saved, "command(rm [*].tmp [[]ab][?])");
        let rule = &load_saved_rules(&path).unwrap()[0];
        assert!(crate::approvals::glob::glob_matches(
            &rule.pattern,
            "rm *.tmp [ab]?"
        ));
        assert!(!crate::approvals::glob::glob_matches(
            &rule.pattern,
            "rm notes.tmp [ab]?"
        ));
        assert!(!crate::approvals::glob::glob_matches(
            &rule.pattern,
            "rm *.tmp a]x"
        ));
    }

    #[test]
    fn a_settings_file_that_is_not_json_is_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.local.json");
        std::fs::write(&path, "theme = dark\n").unwrap();
        let error = save_always(&path, &approved("make")).unwrap_err();
        assert!(error.to_string().contains("left as it is"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "theme = dark\n");
    }

    #[test]
    fn a_missing_file_holds_no_rules_and_a_broken_one_is_named() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            load_saved_rules(&dir.path().join("none.json"))
                .unwrap()
                .is_empty()
        );
        let broken = dir.path().join("broken.json");
        std::fs::write(&broken, "{").unwrap();
        assert!(
            load_saved_rules(&broken)
                .unwrap_err()
                .contains("broken.json")
        );
    }
}

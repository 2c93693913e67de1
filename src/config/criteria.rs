//! Checklist criteria given by the user: `checklist_criteria_inline`, an
//! `--eval-criteria FILE` (MassGen's JSON: a list, or `{"criteria": [...]}`), and the
//! `evaluation_criteria_generator` that writes them for the task before the first round;
//! `criteria_mode`, whether agents add criteria as the turn goes (bootstrap).

use std::path::Path;

use serde_json::Value;

use crate::protocol::{CriteriaSource, EvalCriterion, criteria_from_list};

/// Criteria the user wrote, and where (`Inline` or `File`).
#[derive(Clone, Debug, PartialEq)]
pub struct GivenCriteria {
    pub source: CriteriaSource,
    pub criteria: Vec<EvalCriterion>,
}

/// `evaluation_criteria_generator: {enabled: true, min_criteria, max_criteria}`: before
/// the first round the first agent's model writes criteria for the task; a reply with
/// fewer than `min_criteria` or more than `max_criteria` falls back to the defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CriteriaGenerator {
    pub min_criteria: u32,
    pub max_criteria: u32,
}

impl Default for CriteriaGenerator {
    /// MassGen's counts.
    fn default() -> Self {
        Self {
            min_criteria: 4,
            max_criteria: 7,
        }
    }
}

/// `criteria_mode`: whether the criteria stay as set before the first round (`static`) or
/// grow with criteria the agents propose (MassGen's values).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CriteriaMode {
    #[default]
    Static,
    /// Agents propose criteria with their `submit_checklist` calls (`proposed_criteria`).
    BootstrapInline,
    /// A critic proposes criteria the latest answers miss, once per new set of answers.
    BootstrapSubagent,
}

impl CriteriaMode {
    pub const NAMES: [&'static str; 3] = ["static", "bootstrap_inline", "bootstrap_subagent"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim() {
            "static" => Some(Self::Static),
            "bootstrap_inline" => Some(Self::BootstrapInline),
            "bootstrap_subagent" => Some(Self::BootstrapSubagent),
            _ => None,
        }
    }
}

/// `bootstrap_max_per_agent_per_round` and `bootstrap_max_total` (0 = no cap for either).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BootstrapCaps {
    /// Proposals one agent keeps between two merges (its newest).
    pub per_agent_per_round: u32,
    /// Proposed criteria kept in all (the newest).
    pub total: u32,
}

impl Default for BootstrapCaps {
    /// MassGen's caps.
    fn default() -> Self {
        Self {
            per_agent_per_round: 3,
            total: 30,
        }
    }
}

/// Reads an `--eval-criteria` file; the error says what is wrong with it (the caller
/// names the file).
pub fn read_eval_criteria(path: &Path) -> Result<GivenCriteria, String> {
    let text = std::fs::read_to_string(path).map_err(|error| format!("cannot be read: {error}"))?;
    let data: Value =
        serde_json::from_str(&text).map_err(|error| format!("is not valid JSON: {error}"))?;
    let list = match &data {
        Value::Object(fields) if fields.contains_key("criteria") => &fields["criteria"],
        other => other,
    };
    let Value::Array(items) = list else {
        return Err("must be a JSON array of criteria or {\"criteria\": [...]}".into());
    };
    if items.is_empty() {
        return Err("holds no criteria".into());
    }
    Ok(GivenCriteria {
        source: CriteriaSource::File,
        criteria: criteria_from_list(items)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<GivenCriteria, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("criteria.json");
        std::fs::write(&path, text).unwrap();
        read_eval_criteria(&path)
    }

    #[test]
    fn reads_a_bare_list_or_a_wrapped_one() {
        let bare = read(r#"[{"text": "Cites sources", "category": "primary"}]"#).unwrap();
        assert_eq!(bare.source, CriteriaSource::File);
        assert_eq!(bare.criteria[0].id, "E1");
        assert_eq!(bare.criteria[0].category, "primary");
        let wrapped = read(r#"{"criteria": [{"text": "Cites sources", "category": "primary"}]}"#);
        assert_eq!(wrapped.unwrap(), bare);
    }

    #[test]
    fn says_what_is_wrong() {
        assert!(read("[oops").unwrap_err().contains("not valid JSON"));
        assert!(read(r#"{"items": []}"#).unwrap_err().contains("JSON array"));
        assert!(read("[]").unwrap_err().contains("no criteria"));
        assert!(
            read(r#"[{"category": "primary"}]"#)
                .unwrap_err()
                .contains("criterion 1 has no `text`")
        );
        let missing = read_eval_criteria(Path::new("/nonexistent/criteria.json"));
        assert!(missing.unwrap_err().contains("cannot be read"));
    }
}

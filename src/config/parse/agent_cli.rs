//! The agent-CLI keys of a `claude_code`, `codex` or `gemini_cli` backend, read as MassGen's
//! CLI backends read them, and the note for a key such a backend does not take.

use super::key_table::KeyTable;
use super::{Gathered, Note, unknown_key_note, unsupported_note};
use crate::config::agent_cli::{
    AgentCliSettings, CLAUDE_CODE_EFFORTS, CODEX_EFFORTS, CODEX_SUMMARIES, CliReasoning,
    DEFAULT_THINKING_BUDGET, PermissionMode, Thinking,
};
use crate::config::backend_kind::BackendKind;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::key_notes::{self, Section};
use crate::config::provider_options::{self, Verdict};
use crate::config::yaml_node::Entry;

/// Reads the keys of a CLI `kind`'s backend; `web_search` is its `enable_web_search`.
pub(super) fn parse(
    kind: BackendKind,
    backend: &Fields<'_>,
    web_search: bool,
) -> Result<AgentCliSettings, Vec<Problem>> {
    let mut found = Gathered::default();
    let mut settings = AgentCliSettings {
        system_prompt: found.take(backend.string("system_prompt")).flatten(),
        append_system_prompt: found.take(backend.string("append_system_prompt")).flatten(),
        allowed_tools: found
            .take(
                backend
                    .get("allowed_tools")
                    .map(|_| backend.strings("allowed_tools"))
                    .transpose(),
            )
            .flatten(),
        web_search,
        ..AgentCliSettings::default()
    };
    match kind {
        BackendKind::ClaudeCode => {
            let modes = PermissionMode::ALL.map(PermissionMode::name);
            settings.permission_mode = found
                .take(backend.choice("permission_mode", &modes, PermissionMode::from_name))
                .flatten();
            settings.disallowed_tools = found
                .take(backend.strings("disallowed_tools"))
                .unwrap_or_default();
            let max_thinking = found
                .take(backend.unsigned("max_thinking_tokens"))
                .flatten();
            let mut reasoning = found
                .take(reasoning(backend, &CLAUDE_CODE_EFFORTS, false))
                .unwrap_or_default();
            // MassGen's older spelling, read when `reasoning` says nothing of thinking.
            if reasoning.thinking.is_none() {
                reasoning.thinking =
                    max_thinking.map(|budget_tokens| Thinking::Enabled { budget_tokens });
            }
            settings.reasoning = reasoning;
        }
        BackendKind::Codex => {
            let mut reasoning = found
                .take(reasoning(backend, &CODEX_EFFORTS, true))
                .unwrap_or_default();
            // Codex's own key wins over `reasoning.effort`, as in MassGen.
            if let Some(effort) = found
                .take(effort(backend, "model_reasoning_effort", &CODEX_EFFORTS))
                .flatten()
            {
                reasoning.effort = Some(effort);
            }
            settings.reasoning = reasoning;
        }
        _ => {}
    }
    found.finish(settings)
}

/// `reasoning:`, a mapping: Claude Code's `type` (with `budget_tokens`) or Codex's
/// `summary` (`codex`), and `effort` from `efforts`.
fn reasoning(backend: &Fields<'_>, efforts: &[&str], codex: bool) -> Result<CliReasoning, Problem> {
    let Some(node) = backend.get("reasoning") else {
        return Ok(CliReasoning::default());
    };
    let example = if codex {
        "reasoning: {effort: high, summary: auto}"
    } else {
        "reasoning: {type: adaptive, effort: high}"
    };
    let fields = Fields::of(node, backend.key_path("reasoning"))
        .map_err(|_| backend.wrong_type("reasoning", node, "a mapping", example))?;
    let own: &[&str] = if codex {
        &["effort", "summary"]
    } else {
        &["type", "budget_tokens", "effort"]
    };
    if let Some(entry) = fields.unknown(own).next() {
        return Err(Problem::at(
            entry.key_loc,
            format!(
                "`{}` is not a reasoning setting",
                fields.key_path(&entry.key)
            ),
        )
        .help(format!("settings here: {}", own.join(", "))));
    }
    let mut reasoning = CliReasoning {
        effort: effort(&fields, "effort", efforts)?,
        ..CliReasoning::default()
    };
    if codex {
        reasoning.summary = effort(&fields, "summary", &CODEX_SUMMARIES)?;
        return Ok(reasoning);
    }
    let budget = fields.unsigned("budget_tokens")?;
    let kinds = ["adaptive", "enabled", "disabled"];
    reasoning.thinking = fields.choice("type", &kinds, |name| match name {
        "adaptive" => Some(Thinking::Adaptive),
        "enabled" => Some(Thinking::Enabled {
            budget_tokens: budget.unwrap_or(DEFAULT_THINKING_BUDGET),
        }),
        "disabled" => Some(Thinking::Disabled),
        _ => None,
    })?;
    // MassGen reads `reasoning` with no `type` as adaptive thinking.
    if reasoning.thinking.is_none() {
        reasoning.thinking = Some(Thinking::Adaptive);
    }
    Ok(reasoning)
}

/// A string `key` that must be one of `values`.
fn effort(fields: &Fields<'_>, key: &str, values: &[&str]) -> Result<Option<String>, Problem> {
    fields.choice(key, values, |name| {
        values.contains(&name).then(|| name.to_string())
    })
}

/// The note for a key a CLI `kind`'s backend neither acts on nor lists as ignored: what
/// MassGen would do with it if a note says so, else that it is a model API's request
/// option the CLI takes none of, else that it is unknown.
pub(super) fn other_key(kind: BackendKind, table: &KeyTable, entry: &Entry, path: &str) -> Note {
    if key_notes::describe(Section::Backend, &entry.key).is_some() {
        return unsupported_note(entry, path, Section::Backend);
    }
    let api_option = BackendKind::ALL
        .into_iter()
        .any(|api| provider_options::classify(api, None, &entry.key) == Verdict::Send);
    if api_option {
        return Note {
            loc: Some(entry.key_loc),
            message: format!(
                "ignored: {path} — a request option of model APIs; MassGen's `{kind}` backend \
                 does not send it to the CLI, and massgen does not either"
            ),
            ignored: Some(path.to_string()),
        };
    }
    let suggestion = table
        .suggest(&entry.key, &[])
        .map(|close| format!("; did you mean `{close}`?"))
        .unwrap_or_default();
    unknown_key_note(entry, path.to_string(), &suggestion)
}

#[cfg(test)]
#[path = "agent_cli_tests.rs"]
mod tests;

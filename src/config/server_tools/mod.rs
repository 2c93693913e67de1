//! The provider's own tools an agent may turn on (`enable_web_search`, `enable_x_search`,
//! `enable_code_execution`, `enable_code_interpreter`): which backend types have them, as
//! MassGen 0.1.97 sends them, and the refusal of one asked of a backend without it (and of
//! Grok's retired `extra_body.search_parameters`, which MassGen 0.1.97 refuses too).

use super::backend_kind::BackendKind;
use super::error::Problem;
use super::fields::Fields;

mod gemini;

pub(super) use gemini::notes as gemini_notes;

/// Tools that run on the provider's servers, not here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServerTools {
    /// The provider's web search (OpenAI and xAI `web_search`, Anthropic
    /// `web_search_20250305`, Gemini `google_search`, OpenRouter's `web` plugin).
    pub web_search: bool,
    /// xAI's search of X posts, users and threads (`x_search`, Grok only).
    pub x_search: bool,
    /// The provider's sandboxed code runner (OpenAI and xAI `code_interpreter`, Anthropic
    /// `code_execution`, Gemini `code_execution`); `enable_code_interpreter` and
    /// `enable_code_execution` both turn it on where the provider calls it either way.
    pub code_execution: bool,
}

impl ServerTools {
    pub fn any(self) -> bool {
        self.web_search || self.x_search || self.code_execution
    }
}

/// The backend keys that turn the tools on; never sent to a provider as they are.
pub const KEYS: [&str; 4] = [
    "enable_web_search",
    "enable_x_search",
    "enable_code_execution",
    "enable_code_interpreter",
];

/// The backend types that have the tool a key turns on. MassGen 0.1.97's capability table
/// also lists `azure_openai` (its Chat Completions backend then drops the key) and
/// `enable_code_interpreter` for `claude` and `gemini` (which ignore it): massgen refuses
/// those rather than run without the tool.
fn backends_with(key: &str) -> &'static [BackendKind] {
    match key {
        "enable_web_search" => &[
            BackendKind::Openai,
            BackendKind::Claude,
            BackendKind::Gemini,
            BackendKind::Grok,
            BackendKind::Openrouter,
            // The agent CLIs search with their own tools (Claude Code's WebSearch).
            BackendKind::ClaudeCode,
            BackendKind::Codex,
            BackendKind::GeminiCli,
        ],
        "enable_x_search" => &[BackendKind::Grok],
        "enable_code_execution" => &[
            BackendKind::Openai,
            BackendKind::Claude,
            BackendKind::Gemini,
            BackendKind::Grok,
        ],
        "enable_code_interpreter" => &[BackendKind::Openai, BackendKind::Grok],
        _ => &[],
    }
}

/// Reads the keys of one `backend:` block (each `false` when absent).
pub(super) fn parse(backend: &Fields<'_>) -> Result<ServerTools, Problem> {
    let flag = |key: &str| backend.bool(key).map(|value| value.unwrap_or(false));
    Ok(ServerTools {
        web_search: flag("enable_web_search")?,
        x_search: flag("enable_x_search")?,
        code_execution: flag("enable_code_execution")? || flag("enable_code_interpreter")?,
    })
}

/// Refuses a key set to `true` for a backend type without that tool: the agent would
/// otherwise run without what its config asks for.
pub(super) fn check(agent: &str, backend: &Fields<'_>, kind: BackendKind) -> Result<(), Problem> {
    for key in KEYS {
        if backend.bool(key)? != Some(true) || backends_with(key).contains(&kind) {
            continue;
        }
        let names: Vec<&str> = backends_with(key).iter().map(|kind| kind.name()).collect();
        let what = match key {
            "enable_web_search" => "web search tool",
            "enable_x_search" => "X search tool",
            "enable_code_interpreter" => "code interpreter",
            _ => "code execution tool",
        };
        let help = match (key, kind) {
            ("enable_code_interpreter", BackendKind::Claude | BackendKind::Gemini) => format!(
                "`{kind}` calls its tool code execution: use `enable_code_execution: true` \
                 instead"
            ),
            _ => format!(
                "remove `{key}` (or set it to false), or give agent `{agent}` a backend that \
                 has it: {}",
                names.join(", ")
            ),
        };
        let loc = backend
            .entries
            .iter()
            .rfind(|entry| entry.key == key)
            .map_or(backend.loc(), |entry| entry.key_loc);
        return Err(Problem::at(
            loc,
            format!(
                "agent `{agent}`: `{}: true` asks for the provider's {what}, which backend type \
                 `{kind}` does not have (it is available on {})",
                backend.key_path(key),
                names.join(", ")
            ),
        )
        .help(help));
    }
    Ok(())
}

/// Refuses Grok's `extra_body: {search_parameters: …}`, the Live Search of xAI's Chat
/// Completions API, which xAI retired for its server-side tools: MassGen 0.1.97 refuses it
/// too ("Use enable_web_search: true and/or enable_x_search: true instead").
pub(super) fn check_legacy_search(
    agent: &str,
    backend: &Fields<'_>,
    kind: BackendKind,
) -> Result<(), Problem> {
    if kind != BackendKind::Grok {
        return Ok(());
    }
    let Some(entry) = backend
        .get("extra_body")
        .and_then(|extra| extra.entries())
        .and_then(|entries| {
            entries
                .iter()
                .find(|entry| entry.key == "search_parameters")
        })
    else {
        return Ok(());
    };
    Err(Problem::at(
        entry.key_loc,
        format!(
            "agent `{agent}`: `{}.search_parameters` is Grok's retired Live Search, which xAI \
             no longer accepts (MassGen 0.1.97 refuses it too)",
            backend.key_path("extra_body")
        ),
    )
    .help(
        "remove `search_parameters` from `extra_body` and write `enable_web_search: true` (web \
         pages) and/or `enable_x_search: true` (X posts) in the backend instead",
    ))
}

#[cfg(test)]
mod tests;

//! One `backend:` block: its type, model, common keys, scripted options; the other keys
//! are sorted into request options in `request_options`.

use super::key_table::KeyTable;
use super::request_options::RequestOptions;
use super::tools::parse_tool_settings;
use super::upload_files::parse_upload_files;
use super::{Gathered, Note, unsupported_note, web_search_options};
use crate::config::backend_kind::BackendKind;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::key_notes::Section;
use crate::config::providers::{self, AgentProgram, ConfigModel};
use crate::config::schema::BackendConfig;
use crate::config::scripted;
use crate::config::secret::Secret;
use crate::config::server_tools::{self, ServerTools};

pub(super) fn parse_backend(
    backend: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<BackendConfig, Vec<Problem>> {
    let kind = backend_kind(backend).map_err(|problem| vec![problem])?;
    let runs_cli = providers::row(kind).agent == AgentProgram::Cli;
    let mut found = Gathered::default();
    let scripted = if kind == BackendKind::Scripted {
        found.take(scripted::parse(backend))
    } else {
        None
    };
    let model = found
        .take(match providers::row(kind).config_model {
            ConfigModel::Optional { default } => backend
                .string("model")
                .map(|model| model.unwrap_or_else(|| default.into())),
            ConfigModel::Required { example } => backend.required_string("model", example),
        })
        .unwrap_or_default();
    let base_url = found
        .take(backend.http_url("base_url").and_then(|url| match url {
            Some(url) => Ok(Some(url)),
            // MassGen's Azure backend also reads the endpoint from `azure_endpoint`.
            None if kind == BackendKind::AzureOpenai => backend.http_url("azure_endpoint"),
            None => Ok(None),
        }))
        .flatten();
    let mut options = RequestOptions::default();
    let table = KeyTable::backend(kind);
    let server_tools = found.take(server_tools::parse(backend)).unwrap_or_default();
    for entry in backend.entries {
        let path = backend.key_path(&entry.key);
        if table.accepts(&entry.key) {
            continue;
        } else if table.ignores(&entry.key) {
            notes.push(unsupported_note(entry, &path, Section::Backend));
        } else if runs_cli {
            notes.push(super::agent_cli::other_key(kind, &table, entry, &path));
        } else if kind == BackendKind::Scripted {
            found.take::<()>(Err(table.reject(
                entry,
                format!("`{path}` is not an option of the scripted backend"),
            )));
        } else {
            options.sort(kind, base_url.as_deref(), entry, &path, notes);
        }
    }
    let mut search_options = serde_json::Map::new();
    if providers::row(kind).http.is_some() {
        found.take(options.read_own_keys(kind, backend, notes));
        search_options = found
            .take(web_search_options::read(
                kind,
                base_url.as_deref(),
                server_tools.web_search,
                backend,
                notes,
            ))
            .unwrap_or_default();
    }
    let organization = found.take(organization(kind, backend, notes)).flatten();
    let temperature = found.take(backend.number("temperature")).flatten();
    if let Some(value) = temperature
        && !(0.0..=2.0).contains(&value)
    {
        notes.push(Note {
            loc: backend.get("temperature").map(|node| node.loc),
            message: format!(
                "`{}` is {value}, outside 0.0–2.0; most providers will reject it",
                backend.key_path("temperature")
            ),
            ignored: None,
        });
    }
    options.check_thinking(kind, backend, temperature, notes);
    let mut tools = found
        .take(parse_tool_settings(backend, kind, notes))
        .unwrap_or_default();
    let (server_tools, agent_cli) = if runs_cli {
        // The CLI's own tools: its web search is its own, not a provider's server tool,
        // and `allowed_tools` names the CLI's tools rather than filtering MCP tools.
        tools.allowed_tools = None;
        let cli = super::agent_cli::parse(kind, backend, server_tools.web_search);
        (ServerTools::default(), found.take_all(cli))
    } else {
        (server_tools, None)
    };
    let upload_files = found
        .take(parse_upload_files(backend, kind, tools.cwd.as_deref()))
        .unwrap_or_default();
    let config = BackendConfig {
        kind,
        model,
        api_key: found
            .take(backend.string("api_key"))
            .flatten()
            .map(Secret::new),
        base_url,
        temperature,
        max_tokens: found.take(backend.unsigned("max_tokens")).flatten(),
        api_version: found.take(backend.string("api_version")).flatten(),
        max_retries: found.take(max_retries(backend)).flatten(),
        timeout: found.take(backend.seconds("timeout", 300)).flatten(),
        context_window: found.take(context_window(backend)).flatten(),
        passthrough: options.passthrough,
        extra_body: options.extra_body,
        betas: options.betas,
        scripted,
        tools,
        server_tools,
        organization,
        search_options,
        agent_cli,
        upload_files,
    };
    found.finish(config)
}

/// `context_window`: a window of fewer than 1024 tokens is a typo, not a model.
fn context_window(backend: &Fields<'_>) -> Result<Option<u64>, Problem> {
    let window = backend.unsigned("context_window")?;
    match window {
        Some(tokens) if tokens < 1024 => Err(Problem::at(
            backend
                .get("context_window")
                .map_or(backend.loc(), |node| node.loc),
            format!(
                "`{}` is {tokens}; give the model's window in tokens",
                backend.key_path("context_window")
            ),
        )
        .help("for example `context_window: 32768`")),
        _ => Ok(window),
    }
}

/// The backend's `type`: one massgen runs, or why not.
fn backend_kind(backend: &Fields<'_>) -> Result<BackendKind, Problem> {
    let type_names: Vec<&str> = BackendKind::ALL
        .into_iter()
        .filter(|kind| !matches!(providers::row(*kind).agent, AgentProgram::Refused(_)))
        .map(BackendKind::name)
        .collect();
    if let Some(name) = backend.string("type")?
        && let Some(reason) = providers::refused_type(&name.trim().to_ascii_lowercase())
    {
        return Err(Problem::at(
            backend.get("type").map_or(backend.loc(), |node| node.loc),
            format!(
                "backend type `{}` is not supported by massgen ({reason})",
                name.trim()
            ),
        )
        .help(format!("supported types: {}", type_names.join(", "))));
    }
    backend
        .choice("type", &type_names, BackendKind::from_name)?
        .ok_or_else(|| {
            backend.missing(
                "type",
                &format!("`{}` is missing", backend.key_path("type")),
                &format!("add `type: openai` (one of {})", type_names.join(", ")),
            )
        })
}

/// `organization`, which MassGen's OpenAI and Grok backends (its Responses backends) send as
/// the `OpenAI-Organization` header; noted on any other backend type.
fn organization(
    kind: BackendKind,
    backend: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<Option<String>, Problem> {
    let Some(entry) = backend
        .entries
        .iter()
        .find(|entry| entry.key == "organization")
    else {
        return Ok(None);
    };
    let path = backend.key_path("organization");
    if !providers::row(kind).sends_organization {
        notes.push(Note {
            loc: Some(entry.key_loc),
            message: format!(
                "ignored: {path} — MassGen sends it as the `OpenAI-Organization` header of its \
                 `openai` and `grok` backends only; massgen does the same, so on `{kind}` it \
                 changes nothing"
            ),
            ignored: Some(path),
        });
        return Ok(None);
    }
    match backend.string("organization")? {
        Some(id) if !id.is_empty() && id.chars().all(|c| c.is_ascii_graphic()) => Ok(Some(id)),
        Some(_) | None => Err(Problem::at(
            entry.value.loc,
            format!("`{path}` is not an organization id"),
        )
        .help("write the id from your OpenAI settings, e.g. `organization: org-AbC123`")),
    }
}

fn max_retries(backend: &Fields<'_>) -> Result<Option<u32>, Problem> {
    let Some(value) = backend.unsigned("max_retries")? else {
        return Ok(None);
    };
    match u32::try_from(value) {
        Ok(retries) if retries <= 20 => Ok(Some(retries)),
        Ok(_) | Err(_) => Err(Problem::at(
            backend
                .get("max_retries")
                .map_or(backend.loc(), |node| node.loc),
            format!(
                "`{}` is {value}; at most 20 retries are allowed",
                backend.key_path("max_retries")
            ),
        )
        .help("use a small number such as `max_retries: 3`")),
    }
}

//! `massgen --generate-config PATH`: a config written without a terminal, from the
//! providers whose API keys are set (or `--config-backend`/`--config-model`), or the
//! offline scripted agents when no key is set. An existing file is kept unless `--force`.

use std::path::Path;

use super::args::Args;
use super::exit::Exit;
use crate::backend::catalog;
use crate::config::{AgentDraft, BackendKind, Env, draft};

/// The agents to write and the comment lines saying where they came from, or the message
/// of a bad `--config-backend`/`--config-model`.
pub fn choose_agents(
    backend: Option<&str>,
    model: Option<&str>,
    count: Option<u8>,
    env: &Env,
) -> Result<(Vec<AgentDraft>, Vec<String>), String> {
    let narrowed = backend.is_some() || model.is_some();
    let kind = match (backend, model) {
        (Some(name), _) => Some(BackendKind::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = catalog::OFFERED.iter().map(|kind| kind.name()).collect();
            format!(
                "unknown backend type `{name}`\n  help: use one of {}",
                names.join(", ")
            )
        })?),
        (None, Some(model)) => Some(BackendKind::infer_from_model(model).ok_or_else(|| {
            format!(
                "cannot tell which backend serves model `{model}`\n  help: add \
                 --config-backend TYPE, e.g. --config-backend openrouter"
            )
        })?),
        (None, None) => None,
    };
    let mut notes = Vec::new();
    let mut drafts = match kind {
        Some(kind) => {
            let mut first = catalog::new_draft(kind, &[]);
            if let Some(model) = model {
                model.clone_into(&mut first.model);
            }
            if catalog::key_in_env(kind, env).is_none()
                && let Some(provider) = crate::backend::provider::provider(kind)
                && !provider.key_vars.is_empty()
            {
                notes.push(format!(
                    "no API key for `{kind}` is set: set {} (in the environment or .env) \
                     before running",
                    provider.key_vars.join(" or ")
                ));
            }
            vec![first]
        }
        None => catalog::detected_drafts(env),
    };
    let mut comments = vec!["Written by `massgen --generate-config`.".to_string()];
    if drafts.is_empty() {
        drafts = catalog::demo_drafts();
        let line = "no provider API key is set, so these are offline scripted agents; set \
                    e.g. OPENAI_API_KEY or ANTHROPIC_API_KEY and run it again for real models";
        notes.push(line.to_string());
    } else if !narrowed {
        comments.push("One agent per provider whose API key is set.".into());
    }
    comments.push("API keys are read from the environment or .env, never from this file.".into());
    if let Some(count) = count.map(usize::from) {
        let pattern = drafts.clone();
        drafts.clear();
        for index in 0..count {
            let mut next = pattern[index % pattern.len()].clone();
            let taken: Vec<&str> = drafts.iter().map(|draft| draft.id.as_str()).collect();
            next.id = draft::unique_id(&next.id, &taken);
            drafts.push(next);
        }
    }
    comments.extend(notes.iter().map(|note| format!("Note: {note}.")));
    Ok((drafts, comments))
}

pub fn run(args: &Args, path: &Path, cwd: &Path, env: &Env) -> Exit {
    let backend = args.config_backend.as_deref().or(args.backend.as_deref());
    let model = args.config_model.as_deref().or(args.model.as_deref());
    let (drafts, comments) = match choose_agents(backend, model, args.config_agents, env) {
        Ok(chosen) => chosen,
        Err(message) => {
            eprintln!("error: --generate-config: {message}");
            return Exit::Config;
        }
    };
    let target = cwd.join(path);
    if target.exists() && !args.force {
        eprintln!(
            "error: --generate-config: {} already exists and was left as it is\n  help: pass \
             --force to replace it, or choose another path",
            path.display()
        );
        return Exit::Execution;
    }
    let yaml = draft::to_yaml(&drafts, &comments);
    let written = target
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| crate::session::write_atomic(&target, yaml.as_bytes()));
    if let Err(error) = written {
        eprintln!(
            "error: --generate-config: cannot write {}: {error}\n  help: check that the \
             directory exists and is writable",
            path.display()
        );
        return Exit::Execution;
    }
    let mut report = format!(
        "wrote {}: {} agent{}\n",
        path.display(),
        drafts.len(),
        if drafts.len() == 1 { "" } else { "s" }
    );
    let width = drafts.iter().map(|d| d.id.len()).max().unwrap_or(0);
    for draft in &drafts {
        report.push_str(&format!(
            "  {:width$}  {}  {}\n",
            draft.id,
            draft.kind.name(),
            draft.model
        ));
    }
    for comment in comments.iter().filter_map(|c| c.strip_prefix("Note: ")) {
        report.push_str(&format!("note: {comment}\n"));
    }
    report.push_str(&format!(
        "check it: massgen --validate {0}\nrun it:   massgen --config {0} \"your question\"\n",
        path.display()
    ));
    super::stdout::write(&report);
    Exit::Success
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrowing_picks_the_backend_model_and_count() {
        let env = Env::from_pairs([("ANTHROPIC_API_KEY", "k"), ("OPENAI_API_KEY", "k")]);
        let (drafts, _) = choose_agents(None, None, None, &env).unwrap();
        assert_eq!(drafts.len(), 2);
        let (drafts, comments) = choose_agents(None, Some("gpt-5"), Some(3), &env).unwrap();
        let ids: Vec<&str> = drafts.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["openai_agent", "openai_agent_2", "openai_agent_3"]);
        assert!(drafts.iter().all(|d| d.model == "gpt-5"));
        assert!(!comments.iter().any(|c| c.contains("no API key")));
        let (_, comments) = choose_agents(Some("groq"), None, None, &env).unwrap();
        assert!(comments.iter().any(|c| c.contains("set GROQ_API_KEY")));
        let error = choose_agents(Some("opnai"), None, None, &env).unwrap_err();
        assert!(error.contains("unknown backend type `opnai`"));
        assert!(choose_agents(None, Some("mystery"), None, &env).is_err());
    }
}

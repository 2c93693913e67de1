//! What the agents view, `--quickstart` and `--generate-config` offer: the backend types a
//! user can pick, a default model for each, which providers have a key in the environment,
//! and the agents made from them (or the offline scripted demo agents when none has).

use super::provider::{self, BaseUrl};
use crate::config::{AgentDraft, BackendKind, Env, draft, providers};

/// The types offered in the agents view, in this order: hosted providers first, then local
/// servers and the offline stand-in. (`kimi` is `moonshot`'s alias; the agent CLIs and
/// `ag2` are not model providers.)
pub const OFFERED: [BackendKind; 19] = [
    BackendKind::Openai,
    BackendKind::Claude,
    BackendKind::Gemini,
    BackendKind::Grok,
    BackendKind::Openrouter,
    BackendKind::Groq,
    BackendKind::Cerebras,
    BackendKind::Together,
    BackendKind::Fireworks,
    BackendKind::Moonshot,
    BackendKind::Nebius,
    BackendKind::Qwen,
    BackendKind::Zai,
    BackendKind::Poe,
    BackendKind::AzureOpenai,
    BackendKind::Lmstudio,
    BackendKind::Vllm,
    BackendKind::Sglang,
    BackendKind::Scripted,
];

/// The model a new agent of `kind` starts with.
pub fn default_model(kind: BackendKind) -> &'static str {
    providers::row(kind).catalog_model
}

/// The `base_url` written for types that have no default but one well-known address.
pub fn known_base_url(kind: BackendKind) -> Option<&'static str> {
    providers::row(kind).known_base_url
}

/// The variable holding `kind`'s key in `env`, if one is set (`None` also for types that
/// need no key).
pub fn key_in_env(kind: BackendKind, env: &Env) -> Option<&'static str> {
    let provider = provider::provider(kind)?;
    provider
        .key_vars
        .iter()
        .copied()
        .find(|var| env.get(var).is_some_and(|value| !value.trim().is_empty()))
}

/// One agent per hosted provider whose key is in `env` (Azure only with its endpoint), in
/// [`OFFERED`] order.
pub fn detected_drafts(env: &Env) -> Vec<AgentDraft> {
    let mut drafts: Vec<AgentDraft> = Vec::new();
    for kind in OFFERED {
        if key_in_env(kind, env).is_none() {
            continue;
        }
        let usable = match provider::provider(kind).map(|p| p.base_url) {
            Some(BaseUrl::Required { .. }) => {
                known_base_url(kind).is_some()
                    || (kind == BackendKind::AzureOpenai
                        && env.get("AZURE_OPENAI_ENDPOINT").is_some())
            }
            Some(BaseUrl::Default(_)) => true,
            None => false,
        };
        if usable {
            drafts.push(new_draft(kind, &drafts));
        }
    }
    drafts
}

/// A new agent of `kind` with its default model, its id unique among `others`.
pub fn new_draft(kind: BackendKind, others: &[AgentDraft]) -> AgentDraft {
    let taken: Vec<&str> = others.iter().map(|draft| draft.id.as_str()).collect();
    let base = match kind {
        BackendKind::Scripted => "agent".to_string(),
        _ => format!("{}_agent", kind.name()),
    };
    let mut draft = AgentDraft::new(draft::unique_id(&base, &taken), kind, default_model(kind));
    draft.base_url = known_base_url(kind).map(str::to_string);
    draft
}

/// Three offline scripted agents, for when no provider has a key.
pub fn demo_drafts() -> Vec<AgentDraft> {
    [
        ("scout", "scripted-fast", "You answer quickly and briefly."),
        (
            "scholar",
            "scripted-deep",
            "You are thorough: structure, evidence, caveats.",
        ),
        (
            "critic",
            "scripted-critic",
            "You check answers for gaps before agreeing.",
        ),
    ]
    .into_iter()
    .map(|(id, model, message)| AgentDraft {
        system_message: Some(message.to_string()),
        ..AgentDraft::new(id, BackendKind::Scripted, model)
    })
    .collect()
}

/// Model names to offer when `kind`'s list cannot be fetched: its default, and for the
/// scripted stand-in the demo's names.
pub fn fallback_models(kind: BackendKind) -> Vec<String> {
    match kind {
        BackendKind::Scripted => [
            "scripted",
            "scripted-fast",
            "scripted-deep",
            "scripted-critic",
        ]
        .map(str::to_string)
        .to_vec(),
        _ => vec![default_model(kind).to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Env {
        Env::from_pairs(pairs.iter().copied())
    }

    #[test]
    fn one_agent_per_provider_whose_key_is_set() {
        let env = env(&[
            ("ANTHROPIC_API_KEY", "sk-ant"),
            ("OPENAI_API_KEY", "sk-o"),
            ("GROQ_API_KEY", " "),
            ("ZAI_API_KEY", "z"),
            ("AZURE_OPENAI_API_KEY", "az"),
        ]);
        let drafts = detected_drafts(&env);
        let picked: Vec<(&str, BackendKind, &str)> = drafts
            .iter()
            .map(|d| (d.id.as_str(), d.kind, d.model.as_str()))
            .collect();
        assert_eq!(
            picked,
            [
                ("openai_agent", BackendKind::Openai, "gpt-5-mini"),
                ("claude_agent", BackendKind::Claude, "claude-sonnet-4-5"),
                ("zai_agent", BackendKind::Zai, "glm-4.6"),
            ]
        );
        assert_eq!(
            drafts[2].base_url.as_deref(),
            Some("https://api.z.ai/api/paas/v4")
        );
        assert!(detected_drafts(&Env::default()).is_empty());
    }

    #[test]
    fn the_demo_agents_are_scripted_and_distinct() {
        let demo = demo_drafts();
        assert_eq!(demo.len(), 3);
        assert!(demo.iter().all(|d| d.kind == BackendKind::Scripted));
        assert_eq!(new_draft(BackendKind::Scripted, &demo).id, "agent");
        assert!(fallback_models(BackendKind::Scripted).contains(&"scripted-deep".to_string()));
    }
}

//! The provider table: one row per backend `type` — its wire protocol, base URL and key
//! variables, whether it is local, its config and catalog models, its extra request
//! options, the server tools it bills and its pricing route. Config checks, backends,
//! the catalog and pricing all read it.

mod refusals;
mod row;
#[cfg(test)]
mod tests;

pub use row::litellm;
pub use row::{
    AgentProgram, BaseUrl, ConfigModel, PricingRoute, Protocol, Provider, ProviderRow, ToolBiller,
};

use crate::config::backend_kind::BackendKind;
use litellm::{
    ANTHROPIC, CEREBRAS, DASHSCOPE, FIREWORKS, GEMINI, GROQ, MOONSHOT, NEBIUS, OPENAI, OPENROUTER,
    TOGETHER, VERTEX, XAI, ZAI,
};

/// The facts a row leaves out: reached by no HTTP API, on no host, nothing extra, billing
/// no tools.
const NOTHING_ELSE: ProviderRow = ProviderRow {
    http: None,
    hosts: &[],
    local: false,
    agent: AgentProgram::None,
    config_model: ANY_MODEL,
    catalog_model: "",
    known_base_url: None,
    extra_options: &[],
    sends_organization: false,
    tool_biller: None,
    pricing: PricingRoute::Unknown,
};

/// `model` is required and any name the provider serves will do.
const ANY_MODEL: ConfigModel = ConfigModel::Required {
    example: "<model name>",
};

/// An agent CLI's `model` when the config names none: the CLI's own choice.
const CLI_PICKS: ConfigModel = ConfigModel::Optional { default: "default" };

/// Why massgen refuses the MassGen backend type `name` (written exactly, lower case), if it
/// is one it refuses: an agent program it does not run.
pub fn refused_type(name: &str) -> Option<&'static str> {
    if let Some((_, reason)) = refusals::REFUSED_CLIS
        .iter()
        .find(|(refused, _)| *refused == name)
    {
        return Some(reason);
    }
    BackendKind::ALL
        .into_iter()
        .filter(|kind| kind.name() == name)
        .find_map(|kind| match row(kind).agent {
            AgentProgram::Refused(reason) => Some(reason),
            AgentProgram::None | AgentProgram::Cli => None,
        })
}

/// A generic endpoint serving anyone's models, priced by whichever vendor lists the name.
const ANY_VENDOR: PricingRoute = PricingRoute::Gateway {
    first: &[],
    variants: false,
};

/// vLLM's sampling extras, which MassGen sends for it (as `extra_body`); SGLang takes the
/// same and its `separate_reasoning`.
const INFERENCE_SERVER: [&str; 3] = ["top_k", "repetition_penalty", "chat_template_kwargs"];

/// The row of `kind`.
pub fn row(kind: BackendKind) -> &'static ProviderRow {
    match kind {
        BackendKind::Scripted => &ProviderRow {
            config_model: ConfigModel::Optional {
                default: "scripted",
            },
            catalog_model: "scripted",
            pricing: PricingRoute::Free,
            ..NOTHING_ELSE
        },
        BackendKind::Openai => &ProviderRow {
            http: Some(Provider {
                label: "OpenAI",
                protocol: Protocol::OpenaiResponses,
                base_url: BaseUrl::Default("https://api.openai.com/v1"),
                key_vars: &["OPENAI_API_KEY"],
            }),
            hosts: &["openai.com"],
            config_model: ConfigModel::Required { example: "gpt-5" },
            catalog_model: "gpt-5-mini",
            sends_organization: true,
            tool_biller: Some(ToolBiller::OpenAi),
            pricing: PricingRoute::Providers(&[OPENAI]),
            ..NOTHING_ELSE
        },
        BackendKind::Claude => &ProviderRow {
            http: Some(Provider {
                label: "Anthropic",
                protocol: Protocol::Anthropic,
                base_url: BaseUrl::Default("https://api.anthropic.com"),
                key_vars: &["ANTHROPIC_API_KEY"],
            }),
            config_model: ConfigModel::Required {
                example: "claude-sonnet-4-5",
            },
            catalog_model: "claude-sonnet-4-5",
            tool_biller: Some(ToolBiller::Anthropic),
            pricing: PricingRoute::Providers(&[ANTHROPIC]),
            ..NOTHING_ELSE
        },
        // The agent CLIs: `default` lets the CLI pick its model; usage is priced as the
        // vendor's API prices it.
        BackendKind::ClaudeCode => &ProviderRow {
            agent: AgentProgram::Cli,
            config_model: CLI_PICKS,
            catalog_model: "claude-sonnet-4-5",
            pricing: PricingRoute::Providers(&[ANTHROPIC]),
            ..NOTHING_ELSE
        },
        BackendKind::Codex => &ProviderRow {
            agent: AgentProgram::Cli,
            config_model: CLI_PICKS,
            catalog_model: "gpt-5-codex",
            pricing: PricingRoute::Providers(&[OPENAI]),
            ..NOTHING_ELSE
        },
        BackendKind::GeminiCli => &ProviderRow {
            agent: AgentProgram::Cli,
            config_model: CLI_PICKS,
            catalog_model: "gemini-2.5-pro",
            pricing: PricingRoute::Providers(&[GEMINI, VERTEX]),
            ..NOTHING_ELSE
        },
        BackendKind::Gemini => &ProviderRow {
            http: Some(Provider {
                label: "Gemini",
                protocol: Protocol::Gemini,
                base_url: BaseUrl::Default("https://generativelanguage.googleapis.com"),
                key_vars: &["GOOGLE_API_KEY", "GEMINI_API_KEY"],
            }),
            config_model: ConfigModel::Required {
                example: "gemini-2.5-flash",
            },
            catalog_model: "gemini-2.5-flash",
            tool_biller: Some(ToolBiller::Google),
            pricing: PricingRoute::Providers(&[GEMINI, VERTEX]),
            ..NOTHING_ELSE
        },
        BackendKind::Grok => &ProviderRow {
            http: Some(Provider {
                label: "xAI",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Default("https://api.x.ai/v1"),
                key_vars: &["XAI_API_KEY"],
            }),
            hosts: &["x.ai"],
            config_model: ConfigModel::Required { example: "grok-4" },
            catalog_model: "grok-4-fast-reasoning",
            sends_organization: true,
            tool_biller: Some(ToolBiller::Xai),
            pricing: PricingRoute::Providers(&[XAI]),
            ..NOTHING_ELSE
        },
        BackendKind::AzureOpenai => &ProviderRow {
            http: Some(Provider {
                label: "Azure OpenAI",
                protocol: Protocol::AzureChat,
                base_url: BaseUrl::Required {
                    hint: " (or `azure_endpoint`): your resource, e.g. \
                           https://NAME.openai.azure.com; or set AZURE_OPENAI_ENDPOINT in the \
                           environment or .env (and AZURE_OPENAI_API_VERSION if the resource \
                           needs another version than 2024-12-01-preview)",
                },
                key_vars: &["AZURE_OPENAI_API_KEY"],
            }),
            config_model: ConfigModel::Required { example: "gpt-5" },
            catalog_model: "gpt-4o",
            // Azure deployment names are user-chosen; most are named after the OpenAI model.
            pricing: PricingRoute::Providers(&[OPENAI]),
            ..NOTHING_ELSE
        },
        BackendKind::Zai => &ProviderRow {
            http: Some(Provider {
                label: "Z.ai",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Required {
                    hint: " (https://api.z.ai/api/paas/v4 or \
                           https://open.bigmodel.cn/api/paas/v4)",
                },
                key_vars: &["ZAI_API_KEY"],
            }),
            hosts: &["z.ai", "bigmodel.cn"],
            catalog_model: "glm-4.6",
            known_base_url: Some("https://api.z.ai/api/paas/v4"),
            pricing: PricingRoute::Providers(&[ZAI]),
            ..NOTHING_ELSE
        },
        BackendKind::Cerebras => &ProviderRow {
            http: Some(Provider {
                label: "Cerebras",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Default("https://api.cerebras.ai/v1"),
                key_vars: &["CEREBRAS_API_KEY"],
            }),
            hosts: &["cerebras.ai"],
            catalog_model: "gpt-oss-120b",
            pricing: PricingRoute::Providers(&[CEREBRAS]),
            ..NOTHING_ELSE
        },
        BackendKind::Together => &ProviderRow {
            http: Some(Provider {
                label: "Together",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Default("https://api.together.xyz/v1"),
                key_vars: &["TOGETHER_API_KEY"],
            }),
            hosts: &["together.xyz", "together.ai"],
            catalog_model: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
            pricing: PricingRoute::Providers(&[TOGETHER]),
            ..NOTHING_ELSE
        },
        BackendKind::Fireworks => &ProviderRow {
            http: Some(Provider {
                label: "Fireworks",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Default("https://api.fireworks.ai/inference/v1"),
                key_vars: &["FIREWORKS_API_KEY"],
            }),
            hosts: &["fireworks.ai"],
            catalog_model: "accounts/fireworks/models/deepseek-v3p1",
            pricing: PricingRoute::Providers(&[FIREWORKS]),
            ..NOTHING_ELSE
        },
        BackendKind::Groq => &ProviderRow {
            http: Some(Provider {
                label: "Groq",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Default("https://api.groq.com/openai/v1"),
                key_vars: &["GROQ_API_KEY"],
            }),
            hosts: &["groq.com"],
            catalog_model: "llama-3.3-70b-versatile",
            pricing: PricingRoute::Providers(&[GROQ]),
            ..NOTHING_ELSE
        },
        BackendKind::Openrouter => &ProviderRow {
            http: Some(Provider {
                label: "OpenRouter",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Default("https://openrouter.ai/api/v1"),
                key_vars: &["OPENROUTER_API_KEY"],
            }),
            hosts: &["openrouter.ai"],
            catalog_model: "openai/gpt-5-mini",
            // OpenRouter normalises reasoning across models under a top-level `reasoning`.
            extra_options: &["reasoning"],
            pricing: PricingRoute::Gateway {
                first: &[OPENROUTER],
                variants: true,
            },
            ..NOTHING_ELSE
        },
        // `kimi` is `moonshot`'s alias.
        BackendKind::Moonshot | BackendKind::Kimi => &ProviderRow {
            http: Some(Provider {
                label: "Moonshot",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Default("https://api.moonshot.cn/v1"),
                key_vars: &["MOONSHOT_API_KEY", "KIMI_API_KEY"],
            }),
            hosts: &["moonshot.ai", "moonshot.cn"],
            catalog_model: "kimi-k2-turbo-preview",
            pricing: PricingRoute::Providers(&[MOONSHOT]),
            ..NOTHING_ELSE
        },
        BackendKind::Nebius => &ProviderRow {
            http: Some(Provider {
                label: "Nebius",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Default("https://api.studio.nebius.ai/v1"),
                key_vars: &["NEBIUS_API_KEY"],
            }),
            hosts: &["nebius.com", "nebius.ai"],
            catalog_model: "meta-llama/Llama-3.3-70B-Instruct",
            pricing: PricingRoute::Providers(&[NEBIUS]),
            ..NOTHING_ELSE
        },
        BackendKind::Poe => &ProviderRow {
            http: Some(Provider {
                label: "Poe",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Required {
                    hint: " (https://api.poe.com/v1)",
                },
                key_vars: &["POE_API_KEY"],
            }),
            hosts: &["poe.com"],
            catalog_model: "Claude-Sonnet-4.5",
            known_base_url: Some("https://api.poe.com/v1"),
            pricing: ANY_VENDOR,
            ..NOTHING_ELSE
        },
        BackendKind::Qwen => &ProviderRow {
            http: Some(Provider {
                label: "Qwen",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Default(
                    "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
                ),
                key_vars: &["QWEN_API_KEY"],
            }),
            hosts: &["aliyuncs.com"],
            catalog_model: "qwen-plus",
            pricing: PricingRoute::Providers(&[DASHSCOPE]),
            ..NOTHING_ELSE
        },
        BackendKind::Chatcompletion => &ProviderRow {
            http: Some(Provider {
                label: "OpenAI-compatible server",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Required {
                    hint: " (the server's OpenAI-style base, ending in /v1)",
                },
                key_vars: &[],
            }),
            catalog_model: "qwen/qwen3-4b",
            pricing: ANY_VENDOR,
            ..NOTHING_ELSE
        },
        BackendKind::Lmstudio => &ProviderRow {
            http: Some(Provider {
                label: "LM Studio",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Default("http://localhost:1234/v1"),
                key_vars: &[],
            }),
            local: true,
            catalog_model: "qwen/qwen3-4b",
            pricing: PricingRoute::Unknown,
            ..NOTHING_ELSE
        },
        BackendKind::Vllm => &ProviderRow {
            http: Some(Provider {
                label: "vLLM",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Default("http://localhost:8000/v1"),
                key_vars: &[],
            }),
            local: true,
            catalog_model: "Qwen/Qwen3-8B",
            extra_options: &INFERENCE_SERVER,
            pricing: PricingRoute::Unknown,
            ..NOTHING_ELSE
        },
        BackendKind::Sglang => &ProviderRow {
            http: Some(Provider {
                label: "SGLang",
                protocol: Protocol::OpenaiChat,
                base_url: BaseUrl::Default("http://localhost:30000/v1"),
                key_vars: &[],
            }),
            local: true,
            catalog_model: "Qwen/Qwen3-8B",
            extra_options: &[
                "top_k",
                "repetition_penalty",
                "chat_template_kwargs",
                "separate_reasoning",
            ],
            pricing: PricingRoute::Unknown,
            ..NOTHING_ELSE
        },
        BackendKind::Ag2 => &ProviderRow {
            agent: AgentProgram::Refused(refusals::AG2),
            config_model: ConfigModel::Optional { default: "default" },
            catalog_model: "gpt-4o",
            pricing: ANY_VENDOR,
            ..NOTHING_ELSE
        },
    }
}

/// The backend type whose servers live at `host` (a `chatcompletion` server there takes
/// its key variables).
pub fn kind_at_host(host: &str) -> Option<BackendKind> {
    let host = host.to_ascii_lowercase();
    let on = |domain: &&str| host == *domain || host.ends_with(&format!(".{domain}"));
    BackendKind::ALL
        .into_iter()
        .find(|kind| row(*kind).hosts.iter().any(on))
}

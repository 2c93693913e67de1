//! The shape of one row of the provider table: how a backend type is reached, which model
//! it starts with, which of its tools are billed, and where its prices are looked up.

/// The four wire protocols, plus Azure's flavour of Chat Completions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    OpenaiChat,
    OpenaiResponses,
    Anthropic,
    Gemini,
    AzureChat,
}

/// How an HTTP provider is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Provider {
    /// Shown in messages: "OpenAI", "Groq", ….
    pub label: &'static str,
    pub protocol: Protocol,
    pub base_url: BaseUrl,
    /// Variables tried in order for the key. Empty: a local server, no key needed.
    pub key_vars: &'static [&'static str],
}

/// Where a provider is, unless the config says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseUrl {
    Default(&'static str),
    /// No default: the config (or, for Azure, `AZURE_OPENAI_ENDPOINT`) must give `base_url`;
    /// `hint` is added to the message that asks for it.
    Required {
        hint: &'static str,
    },
}

/// What a config that names no `model` gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigModel {
    /// The backend has its own default (the scripted stand-in, Claude Code's CLI default,
    /// AG2's `agent_config.llm_config`).
    Optional { default: &'static str },
    /// `model` must be set; `example` goes in the help.
    Required { example: &'static str },
}

/// What a backend type is beyond a model API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentProgram {
    /// A model API (or the offline stand-in): massgen makes the calls itself.
    None,
    /// Another vendor's coding agent CLI, which massgen runs as a child process in the
    /// agent's workspace (`claude_code`, `codex`, `gemini_cli`).
    Cli,
    /// An agent program massgen does not run; the reason says why and what to use instead.
    Refused(&'static str),
}

/// The providers that bill their own server-side tools (web search, X search, code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolBiller {
    OpenAi,
    Anthropic,
    Google,
    Xai,
}

/// Where a backend's model prices are looked up in the shipped price table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PricingRoute {
    /// The offline `scripted` backend: no charge, unless it is named after a listed model.
    Free,
    /// Local servers (`lmstudio`, `vllm`, `sglang`): what a model run on your own hardware
    /// costs is not known, so it is reported as unknown, never as $0.
    Unknown,
    /// The backend serves exactly these LiteLLM providers' models (searched in order).
    Providers(&'static [&'static str]),
    /// A gateway or generic endpoint serving anyone's models: search every provider,
    /// `first` ones first, then the vendor named by a `vendor/model` prefix. With
    /// `variants`, a `:suffix` names an OpenRouter variant (`:free` costs nothing).
    Gateway {
        first: &'static [&'static str],
        variants: bool,
    },
}

/// LiteLLM provider ids, as in the `provider` field of `assets/pricing.json`.
pub mod litellm {
    pub const OPENAI: &str = "openai";
    pub const ANTHROPIC: &str = "anthropic";
    pub const GEMINI: &str = "gemini";
    pub const VERTEX: &str = "vertex_ai-language-models";
    pub const XAI: &str = "xai";
    pub const DEEPSEEK: &str = "deepseek";
    pub const ZAI: &str = "zai";
    pub const MOONSHOT: &str = "moonshot";
    pub const DASHSCOPE: &str = "dashscope";
    pub const GROQ: &str = "groq";
    pub const CEREBRAS: &str = "cerebras";
    pub const TOGETHER: &str = "together_ai";
    pub const FIREWORKS: &str = "fireworks_ai";
    pub const NEBIUS: &str = "nebius";
    pub const OPENROUTER: &str = "openrouter";
}

/// Everything massgen knows about one backend type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProviderRow {
    /// How it is reached; `None` for types that are not HTTP model providers.
    pub http: Option<Provider>,
    /// The domains of its servers: a `chatcompletion` backend at one of them (or a
    /// subdomain) takes this provider's key variables.
    pub hosts: &'static [&'static str],
    /// A server on the user's machine: no key needed, no known price.
    pub local: bool,
    /// Whether the type drives another agent program rather than a model API, and whether
    /// massgen runs it.
    pub agent: AgentProgram,
    /// `model` in the config: a default, or required.
    pub config_model: ConfigModel,
    /// The model a new agent of this type starts with (agents view, quickstart).
    pub catalog_model: &'static str,
    /// The `base_url` written for a new agent when there is no default but one well-known
    /// address.
    pub known_base_url: Option<&'static str>,
    /// Request options it takes beyond its API's own.
    pub extra_options: &'static [&'static str],
    /// Whether MassGen sends its `organization` as the `OpenAI-Organization` header.
    pub sends_organization: bool,
    /// Who bills the server-side tools its calls run; `None` if it runs none.
    pub tool_biller: Option<ToolBiller>,
    pub pricing: PricingRoute,
}

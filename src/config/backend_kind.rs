//! The backend `type`s a MassGen config may name.

use std::fmt;

/// Every backend type MassGen accepts that massgen knows (the agent CLIs `copilot` and
/// `antigravity_cli` are refused by name in `providers`), plus our offline `scripted`
/// stand-in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    Scripted,
    Openai,
    Claude,
    ClaudeCode,
    Codex,
    GeminiCli,
    Gemini,
    Grok,
    AzureOpenai,
    Zai,
    Cerebras,
    Together,
    Fireworks,
    Groq,
    Openrouter,
    Moonshot,
    Kimi,
    Nebius,
    Poe,
    Qwen,
    Chatcompletion,
    Lmstudio,
    Vllm,
    Sglang,
    Ag2,
}

impl BackendKind {
    pub const ALL: [BackendKind; 25] = [
        Self::Scripted,
        Self::Openai,
        Self::Claude,
        Self::ClaudeCode,
        Self::Codex,
        Self::GeminiCli,
        Self::Gemini,
        Self::Grok,
        Self::AzureOpenai,
        Self::Zai,
        Self::Cerebras,
        Self::Together,
        Self::Fireworks,
        Self::Groq,
        Self::Openrouter,
        Self::Moonshot,
        Self::Kimi,
        Self::Nebius,
        Self::Poe,
        Self::Qwen,
        Self::Chatcompletion,
        Self::Lmstudio,
        Self::Vllm,
        Self::Sglang,
        Self::Ag2,
    ];

    /// The name as written in `backend.type`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Scripted => "scripted",
            Self::Openai => "openai",
            Self::Claude => "claude",
            Self::ClaudeCode => "claude_code",
            Self::Codex => "codex",
            Self::GeminiCli => "gemini_cli",
            Self::Gemini => "gemini",
            Self::Grok => "grok",
            Self::AzureOpenai => "azure_openai",
            Self::Zai => "zai",
            Self::Cerebras => "cerebras",
            Self::Together => "together",
            Self::Fireworks => "fireworks",
            Self::Groq => "groq",
            Self::Openrouter => "openrouter",
            Self::Moonshot => "moonshot",
            Self::Kimi => "kimi",
            Self::Nebius => "nebius",
            Self::Poe => "poe",
            Self::Qwen => "qwen",
            Self::Chatcompletion => "chatcompletion",
            Self::Lmstudio => "lmstudio",
            Self::Vllm => "vllm",
            Self::Sglang => "sglang",
            Self::Ag2 => "ag2",
        }
    }

    /// Parses a `type` value; case-insensitive, `-` and `_` interchangeable.
    pub fn from_name(name: &str) -> Option<Self> {
        let wanted = name.trim().to_ascii_lowercase().replace('-', "_");
        Self::ALL.into_iter().find(|kind| kind.name() == wanted)
    }

    /// Guesses the backend for a model name in quick setup (`--model gpt-5`).
    pub fn infer_from_model(model: &str) -> Option<Self> {
        let model = model.to_ascii_lowercase();
        let starts = |prefixes: &[&str]| prefixes.iter().any(|prefix| model.starts_with(prefix));
        if model == "scripted" || model.starts_with("scripted-") {
            Some(Self::Scripted)
        } else if starts(&["gpt-", "o1", "o3", "o4", "chatgpt-", "codex-"]) {
            Some(Self::Openai)
        } else if starts(&["claude-"]) {
            Some(Self::Claude)
        } else if starts(&["gemini-"]) {
            Some(Self::Gemini)
        } else if starts(&["grok-"]) {
            Some(Self::Grok)
        } else if starts(&["glm-"]) {
            Some(Self::Zai)
        } else if starts(&["kimi-", "moonshot-"]) {
            Some(Self::Moonshot)
        } else {
            None
        }
    }
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips_through_its_name() {
        for kind in BackendKind::ALL {
            assert_eq!(BackendKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(
            BackendKind::from_name("Azure-OpenAI"),
            Some(BackendKind::AzureOpenai)
        );
        assert_eq!(BackendKind::from_name("opnai"), None);
    }

    #[test]
    fn quick_setup_infers_common_model_families() {
        assert_eq!(
            BackendKind::infer_from_model("gpt-5"),
            Some(BackendKind::Openai)
        );
        assert_eq!(
            BackendKind::infer_from_model("claude-sonnet-4-5"),
            Some(BackendKind::Claude)
        );
        assert_eq!(
            BackendKind::infer_from_model("gemini-2.5-pro"),
            Some(BackendKind::Gemini)
        );
        assert_eq!(
            BackendKind::infer_from_model("grok-4"),
            Some(BackendKind::Grok)
        );
        assert_eq!(
            BackendKind::infer_from_model("scripted"),
            Some(BackendKind::Scripted)
        );
        assert_eq!(
            BackendKind::infer_from_model("glm-4.6"),
            Some(BackendKind::Zai)
        );
        assert_eq!(
            BackendKind::infer_from_model("kimi-k2-turbo-preview"),
            Some(BackendKind::Moonshot)
        );
        assert_eq!(BackendKind::infer_from_model("llama3"), None);
    }
}

//! The provider table: key variables, base URLs, local servers, `chatcompletion` hosts.

use super::*;

fn config(kind: BackendKind, base_url: Option<&str>) -> BackendConfig {
    BackendConfig {
        base_url: base_url.map(str::to_string),
        ..BackendConfig::new(kind, "m")
    }
}

#[test]
fn every_http_type_names_its_key_variable_when_it_is_missing() {
    let env = Env::from_pairs([]);
    for (kind, var) in [
        (BackendKind::Openai, "OPENAI_API_KEY"),
        (BackendKind::Claude, "ANTHROPIC_API_KEY"),
        (BackendKind::Gemini, "GOOGLE_API_KEY or GEMINI_API_KEY"),
        (BackendKind::Grok, "XAI_API_KEY"),
        (BackendKind::Cerebras, "CEREBRAS_API_KEY"),
        (BackendKind::Together, "TOGETHER_API_KEY"),
        (BackendKind::Fireworks, "FIREWORKS_API_KEY"),
        (BackendKind::Groq, "GROQ_API_KEY"),
        (BackendKind::Openrouter, "OPENROUTER_API_KEY"),
        (BackendKind::Moonshot, "MOONSHOT_API_KEY or KIMI_API_KEY"),
        (BackendKind::Kimi, "MOONSHOT_API_KEY or KIMI_API_KEY"),
        (BackendKind::Nebius, "NEBIUS_API_KEY"),
        (BackendKind::Qwen, "QWEN_API_KEY"),
    ] {
        let error = resolve(&config(kind, None), &env).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "backend `{kind}` needs an API key: set {var} (in the environment or a .env \
                 file), or `api_key` in the config"
            )
        );
    }
}

#[test]
fn keys_come_from_the_config_first_then_the_variables_in_order() {
    let env = Env::from_pairs([("GEMINI_API_KEY", "from-gemini-var")]);
    let endpoint = resolve(&config(BackendKind::Gemini, None), &env).unwrap();
    assert_eq!(endpoint.api_key, Some(Secret::new("from-gemini-var")));
    assert_eq!(
        endpoint.base_url,
        "https://generativelanguage.googleapis.com"
    );
    assert_eq!(endpoint.protocol, Protocol::Gemini);

    let env = Env::from_pairs([("GOOGLE_API_KEY", "google"), ("GEMINI_API_KEY", "gemini")]);
    let endpoint = resolve(&config(BackendKind::Gemini, None), &env).unwrap();
    assert_eq!(endpoint.api_key, Some(Secret::new("google")));

    let mut explicit = config(BackendKind::Claude, Some("https://proxy.example.com/"));
    explicit.api_key = Some(Secret::new("inline"));
    let endpoint = resolve(&explicit, &Env::from_pairs([])).unwrap();
    assert_eq!(endpoint.api_key, Some(Secret::new("inline")));
    assert_eq!(endpoint.base_url, "https://proxy.example.com");
}

#[test]
fn default_base_urls_follow_each_sdk() {
    let env = Env::from_pairs([
        ("OPENAI_API_KEY", "k"),
        ("ANTHROPIC_API_KEY", "k"),
        ("XAI_API_KEY", "k"),
        ("GROQ_API_KEY", "k"),
    ]);
    let base = |kind| resolve(&config(kind, None), &env).unwrap().base_url;
    assert_eq!(base(BackendKind::Openai), "https://api.openai.com/v1");
    assert_eq!(base(BackendKind::Claude), "https://api.anthropic.com");
    assert_eq!(base(BackendKind::Grok), "https://api.x.ai/v1");
    assert_eq!(base(BackendKind::Groq), "https://api.groq.com/openai/v1");
    assert_eq!(base(BackendKind::Vllm), "http://localhost:8000/v1");
    assert_eq!(base(BackendKind::Sglang), "http://localhost:30000/v1");
    assert_eq!(base(BackendKind::Lmstudio), "http://localhost:1234/v1");
}

#[test]
fn local_servers_need_no_key() {
    let env = Env::from_pairs([]);
    for kind in [
        BackendKind::Vllm,
        BackendKind::Sglang,
        BackendKind::Lmstudio,
    ] {
        let endpoint = resolve(&config(kind, None), &env).unwrap();
        assert_eq!(endpoint.api_key, None);
    }
    for url in [
        "http://127.0.0.1:9000/v1",
        "http://localhost/v1",
        "http://192.168.1.20:8000/v1",
        "http://10.0.0.5/v1",
        "http://[::1]:8080/v1",
        "http://gpu-box.local:8000/v1",
    ] {
        let endpoint = resolve(&config(BackendKind::Chatcompletion, Some(url)), &env);
        assert!(endpoint.is_ok(), "{url}: {endpoint:?}");
    }
    // A remote server behind a local-looking type still works without a key.
    assert!(
        resolve(
            &config(BackendKind::Vllm, Some("https://vllm.example.com/v1")),
            &env
        )
        .is_ok()
    );
}

#[test]
fn chatcompletion_infers_the_key_variable_from_the_host() {
    let env = Env::from_pairs([("CEREBRAS_API_KEY", "c")]);
    let endpoint = resolve(
        &config(
            BackendKind::Chatcompletion,
            Some("https://api.cerebras.ai/v1"),
        ),
        &env,
    )
    .unwrap();
    assert_eq!(endpoint.api_key, Some(Secret::new("c")));
    for (url, var) in [
        ("https://api.together.xyz/v1", "TOGETHER_API_KEY"),
        ("https://api.fireworks.ai/inference/v1", "FIREWORKS_API_KEY"),
        ("https://api.groq.com/openai/v1", "GROQ_API_KEY"),
        ("https://api.studio.nebius.com/v1", "NEBIUS_API_KEY"),
        ("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
        ("https://api.z.ai/api/paas/v4", "ZAI_API_KEY"),
        ("https://open.bigmodel.cn/api/paas/v4", "ZAI_API_KEY"),
        (
            "https://api.moonshot.ai/v1",
            "MOONSHOT_API_KEY or KIMI_API_KEY",
        ),
        ("https://api.poe.com/v1", "POE_API_KEY"),
        (
            "https://dashscope.aliyuncs.com/compatible-mode/v1",
            "QWEN_API_KEY",
        ),
    ] {
        let error = resolve(&config(BackendKind::Chatcompletion, Some(url)), &env).unwrap_err();
        assert!(
            error.to_string().contains(&format!("set {var} ")),
            "{url}: {error}"
        );
    }
    let unknown = resolve(
        &config(
            BackendKind::Chatcompletion,
            Some("https://llm.example.com/v1"),
        ),
        &env,
    )
    .unwrap_err();
    assert!(
        matches!(unknown, EndpointError::MissingKeyUnknownHost { .. }),
        "{unknown}"
    );
}

#[test]
fn base_url_is_required_where_there_is_no_default() {
    let env = Env::from_pairs([
        ("ZAI_API_KEY", "z"),
        ("POE_API_KEY", "p"),
        ("AZURE_OPENAI_API_KEY", "a"),
    ]);
    for kind in [
        BackendKind::Zai,
        BackendKind::Poe,
        BackendKind::Chatcompletion,
        BackendKind::AzureOpenai,
    ] {
        let error = resolve(&config(kind, None), &env).unwrap_err();
        assert!(
            matches!(error, EndpointError::MissingBaseUrl { .. }),
            "{kind}: {error}"
        );
    }
    let env = Env::from_pairs([
        ("AZURE_OPENAI_API_KEY", "a"),
        ("AZURE_OPENAI_ENDPOINT", "https://me.openai.azure.com/"),
    ]);
    let endpoint = resolve(&config(BackendKind::AzureOpenai, None), &env).unwrap();
    assert_eq!(endpoint.base_url, "https://me.openai.azure.com");
    assert_eq!(endpoint.protocol, Protocol::AzureChat);
    assert_eq!(
        endpoint.api_version.as_deref(),
        Some(DEFAULT_AZURE_API_VERSION)
    );
    let error = resolve(&config(BackendKind::Grok, Some("api.x.ai/v1")), &env).unwrap_err();
    assert!(matches!(error, EndpointError::BadBaseUrl { .. }), "{error}");
}

#[test]
fn non_http_types_have_no_provider() {
    for kind in [
        BackendKind::Scripted,
        BackendKind::ClaudeCode,
        BackendKind::Codex,
        BackendKind::GeminiCli,
        BackendKind::Ag2,
    ] {
        assert_eq!(provider(kind), None);
    }
    for kind in BackendKind::ALL {
        if !matches!(
            kind,
            BackendKind::Scripted
                | BackendKind::ClaudeCode
                | BackendKind::Codex
                | BackendKind::GeminiCli
                | BackendKind::Ag2
        ) {
            assert!(provider(kind).is_some(), "{kind}");
        }
    }
}

#[test]
fn keys_are_trimmed_and_unusable_keys_are_refused() {
    let env = Env::from_pairs([("GROQ_API_KEY", " gsk-abc\r\n")]);
    let endpoint = resolve(&config(BackendKind::Groq, None), &env).unwrap();
    assert_eq!(endpoint.api_key, Some(Secret::new("gsk-abc")));
    assert_eq!(endpoint.key_fix, "set GROQ_API_KEY");
    let env = Env::from_pairs([("GROQ_API_KEY", "gsk abc")]);
    let error = resolve(&config(BackendKind::Groq, None), &env).unwrap_err();
    assert!(matches!(error, EndpointError::BadKey { .. }), "{error}");
    assert!(!error.to_string().contains("gsk"), "{error}");
    // A key from the config is fixed in the config, not with the variable.
    let mut explicit = config(BackendKind::Groq, None);
    explicit.api_key = Some(Secret::new("gsk-inline"));
    let endpoint = resolve(&explicit, &Env::from_pairs([])).unwrap();
    assert_eq!(endpoint.key_fix, "check `api_key` in the config");
}

#[test]
fn azure_takes_its_version_from_the_config_then_the_environment_then_massgen_default() {
    let env = Env::from_pairs([
        ("AZURE_OPENAI_API_KEY", "a"),
        ("AZURE_OPENAI_ENDPOINT", "https://env.openai.azure.com"),
        ("AZURE_OPENAI_API_VERSION", "2025-01-01-preview"),
    ]);
    let mut azure = config(
        BackendKind::AzureOpenai,
        Some("https://cfg.openai.azure.com"),
    );
    let endpoint = resolve(&azure, &env).unwrap();
    assert_eq!(endpoint.base_url, "https://cfg.openai.azure.com");
    assert_eq!(endpoint.api_version.as_deref(), Some("2025-01-01-preview"));
    azure.api_version = Some("2024-10-21".into());
    assert_eq!(
        resolve(&azure, &env).unwrap().api_version.as_deref(),
        Some("2024-10-21")
    );
    let openai = resolve(
        &config(BackendKind::Openai, None),
        &Env::from_pairs([("OPENAI_API_KEY", "k")]),
    )
    .unwrap();
    assert_eq!(openai.api_version, None);
}

#[test]
fn azure_without_an_endpoint_names_the_variables_to_set() {
    let env = Env::from_pairs([("AZURE_OPENAI_API_KEY", "a")]);
    let error = resolve(&config(BackendKind::AzureOpenai, None), &env).unwrap_err();
    let message = error.to_string();
    for part in [
        "base_url",
        "AZURE_OPENAI_ENDPOINT",
        "AZURE_OPENAI_API_VERSION",
    ] {
        assert!(message.contains(part), "{message}");
    }
    assert!(error.is_environment());
}

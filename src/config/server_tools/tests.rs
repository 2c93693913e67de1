//! The keys as MassGen's shipped configs write them, and their refusal on backends without
//! the tool, with line:col, the agent, the backend type and where the tool exists; Grok's
//! retired `search_parameters` refused with what to write instead.

use super::ServerTools;
use crate::config::{Env, from_text};

fn agent(backend: &str) -> String {
    format!("agents:\n  - id: scout\n    backend:\n{backend}")
}

fn tools(backend: &str) -> ServerTools {
    let loaded = from_text(&agent(backend), "t.yaml", &Env::default()).unwrap();
    assert!(
        loaded
            .warnings
            .iter()
            .all(|warning| !warning.message.contains("enable_")),
        "{:?}",
        loaded.warnings
    );
    loaded.config.agents[0].backend.server_tools
}

fn error(backend: &str) -> String {
    from_text(&agent(backend), "t.yaml", &Env::default())
        .unwrap_err()
        .to_string()
}

const BOTH: ServerTools = ServerTools {
    web_search: true,
    x_search: false,
    code_execution: true,
};
const SEARCH: ServerTools = ServerTools {
    web_search: true,
    x_search: false,
    code_execution: false,
};

#[test]
fn the_shipped_combinations_load_and_turn_the_tools_on() {
    let cases = [
        (
            "      type: openai\n      model: gpt-5\n      enable_web_search: true\n      enable_code_interpreter: true\n",
            BOTH,
        ),
        (
            "      type: claude\n      model: claude-sonnet-4-5\n      enable_web_search: true\n      enable_code_execution: true\n",
            BOTH,
        ),
        (
            "      type: gemini\n      model: gemini-3-flash-preview\n      enable_web_search: true\n      enable_code_execution: true\n",
            BOTH,
        ),
        (
            "      type: grok\n      model: grok-4-1-fast-reasoning\n      enable_web_search: true\n",
            SEARCH,
        ),
        (
            "      type: openrouter\n      model: openai/gpt-4o\n      enable_web_search: true\n",
            SEARCH,
        ),
        // azure_openai_multi.yaml and others turn it off explicitly.
        (
            "      type: azure_openai\n      model: gpt-4.1\n      enable_web_search: false\n",
            ServerTools::default(),
        ),
        (
            "      type: gemini\n      model: gemini-2.5-flash\n      enable_web_search: false\n",
            ServerTools::default(),
        ),
        (
            "      type: openai\n      model: gpt-5\n      enable_code_execution: yes\n",
            ServerTools {
                code_execution: true,
                ..ServerTools::default()
            },
        ),
        // grok_single_agent.yaml, with its commented-out lines switched on.
        (
            "      type: grok\n      model: grok-4\n      enable_web_search: true\n      enable_x_search: true\n      enable_code_execution: true\n",
            ServerTools {
                web_search: true,
                x_search: true,
                code_execution: true,
            },
        ),
    ];
    for (backend, expected) in cases {
        assert_eq!(tools(backend), expected, "{backend}");
    }
}

#[test]
fn the_keys_are_never_sent_to_the_provider() {
    let yaml = agent(
        "      type: openai\n      model: gpt-5\n      enable_web_search: true\n      enable_code_interpreter: false\n",
    );
    let loaded = from_text(&yaml, "t.yaml", &Env::default()).unwrap();
    assert!(loaded.config.agents[0].backend.passthrough.is_empty());
}

#[test]
fn a_code_interpreter_on_claude_is_refused_pointing_at_code_execution() {
    let message = error(
        "      type: claude\n      model: claude-sonnet-4-5\n      enable_code_interpreter: true\n",
    );
    assert!(message.starts_with("t.yaml:6:7:"), "{message}");
    assert!(message.contains("agent `scout`"), "{message}");
    assert!(
        message.contains("`agents[0].backend.enable_code_interpreter: true`"),
        "{message}"
    );
    assert!(
        message.contains("backend type `claude` does not have"),
        "{message}"
    );
    assert!(message.contains("available on openai, grok"), "{message}");
    assert!(
        message.contains(
            "help: `claude` calls its tool code execution: use `enable_code_execution: true`"
        ),
        "{message}"
    );
}

#[test]
fn web_search_on_a_local_server_is_refused_with_the_backends_that_have_it() {
    let message =
        error("      type: vllm\n      model: Qwen/Qwen3-8B\n      enable_web_search: true\n");
    assert!(message.starts_with("t.yaml:6:7:"), "{message}");
    assert!(message.contains("backend type `vllm`"), "{message}");
    assert!(
        message.contains("available on openai, claude, gemini, grok, openrouter"),
        "{message}"
    );
    assert!(
        message.contains("give agent `scout` a backend that has it"),
        "{message}"
    );
}

#[test]
fn the_chat_completions_family_and_azure_have_no_native_tools() {
    for (kind, key) in [
        ("azure_openai", "enable_web_search"),
        ("azure_openai", "enable_code_execution"),
        ("groq", "enable_web_search"),
        ("chatcompletion", "enable_code_interpreter"),
        ("openrouter", "enable_code_execution"),
        ("scripted", "enable_web_search"),
    ] {
        let message = error(&format!(
            "      type: {kind}\n      model: m\n      base_url: http://localhost:1/v1\n      {key}: true\n"
        ));
        assert!(
            message.contains(&format!("backend type `{kind}` does not have")),
            "{kind} {key}: {message}"
        );
    }
}

#[test]
fn a_value_that_is_not_a_boolean_is_an_error() {
    let message = error("      type: openai\n      model: gpt-5\n      enable_web_search: often\n");
    assert!(message.contains("true or false"), "{message}");
}

#[test]
fn x_search_is_groks_alone() {
    for kind in ["openai", "claude", "gemini", "openrouter"] {
        let message = error(&format!(
            "      type: {kind}\n      model: m\n      enable_x_search: true\n"
        ));
        assert!(message.starts_with("t.yaml:6:7:"), "{message}");
        assert!(
            message.contains("asks for the provider's X search tool"),
            "{message}"
        );
        assert!(
            message.contains(&format!("backend type `{kind}` does not have")),
            "{message}"
        );
        assert!(message.contains("(it is available on grok)"), "{message}");
    }
}

#[test]
fn groks_retired_search_parameters_are_refused_with_what_to_write_instead() {
    let message = error(
        "      type: grok\n      model: grok-4\n      extra_body:\n        search_parameters: {mode: auto, return_citations: true}\n",
    );
    assert!(message.starts_with("t.yaml:7:9:"), "{message}");
    assert!(
        message.contains(
            "agent `scout`: `agents[0].backend.extra_body.search_parameters` is Grok's retired \
             Live Search"
        ),
        "{message}"
    );
    assert!(
        message.contains("`enable_web_search: true`")
            && message.contains("`enable_x_search: true`"),
        "{message}"
    );
    // Other `extra_body` fields, and other backends' `search_parameters`, are sent as written.
    let loaded = from_text(
        &agent("      type: grok\n      model: grok-4\n      extra_body: {seed: 1}\n"),
        "t.yaml",
        &Env::default(),
    )
    .unwrap();
    assert_eq!(loaded.config.agents[0].backend.extra_body["seed"], 1);
    let loaded = from_text(
        &agent(
            "      type: chatcompletion\n      model: m\n      base_url: http://localhost:1/v1\n      extra_body: {search_parameters: {}}\n",
        ),
        "t.yaml",
        &Env::default(),
    )
    .unwrap();
    assert!(
        loaded.config.agents[0]
            .backend
            .extra_body
            .contains_key("search_parameters")
    );
}

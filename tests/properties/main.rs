//! A short proptest run of the fuzz targets' properties (`fuzz/` runs them for as long as
//! you like): untrusted provider bytes, config text and questions never panic and are read
//! the same however they arrive.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod checks;

use checks::{Protocol, check_config, check_prompt, check_stream};
use proptest::prelude::*;

/// Lines a provider might send: real-looking events of every protocol, broken JSON,
/// comments, CRs and junk, joined into streams.
fn sse_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}".to_string()),
        Just("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"vote\",\"arguments\":\"{\\\"a\"}}]}}]}".to_string()),
        Just("data: [DONE]".to_string()),
        Just("event: response.output_text.delta".to_string()),
        Just("data: {\"type\":\"response.output_text.delta\",\"delta\":\"x\"}".to_string()),
        Just("data: {\"type\":\"response.completed\",\"response\":{\"usage\":{\"input_tokens\":1,\"output_tokens\":2}}}".to_string()),
        Just("event: content_block_delta".to_string()),
        Just("data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"y\"}}".to_string()),
        Just("data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"n\",\"input\":{}}}".to_string()),
        Just("data: {\"type\":\"message_stop\"}".to_string()),
        Just("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"z\"}]},\"finishReason\":\"STOP\"}]}".to_string()),
        Just("data: {\"error\":{\"message\":\"boom\",\"type\":\"server_error\"}}".to_string()),
        Just(": keep-alive".to_string()),
        Just(String::new()),
        "data: [ -~]{0,40}".prop_map(|line| line),
        "[ -~\\r]{0,30}",
        any::<String>().prop_map(|text| format!("data: {text}")),
    ]
}

fn sse_stream() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(sse_line(), 0..24).prop_map(|lines| {
        let mut text = lines.join("\n");
        text.push('\n');
        text.into_bytes()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn provider_streams_decode_the_same_however_they_are_cut(
        bytes in sse_stream(),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
        protocol in 0..4usize,
    ) {
        let cuts: Vec<usize> = cuts.iter().map(|cut| cut % (bytes.len() + 1)).collect();
        check_stream(Protocol::ALL[protocol], &bytes, &cuts);
    }

    #[test]
    fn arbitrary_provider_bytes_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..600),
        cuts in prop::collection::vec(any::<usize>(), 0..6),
        protocol in 0..4usize,
    ) {
        check_stream(Protocol::ALL[protocol], &bytes, &cuts);
    }

    #[test]
    fn config_text_loads_or_fails_cleanly(text in config_text()) {
        check_config(&text);
    }

    #[test]
    fn questions_with_at_paths_parse(text in question_text()) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/main.rs"), "").unwrap();
        check_prompt(&text, dir.path());
    }
}

/// Configs near the real shape, so the loader's deeper paths are reached, plus noise.
fn config_text() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        Just("agents:\n".to_string()),
        Just("  - id: a\n    backend: {type: openai, model: gpt-5}\n".to_string()),
        Just("  - id: b\n    backend:\n      type: claude\n      model: x\n      api_key: ${FUZZ_KEY}\n".to_string()),
        Just("agent: {id: s, backend: {type: scripted, model: m}}\n".to_string()),
        Just("orchestrator:\n  context_paths:\n    - path: .\n      permission: write\n".to_string()),
        Just("timeout_settings: {orchestrator_timeout_seconds: -1}\n".to_string()),
        Just("limits: {max_agents: 0}\n".to_string()),
        Just("ui: {display_type: rich_terminal}\n".to_string()),
        Just("      cwd: ../../\n".to_string()),
        Just("&a [*a, *a]\n".to_string()),
        Just("key: !!binary aGk=\n".to_string()),
        "[ -~\\n\\t]{0,40}",
        any::<String>(),
    ];
    prop::collection::vec(fragment, 0..10).prop_map(|parts| parts.concat())
}

fn question_text() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        Just("@src/main.rs".to_string()),
        Just("@src/".to_string()),
        Just("@src/main.rs:w".to_string()),
        Just("@\"src\"".to_string()),
        Just("@\"unclosed".to_string()),
        Just("\\@".to_string()),
        Just("user@example.com".to_string()),
        Just("@missing.txt,".to_string()),
        Just("@:w".to_string()),
        Just("@".to_string()),
        Just(" ".to_string()),
        "[ -~]{0,12}",
        any::<String>(),
    ];
    prop::collection::vec(fragment, 0..8).prop_map(|parts| parts.concat())
}

/// Found by the config_load fuzz target: YAML breaks lines at a lone CR too, so an error
/// "at line 3" of `{$\r$` is inside the text.
#[test]
fn config_errors_count_lines_as_yaml_does() {
    check_config("{$\r$");
    check_config("a: [\r\n\r\n");
}

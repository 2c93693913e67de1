//! The code-based tool keys as configs write them, and their errors.

use crate::config::{CodeBasedTools, Env, from_text};

const HEAD: &str = "agent:\n  id: a\n  backend:\n    type: scripted\n    cwd: ws\n";

fn code_based(extra: &str) -> Option<CodeBasedTools> {
    let loaded = from_text(&format!("{HEAD}{extra}"), "t.yaml", &Env::default()).unwrap();
    assert!(loaded.keys.ignored.is_empty(), "{:?}", loaded.keys);
    loaded.config.agents[0].backend.tools.code_based.clone()
}

fn error(extra: &str) -> String {
    from_text(&format!("{HEAD}{extra}"), "t.yaml", &Env::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn the_keys_are_read_and_honoured() {
    assert_eq!(
        code_based(
            "    enable_code_based_tools: true\n    direct_mcp_servers: [context7, logfire]\n    \
             shared_tools_directory: shared_tools\n"
        ),
        Some(CodeBasedTools {
            direct_servers: vec!["context7".into(), "logfire".into()],
            shared_directory: Some("shared_tools".into()),
        })
    );
    assert_eq!(
        code_based("    enable_code_based_tools: true\n"),
        Some(CodeBasedTools::default())
    );
    // Without the switch the other two change nothing, as in MassGen.
    assert_eq!(
        code_based("    shared_tools_directory: shared_tools\n"),
        None
    );
    assert_eq!(code_based("    enable_code_based_tools: false\n"), None);
}

#[test]
fn malformed_values_are_explained() {
    let text = error("    enable_code_based_tools: yes please\n");
    assert!(text.contains("enable_code_based_tools"), "{text}");
    let text = error("    enable_code_based_tools: true\n    direct_mcp_servers: {a: 1}\n");
    assert!(text.contains("direct_mcp_servers"), "{text}");
    let text = error("    enable_code_based_tools: true\n    direct_mcp_servers: [\"\"]\n");
    assert!(
        text.contains("`agent.backend.direct_mcp_servers` names a server with an empty name"),
        "{text}"
    );
    let text = error("    shared_tools_directory: \" \"\n");
    assert!(
        text.contains("`agent.backend.shared_tools_directory` is empty"),
        "{text}"
    );
}

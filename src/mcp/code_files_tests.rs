//! Tests of the generated Python text: names, signatures, docstrings and literals.

use serde_json::json;

use super::*;

#[test]
fn names_become_python_identifiers() {
    assert_eq!(python_name("get-library-docs"), "get_library_docs");
    assert_eq!(python_name("2fa"), "_2fa");
    assert_eq!(python_name("class"), "class_");
    assert_eq!(python_name(""), "_");
}

#[test]
fn a_tool_module_has_typed_parameters_required_first_and_a_docstring() {
    let schema = json!({
        "type": "object",
        "properties": {
            "days": {"type": "integer", "description": "Number of days", "default": 3},
            "units": {"type": "string", "default": "metric"},
            "from": {"type": "boolean"},
            "location": {"type": "string", "description": "City \"\"\" name"},
        },
        "required": ["location"],
    });
    let text = tool_module("weather-api", "get-forecast", "Get a forecast", &schema);
    assert!(
        text.contains(
            "def get_forecast(location: str, days: Optional[int] = 3, from_: Optional[bool] = \
             None, units: Optional[str] = \"metric\") -> str:\n    \"\"\"Get a forecast\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("        location (str): City \\\"\\\"\\\" name\n"),
        "{text}"
    );
    assert!(
        text.contains("        days (int, optional): Number of days\n"),
        "{text}"
    );
    assert!(
        text.contains("server=\"weather-api\",\n        tool=\"get-forecast\","),
        "{text}"
    );
    assert!(text.contains("        \"from\": from_,\n"), "{text}");
}

#[test]
fn a_tool_without_description_or_parameters_still_reads_well() {
    let text = tool_module("calc", "ping", " ", &json!({"type": "object"}));
    assert!(
        text.contains("def ping() -> str:\n    \"\"\"ping from the calc MCP server\n"),
        "{text}"
    );
    assert!(!text.contains("Args:"), "{text}");
}

#[test]
fn server_and_package_inits_import_and_list_the_tools() {
    let init = server_init("calc", &["add".into(), "get-sum".into()]);
    assert!(
        init.contains("from .add import add\nfrom .get_sum import get_sum\n"),
        "{init}"
    );
    assert!(init.contains("- get_sum (MCP: get-sum)"), "{init}");
    assert!(init.contains("__all__ = [\"add\", \"get_sum\"]"), "{init}");
    assert!(servers_init(&["calc".into(), "my-docs".into()]).contains("- calc\n- my_docs\n"));
}

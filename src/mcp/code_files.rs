//! The Python text of MassGen's code-based tools (`mcp_tools/code_generator.py`): one
//! wrapper module per MCP tool with a docstring and typed parameters from its schema, each
//! server's `__init__.py`, the `servers/` package and the `.mcp/client.py` the wrappers
//! call, which reaches massgen's tool bridge over loopback HTTP.

use std::fmt::Write as _;

use serde_json::Value;

/// `name` as a Python identifier: other characters become `_`, a leading digit or a
/// keyword gets one more `_`.
pub fn python_name(name: &str) -> String {
    let mut text: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if text.is_empty() || text.starts_with(|c: char| c.is_ascii_digit()) {
        text.insert(0, '_');
    }
    if PYTHON_KEYWORDS.contains(&text.as_str()) {
        text.push('_');
    }
    text
}

const PYTHON_KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// A Python string literal holding `text` (JSON's escapes are Python's too).
fn literal(text: &str) -> String {
    Value::String(text.to_string()).to_string()
}

/// `text` safe inside a `"""` docstring.
fn docstring_safe(text: &str) -> String {
    text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"")
}

fn python_type(schema: &Value) -> &'static str {
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => "str",
        Some("integer") => "int",
        Some("number") => "float",
        Some("boolean") => "bool",
        Some("array") => "list",
        Some("object") => "dict",
        _ => "Any",
    }
}

/// A JSON value as the Python literal of the same value.
fn python_value(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(number) => number.to_string(),
        Value::String(text) => literal(text),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(python_value).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let items: Vec<String> = map
                .iter()
                .map(|(key, value)| format!("{}: {}", literal(key), python_value(value)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// One parameter of a tool: its schema name, its Python name and its schema.
struct Parameter<'a> {
    name: &'a str,
    python: String,
    schema: &'a Value,
    required: bool,
}

fn parameters(input_schema: &Value) -> Vec<Parameter<'_>> {
    let Some(properties) = input_schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    let required: Vec<&str> = input_schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut parameters: Vec<Parameter<'_>> = properties
        .iter()
        .map(|(name, schema)| Parameter {
            name,
            python: python_name(name),
            schema,
            required: required.contains(&name.as_str()),
        })
        .collect();
    // Python wants the required parameters first.
    parameters.sort_by_key(|parameter| !parameter.required);
    parameters
}

fn signature(parameters: &[Parameter<'_>]) -> String {
    let rendered: Vec<String> = parameters
        .iter()
        .map(|parameter| {
            let kind = python_type(parameter.schema);
            if parameter.required {
                format!("{}: {kind}", parameter.python)
            } else {
                let default = parameter
                    .schema
                    .get("default")
                    .map_or_else(|| "None".to_string(), python_value);
                format!("{}: Optional[{kind}] = {default}", parameter.python)
            }
        })
        .collect();
    rendered.join(", ")
}

fn docstring(description: &str, parameters: &[Parameter<'_>]) -> String {
    let mut text = format!("    \"\"\"{}\n", docstring_safe(description.trim()));
    if !parameters.is_empty() {
        text.push_str("\n    Args:\n");
        for parameter in parameters {
            let optional = if parameter.required { "" } else { ", optional" };
            let about = parameter
                .schema
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("");
            let _ = writeln!(
                text,
                "        {} ({}{optional}): {}",
                parameter.python,
                python_type(parameter.schema),
                docstring_safe(about)
            );
        }
    }
    text.push_str(
        "\n    Returns:\n        str: The tool's text result from the MCP server.\n    \"\"\"\n",
    );
    text
}

/// `servers/<server>/<tool>.py`: the function `python_name(tool)` calling `tool` of
/// `server` through `.mcp/client.py`.
pub fn tool_module(server: &str, tool: &str, description: &str, input_schema: &Value) -> String {
    let function = python_name(tool);
    let parameters = parameters(input_schema);
    let description = if description.trim().is_empty() {
        format!("{tool} from the {server} MCP server")
    } else {
        description.to_string()
    };
    let arguments: Vec<String> = parameters
        .iter()
        .map(|parameter| format!("        {}: {},", literal(parameter.name), parameter.python))
        .collect();
    format!(
        "\"\"\"\n{function} - MCP tool wrapper\n\nGenerated by massgen for the tool \
         {tool_literal} of the {server_literal} MCP server;\ncalling it runs the tool \
         through massgen. Do not edit.\n\"\"\"\n\nfrom typing import Any, Dict, Optional\n\
         import sys\nfrom pathlib import Path\n\n_mcp_path = Path(__file__).parent.parent.parent \
         / \".mcp\"\nif str(_mcp_path) not in sys.path:\n    sys.path.insert(0, str(_mcp_path))\n\n\
         from client import call_mcp_tool\n\n\ndef {function}({signature}) -> str:\n{docstring}    \
         return call_mcp_tool(\n        server={server_literal},\n        tool={tool_literal},\n        \
         arguments={{\n{arguments}\n        }},\n    )\n\n\nif __name__ == \"__main__\":\n    \
         import json\n\n    # python {function}.py '{{\"argument\": \"value\"}}'\n    if len(sys.argv) \
         != 2:\n        print({function}.__doc__)\n        sys.exit(1)\n    \
         print({function}(**json.loads(sys.argv[1])))\n",
        tool_literal = literal(tool),
        server_literal = literal(server),
        signature = signature(&parameters),
        docstring = docstring(&description, &parameters),
        arguments = arguments.join("\n"),
    )
}

/// `servers/<server>/__init__.py`, importing every tool module of the server.
pub fn server_init(server: &str, tools: &[String]) -> String {
    let mut text = format!(
        "\"\"\"\n{server} MCP server tools\n\nGenerated by massgen: Python wrappers for the tools \
         of the '{server}' MCP server.\n\nAvailable tools:\n",
        server = docstring_safe(server)
    );
    for tool in tools {
        let function = python_name(tool);
        if function == *tool {
            let _ = writeln!(text, "- {function}");
        } else {
            let _ = writeln!(text, "- {function} (MCP: {})", docstring_safe(tool));
        }
    }
    let functions: Vec<String> = tools.iter().map(|tool| python_name(tool)).collect();
    let first = functions.first().map_or("tool_name", String::as_str);
    let _ = write!(
        text,
        "\nUsage:\n    from servers.{module} import {first}\n    result = {first}(...)\n\"\"\"\n\n",
        module = python_name(server),
    );
    for function in &functions {
        let _ = writeln!(text, "from .{function} import {function}");
    }
    let quoted: Vec<String> = functions.iter().map(|name| literal(name)).collect();
    let _ = writeln!(text, "\n__all__ = [{}]", quoted.join(", "));
    text
}

/// `servers/__init__.py`, listing the servers.
pub fn servers_init(servers: &[String]) -> String {
    let mut text = String::from(
        "\"\"\"\nMCP server tools\n\nGenerated by massgen: Python wrappers for MCP tools.\n\n\
         Available servers:\n",
    );
    for server in servers {
        let _ = writeln!(text, "- {}", python_name(server));
    }
    text.push_str(
        "\nUsage:\n    from servers.<server> import <tool>\n    result = <tool>(...)\n\n\
         Discover tools via the filesystem:\n    ls servers/                     # the servers\n    \
         ls servers/<server>/            # a server's tools\n    head -n 25 servers/<server>/<tool>.py  \
         # a tool's docstring\n\"\"\"\n",
    );
    text
}

/// `custom_tools/__init__.py` of the empty custom tools package MassGen creates.
pub const CUSTOM_TOOLS_INIT: &str = "\"\"\"\nCustom tools\n\nPut Python tools here: each \
    .py file holds functions agents can import.\n\nUsage:\n    from custom_tools.<file> import \
    <function>\n\"\"\"\n";

/// `.mcp/client.py`: calls a tool through massgen's tool bridge, whose address massgen
/// writes next to it in `bridge.json` while the agent's run is live.
pub const CLIENT: &str = include_str!("code_client.py");

#[cfg(test)]
#[path = "code_files_tests.rs"]
mod tests;

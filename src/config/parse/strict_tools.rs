//! A Claude backend's `enable_strict_tool_use`, and the custom-tool entries and MCP servers
//! that opt out of it with `strict: false`.

use crate::config::custom_tools::CustomToolConfig;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::tools::StrictTools;
use crate::config::yaml_node::Value;

pub(super) fn parse_strict_tools(
    backend: &Fields<'_>,
    custom_tools: &[CustomToolConfig],
) -> Result<StrictTools, Problem> {
    if backend.bool("enable_strict_tool_use")? != Some(true) {
        return Ok(StrictTools::default());
    }
    let mut opted_out: Vec<String> = custom_tools
        .iter()
        .filter(|tool| !tool.strict)
        .map(CustomToolConfig::offered_name)
        .collect();
    let servers_path = backend.key_path("mcp_servers");
    let servers: Vec<(String, Fields<'_>)> =
        match backend.get("mcp_servers").map(|node| &node.value) {
            Some(Value::Seq(items)) => items
                .iter()
                .enumerate()
                .filter_map(|(index, item)| {
                    let name = item.get("name")?.as_str()?.to_string();
                    Some(
                        Fields::of(item, format!("{servers_path}[{index}]"))
                            .map(|fields| (name, fields)),
                    )
                })
                .collect::<Result<_, _>>()?,
            Some(Value::Map(entries)) => entries
                .iter()
                .map(|entry| {
                    Fields::of(&entry.value, format!("{servers_path}.{}", entry.key))
                        .map(|fields| (entry.key.clone(), fields))
                })
                .collect::<Result<_, _>>()?,
            _ => Vec::new(),
        };
    for (name, server) in servers {
        if server.bool("strict")? == Some(false) {
            opted_out.push(format!("mcp__{name}__"));
        }
    }
    Ok(StrictTools {
        enabled: true,
        opted_out,
    })
}

#[cfg(test)]
mod tests {
    use crate::config::{Env, from_text};

    #[test]
    fn strict_tools_leave_out_the_entries_and_servers_that_say_strict_false() {
        let yaml = "agent:\n  id: a\n  backend:\n    type: claude\n    model: claude-sonnet-4-5\n    \
                    enable_strict_tool_use: true\n    custom_tools:\n      \
                    - {path: t.py, function: [add, sub], strict: false}\n      \
                    - {path: t.py, function: mul}\n    mcp_servers:\n      \
                    - {name: loose, type: stdio, command: x, strict: false}\n      \
                    - {name: tight, type: stdio, command: x}\n";
        let loaded = from_text(yaml, "t.yaml", &Env::default()).unwrap();
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        let strict = &loaded.config.agents[0].backend.tools.strict_tools;
        assert!(strict.enabled);
        assert!(!strict.applies_to("custom_tool__add"));
        assert!(!strict.applies_to("custom_tool__sub"));
        assert!(strict.applies_to("custom_tool__mul"));
        assert!(!strict.applies_to("mcp__loose__fetch"));
        assert!(strict.applies_to("mcp__tight__fetch"));
        assert!(strict.applies_to("new_answer"));
    }

    #[test]
    fn without_the_key_no_tool_is_strict() {
        let yaml = "agent:\n  id: a\n  backend: {type: claude, model: claude-sonnet-4-5}\n";
        let loaded = from_text(yaml, "t.yaml", &Env::default()).unwrap();
        assert!(
            !loaded.config.agents[0]
                .backend
                .tools
                .strict_tools
                .applies_to("new_answer")
        );
    }
}

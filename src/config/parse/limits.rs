//! The `limits:` block: caps that keep a hostile provider, config or input from exhausting
//! memory. Every cap has a default; a config only lowers or raises it.

use super::super::error::Problem;
use super::super::fields::Fields;
use super::super::key_notes::Section;
use super::super::keys;
use super::super::schema::LimitsConfig;
use super::{Note, check_keys};

pub(super) fn parse_limits(
    limits: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<LimitsConfig, Problem> {
    check_keys(limits, keys::LIMITS, (Section::Limits, &[]), notes);
    let mut config = LimitsConfig::default();
    let fields: [(&str, &mut u64); 7] = [
        ("max_agents", &mut config.max_agents),
        (
            "max_response_text_bytes",
            &mut config.max_response_text_bytes,
        ),
        (
            "max_tool_arguments_bytes",
            &mut config.max_tool_arguments_bytes,
        ),
        (
            "max_tool_calls_per_response",
            &mut config.max_tool_calls_per_response,
        ),
        ("max_error_body_bytes", &mut config.max_error_body_bytes),
        ("max_sse_line_bytes", &mut config.max_sse_line_bytes),
        ("max_question_bytes", &mut config.max_question_bytes),
    ];
    for (key, slot) in fields {
        if let Some(value) = limits.unsigned(key)? {
            if value == 0 {
                return Err(Problem::at(
                    limits.get(key).map_or(limits.loc(), |node| node.loc),
                    format!("`limits.{key}` is 0, so nothing could ever pass it"),
                )
                .help("use 1 or more, or remove it for the default"));
            }
            *slot = value;
        }
    }
    Ok(config)
}

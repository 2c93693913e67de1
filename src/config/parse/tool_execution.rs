//! A backend's `concurrent_tool_execution`, `max_concurrent_tools` and `debug_delay_*`:
//! how the tool calls of one model reply run.

use std::time::Duration;

use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::tools::{DebugDelay, ToolExecution};

/// MassGen's `max_concurrent_tools` default.
const DEFAULT_MAX_AT_ONCE: u64 = 10;
/// MassGen's `debug_delay_after_n_tools` default.
const DEFAULT_DELAY_AFTER: u64 = 3;
/// The longest `debug_delay_seconds` (an hour): a timing aid, not a way to park an agent.
const LONGEST_DELAY_SECS: f64 = 3_600.0;

pub(super) fn parse_tool_execution(backend: &Fields<'_>) -> Result<ToolExecution, Problem> {
    let concurrent = backend.bool("concurrent_tool_execution")?.unwrap_or(false);
    let max_at_once = match backend.unsigned("max_concurrent_tools")? {
        Some(0) => {
            return Err(Problem::at(
                backend
                    .get("max_concurrent_tools")
                    .map_or(backend.loc(), |node| node.loc),
                format!(
                    "`{}` is 0; no tool call could run",
                    backend.key_path("max_concurrent_tools")
                ),
            )
            .help("give 1 or more, e.g. `max_concurrent_tools: 4`"));
        }
        Some(limit) => limit,
        None => DEFAULT_MAX_AT_ONCE,
    };
    Ok(ToolExecution {
        max_at_once: if concurrent {
            usize::try_from(max_at_once).unwrap_or(usize::MAX)
        } else {
            1
        },
        debug_delay: debug_delay(backend)?,
    })
}

fn debug_delay(backend: &Fields<'_>) -> Result<Option<DebugDelay>, Problem> {
    let after_calls = backend
        .unsigned("debug_delay_after_n_tools")?
        .unwrap_or(DEFAULT_DELAY_AFTER);
    let Some(seconds) = backend.number("debug_delay_seconds")? else {
        return Ok(None);
    };
    if !seconds.is_finite() || !(0.0..=LONGEST_DELAY_SECS).contains(&seconds) {
        return Err(Problem::at(
            backend
                .get("debug_delay_seconds")
                .map_or(backend.loc(), |node| node.loc),
            format!(
                "`{}` is {seconds}; give seconds between 0 (off) and {LONGEST_DELAY_SECS}",
                backend.key_path("debug_delay_seconds")
            ),
        )
        .help("e.g. `debug_delay_seconds: 5`"));
    }
    if seconds == 0.0 {
        return Ok(None);
    }
    Ok(Some(DebugDelay {
        pause: Duration::from_secs_f64(seconds),
        after_calls: u32::try_from(after_calls).unwrap_or(u32::MAX),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::yaml::parse;

    fn execution(yaml: &str) -> Result<ToolExecution, Problem> {
        let root = parse(yaml).unwrap().root.unwrap();
        parse_tool_execution(&Fields::of(&root, "agents[0].backend").unwrap())
    }

    #[test]
    fn calls_run_one_after_another_unless_concurrency_is_asked_for() {
        assert_eq!(
            execution("type: openai\n").unwrap(),
            ToolExecution::default()
        );
        let concurrent = execution("concurrent_tool_execution: true\n").unwrap();
        assert_eq!(concurrent.max_at_once, 10);
        let limited =
            execution("concurrent_tool_execution: true\nmax_concurrent_tools: 2\n").unwrap();
        assert_eq!(limited.max_at_once, 2);
        let off = execution("concurrent_tool_execution: false\nmax_concurrent_tools: 2\n").unwrap();
        assert_eq!(off.max_at_once, 1);
        let zero = execution("max_concurrent_tools: 0\n")
            .map(|_| ())
            .unwrap_err()
            .message;
        assert!(
            zero.contains("`agents[0].backend.max_concurrent_tools` is 0"),
            "{zero}"
        );
    }

    #[test]
    fn a_debug_delay_pauses_after_the_nth_call() {
        let delay = execution("debug_delay_seconds: 1.5\ndebug_delay_after_n_tools: 2\n")
            .unwrap()
            .debug_delay
            .unwrap();
        assert_eq!(delay.pause, Duration::from_millis(1500));
        assert_eq!(delay.after_calls, 2);
        let default_after = execution("debug_delay_seconds: 1\n")
            .unwrap()
            .debug_delay
            .unwrap();
        assert_eq!(default_after.after_calls, 3);
        assert_eq!(
            execution("debug_delay_seconds: 0\n").unwrap().debug_delay,
            None
        );
        let negative = execution("debug_delay_seconds: -1\n")
            .map(|_| ())
            .unwrap_err()
            .message;
        assert!(negative.contains("between 0 (off) and 3600"), "{negative}");
    }
}

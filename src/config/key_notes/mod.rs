//! What MassGen 0.1.97 would have done with each config key massgen reads but does not act
//! on, so an "ignored: X" warning says what the user loses, not only that a key was skipped.
//! One entry per key of the `*_UNSUPPORTED` lists in `keys.rs` (a test checks it), plus the
//! keys MassGen's shipped configs write that MassGen itself ignores.

mod agent;
mod backend_massgen;
#[cfg(test)]
mod massgen_backend_keys;
#[cfg(test)]
mod massgen_keys;
mod orchestrator;

use std::borrow::Cow;

/// The mapping a key was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    Top,
    Agent,
    Backend,
    McpServer,
    Orchestrator,
    Coordination,
    Timeouts,
    Ui,
    /// Sections whose every key massgen reads (`limits`, a context path): no notes.
    Limits,
    ContextPath,
}

/// What MassGen would have done with `key` in `section`, and what massgen does instead.
pub fn describe(section: Section, key: &str) -> Option<Cow<'static, str>> {
    let note = match section {
        Section::Top => agent::top(key),
        Section::Agent => agent::agent(key),
        Section::Backend => {
            return agent::backend(key)
                .map(Cow::Borrowed)
                .or_else(|| backend_massgen::backend(key));
        }
        Section::McpServer => agent::mcp_server(key),
        Section::Ui => agent::ui(key),
        Section::Orchestrator => orchestrator::orchestrator(key),
        Section::Coordination => orchestrator::coordination(key),
        Section::Timeouts => orchestrator::timeouts(key),
        Section::Limits | Section::ContextPath => None,
    };
    note.map(Cow::Borrowed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::keys;

    fn assert_described(section: Section, names: &[&str]) {
        for key in names {
            let note = describe(section, key)
                .unwrap_or_else(|| panic!("{section:?}.{key} has no note in key_notes"));
            assert!(
                note.contains("MassGen") && note.contains("massgen"),
                "{section:?}.{key}: a note says what MassGen would do and what massgen does: {note}"
            );
        }
    }

    #[test]
    fn every_unsupported_key_says_what_massgen_would_have_done() {
        assert_described(Section::Top, keys::TOP_LEVEL_UNSUPPORTED);
        assert_described(Section::Agent, keys::AGENT_UNSUPPORTED);
        assert_described(Section::Backend, keys::BACKEND_UNSUPPORTED);
        assert_described(Section::McpServer, keys::MCP_SERVER_UNSUPPORTED);
        assert_described(Section::Orchestrator, keys::ORCHESTRATOR_UNSUPPORTED);
        assert_described(Section::Coordination, keys::COORDINATION_UNSUPPORTED);
        assert_described(Section::Timeouts, keys::TIMEOUTS_UNSUPPORTED);
        assert_described(Section::Ui, keys::UI_UNSUPPORTED);
    }

    #[test]
    fn every_massgen_key_of_a_backend_says_what_massgen_would_have_done() {
        assert_described(Section::Backend, crate::config::massgen_own::MASSGEN_OWN);
        // A coordination setting written in a backend gets its home's note, and its home.
        let note = describe(Section::Backend, "use_two_tier_workspace").unwrap();
        assert!(
            note.starts_with(
                "MassGen reads this setting under `orchestrator.coordination`, not in a backend"
            ) && note.contains("MassGen would isolate agents' writes"),
            "{note}"
        );
        let note = describe(Section::Backend, "fairness_enabled").unwrap();
        assert!(note.contains("under `orchestrator`:"), "{note}");
    }

    #[test]
    fn a_command_line_key_massgen_does_not_read_is_described() {
        assert!(
            describe(Section::Backend, "command_line_mcp_config")
                .is_some_and(|note| note.contains("command execution"))
        );
        assert!(!keys::is_backend_unsupported("command_line_docker_image"));
        assert_eq!(describe(Section::Coordination, "no_such_key"), None);
    }
}

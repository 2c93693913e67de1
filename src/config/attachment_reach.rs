//! How files attached to a question (`@photo.png`, `@report.pdf`, a backend's
//! `upload_files`) reach each agent, for `--validate`: a model API takes them in the
//! message (what it refuses is refused when the config loads); an agent CLI is given
//! their paths and opens them with its own tools; the offline scripted backend ignores
//! them.

use super::providers::{self, AgentProgram};
use super::schema::{AgentConfig, Config};

/// One line per agent that cannot receive attachments as images or PDFs in its message,
/// saying what becomes of them: every agent CLI, and a scripted agent given
/// `upload_files`.
pub fn notes(config: &Config) -> Vec<String> {
    config.agents.iter().filter_map(note).collect()
}

fn note(agent: &AgentConfig) -> Option<String> {
    let kind = agent.backend.kind;
    let row = providers::row(kind);
    if row.http.is_some() {
        return None;
    }
    let uploads = !agent.backend.upload_files.is_empty();
    match row.agent {
        AgentProgram::Cli => Some(format!(
            "agent `{}` ({kind}): `@image` and `@pdf` files in a question{} will not reach \
             it as images or documents in its message; it is given their paths and opens \
             them with its own tools",
            agent.id,
            if uploads { " and its upload_files" } else { "" }
        )),
        AgentProgram::None if uploads => Some(format!(
            "agent `{}` ({kind}): the offline scripted backend ignores attached files; its \
             upload_files and `@image` questions will not reach it as images — give it a \
             model API backend (openai, claude, gemini, …) to send them",
            agent.id
        )),
        AgentProgram::None | AgentProgram::Refused(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Env, from_text};

    fn notes_of(yaml: &str) -> Vec<String> {
        match from_text(yaml, "t.yaml", &Env::default()) {
            Ok(loaded) => notes(&loaded.into_checked().0),
            Err(error) => vec![format!("load failed: {error}")],
        }
    }

    #[test]
    fn agent_clis_are_told_to_get_paths_not_images() {
        let notes = notes_of(
            "agents:\n  - id: coder\n    backend: {type: claude_code}\n  \
             - id: api\n    backend: {type: openai, model: gpt-5}\n",
        );
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].starts_with("agent `coder` (claude_code): `@image`"),
            "{notes:?}"
        );
        assert!(notes[0].contains("given their paths"), "{notes:?}");
    }

    #[test]
    fn a_scripted_agent_is_noted_only_when_given_upload_files() {
        assert!(notes_of("agent:\n  id: a\n  backend: {type: scripted}\n").is_empty());
        let dir = tempfile::tempdir().unwrap_or_else(|_| unreachable!());
        let png = dir.path().join("cat.png");
        std::fs::write(&png, b"\x89PNG\r\n\x1a\n").unwrap_or_else(|_| unreachable!());
        let notes = notes_of(&format!(
            "agent:\n  id: a\n  backend: {{type: scripted, upload_files: [{{image_path: \"{}\"}}]}}\n",
            png.display()
        ));
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("ignores attached files"), "{notes:?}");
    }
}

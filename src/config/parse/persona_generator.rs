//! `orchestrator.coordination.persona_generator`: the keys MassGen 0.1.97 reads there
//! (`enabled`, `diversity_mode`, `persona_guidelines`, `persist_across_turns`,
//! `after_first_answer`); a wrong value is a load error naming the valid ones.

use super::Note;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::persona_generator::{AfterFirstAnswer, DiversityMode, PersonaGeneratorConfig};

const KNOWN: &[&str] = &[
    "enabled",
    "diversity_mode",
    "persona_guidelines",
    "persist_across_turns",
    "after_first_answer",
];

/// The generator when `enabled: true`; `None` when the block is absent or disabled.
pub(super) fn parse_persona_generator(
    coordination: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<Option<PersonaGeneratorConfig>, Problem> {
    let Some(node) = coordination.get("persona_generator") else {
        return Ok(None);
    };
    let block = Fields::of(node, coordination.key_path("persona_generator"))?;
    for entry in block.unknown(KNOWN) {
        let path = block.key_path(&entry.key);
        notes.push(Note {
            loc: Some(entry.key_loc),
            message: format!(
                "ignored: {path} — MassGen 0.1.97 does not read it either; the personas are \
                 written by the first agent's model (read: {})",
                KNOWN.join(", ")
            ),
            ignored: Some(path),
        });
    }
    let diversity_mode = block
        .choice(
            "diversity_mode",
            &DiversityMode::NAMES,
            DiversityMode::from_name,
        )?
        .unwrap_or_default();
    let after_first_answer = block
        .choice(
            "after_first_answer",
            &AfterFirstAnswer::NAMES,
            AfterFirstAnswer::from_name,
        )?
        .unwrap_or_default();
    let guidelines = block
        .string("persona_guidelines")?
        .map(|text| text.trim().to_string())
        .filter(|text| !text.is_empty());
    let persist_across_turns = block.bool("persist_across_turns")?.unwrap_or(false);
    if !block.bool("enabled")?.unwrap_or(false) {
        return Ok(None);
    }
    Ok(Some(PersonaGeneratorConfig {
        diversity_mode,
        guidelines,
        persist_across_turns,
        after_first_answer,
    }))
}

#[cfg(test)]
mod tests {
    use crate::config::{AfterFirstAnswer, DiversityMode, PersonaGeneratorConfig, from_text};

    fn load(block: &str) -> Result<crate::config::Loaded, crate::config::ConfigError> {
        let yaml = format!(
            "agents:\n  - id: a\n    backend: {{type: scripted}}\norchestrator:\n  coordination:\n    \
             persona_generator:\n{block}"
        );
        from_text(&yaml, "personas.yaml", &crate::config::Env::default())
    }

    fn generator(block: &str) -> Option<PersonaGeneratorConfig> {
        match load(block) {
            Ok(loaded) => loaded.config.orchestrator.coordination.persona_generator,
            Err(error) => panic!("{error}"),
        }
    }

    #[test]
    fn an_enabled_generator_reads_every_key_massgen_reads() {
        let found = generator(
            "      enabled: true\n      diversity_mode: methodology\n      \
             after_first_answer: soften\n      persist_across_turns: true\n      \
             persona_guidelines: \"Keep them short.\"\n",
        );
        assert_eq!(
            found,
            Some(PersonaGeneratorConfig {
                diversity_mode: DiversityMode::Methodology,
                guidelines: Some("Keep them short.".into()),
                persist_across_turns: true,
                after_first_answer: AfterFirstAnswer::Soften,
            })
        );
    }

    #[test]
    fn the_defaults_are_massgens_and_a_disabled_generator_is_none() {
        let found = generator("      enabled: true\n");
        assert_eq!(found, Some(PersonaGeneratorConfig::default()));
        let defaults = PersonaGeneratorConfig::default();
        assert_eq!(defaults.diversity_mode, DiversityMode::Perspective);
        assert_eq!(defaults.after_first_answer, AfterFirstAnswer::Drop);
        assert!(!defaults.persist_across_turns);
        assert_eq!(
            generator("      enabled: false\n      diversity_mode: implementation\n"),
            None
        );
    }

    #[test]
    fn a_wrong_value_names_the_valid_ones() {
        let error = load("      enabled: true\n      after_first_answer: fade\n")
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(error.contains("after_first_answer"), "{error}");
        assert!(error.contains("drop, soften, keep"), "{error}");
        let error = load("      enabled: true\n      diversity_mode: perspectiv\n")
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(error.contains("did you mean \"perspective\""), "{error}");
        assert!(error.contains("perspective, implementation, methodology"));
    }

    #[test]
    fn keys_of_older_massgen_load_with_a_note() {
        let loaded = load(
            "      enabled: true\n      strategy: complementary\n      backend: {type: openai}\n",
        );
        let warnings = match loaded {
            Ok(loaded) => loaded.warnings,
            Err(error) => panic!("{error}"),
        };
        let text = format!("{warnings:?}");
        assert!(text.contains("persona_generator.strategy"), "{text}");
        assert!(text.contains("persona_generator.backend"), "{text}");
    }
}

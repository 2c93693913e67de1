//! Mistakes in several sections, agents and fields reported together, and a missing
//! `agents:` or required key named at the key that was meant to be it.

use crate::config::{ConfigError, Env, Location, from_text};

fn error(yaml: &str) -> ConfigError {
    from_text(yaml, "t.yaml", &Env::default()).unwrap_err()
}

fn at(error: &ConfigError) -> Option<(usize, usize)> {
    error.loc.map(|Location { line, column }| (line, column))
}

const THREE_MISTAKES: &str = "agents:\n  - id: a\n    backend:\n      type: scripted\n      \
     tokens_per_second: fast\n  - id: b\n    backend:\n      type: openai\n      modle: gpt-5\n\
     orchestrator:\n  voting_sensitivity: sometimes\n";

#[test]
fn independent_mistakes_are_reported_together_in_file_order() {
    let error = error(THREE_MISTAKES);
    let all: Vec<&ConfigError> = std::iter::once(&error).chain(error.others()).collect();
    assert_eq!(all.len(), 3, "{error}");
    assert_eq!(at(all[0]), Some((5, 26)), "{error}");
    assert!(
        all[0]
            .message
            .contains("`agents[0].backend.tokens_per_second`")
    );
    assert_eq!(at(all[1]), Some((9, 7)), "{error}");
    assert!(
        all[1]
            .message
            .contains("`agents[1].backend.model` is missing; `agents[1].backend.modle` looks like a misspelling of it"),
        "{error}"
    );
    assert_eq!(all[1].help.as_deref(), Some("rename `modle:` to `model:`"));
    assert_eq!(at(all[2]), Some((11, 23)), "{error}");
    assert!(all[2].message.contains("`orchestrator.voting_sensitivity`"));
    assert!(all.iter().all(|one| one.help.is_some()), "{error}");
    let shown = error.to_string();
    assert_eq!(shown.matches("\nerror: t.yaml:").count(), 2, "{shown}");
    assert!(
        shown.ends_with(
            "\n3 problems in t.yaml, each shown above: fix them all before the next run"
        ),
        "{shown}"
    );
}

#[test]
fn a_misspelt_agents_key_is_named() {
    let error = error("agnets:\n  - id: a\n    backend: {type: scripted}\n");
    assert_eq!(at(&error), Some((1, 1)));
    assert_eq!(
        error.message,
        "unknown key `agnets` — did you mean `agents`? The config defines no agents"
    );
    assert_eq!(error.help.as_deref(), Some("rename `agnets:` to `agents:`"));
    let single = self::error("Agent:\n  id: a\n  backend: {type: scripted}\n");
    assert!(
        single
            .message
            .starts_with("unknown key `Agent` — did you mean `agent`?")
    );
}

#[test]
fn no_agents_names_the_unknown_top_level_keys() {
    let error = error("team:\n  - id: a\nui: {display_type: simple}\n");
    assert_eq!(
        error.message,
        "the config defines no agents; unknown top-level key `team`"
    );
    let help = error.help.unwrap_or_default();
    assert!(
        help.contains("agent, agents, orchestrator, timeout_settings, ui, limits"),
        "{help}"
    );
}

#[test]
fn a_missing_backend_or_type_is_named_at_its_misspelling() {
    let backend = error("agents:\n  - id: a\n    backnd: {type: scripted}\n");
    assert_eq!(at(&backend), Some((3, 5)));
    assert!(
        backend
            .message
            .contains("`agents[0].backnd` looks like a misspelling"),
        "{backend}"
    );
    let kind = error("agents:\n  - id: a\n    backend: {tpye: scripted}\n");
    assert!(
        kind.message
            .contains("`agents[0].backend.tpye` looks like a misspelling"),
        "{kind}"
    );
    assert_eq!(kind.help.as_deref(), Some("rename `tpye:` to `type:`"));
}

#[test]
fn a_duplicate_id_and_another_agents_mistake_are_both_reported() {
    let error = error(
        "agents:\n  - {id: a, backend: {type: scripted}}\n  - {id: a, backend: {type: scripted}}\n  \
         - {id: c, backend: {type: scripted, fail: sometimes}}\n",
    );
    assert_eq!(error.others().len(), 1, "{error}");
    assert!(error.message.contains("is used twice"), "{error}");
    assert_eq!(
        at(&error.others()[0]).map(|(line, _)| line),
        Some(4),
        "{error}"
    );
}

#[test]
fn a_vote_for_an_agent_that_failed_to_read_is_not_blamed() {
    let error = error(
        "agents:\n  - {id: a, backend: {type: scripted, vote_for: b}}\n  \
         - {id: b, backend: {type: scripted, tokens_per_second: fast}}\n",
    );
    assert!(error.others().is_empty(), "{error}");
    assert!(error.message.contains("tokens_per_second"), "{error}");
}

#[test]
fn independent_fields_of_one_agent_or_orchestrator_are_reported_together() {
    let agent = error(
        "agents:\n  - id: \"a/b\"\n    system_message: [1]\n    backend:\n      type: scripted\n      \
         fail: sometimes\n",
    );
    let lines: Vec<usize> = std::iter::once(&agent)
        .chain(agent.others())
        .filter_map(|one| one.loc.map(|loc| loc.line))
        .collect();
    assert_eq!(lines, [2, 3, 6], "{agent}");
    let orchestrator = error(
        "agents:\n  - {id: a, backend: {type: scripted}}\norchestrator:\n  max_cost_usd: -1\n  \
         skip_voting: maybe\n  coordination: {max_tasks_per_plan: 0}\n",
    );
    assert_eq!(orchestrator.others().len(), 2, "{orchestrator}");
    assert!(
        orchestrator.message.contains("max_cost_usd"),
        "{orchestrator}"
    );
    assert!(
        orchestrator.others()[0].message.contains("skip_voting"),
        "{orchestrator}"
    );
    assert!(
        orchestrator.others()[1]
            .message
            .contains("max_tasks_per_plan"),
        "{orchestrator}"
    );
}

#[test]
fn independent_fields_of_one_backend_are_reported_together() {
    let error = error(
        "agents:\n  - id: a\n    backend:\n      type: openai\n      model: gpt-5\n      \
         temperature: warm\n      max_tokens: -1\n      base_url: \"ftp://x\"\n",
    );
    let lines: Vec<usize> = std::iter::once(&error)
        .chain(error.others())
        .filter_map(|one| one.loc.map(|loc| loc.line))
        .collect();
    assert_eq!(lines, [6, 7, 8], "{error}");
    let scripted = self::error(
        "agents:\n  - id: a\n    backend:\n      type: scripted\n      modle: m\n      \
         tokens_per_secnd: 1\n",
    );
    assert_eq!(scripted.others().len(), 1, "{scripted}");
    assert!(
        scripted
            .help
            .as_deref()
            .unwrap_or_default()
            .contains("`model`")
    );
    assert!(
        scripted.others()[0]
            .help
            .as_deref()
            .unwrap_or_default()
            .contains("`tokens_per_second`")
    );
}

#[test]
fn every_bad_timeout_is_reported() {
    let error = error(
        "agents:\n  - {id: a, backend: {type: scripted}}\ntimeout_settings:\n  \
         orchestrator_timeout_seconds: 0\n  initial_round_timeout_seconds: soon\n  \
         round_timeout_grace_seconds: -5\n",
    );
    assert_eq!(error.total(), 3, "{error}");
}

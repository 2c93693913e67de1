//! Prompt texts: MassGen's tags, sensitivity wording, the filesystem section, the
//! presentation call.

use std::path::Path;

use super::presentation::{Presentation, presentation_messages};
use super::*;
use crate::config::Permission;
use crate::orchestrator::coordination::VisibleAnswer;
use crate::protocol::{AgentId, AnonymousMapping, AnswerLabel, FinalAnswerStrategy};
use crate::workspace::ContextRootSpec;

fn context<'a>(history: &'a [HistoryEntry]) -> PromptContext<'a> {
    PromptContext {
        code_tools: None,
        multimodal: false,
        attachments: &[],
        question: "What is the capital of France?",
        history,
        system_message: Some("You are terse."),
        persona: None,
        persona_after_peers: crate::config::AfterFirstAnswer::Soften,
        own_anon: None,
        voting_sensitivity: Sensitivity::Strict,
        checklist: None,
        novelty: Sensitivity::Balanced,
        novelty_injection: crate::config::NoveltyInjection::None,
        today: "2026-11-22",
        filesystem: None,
        memory: false,
        skills: &[],
        planning_instruction: None,
        broadcast: None,
        progress: Vec::new(),
        attempt_feedback: None,
        round_knobs: super::RoundKnobs::default(),
        decomposition: None,
        permissions: None,
    }
}

/// Agent `a`'s round 2, seeing agent `b`'s answers (`agent2.1`, `agent2.2`…) and able to
/// vote for `b`.
fn second_round_seeing(answers: &[&str]) -> RoundView {
    let ids = [AgentId::new("a"), AgentId::new("b")];
    let mapping = AnonymousMapping::new(&ids);
    let (anon, _) = mapping.pairs().nth(1).unwrap();
    RoundView {
        converging_checklists: 0,
        round: 2,
        answers: (1..)
            .zip(answers)
            .map(|(number, content)| VisibleAnswer {
                anon: anon.clone(),
                label: AnswerLabel::answer(anon, number),
                content: (*content).into(),
            })
            .collect(),
        vote_options: vec![anon.clone()],
        vote_only: false,
    }
}

#[test]
fn round_message_uses_massgen_tags() {
    let view = second_round_seeing(&["Paris."]);
    let history = [HistoryEntry {
        question: "Hi".into(),
        answer: "Hello".into(),
    }];
    let messages = round_messages(&context(&history), &view);
    let Message::System { content: system } = &messages[0] else {
        panic!()
    };
    assert!(
        system
            .starts_with("<system_prompt>\n<agent_identity priority=\"critical\">\nYou are terse.")
    );
    assert!(system.contains("reference standard"), "strict voting text");
    assert!(
        system.contains("rewording one is rejected"),
        "balanced novelty text"
    );
    let user = messages[1].content();
    assert_eq!(
        user,
        "<CONVERSATION_HISTORY>\nUser: Hi\nAssistant: Hello\n<END OF CONVERSATION_HISTORY>\n\n\
         <ORIGINAL MESSAGE> What is the capital of France? <END OF ORIGINAL MESSAGE>\n\n\
         <CURRENT ANSWERS from the agents>\n<agent2> Paris. <end of agent2>\n<END OF CURRENT ANSWERS>"
    );
}

#[test]
fn with_a_workspace_the_prompt_says_where_files_are_and_answers_point_at_copies() {
    let view = second_round_seeing(&["Wrote /p/.massgen/workspaces/ws_b/app.py"]);
    let context_paths = [ContextRootSpec {
        path: "/home/u/project".into(),
        permission: Permission::Write,
        protected: Vec::new(),
    }];
    let mut context = context(&[]);
    context.filesystem = Some(FilesystemView {
        workspace: Path::new("/p/.massgen/workspaces/ws_a"),
        temp: Path::new("/p/.massgen/temp_workspaces/t1"),
        context: &context_paths,
        peers: vec![("agent2", Path::new("/p/.massgen/workspaces/ws_b"))],
    });
    let messages = round_messages(&context, &view);
    let system = messages[0].content();
    assert!(system.contains("<filesystem priority=\"high\">"));
    assert!(system.contains("Your workspace is /p/.massgen/workspaces/ws_a"));
    assert!(system.contains("/home/u/project (read only for now"));
    assert!(
        messages[1].content().contains(
            "<agent2> Wrote /p/.massgen/temp_workspaces/t1/agent2/app.py <end of agent2>"
        )
    );
    let presenting = filesystem_instructions(context.filesystem.as_ref().unwrap(), true);
    assert!(presenting.contains("/home/u/project (read and write"));
}

#[test]
fn no_answers_yet_is_said_explicitly() {
    let view = RoundView {
        converging_checklists: 0,
        round: 1,
        answers: vec![],
        vote_options: vec![],
        vote_only: false,
    };
    let messages = round_messages(&context(&[]), &view);
    assert!(messages[1].content().contains("(no answers available yet)"));
}

#[test]
fn presentation_lists_votes_and_marks_the_winners_answer() {
    let winner = AgentId::new("b");
    let feedback = vec![
        (AgentId::new("a"), "clear".to_string()),
        (AgentId::new("b"), "complete".to_string()),
    ];
    let answers = vec![(AgentId::new("a"), "A."), (winner.clone(), "B.")];
    let messages = presentation_messages(
        &context(&[]),
        &Presentation {
            winner: &winner,
            feedback: &feedback,
            tie_broken: true,
            answers: &answers,
            strategy: FinalAnswerStrategy::WinnerPresent,
            voted: true,
            decomposition: None,
        },
    );
    let user = messages[1].content();
    assert!(user.contains(
        "You received 2 vote(s) (tie-broken by registration order) with feedback: clear; complete"
    ));
    assert!(user.contains("a: \"A.\"\nb: \"B.\" (YOUR ANSWER)"));
    assert!(messages[0].content().contains("winning presenter"));
}

#[test]
fn a_synthesis_without_votes_treats_every_answer_alike() {
    let winner = AgentId::new("a");
    let answers = vec![(winner.clone(), "A."), (AgentId::new("b"), "B.")];
    let feedback = Vec::new();
    let presentation = |voted| Presentation {
        winner: &winner,
        feedback: &feedback,
        tie_broken: false,
        answers: &answers,
        strategy: FinalAnswerStrategy::Synthesize,
        voted,
        decomposition: None,
    };
    let unvoted = presentation_messages(&context(&[]), &presentation(false));
    let user = unvoted[1].content();
    assert!(user.contains("No voting round was run"));
    assert!(!user.contains("YOUR ANSWER") && !user.contains("vote(s)"));
    assert!(user.contains("a: \"A.\"\nb: \"B.\"\n"));
    assert!(user.ends_with("rather than dropping either."));
    let voted = presentation_messages(&context(&[]), &presentation(true));
    let user = voted[1].content();
    assert!(user.contains("You received 0 vote(s).") && user.contains("(YOUR ANSWER)"));
    assert!(user.contains("selected as the best by your peers"));
}

#[test]
fn enforcement_quotes_partial_text() {
    let message = enforcement_message(false, "I think");
    assert!(message.starts_with("<incomplete_response>\nI think\n</incomplete_response>"));
    assert!(enforcement_message(true, "").contains("tool call of `vote`."));
}

#[test]
fn a_persona_comes_before_the_system_message_and_softens_once_peers_answered() {
    let ids = [AgentId::new("a"), AgentId::new("b")];
    let mapping = AnonymousMapping::new(&ids);
    let own = mapping.anon(&ids[0]).unwrap().clone();
    let mut context = context(&[]);
    context.persona = Some("You are a cautious auditor.");
    context.own_anon = Some(&own);
    let identity_of = |context: &PromptContext<'_>, view: &RoundView| {
        let system = round_messages(context, view)[0].content().to_string();
        let start = system.find("<agent_identity").unwrap();
        let end = system.find("</agent_identity>").unwrap();
        system[start..end].to_string()
    };

    // Only the agent's own earlier answer: still exploring, the persona in full.
    let own_only = RoundView {
        converging_checklists: 0,
        round: 2,
        answers: vec![VisibleAnswer {
            anon: own.clone(),
            label: AnswerLabel::answer(&own, 1),
            content: "Mine.".into(),
        }],
        vote_options: vec![own.clone()],
        vote_only: false,
    };
    assert_eq!(
        identity_of(&context, &own_only),
        "<agent_identity priority=\"critical\">\nYou are a cautious auditor.\n\nYou are terse.\n"
    );

    // A peer's answer is visible: the persona becomes a preference, still first.
    let softened = identity_of(&context, &second_round_seeing(&["Paris."]));
    assert!(
        softened.starts_with(
            "<agent_identity priority=\"critical\">\nYou started from this perspective:\nYou are \
             a cautious auditor.\n\nYou have now seen other agents' answers"
        ),
        "{softened}"
    );
    assert!(softened.ends_with("You are terse.\n"), "{softened}");

    // A persona alone still makes an identity section.
    context.system_message = None;
    assert_eq!(
        identity_of(&context, &own_only),
        "<agent_identity priority=\"critical\">\nYou are a cautious auditor.\n"
    );
}

#[test]
fn after_first_answer_drops_or_keeps_the_persona_once_peers_answered() {
    let mut context = context(&[]);
    context.persona = Some("You are a cautious auditor.");
    let seeing_peer = second_round_seeing(&["Paris."]);
    let system = |context: &PromptContext<'_>| {
        round_messages(context, &seeing_peer)[0]
            .content()
            .to_string()
    };
    context.persona_after_peers = crate::config::AfterFirstAnswer::Drop;
    let dropped = system(&context);
    assert!(!dropped.contains("cautious auditor"), "{dropped}");
    assert!(dropped.contains("You are terse."));
    context.persona_after_peers = crate::config::AfterFirstAnswer::Keep;
    let kept = system(&context);
    assert!(
        kept.contains("<agent_identity priority=\"critical\">\nYou are a cautious auditor.\n\nYou are terse.\n"),
        "{kept}"
    );
    assert!(!kept.contains("You started from this perspective"));
}

#[test]
fn the_system_prompt_lists_each_skill_with_the_file_to_read() {
    use crate::workspace::skills::{Skill, SkillSource};
    let skills = [Skill {
        name: "pdf".into(),
        description: "Fill PDF forms".into(),
        source: SkillSource::User,
        file: "/home/u/.agent/skills/pdf/SKILL.md".into(),
    }];
    let view = second_round_seeing(&[]);
    let without = coordination_system_prompt(&context(&[]), &view);
    assert!(!without.contains("<skills"), "{without}");
    let mut with_skills = context(&[]);
    with_skills.skills = &skills;
    let prompt = coordination_system_prompt(&with_skills, &view);
    assert!(
        prompt.contains(
            "<skill>\n<name>pdf</name>\n<description>Fill PDF forms</description>\n\
             <location>user</location>\n<file>/home/u/.agent/skills/pdf/SKILL.md</file>\n</skill>"
        ),
        "{prompt}"
    );
    let skills_at = prompt.find("<skills").unwrap();
    assert!(skills_at < prompt.find("<core_behaviors").unwrap());
}

#[test]
fn an_agent_with_read_media_is_told_how_to_verify_with_evidence() {
    let history = [];
    let view = second_round_seeing(&[]);
    let without = coordination_system_prompt(&context(&history), &view);
    assert!(!without.contains("read_media"), "{without}");
    let with = PromptContext {
        multimodal: true,
        ..context(&history)
    };
    let prompt = coordination_system_prompt(&with, &view);
    assert!(
        prompt.contains("<evidence_based_verification priority=\"medium\">"),
        "{prompt}"
    );
    assert!(prompt.contains("read_media(inputs="), "{prompt}");
}

#[test]
fn a_gated_agent_is_told_the_criteria_and_the_checklist_before_voting() {
    let view = second_round_seeing(&["Paris."]);
    let plain = round_messages(&context(&[]), &view);
    assert!(!plain[0].content().contains("submit_checklist"));
    let criteria = crate::orchestrator::coordination::criteria::default_criteria();
    let gated = PromptContext {
        checklist: Some(&criteria),
        ..context(&[])
    };
    let system = round_messages(&gated, &view)[0].content().to_string();
    for words in [
        "submit_checklist(scores=",
        "E3 (primary). Depth in every part",
        "E4 (standard). Intentional craft",
        "A vote without a passing checklist this round is refused",
        "Scoring calibration — distinguish real gaps from polish",
    ] {
        assert!(system.contains(words), "{words}");
    }
}

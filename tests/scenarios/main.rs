//! Whole turns with scripted agents run offline through the orchestrator: answers, votes
//! and the winner, checklist-gated voting, coordination keys, failures, history, the user's override, questions
//! to peers, post-evaluation, how turns end and how agents learn of each other's answers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod agent_prompts;
mod agents_replace;
mod answer_now;
mod approvals;
mod attachments;
mod bootstrap_criteria;
mod bootstrap_critic;
mod broadcast;
mod checklist;
mod checklist_rounds;
mod context;
mod coordination;
mod coordination_keys;
mod council;
mod criteria;
mod criteria_events;
mod debate;
mod failures;
mod final_override;
mod history;
mod personas;
mod post_evaluation;
mod skills;
mod turn_endings;
mod updates;

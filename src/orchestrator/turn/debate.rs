//! The debate strategy in the turn driver: members answer alone (as in a council), then
//! for each round critique their peers' answers and revise their own, then the chairman
//! synthesizes from the thread or the members vote among the final answers. The stages'
//! state is [`crate::orchestrator::coordination::debate::Debate`]; this file turns it into
//! rounds and events.

use tokio::time::Instant;

use super::Driver;
use super::Phase;
use super::stage_round::StageRound;
use crate::config::{DebateConfig, DebateFinish};
use crate::orchestrator::agent_round::DebateReply;
use crate::orchestrator::channel::RoundEnd;
use crate::orchestrator::coordination::debate::Debate;
use crate::orchestrator::coordination::deliberation::Deliberation;
use crate::orchestrator::prompts::debate::{
    critique_messages, final_vote_messages, revision_messages,
};
use crate::protocol::{AgentId, AnswerLabel, EventMsg, Stage, VoteCount, WinnerBasis};
use crate::tools::critique::critique_spec;
use crate::tools::workflow::{new_answer_spec, vote_spec};

/// A debate turn's settings and state.
pub(super) struct DebateRun {
    pub(super) settings: DebateConfig,
    /// `None` while members answer.
    pub(super) state: Option<Debate>,
    /// The final vote's winner was announced.
    concluded: bool,
}

impl DebateRun {
    pub(super) fn new(settings: DebateConfig) -> Self {
        Self {
            settings,
            state: None,
            concluded: false,
        }
    }
}

impl Driver<'_> {
    fn debate_run(&mut self) -> Option<&mut DebateRun> {
        self.council.as_mut()?.debate.as_mut()
    }

    pub(super) fn debate_state(&mut self) -> Option<&mut Debate> {
        self.debate_run()?.state.as_mut()
    }

    fn debate_view(&self) -> Option<&Debate> {
        self.council.as_ref()?.debate.as_ref()?.state.as_ref()
    }

    /// The answering stage is over and the debate goes on.
    pub(super) fn debating(&self) -> bool {
        self.council
            .as_ref()
            .and_then(|run| run.debate.as_ref())
            .is_some_and(|debate| debate.state.is_some())
    }

    /// Coordination settled: once every member is done with a stage, the next starts.
    pub(super) fn advance_debate(&mut self) {
        if !self.rounds.running.is_empty() {
            return;
        }
        if self.debate_run().is_some_and(|run| run.state.is_none()) && !self.seat_debate() {
            return;
        }
        let Some(run) = self.debate_run() else {
            return;
        };
        let vote_finish = run.settings.finish == DebateFinish::Vote;
        if run.concluded {
            return;
        }
        let Some(state) = run.state.as_mut() else {
            return;
        };
        // A round that handed in its work may still be finishing: the next stage waits.
        if !state.stage_done() || state.stage() == Stage::Synthesis {
            return;
        }
        match state.next_stage(vote_finish) {
            Some(Stage::Synthesis) => {
                state.enter(Stage::Synthesis);
                self.begin_synthesis();
            }
            Some(stage) => {
                state.enter(stage);
                let members = state.pending().to_vec();
                self.stage(None, stage);
                for member in members {
                    self.start_debate_round(&member, stage);
                }
            }
            None => {
                run.concluded = true;
                self.present_vote_winner();
            }
        }
    }

    fn seat_debate(&mut self) -> bool {
        let Some((members, answers, failed)) = self.answering_results() else {
            return false;
        };
        let members: Vec<(AgentId, String)> = members
            .into_iter()
            .map(|member| {
                let anon = self
                    .coordination
                    .mapping()
                    .anon(&member)
                    .map_or_else(|| member.to_string(), |anon| anon.as_str().to_string());
                (member, anon)
            })
            .collect();
        let Some(run) = self.debate_run() else {
            return false;
        };
        run.state = Some(Debate::new(run.settings.rounds, members, answers, failed));
        true
    }

    fn start_debate_round(&mut self, member: &AgentId, stage: Stage) {
        let index = self.agent_index(member);
        let rounds = self.debate_run().map_or(0, |run| run.settings.rounds);
        let Some((index, state)) = index.zip(self.debate_state().map(|state| state.clone())) else {
            if let Some(state) = self.debate_state() {
                state.round_missed(member);
            }
            return;
        };
        let context = self.prompt_context(index);
        let round = match stage {
            Stage::Critique { round } => {
                let shown = state.peers_shown(member);
                let peers: Vec<String> = shown.iter().map(|answer| answer.label.clone()).collect();
                StageRound {
                    round: 2 * round,
                    messages: critique_messages(&context, round, &shown),
                    tools: vec![critique_spec(&peers)],
                    vote_only: true,
                    shown: shown.into_iter().map(|answer| answer.agent).collect(),
                    ranking: None,
                    debate: Some(DebateReply::Critique { peers }),
                }
            }
            Stage::Revision { round } => StageRound {
                round: 2 * round + 1,
                messages: revision_messages(
                    &context,
                    round,
                    state.answer_of(member).unwrap_or_default(),
                    &state.critiques_of(member),
                ),
                tools: vec![new_answer_spec()],
                vote_only: false,
                shown: vec![member.clone()],
                ranking: None,
                debate: Some(DebateReply::Revision),
            },
            Stage::FinalVote | Stage::Answering | Stage::Ranking | Stage::Synthesis => {
                let finals = state.final_answers();
                let ids: Vec<crate::protocol::AnonId> = finals
                    .iter()
                    .filter_map(|answer| self.coordination.mapping().anon(&answer.agent).cloned())
                    .collect();
                StageRound {
                    round: 2 * rounds + 2,
                    messages: final_vote_messages(&context, &finals),
                    tools: vec![vote_spec(&ids)],
                    vote_only: true,
                    shown: finals.into_iter().map(|answer| answer.agent).collect(),
                    ranking: None,
                    debate: None,
                }
            }
        };
        self.start_stage_round(member, index, stage, round);
    }

    /// A debate round ended after the answering stage: a failed member drops out; one
    /// that ended without its critique, revision or vote keeps its answer and goes on.
    pub(super) fn debate_round_ended(&mut self, agent: &AgentId, end: &RoundEnd) {
        let missed = match end {
            RoundEnd::Voted | RoundEnd::Answered => None,
            RoundEnd::Failed { message } => {
                let message = message.clone();
                if let Some(state) = self.debate_state() {
                    state.member_failed(agent, &message);
                }
                self.emit(
                    Some(agent),
                    EventMsg::AgentError {
                        message: message.clone(),
                    },
                );
                self.kill(agent, format!("the model call failed: {message}"));
                None
            }
            RoundEnd::Exhausted { detail, .. } => Some(detail.clone()),
            RoundEnd::TimedOut { .. } => Some("its round ran out of time".to_string()),
            RoundEnd::VoteIgnored | RoundEnd::NewAnswersSeen | RoundEnd::Cancelled => {
                Some("the round ended early".to_string())
            }
        };
        let Some(reason) = missed else {
            return;
        };
        let Some(state) = self.debate_state() else {
            return;
        };
        let stage = state.stage();
        if !state.pending().contains(agent) {
            return;
        }
        state.round_missed(agent);
        self.emit(
            Some(agent),
            EventMsg::Warning {
                message: format!(
                    "{agent} gave nothing usable in its {} round ({reason}); it keeps its answer",
                    stage.label()
                ),
            },
        );
    }

    /// The final vote is in: the most voted member's final answer is the final answer.
    fn present_vote_winner(&mut self) {
        let Some(state) = self.debate_view() else {
            return;
        };
        let Some(result) = state.vote_result() else {
            self.council_without_chairman();
            return;
        };
        let footer = state.footer();
        let voted = !state.votes().is_empty();
        let voters = |target: &AgentId| -> Vec<AgentId> {
            state
                .votes()
                .iter()
                .filter(|vote| &vote.target == target)
                .map(|vote| vote.voter.clone())
                .collect()
        };
        let content = state
            .answer_of(&result.winner)
            .unwrap_or_default()
            .to_string();
        let mapping = self.coordination.mapping();
        let tally: Vec<VoteCount> = result
            .tally
            .iter()
            .filter_map(|(agent, votes)| {
                Some(VoteCount {
                    agent: agent.clone(),
                    anon_id: mapping.anon(agent)?.clone(),
                    votes: *votes,
                    voters: voters(agent),
                })
            })
            .collect();
        let Some(anon) = mapping.anon(&result.winner).cloned() else {
            self.phase = Phase::Done;
            return;
        };
        let basis = match (voted, result.is_tie) {
            (false, _) => WinnerBasis::FirstAnswer,
            (true, true) => WinnerBasis::TieBrokenByConfigOrder,
            (true, false) => WinnerBasis::Votes,
        };
        let winner = result.winner;
        self.ending.winner = Some(winner.clone());
        self.emit(
            None,
            EventMsg::WinnerSelected {
                winner: winner.clone(),
                winner_anon: anon.clone(),
                tally,
                is_tie: result.is_tie,
                basis,
            },
        );
        self.phase = Phase::Presenting {
            winner,
            label: AnswerLabel::final_presentation(&anon),
            started: Instant::now(),
            deadline: self.presentation_deadline(),
        };
        self.deliver_final_answer(super::chairman::with_footer(content, footer), false);
        self.write_strategy_log();
    }

    /// The turn's time ran out during the debate: the rounds not in count for nothing and
    /// the standing answer is the final answer.
    pub(super) fn debate_timed_out(&mut self) {
        if !self.debating() && !self.seat_debate() {
            return;
        }
        if let Some(state) = self.debate_state() {
            for member in state.pending().to_vec() {
                state.round_missed(&member);
            }
        }
        self.council_without_chairman();
    }
}

//! Changes that span several parts of the state during a turn: an answer or a vote (the
//! card, the tally, the phase), an agent dropped, the winner chosen or overridden, an
//! attempt restarted, a question asked or answered, a plan updated, input delivered.

use std::path::{Path, PathBuf};

use jiff::Timestamp;

use super::attempts::CHECKING_NOTICE;
use super::plan::{answered, first_question};
use super::{FinalAnswer, PendingQuestion, Phase, UiState, VoteTally, asked};
use crate::protocol::{
    AgentId, AnswerLabel, BroadcastTarget, McpServerState, PlanInfo, Question, VoteCount,
    WinnerBasis,
};

impl UiState {
    pub(super) fn answer_submitted(
        &mut self,
        agent: Option<&AgentId>,
        label: &AnswerLabel,
        content: &str,
        votes_reset: Option<&[AgentId]>,
    ) {
        if let Some(author) = agent {
            self.strategy.answered(author, content);
            let roster: Vec<AgentId> = self
                .agents
                .iter()
                .map(|card| card.info.id.clone())
                .collect();
            self.votes.answer(author, &roster, votes_reset);
        }
        for card in &mut self.agents {
            if votes_reset.is_none_or(|woken| woken.contains(&card.info.id)) {
                card.stopped = None;
            }
        }
        self.card(agent, |card| card.answered(label, content));
        self.turn.move_to(Phase::Coordinating);
    }

    pub(super) fn vote_cast(
        &mut self,
        agent: Option<&AgentId>,
        target: &AgentId,
        target_label: &AnswerLabel,
        reason: &str,
        standing: Option<&[VoteCount]>,
    ) {
        if let Some(voter) = agent {
            self.votes.vote(voter, target, reason, standing);
            self.turn.move_to(Phase::Voting);
        }
        self.card(agent, |card| card.voted(target, target_label, reason));
    }

    pub(super) fn agent_killed(&mut self, agent: Option<&AgentId>, reason: &str) {
        if let Some(voter) = agent {
            self.votes.withdraw(std::slice::from_ref(voter));
        }
        self.card(agent, |card| card.dropped(reason));
    }

    pub(super) fn post_evaluation_started(
        &mut self,
        agent: Option<&AgentId>,
        attempt: u32,
        max_attempts: u32,
    ) {
        self.turn.attempt = Some((attempt, max_attempts));
        self.card(agent, |card| card.notice(CHECKING_NOTICE.to_string()));
    }

    /// A new attempt: no winner and no votes; every card keeps what the last attempt
    /// produced under a banner.
    pub(super) fn restart_attempt(
        &mut self,
        attempt: u32,
        max_attempts: u32,
        reason: &str,
        log_dir: Option<&PathBuf>,
    ) {
        self.turn.restart(attempt, max_attempts, log_dir);
        self.votes = VoteTally::default();
        for card in &mut self.agents {
            card.restart_attempt(attempt, max_attempts, reason);
        }
    }

    pub(super) fn winner_selected(
        &mut self,
        winner: &AgentId,
        tally: &[VoteCount],
        basis: WinnerBasis,
    ) {
        self.turn.winner = Some(winner.clone());
        self.votes.final_tally = Some(tally.to_vec());
        self.votes.final_basis = Some(basis);
        for card in &mut self.agents {
            card.is_winner = &card.info.id == winner;
        }
    }

    pub(super) fn final_started(&mut self, agent: Option<&AgentId>, label: &AnswerLabel) {
        self.turn.phase = Phase::Presenting;
        self.card(agent, |card| card.start_final(label));
    }

    /// The user chose the answer `label` by `author` as the final answer. During the turn
    /// the interrupted presentation goes and `author` becomes the winner (its card gets the
    /// final answer when `FinalPresentationDone` follows); after the turn, the turn's record
    /// holds the chosen answer.
    pub(super) fn final_overridden(
        &mut self,
        turn: u32,
        label: &AnswerLabel,
        author: &AgentId,
        content: &str,
    ) {
        let ended = self
            .turns
            .iter_mut()
            .rev()
            .find(|record| record.turn == turn && turn != 0);
        let after_turn = ended.is_some();
        if let Some(record) = ended {
            record.choose_final(FinalAnswer {
                agent: author.clone(),
                label: label.clone(),
                content: content.to_string(),
            });
        }
        if turn != self.turn.number {
            return;
        }
        for card in &mut self.agents {
            card.final_chosen(author, label, content, after_turn);
        }
        self.turn.winner = Some(author.clone());
    }

    pub(super) fn workspace_assigned(
        &mut self,
        agent: Option<&AgentId>,
        workspace: &Path,
        temp: &Path,
        snapshot: &Path,
    ) {
        if let Some(agent) = agent {
            self.tools
                .assign_workspace(agent, workspace, temp, snapshot);
        }
    }

    pub(super) fn server_status(
        &mut self,
        agent: Option<&AgentId>,
        server: &str,
        state: &McpServerState,
    ) {
        if let Some(agent) = agent {
            self.tools.server_status(agent, server, state);
        }
    }

    pub(super) fn input_delivered(&mut self, agent: Option<&AgentId>, text: &str) {
        self.card(agent, |card| card.notice(format!("human input: {text}")));
        if let Some(agent) = agent {
            let turn = self.turn.number;
            self.queued_input
                .delivered(agent, text, &mut self.timeline, turn);
        }
    }

    pub(super) fn replay_finished(&mut self) {
        if let Some(replay) = self.replay.as_mut() {
            replay.finished = true;
        }
    }

    /// An agent asked: its card says so, and a question to the user waits for an answer.
    pub(super) fn broadcast_asked(
        &mut self,
        agent: Option<&AgentId>,
        at: Timestamp,
        request_id: &str,
        target: BroadcastTarget,
        questions: &[Question],
        timeout_secs: u64,
    ) {
        let line = asked(target, &first_question(questions), questions.len());
        self.card(agent, |card| card.notice(line));
        if target == BroadcastTarget::Human {
            self.planning.asked(PendingQuestion {
                request_id: request_id.to_string(),
                asker: agent.cloned(),
                questions: questions.to_vec(),
                timeout_secs,
                asked_at: at,
            });
        }
    }

    /// A reply under the question in the asker's card; the user's settles the question.
    pub(super) fn broadcast_answered(
        &mut self,
        agent: Option<&AgentId>,
        request_id: &str,
        from: Option<&AgentId>,
        answer: &str,
    ) {
        self.card(agent, |card| card.notice(answered(from, answer)));
        if from.is_none() {
            self.planning.settled(request_id);
        }
    }

    /// A saved plan changed; the winner's card keeps how its execution ended.
    pub(super) fn plan_updated(&mut self, plan: &PlanInfo) {
        if let Some(outcome) = &plan.outcome {
            for card in self.agents.iter_mut().filter(|card| card.is_winner) {
                card.plan_outcome = Some(outcome.clone());
            }
        }
        self.planning.plan_updated(plan);
    }
}

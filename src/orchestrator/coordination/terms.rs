//! The terms of coordination: the rules it runs by, and what it answers when a round
//! starts, an answer comes and a vote comes.

use crate::config::{Fairness, Sensitivity};
use crate::protocol::{AgentId, AnonId, AnswerLabel, EnforcementReason, VoteCount};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rules {
    /// After this many answers an agent may only vote.
    pub max_new_answers_per_agent: Option<u32>,
    /// After this many answers from all agents together, every agent may only vote.
    pub max_new_answers_global: Option<u32>,
    pub novelty: Sensitivity,
    /// Coordination ends once every live agent has answered; nobody votes.
    pub skip_voting: bool,
    /// A new answer neither restarts nor informs the other agents.
    pub disable_injection: bool,
    /// An agent that may only vote waits until every live agent has an answer.
    pub defer_voting: bool,
    /// Checklist-gated voting, when any agent is gated.
    pub checklist: Option<super::checklist_gate::ChecklistRules>,
    /// The lead cap and the peer-update knobs.
    pub fairness: Fairness,
    /// `coordination_mode: decomposition`: agents `stop` instead of voting, and this
    /// agent presents.
    pub presenter: Option<AgentId>,
    /// Council answering: no member sees another's answer, and two members may give the
    /// same answer.
    pub independent: bool,
}

/// An answer as an agent sees it at the start of a round.
#[derive(Clone, Debug, PartialEq)]
pub struct VisibleAnswer {
    pub anon: AnonId,
    pub label: AnswerLabel,
    pub content: String,
}

/// What one round starts from.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundView {
    pub round: u32,
    /// How many of the agent's accepted checklists in a row gained at most a point on the
    /// one before (MassGen's convergence count, which drives `novelty_injection`).
    pub converging_checklists: u32,
    /// Every agent's latest answer, in anonymous order.
    pub answers: Vec<VisibleAnswer>,
    /// The ids `vote` accepts.
    pub vote_options: Vec<AnonId>,
    /// The agent used up its answers and may only vote.
    pub vote_only: bool,
}

/// Why a workflow call was refused; the message goes back to the model.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejection {
    pub reason: EnforcementReason,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AcceptedAnswer {
    pub label: AnswerLabel,
    pub anon: AnonId,
    /// Agents whose accepted votes this answer cleared.
    pub votes_reset: Vec<AgentId>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum VoteOutcome {
    Accepted {
        target: AgentId,
        target_anon: AnonId,
        target_label: AnswerLabel,
        /// The votes that stand with this one counted.
        standing: Vec<VoteCount>,
    },
    /// The voter had not seen the newest answers; the vote does not count.
    Ignored { target: AgentId },
}

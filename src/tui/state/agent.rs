//! One agent's card: who it is, what it is doing, what it has used, and everything it
//! produced this turn as an ordered list of items, changed as its agent's news arrives.

use jiff::Timestamp;

use super::attempts::{RoundClock, round_limit_notice};
use super::items::{
    CardItem, TextBlock, ToolCard, ToolState, display_tool_name, growing_text, kept_tail,
    provider_tool_name,
};
use super::plan::TaskTree;
use crate::protocol::{
    AgentId, AgentInfo, AgentStatus, AnswerLabel, Attachment, ChecklistResult, ProviderToolCall,
    RoundTimeLimit, RoundTimeStage, Spend, TaskView,
};

/// How far a card's output went when the user scrolled up: a paused card shows only this
/// much, so new output cannot move what the user is reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputMark {
    pub items: usize,
    /// Bytes of the last item's growing text (answer, reasoning or final answer).
    pub tail_len: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AgentCard {
    pub info: AgentInfo,
    pub status: AgentStatus,
    pub round: u32,
    /// When the agent first became active this turn.
    pub started_at: Option<Timestamp>,
    /// Tokens and cost of this turn so far.
    pub spend: Spend,
    pub answers: u32,
    /// Tool calls begun and not yet ended (kept as a count: the status bar reads it every
    /// frame, whatever the length of the output).
    pub running_tools: usize,
    pub is_winner: bool,
    pub items: Vec<CardItem>,
    /// The agent's task plan, whole, as it last reported it.
    pub tasks: Vec<TaskView>,
    /// `tasks` in tree order, with counts and the current task.
    pub task_tree: TaskTree,
    /// The winner's: how the plan its work carried out ended (its tasks' final states).
    pub plan_outcome: Option<crate::protocol::PlanOutcome>,
    /// The running round's time limit, counted from its start.
    pub round_clock: Option<RoundClock>,
    /// How full the agent's context window is, as its latest call or compression left it.
    pub context: Option<ContextGauge>,
    /// The files attached to the agent's question this turn.
    pub attachments: Vec<Attachment>,
    /// The checklist the gate holds this round, gone where the gate resets (a new round,
    /// the agent's own answer, a new attempt or turn).
    pub checklist: Option<ChecklistResult>,
    /// The persona the agent works under this turn (`persona_generator`).
    pub persona: Option<CardPersona>,
    /// Decomposition mode: the agent's subtask this turn.
    pub subtask: Option<String>,
    /// The fairness lead cap holds the agent back: its lead and the cap, until released
    /// or its next round starts.
    pub held: Option<(u32, u32)>,
    /// Decomposition mode: the agent called `stop` (its status: complete or blocked), until
    /// a peer's new answer wakes it, its next round starts or it presents.
    pub stopped: Option<String>,
}

/// A generated persona: its full text and the generator's short name for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardPersona {
    pub text: String,
    pub summary: Option<String>,
}

/// Tokens of the agent's context against its model's window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContextGauge {
    pub tokens: u64,
    pub window: u64,
}

impl ContextGauge {
    pub fn new(tokens: u64, window: u64) -> Self {
        Self { tokens, window }
    }

    /// The share used, in whole percent (over 100 when the prompt was refused as too long).
    pub fn percent(self) -> u64 {
        (self.tokens * 100).checked_div(self.window).unwrap_or(0)
    }
}

impl AgentCard {
    pub fn new(info: AgentInfo) -> Self {
        Self {
            info,
            status: AgentStatus::Waiting,
            round: 0,
            started_at: None,
            spend: Spend::default(),
            answers: 0,
            running_tools: 0,
            is_winner: false,
            items: Vec::new(),
            tasks: Vec::new(),
            task_tree: TaskTree::default(),
            plan_outcome: None,
            round_clock: None,
            context: None,
            attachments: Vec::new(),
            checklist: None,
            persona: None,
            subtask: None,
            held: None,
            stopped: None,
        }
    }

    /// The winner, shown as one: chosen, and its presentation was not cancelled.
    pub fn won(&self) -> bool {
        self.is_winner && self.status != AgentStatus::Cancelled
    }

    /// Clears the turn's output, keeping who the agent is.
    pub fn reset_for_turn(&mut self) {
        *self = Self::new(self.info.clone());
    }

    /// A tool the provider ran: a card already finished, its output and pages shown
    /// when it is opened.
    pub fn push_provider_tool(&mut self, call: &ProviderToolCall) {
        self.items.push(CardItem::Tool(ToolCard {
            call_id: call.call_id.clone(),
            name: provider_tool_name(&call.tool),
            arguments: call.input.clone(),
            state: ToolState::Provider {
                ok: call.ok,
                output: call.summary(),
            },
        }));
    }

    /// Appends streamed text to the last item if it is of the same kind.
    pub fn push_text(&mut self, text: &str) {
        if let Some(CardItem::Text(existing)) = self.items.last_mut() {
            existing.push(text);
            existing.keep_tail();
        } else {
            self.items.push(CardItem::Text(TextBlock::from(text)));
        }
    }

    /// Appends streamed reasoning. During the final presentation it goes before the
    /// answer being presented, so the answer stays last.
    pub fn push_reasoning(&mut self, text: &str) {
        let presenting = matches!(self.items.last(), Some(CardItem::Final { done: false, .. }));
        let at = self.items.len() - usize::from(presenting);
        if let Some(CardItem::Reasoning(existing)) = at
            .checked_sub(1)
            .and_then(|before| self.items.get_mut(before))
        {
            existing.push_str(text);
            if let Some(tail) = kept_tail(existing) {
                *existing = tail;
            }
        } else {
            self.items.insert(at, CardItem::Reasoning(text.to_string()));
        }
    }

    /// The final presentation being streamed (reasoning may have come after its start).
    pub fn final_mut(&mut self) -> Option<(&mut TextBlock, &mut bool)> {
        self.items.iter_mut().rev().find_map(|item| {
            if let CardItem::Final { body, done, .. } = item {
                Some((body, done))
            } else {
                None
            }
        })
    }

    pub fn tool_mut(&mut self, call_id: &str) -> Option<&mut ToolCard> {
        self.items.iter_mut().rev().find_map(|item| {
            if let CardItem::Tool(card) = item
                && card.call_id == call_id
            {
                Some(card)
            } else {
                None
            }
        })
    }

    /// Where the output ends now.
    pub fn output_mark(&self) -> OutputMark {
        OutputMark {
            items: self.items.len(),
            tail_len: self.items.last().map_or(0, |item| growing_text(item).len()),
        }
    }

    /// Lines and items produced after `mark`, for the "N new" hint of a paused card.
    pub fn new_since(&self, mark: OutputMark) -> usize {
        let tail = mark
            .items
            .checked_sub(1)
            .and_then(|last| self.items.get(last))
            .map_or(0, |item| {
                growing_text(item)
                    .get(mark.tail_len..)
                    .map_or(0, |added| added.matches('\n').count())
            });
        tail + self.items.len().saturating_sub(mark.items)
    }

    /// The model name without a vendor prefix (`openai/gpt-5` → `gpt-5`), for tabs.
    pub fn short_model(&self) -> &str {
        self.info
            .model
            .rsplit('/')
            .next()
            .unwrap_or(&self.info.model)
    }
}

/// What the agent's news does to its card.
impl AgentCard {
    /// The agent's status changed; its first one starts the card's clock.
    pub(super) fn set_status(&mut self, status: AgentStatus, at: Timestamp) {
        self.status = status;
        self.started_at.get_or_insert(at);
    }

    /// A new round began at `at`, with the time limit it runs under.
    pub(super) fn start_round(
        &mut self,
        round: u32,
        answers_seen: &[AnswerLabel],
        time_limit: Option<RoundTimeLimit>,
        at: Timestamp,
    ) {
        self.round = round;
        self.checklist = None;
        self.held = None;
        self.stopped = None;
        self.round_clock = time_limit.map(|limit| RoundClock::new(at, limit));
        self.items.push(CardItem::Round {
            round,
            answers_seen: answers_seen.to_vec(),
        });
    }

    /// The round's time limit reached `stage`: the clock follows, and the card says so.
    pub(super) fn round_time_limit(&mut self, stage: RoundTimeStage, at: Timestamp) {
        if let Some(clock) = self.round_clock.as_mut() {
            clock.reached(stage, at);
        }
        self.notice(round_limit_notice(stage));
    }

    /// A tool call started; `shown` is its name as cards show it (`display_tool_name`).
    pub(super) fn begin_tool(&mut self, call_id: &str, shown: &str, arguments: &str) {
        self.running_tools += 1;
        self.items.push(CardItem::Tool(ToolCard {
            call_id: call_id.to_string(),
            name: shown.to_string(),
            arguments: arguments.to_string(),
            state: ToolState::Running,
        }));
    }

    pub(super) fn end_tool(&mut self, call_id: &str, ok: bool, output: &str, duration_ms: u64) {
        let finished = self.tool_mut(call_id).is_some_and(|tool| {
            let was_running = tool.state == ToolState::Running;
            tool.state = ToolState::Done {
                ok,
                output: output.to_string(),
                duration_ms,
            };
            was_running
        });
        if finished {
            self.running_tools = self.running_tools.saturating_sub(1);
        }
    }

    /// A call planning mode kept from running: the running card of that call if there is
    /// one, else a new card.
    pub(super) fn block_tool(&mut self, call_id: &str, tool: &str, arguments: &str, message: &str) {
        let blocked = ToolState::Blocked {
            message: message.to_string(),
        };
        if let Some(card) = self.tool_mut(call_id) {
            let was_running = card.state == ToolState::Running;
            card.state = blocked;
            if was_running {
                self.running_tools = self.running_tools.saturating_sub(1);
            }
            return;
        }
        self.items.push(CardItem::Tool(ToolCard {
            call_id: call_id.to_string(),
            name: display_tool_name(tool, None),
            arguments: arguments.to_string(),
            state: blocked,
        }));
    }

    /// The agent's task plan changed.
    pub(super) fn set_tasks(&mut self, tasks: &[TaskView]) {
        self.task_tree = TaskTree::of(tasks);
        tasks.clone_into(&mut self.tasks);
    }

    /// The workspace was saved after an answer.
    pub(super) fn snapshot(&mut self, files: u64, bytes: u64, skipped: usize) {
        self.items.push(CardItem::Snapshot {
            files,
            bytes,
            skipped,
        });
    }

    pub(super) fn answered(&mut self, label: &AnswerLabel, content: &str) {
        self.answers += 1;
        self.checklist = None;
        self.items.push(CardItem::Answer {
            label: label.clone(),
            content: content.to_string(),
        });
    }

    pub(super) fn voted(&mut self, target: &AgentId, target_label: &AnswerLabel, reason: &str) {
        self.items.push(CardItem::Vote {
            target_label: target_label.clone(),
            target: target.to_string(),
            reason: reason.to_string(),
        });
    }

    pub(super) fn vote_ignored(&mut self, target: &AgentId, why: &str) {
        self.items.push(CardItem::VoteIgnored {
            target: target.to_string(),
            why: why.to_string(),
        });
    }

    pub(super) fn retrying(&mut self, reason: &str, delay_ms: u64, attempt: u32, max_retries: u32) {
        self.items.push(CardItem::Retry {
            reason: reason.to_string(),
            delay_ms,
            attempt,
            max_retries,
        });
    }

    pub(super) fn failed(&mut self, message: &str) {
        self.status = AgentStatus::Error;
        self.items.push(CardItem::Error(message.to_string()));
    }

    /// Coordination dropped the agent.
    pub(super) fn dropped(&mut self, reason: &str) {
        self.status = AgentStatus::Error;
        self.held = None;
        self.notice(format!("dropped: {reason}"));
    }

    pub(super) fn notice(&mut self, notice: String) {
        self.items.push(CardItem::Notice(notice));
    }

    /// A new attempt: no longer the winner, no round running; what the last attempt
    /// produced stays under a banner.
    pub(super) fn restart_attempt(&mut self, attempt: u32, max_attempts: u32, reason: &str) {
        self.is_winner = false;
        self.round = 0;
        self.round_clock = None;
        self.checklist = None;
        self.held = None;
        self.stopped = None;
        self.notice(format!("── attempt {attempt}/{max_attempts}: {reason} ──"));
    }

    /// The final presentation began.
    pub(super) fn start_final(&mut self, label: &AnswerLabel) {
        self.stopped = None;
        self.items.push(CardItem::Final {
            label: label.clone(),
            body: TextBlock::default(),
            done: false,
        });
    }

    pub(super) fn push_final(&mut self, text: &str) {
        if let Some((existing, _)) = self.final_mut() {
            existing.push(text);
        }
    }

    /// The answer as settled; it replaces what streamed when the two differ (a fallback).
    pub(super) fn settle_final(&mut self, label: &AnswerLabel, content: &str) {
        if let Some((body, done)) = self.final_mut() {
            if body.text != content {
                body.set(content);
            }
            *done = true;
        } else {
            self.items.push(CardItem::Final {
                label: label.clone(),
                body: TextBlock::from(content),
                done: true,
            });
        }
    }

    /// The user chose `author`'s answer `label` as the final one. During the turn only
    /// the interrupted presentation goes (the chosen answer arrives with
    /// `FinalPresentationDone`); `after_turn`, the chosen answer replaces the final one.
    pub(super) fn final_chosen(
        &mut self,
        author: &AgentId,
        label: &AnswerLabel,
        content: &str,
        after_turn: bool,
    ) {
        self.items
            .retain(|item| !matches!(item, CardItem::Final { done, .. } if after_turn || !done));
        self.is_winner = &self.info.id == author;
        if after_turn && self.is_winner {
            self.items.push(CardItem::Final {
                label: label.clone(),
                body: TextBlock::from(content),
                done: true,
            });
        }
    }
}

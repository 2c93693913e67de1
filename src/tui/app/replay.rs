//! The app during a replay (`massgen replay`): nothing it sends may look like work for a
//! model, so such ops become notices (as do changes of plan mode, agents and refinement,
//! and listing the saved plans); `n` or Space plays the next step of a `--step` replay;
//! `q` quits even while the recorded turn is still playing.

use super::{App, Effect};
use crate::protocol::Op;

/// Why Shift+Tab, `A`, `R` and `P` do nothing in a replay.
pub const REPLAY_CHOICES: &str =
    "this is a replay: its plan mode, agents, refinement and plans are as recorded";

impl App {
    /// Whether these events are a recording played back.
    pub fn is_replay(&self) -> bool {
        self.state.replay.is_some()
    }

    /// Keeps what a replay may do; an op that would need a model becomes a notice.
    pub(super) fn keep_replay_effects(&mut self, effects: Vec<Effect>) -> Vec<Effect> {
        let mut kept = Vec::with_capacity(effects.len());
        for effect in effects {
            let refusal = match &effect {
                Effect::Send(
                    Op::Submit { .. }
                    | Op::InjectHumanInput { .. }
                    | Op::AnswerQuestion { .. }
                    | Op::AnswerApproval { .. },
                ) => "this is a replay: nothing is sent to a model (Esc, then q quits)",
                Effect::Send(Op::Cancel) => {
                    "this is a replay: nothing to cancel (Ctrl+C again quits)"
                }
                Effect::Send(Op::ClearHistory) => "this is a replay: its history is as recorded",
                Effect::Send(Op::OverrideFinal { .. } | Op::AnswerNow) => {
                    "this is a replay: its final answers are as recorded"
                }
                Effect::Send(Op::ReplaceAgents { .. }) => {
                    "this is a replay: its agents are as recorded"
                }
                Effect::Send(Op::ListPlans) => REPLAY_CHOICES,
                Effect::Send(Op::Step | Op::Shutdown)
                | Effect::OpenFile(_)
                | Effect::Copy(_)
                | Effect::Quit
                | Effect::Export { .. }
                | Effect::FetchModels { .. }
                | Effect::SaveAgents { .. } => {
                    kept.push(effect);
                    continue;
                }
            };
            self.view.notice = Some(refusal.into());
        }
        kept
    }

    /// `n` or Space: the next step of a `--step` replay.
    pub(super) fn step(&mut self) -> Vec<Effect> {
        match &self.state.replay {
            Some(replay) if replay.step && !replay.finished => vec![Effect::Send(Op::Step)],
            Some(replay) if replay.step => {
                self.view.notice = Some("the replay has played every event (q quits)".into());
                Vec::new()
            }
            Some(_) | None => {
                self.view.notice = Some("n steps through a replay started with --step".into());
                Vec::new()
            }
        }
    }
}

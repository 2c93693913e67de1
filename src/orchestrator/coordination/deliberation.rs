//! What a chairman needs of a council or a debate once its members have had their say:
//! who may chair, in turn; the members that failed; the answer that stands when nobody
//! can chair; and the final answer's footer naming the missing members.

use crate::protocol::AgentId;

pub trait Deliberation {
    /// Who may chair, in turn: the configured chairman first, then the members in the
    /// strategy's order; members whose model failed are skipped.
    fn chairman_order(&self, configured: Option<&AgentId>) -> Vec<AgentId>;
    /// The members whose contribution is absent, and why (config order).
    fn missing(&self) -> Vec<(AgentId, String)>;
    /// `member`'s model call failed (in a stage, or as chairman).
    fn member_failed(&mut self, member: &AgentId, reason: &str);
    /// The answer that stands when no chairman can synthesize.
    fn best_answer(&self) -> Option<(AgentId, String)>;
    /// The final answer's last line when a member is missing.
    fn footer(&self) -> Option<String>;
    /// Why the first of `chairman_order` chairs when the config names no chairman.
    fn unconfigured_basis(&self) -> crate::protocol::ChairmanBasis;
}

/// A reason cut to one short line for a footer.
pub fn short(reason: &str) -> String {
    let line = reason.lines().next().unwrap_or_default().trim();
    if line.chars().count() <= 80 {
        line.to_string()
    } else {
        format!("{}…", line.chars().take(79).collect::<String>())
    }
}

//! What agents under checklist-gated voting are told: score the answers against the
//! criteria with `submit_checklist` before voting, and follow its verdict.

use std::fmt::Write as _;

use crate::orchestrator::coordination::criteria::SCORE_ANCHORS;
use crate::protocol::EvalCriterion;

/// MassGen's scoring calibration (its checklist prompt's substantiveness part, outside
/// fast iteration): score real gaps, not polish.
const SCORING_CALIBRATION: &str = "\nScoring calibration — distinguish real gaps from polish: \
    where a demanding user would say \"much better\", the score reflects the gap honestly; \
    where they would say \"nice touch, barely noticed\", do not let polish gaps drag scores \
    down. Changes to internal documents (changedoc, notes) without corresponding output \
    changes are not evidence of output quality gaps.";

/// MassGen's invitation to propose criteria (`criteria_mode: bootstrap_inline`).
pub const CRITERIA_EMERGENCE: &str = "\n\n**CRITERIA EMERGENCE (DISCRIMINATIVE):**\n\
    When you submit your checklist evaluation, the submission supports proposing new \
    evaluation criteria alongside your scores. Use this affordance to surface quality \
    dimensions that have not yet been captured, so the next round iterates against a tighter \
    bar.\n\n\
    A proposed criterion must take a position on what \"good\" means on a specific dimension \
    (not a dimension label), and must describe a quality the current answers do not yet fully \
    achieve. Each takes an opinionated quality definition, a category of primary / standard / \
    stretch, and optional concrete anti-patterns that should tank the score.\n\n\
    Keep the proposal list short — at most 3 per submission. Skip if the current answers \
    already satisfy every dimension you can identify. Do not duplicate criteria already shown \
    to you. The tool's schema documents the exact parameter shape; follow it.";

/// The checklist section added to a gated agent's coordination instructions.
pub fn instructions(criteria: &[EvalCriterion]) -> String {
    let mut text = String::from(
        "\n\nCHECKLIST-GATED VOTING. Before you may vote, score the current answers against \
         these criteria, each 0–10, and submit the scores with `submit_checklist`:\n",
    );
    for criterion in criteria {
        let _ = writeln!(
            text,
            "  {} ({}). {}  → ___/10",
            criterion.id, criterion.category, criterion.text
        );
    }
    let _ = write!(
        text,
        "Calibrate your scores: {SCORE_ANCHORS}\n\
         Score every agent's answer separately, keyed by its id from <CURRENT ANSWERS>, with \
         a short reasoning for each score:\n\
         submit_checklist(scores={{\"agent1\": {{\"E1\": {{\"score\": 7, \"reasoning\": \
         \"…\"}}, \"E2\": …}}, \"agent2\": {{…}}}}) — every criterion above for every \
         answer.\n\
         With only your own answer to judge, flat scores will do: {{\"E1\": {{\"score\": 7, \
         \"reasoning\": \"…\"}}, …}}.\n\
         Rate honestly; the bar is hidden on purpose. The strongest answer's scores decide the \
         verdict: `vote` — call `vote` for the answer with the strongest overall scores; \
         `new_answer` — build an answer that fixes every failing criterion, drawing on the \
         strongest parts of all answers, and submit it with `new_answer`. A vote without a \
         passing checklist this round is refused. Your first round is for your own answer: the \
         checklist starts once you have one."
    );
    text.push_str(SCORING_CALIBRATION);
    text
}

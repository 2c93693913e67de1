//! Mode values MassGen added after 0.1.45 (`voting_sensitivity: roi`, `plan_depth:
//! dynamic`, …): accepted with a warning that says what the mode does in MassGen and which
//! of massgen's modes is used instead, never an error. `checklist_gated` is acted on.

use super::Note;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::schema::Sensitivity;
use crate::protocol::PlanDepth;

/// MassGen 0.1.9x voting modes: name, what MassGen does, massgen's closest mode.
const NEWER_VOTING_MODES: [(&str, &str, Sensitivity); 11] = [
    (
        "roi",
        "agents rate every answer 1–10 per dimension and improve it while any dimension is \
         below a quality bar",
        Sensitivity::Balanced,
    ),
    (
        "roi_balanced",
        "agents rate every answer 1–10 per dimension and improve it while any dimension is \
         below a middling quality bar",
        Sensitivity::Balanced,
    ),
    (
        "roi_conservative",
        "agents rate every answer 1–10 per dimension and improve it only for large expected \
         gains, so they vote early",
        Sensitivity::Lenient,
    ),
    (
        "roi_aggressive",
        "agents rate every answer 1–10 per dimension and keep improving it for small gains",
        Sensitivity::Strict,
    ),
    (
        "sequential",
        "strict in round 1, balanced in round 2, lenient after",
        Sensitivity::Balanced,
    ),
    (
        "adversarial",
        "agents red-team the best answer with a pre-mortem and must harden it against any \
         plausible failure",
        Sensitivity::Strict,
    ),
    (
        "consistency",
        "agents re-derive the best answer's logic on their own before they vote",
        Sensitivity::Balanced,
    ),
    (
        "diversity",
        "agents vote only when the best answer already combines the strengths of the others",
        Sensitivity::Balanced,
    ),
    (
        "reflective",
        "agents restate the user's intent and three success criteria, and improve the answer \
         on any gap",
        Sensitivity::Strict,
    ),
    (
        "checklist",
        "agents score the answer against a checklist and vote only when enough items pass",
        Sensitivity::Strict,
    ),
    (
        "checklist_scored",
        "agents score the answer 0–10 per checklist item and vote only above a threshold",
        Sensitivity::Strict,
    ),
];

/// `voting_sensitivity` under `fields`: one of massgen's modes, or a newer MassGen mode
/// with a warning naming the fallback.
pub(super) fn voting_sensitivity(
    fields: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<Option<Sensitivity>, Problem> {
    const KEY: &str = "voting_sensitivity";
    let Some(text) = fields.string(KEY)? else {
        return Ok(None);
    };
    let name = text.trim().to_ascii_lowercase();
    if name == CHECKLIST_GATED {
        // The gate decides when the agent may vote; its prompt holds answers to a high bar.
        return Ok(Some(Sensitivity::Strict));
    }
    if let Some((mode, what, fallback)) =
        NEWER_VOTING_MODES.iter().find(|(mode, _, _)| *mode == name)
    {
        notes.push(Note {
            loc: fields.get(KEY).map(|node| node.loc),
            message: format!(
                "{}: {mode} is a MassGen 0.1.9x mode ({what}); massgen uses `{}` instead",
                fields.key_path(KEY),
                fallback.name()
            ),
            ignored: None,
        });
        return Ok(Some(*fallback));
    }
    let mut names: Vec<&str> = Sensitivity::NAMES.to_vec();
    names.extend(NEWER_VOTING_MODES.iter().map(|(mode, _, _)| *mode));
    names.push(CHECKLIST_GATED);
    fields.choice(KEY, &names, Sensitivity::from_name)
}

/// Checklist-gated voting: agents pass a scored checklist (`submit_checklist`) before they
/// vote.
pub(super) const CHECKLIST_GATED: &str = "checklist_gated";

/// Whether `voting_sensitivity` under `fields` is `checklist_gated`; `None` when unset (a
/// wrong value is reported by [`voting_sensitivity`]).
pub(super) fn checklist_gated(fields: &Fields<'_>) -> Option<bool> {
    let text = fields.string("voting_sensitivity").ok().flatten()?;
    Some(text.trim().eq_ignore_ascii_case(CHECKLIST_GATED))
}

/// `plan_depth`: `dynamic` (MassGen lets the planner pick the depth) falls back to medium.
pub(super) fn plan_depth(
    fields: &Fields<'_>,
    notes: &mut Vec<Note>,
) -> Result<Option<PlanDepth>, Problem> {
    const KEY: &str = "plan_depth";
    if let Some(text) = fields.string(KEY)?
        && text.trim().eq_ignore_ascii_case("dynamic")
    {
        notes.push(Note {
            loc: fields.get(KEY).map(|node| node.loc),
            message: format!(
                "{}: dynamic is a MassGen 0.1.9x mode (the planner picks the number of steps for \
                 the task); massgen uses `medium` instead",
                fields.key_path(KEY)
            ),
            ignored: None,
        });
        return Ok(Some(PlanDepth::Medium));
    }
    fields.choice(KEY, &PlanDepth::NAMES, PlanDepth::from_name)
}

#[cfg(test)]
#[path = "modes_tests.rs"]
mod tests;

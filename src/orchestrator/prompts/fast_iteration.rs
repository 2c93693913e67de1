//! What MassGen 0.1.97's checklist-round knobs tell agents: `draft_approach` after a
//! `new_answer` verdict, the diagnostic report for `submit_checklist` (`gap_report_mode`),
//! `fast_iteration_mode`'s streamlined checklist, and the within-round discipline of
//! `max_verifications_per_round` and `max_internal_fix_loops`.

use crate::config::{FastIteration, GapReportMode};

/// The knobs prompt building reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundKnobs {
    pub fast_iteration: FastIteration,
    /// `None` when no report is asked for.
    pub gap_report: Option<GapReportMode>,
    /// `criteria_mode: bootstrap_inline`: agents propose criteria with their checklists.
    pub propose_criteria: bool,
}

/// Where the diagnostic report goes (MassGen's path).
const REPORT_PATH: &str = "tasks/diagnostic_report.md";

/// Added to a gated agent's checklist instructions.
pub fn checklist_extras(knobs: &RoundKnobs) -> String {
    let mut text = String::new();
    if knobs.propose_criteria {
        text.push_str(super::checklist::CRITERIA_EMERGENCE);
    }
    if knobs.fast_iteration.mode {
        text.push_str(
            "\n\nExcellence is reached across rounds, not within one: the question is not \"is \
             this perfect now?\" but \"have I fixed the real gaps and left something the next \
             round can raise further?\"\n\
             QUICK IMPACT CHECK before you iterate: is the planned change a real gap fix, or \
             polish the next round will catch anyway? Missing a core requirement or broken → \
             fix it and submit. Works but could be better → submit now and note the gap. If no \
             planned change fixes a real gap, voting may be the better choice.",
        );
    }
    if knobs.gap_report.is_some_and(GapReportMode::instructs) {
        text.push_str(&format!(
            "\n\nDIAGNOSTIC REPORT (REQUIRED). Before scoring, write `{REPORT_PATH}` in your \
             workspace: for each criterion, evaluate the existing answer(s) critically through \
             that lens and name concrete gaps, not abstract concerns. Pass its path as \
             `report_path` when you call `submit_checklist`; a checklist without it is \
             rejected. Your scores must agree with the report: if it finds significant gaps \
             in a criterion, do not score that criterion 8 or more."
        ));
    }
    text.push_str(
        "\n\nAfter a `new_answer` verdict, call `draft_approach` before you build: \
         `vision` (optional) — what the ideal output would look like; `plan` — for EVERY \
         failing criterion a list of entries, each with `plan` (what to build), `sources` \
         (the answer labels you draw from, or \"fresh\" for a new idea) and `impact` \
         (`transformative`, `structural` or `incremental`; at least one entry must be \
         structural or transformative); `preserve` — what already works and must not \
         regress, each with `what` and `source` (may be empty only when every source is \
         \"fresh\"). Example: draft_approach(vision=\"…\", plan={\"E2\": [{\"plan\": \"…\", \
         \"sources\": [\"agent2.1\"], \"impact\": \"structural\"}]}, preserve={\"E1\": \
         {\"what\": \"…\", \"source\": \"agent1.2\"}}). Then implement the plan, check that \
         the preserved strengths still hold, and submit with `new_answer`.",
    );
    text
}

/// MassGen's "fix broken, defer imperfect" guidance, when `max_verifications_per_round`
/// or `max_internal_fix_loops` is set; `None` otherwise.
pub fn guidance(knobs: &FastIteration) -> Option<String> {
    if knobs.max_verifications_per_round.is_none() && knobs.max_internal_fix_loops.is_none() {
        return None;
    }
    let mut sections = vec![
        "WITHIN-ROUND DISCIPLINE: FIX BROKEN, DEFER IMPERFECT. In one round: (1) produce a \
         working candidate, not a polished one; (2) note what is imperfect as Known Gaps; \
         (3) submit.\n\
         - BROKEN means the artifact fails on a plain run (won't render, syntax error or stack \
         trace, empty file, a tool returned an error, tests crash): fix it within the round, \
         once, then submit.\n\
         - IMPERFECT means it works end to end but could be better (style, wording, spacing, \
         an edge case, a refactor): record it as a Known Gap and submit; it belongs to the \
         next round.\n\
         BROKEN is about functional integrity, not content quality: when an observation fits \
         either, it is IMPERFECT."
            .to_string(),
    ];
    if let Some(max) = knobs.max_verifications_per_round {
        sections.push(format!(
            "ROUND LIFECYCLE: THREE PHASES, NO REVISITS (at most {max} verification pass(es) \
             per round).\n\
             PHASE 1 — START-OF-ROUND VERIFICATION. In your first round skip it: you have \
             nothing inherited to verify, and you do not inspect your own first output. In \
             later rounds take one holistic look at the candidate you inherited (several \
             inspection calls covering different parts count as the same look), note its \
             concrete gaps and the one to three you will target, and submit the checklist \
             once for this round. Edit nothing in this phase.\n\
             PHASE 2 — BUILD. Edit to address the gaps from PHASE 1 (or, in the first round, \
             to produce a working candidate). No verification here: if you want to check \
             something, note it as a Known Gap and keep building. Retrying a tool call that \
             failed for a wrong argument is not verification.\n\
             PHASE 3 — END OF ROUND. Submit with `new_answer` or `vote`. No last look: the \
             next round's PHASE 1 judges quality."
        ));
    }
    match knobs.max_internal_fix_loops {
        Some(0) => sections.push(
            "NO FIX LOOPS. No verify → edit → verify cycles within a round. If the PHASE 1 \
             look shows the candidate is BROKEN, repair it once; if it is IMPERFECT but \
             working, improve it from the recorded gaps without re-verifying. Anything found \
             after PHASE 1 is a Known Gap for the next round."
                .to_string(),
        ),
        Some(max) => sections.push(format!(
            "FIX LOOPS CAPPED AT {max} PER ROUND. Once the cap is reached, stop editing, note \
             the remaining issues as Known Gaps and submit; further edits belong in the next \
             round."
        )),
        None => {}
    }
    sections.push(
        "Why: rounds are cheap, loops within a round are expensive and tend to regress \
         (fixing one thing while breaking another). A working candidate with well-written \
         Known Gaps makes a better next round than a polished one that used up the round."
            .to_string(),
    );
    Some(sections.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guidance_appears_only_with_a_limit_and_words_each_one() {
        assert_eq!(guidance(&FastIteration::default()), None);
        let only_mode = FastIteration {
            mode: true,
            ..FastIteration::default()
        };
        assert_eq!(guidance(&only_mode), None);
        let both = guidance(&FastIteration {
            mode: true,
            max_verifications_per_round: Some(1),
            max_internal_fix_loops: Some(0),
        })
        .unwrap();
        assert!(both.contains("at most 1 verification pass(es) per round"));
        assert!(both.contains("NO FIX LOOPS"));
        let capped = guidance(&FastIteration {
            max_internal_fix_loops: Some(2),
            ..FastIteration::default()
        })
        .unwrap();
        assert!(capped.contains("FIX LOOPS CAPPED AT 2 PER ROUND"));
        assert!(!capped.contains("THREE PHASES"));
    }

    #[test]
    fn checklist_extras_ask_for_an_approach_and_a_report_only_when_asked() {
        let plain = checklist_extras(&RoundKnobs::default());
        assert!(plain.contains("call `draft_approach` before you build"));
        assert!(!plain.contains("DIAGNOSTIC REPORT"));
        assert!(!plain.contains("QUICK IMPACT CHECK"));
        let all = checklist_extras(&RoundKnobs {
            fast_iteration: FastIteration {
                mode: true,
                ..FastIteration::default()
            },
            gap_report: Some(GapReportMode::Separate),
            propose_criteria: true,
        });
        assert!(all.contains("CRITERIA EMERGENCE (DISCRIMINATIVE)"));
        assert!(!plain.contains("CRITERIA EMERGENCE"));
        assert!(all.contains("`tasks/diagnostic_report.md`"));
        assert!(all.contains("QUICK IMPACT CHECK"));
        let none = checklist_extras(&RoundKnobs {
            gap_report: Some(GapReportMode::None),
            ..RoundKnobs::default()
        });
        assert!(!none.contains("DIAGNOSTIC REPORT"));
    }
}

//! How the presenter is asked to make the final answer under each `final_answer_strategy`
//! (MassGen's `build_final_presentation_message`): build on the winner's answer, or
//! synthesize from every answer, led by the winner when there was a vote.

use crate::protocol::FinalAnswerStrategy;

/// What the presenter is told in place of its votes when nobody voted before a synthesis.
pub(super) const SYNTHESIS_WITHOUT_VOTES: &str = "No voting round was run. You were selected as \
     the presenter to synthesize the final answer from all completed answers.";

/// Whether the presenter's own answer is marked: not in a synthesis without a vote, where
/// every answer counts the same.
pub(super) fn marks_own_answer(strategy: FinalAnswerStrategy, voted: bool) -> bool {
    voted || strategy != FinalAnswerStrategy::Synthesize
}

/// The closing instruction of the presenter's request.
pub(super) fn instruction(strategy: FinalAnswerStrategy, voted: bool) -> &'static str {
    match strategy {
        FinalAnswerStrategy::Synthesize if voted => {
            "Your answer was selected as the best by your peers. Use it as the primary basis for \
             the final response. Actively incorporate the strongest elements from the other \
             agents' answers where they improve completeness, accuracy, or depth.\n\nPreserve \
             concrete details during synthesis: keep specific implementation details, exact \
             values, named elements, and actionable directives verbatim from whichever answer \
             provided them. Be selective: integrate specific strengths rather than diluting \
             your answer by merging everything."
        }
        FinalAnswerStrategy::Synthesize => {
            "Synthesize the strongest relevant parts across all completed answers into a single \
             final answer.\n\nPreserve concrete details during synthesis: keep specific \
             implementation details, exact values, named elements, and actionable directives \
             verbatim from whichever answer provided them. Do not abstract concrete findings \
             into vague generalizations: the synthesized answer should be at least as specific \
             as the most detailed individual answer. Where answers overlap, keep the most \
             specific version and merge in the unique details of the others rather than \
             dropping either."
        }
        FinalAnswerStrategy::WinnerReuse | FinalAnswerStrategy::WinnerPresent => {
            "Present your final answer to the original message, building on the best of the \
             answers above."
        }
    }
}

//! MassGen's `<novelty_pressure>` system-prompt section (`novelty_injection`).
//!
//! MassGen raises the pressure when an agent converges: two or more accepted checklists in
//! a row that gained at most a point on the one before (gentle, moderate and aggressive
//! word that differently, the latter two naming the count). `aggressive` also presses
//! without a run of incremental rounds: from an agent's second round on (MassGen: after a
//! restart), it is asked whether its approach is the right one.

use crate::config::NoveltyInjection;

/// MassGen's text for an agent with no run of incremental rounds behind it.
const RECONSIDER_APPROACH: &str = "Before committing to a refinement strategy, consider \
    whether the existing approach is the RIGHT approach, not just the CURRENT approach. If a \
    fundamentally different direction would serve the user better, now is the cheapest time \
    to change course.";

/// MassGen's count of incremental checklists that makes an agent converging.
const CONVERGING: u32 = 2;

/// The section's body for an agent's `round`-th round of the turn, after `converging`
/// incremental checklists in a row, if any.
pub fn body(level: NoveltyInjection, round: u32, converging: u32) -> Option<String> {
    let presses = match level {
        NoveltyInjection::None => false,
        NoveltyInjection::Aggressive => round > 1 || converging >= CONVERGING,
        NoveltyInjection::Gentle | NoveltyInjection::Moderate => converging >= CONVERGING,
    };
    if !presses {
        return None;
    }
    if converging == 0 {
        return Some(RECONSIDER_APPROACH.to_string());
    }
    let n = converging;
    Some(match level {
        NoveltyInjection::None => return None,
        NoveltyInjection::Gentle => "Previous rounds identified only incremental improvements. \
             When scoring checklist items, consider whether a fundamentally different approach \
             would yield a stronger result than continued polish. The checklist verdict \
             determines whether to iterate."
            .to_string(),
        NoveltyInjection::Moderate => format!(
            "CONVERGENCE SIGNAL: {n} consecutive rounds produced only incremental improvements. \
             When scoring checklist items, ask whether the current approach can genuinely reach \
             the quality bar, or whether a fundamentally different direction is needed. Score \
             honestly — the checklist verdict determines whether to iterate."
        ),
        NoveltyInjection::Aggressive => format!(
            "CONVERGENCE SIGNAL: {n} consecutive rounds of incremental-only work. Score with \
             awareness that repeated incremental rounds suggest the approach itself may be \
             limiting quality. Consider whether a different architecture, creative vision, or \
             problem decomposition would score higher. The checklist verdict determines next \
             steps."
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggressive_presses_from_the_second_round_the_others_only_when_converging() {
        assert_eq!(body(NoveltyInjection::Aggressive, 1, 0), None);
        let pressed = body(NoveltyInjection::Aggressive, 2, 0).unwrap_or_default();
        assert!(pressed.starts_with("Before committing to a refinement strategy"));
        for level in [NoveltyInjection::Gentle, NoveltyInjection::Moderate] {
            assert_eq!(body(level, 3, 0), None, "{level:?}");
            assert_eq!(body(level, 3, 1), None, "{level:?}");
        }
        for converging in [0, 2, 5] {
            assert_eq!(body(NoveltyInjection::None, 4, converging), None);
        }
    }

    #[test]
    fn a_converging_agent_is_told_in_its_level_s_words_with_the_count() {
        let gentle = body(NoveltyInjection::Gentle, 4, 2).unwrap_or_default();
        assert!(gentle.starts_with("Previous rounds identified only incremental"));
        let moderate = body(NoveltyInjection::Moderate, 5, 3).unwrap_or_default();
        assert!(moderate.starts_with("CONVERGENCE SIGNAL: 3 consecutive rounds produced"));
        let aggressive = body(NoveltyInjection::Aggressive, 2, 1).unwrap_or_default();
        assert!(aggressive.starts_with("CONVERGENCE SIGNAL: 1 consecutive rounds of"));
    }
}

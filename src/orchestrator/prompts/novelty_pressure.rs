//! MassGen's `<novelty_pressure>` system-prompt section (`novelty_injection`).
//!
//! MassGen raises the pressure when an agent converges: two or more checklist results in a
//! row that gained at most a point (gentle, moderate and aggressive each word that
//! differently). Its voting modes without a checklist have no scores, so there the only
//! pressure is `aggressive`'s: from an agent's second round on, it is asked whether its
//! approach is the right one — which is what this section does.

use crate::config::NoveltyInjection;

/// MassGen's text for an agent with no run of incremental rounds behind it.
const RECONSIDER_APPROACH: &str = "Before committing to a refinement strategy, consider \
    whether the existing approach is the RIGHT approach, not just the CURRENT approach. If a \
    fundamentally different direction would serve the user better, now is the cheapest time \
    to change course.";

/// The section's body for an agent's `round`-th round of the turn, if any.
pub fn body(level: NoveltyInjection, round: u32) -> Option<&'static str> {
    (level == NoveltyInjection::Aggressive && round > 1).then_some(RECONSIDER_APPROACH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_aggressive_presses_and_only_after_the_first_round() {
        assert_eq!(body(NoveltyInjection::Aggressive, 1), None);
        let pressed = body(NoveltyInjection::Aggressive, 2).unwrap_or_default();
        assert!(pressed.starts_with("Before committing to a refinement strategy"));
        for level in [
            NoveltyInjection::None,
            NoveltyInjection::Gentle,
            NoveltyInjection::Moderate,
        ] {
            assert_eq!(body(level, 3), None, "{level:?}");
        }
    }
}

//! The `answer_novelty_requirement` check: word-set Jaccard similarity between answers.

use std::collections::HashSet;

use crate::config::Sensitivity;

/// Jaccard similarity of the lower-cased, whitespace-split word sets of two texts.
pub fn jaccard(a: &str, b: &str) -> f64 {
    let words = |text: &str| -> HashSet<String> {
        text.split_whitespace().map(str::to_lowercase).collect()
    };
    let (a, b) = (words(a), words(b));
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let shared = a.intersection(&b).count();
    let union = a.len() + b.len() - shared;
    #[allow(clippy::cast_precision_loss)]
    let similarity = shared as f64 / union as f64;
    similarity
}

/// The highest similarity a new answer may have to an existing one, if any limit applies.
pub fn max_similarity(requirement: Sensitivity) -> Option<f64> {
    match requirement {
        Sensitivity::Lenient => None,
        Sensitivity::Balanced => Some(0.70),
        Sensitivity::Strict => Some(0.50),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similarity_ignores_case_order_and_repeats() {
        assert!((jaccard("Paris is the capital", "the CAPITAL is Paris paris") - 1.0).abs() < 1e-9);
        assert!((jaccard("a b c d", "a b x y") - 2.0 / 6.0).abs() < 1e-9);
        assert!(jaccard("one", "two").abs() < 1e-9);
    }

    #[test]
    fn thresholds_follow_massgen() {
        assert_eq!(max_similarity(Sensitivity::Lenient), None);
        assert_eq!(max_similarity(Sensitivity::Balanced), Some(0.70));
        assert_eq!(max_similarity(Sensitivity::Strict), Some(0.50));
    }
}

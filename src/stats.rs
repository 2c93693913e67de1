//! The statistics an eval reports (issue 34, first step): accuracy with its Wilson 95 %
//! interval, latency percentiles, and the mean of paired differences with its interval.
//! Pure functions on plain numbers.

/// The normal quantile of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion or a mean with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// `successes` of `trials` with the Wilson score interval (sound near 0 and 1 and for few
/// trials, unlike the normal approximation). `None` without trials.
pub fn wilson(successes: u64, trials: u64) -> Option<Estimate> {
    if trials == 0 || successes > trials {
        return None;
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    Some(Estimate {
        value: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    })
}

/// The `percent`-th percentile of `values` by the nearest-rank method (p50 of 1..=4 is 2,
/// p95 of 1..=20 is 19). `None` when empty or `percent` is outside 0–100.
pub fn percentile(values: &[f64], percent: f64) -> Option<f64> {
    if values.is_empty() || !(0.0..=100.0).contains(&percent) {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = (percent / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.max(1) - 1).copied()
}

/// The mean of `a[i] - b[i]` over paired items (e.g. a strategy's score and the best single
/// model's on the same question) with a 95 % normal interval from the differences' sample
/// variance. `None` unless there are at least two pairs of equal-length inputs.
pub fn paired_difference(a: &[f64], b: &[f64]) -> Option<Estimate> {
    if a.len() != b.len() || a.len() < 2 {
        return None;
    }
    let differences: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = differences.len() as f64;
    let mean = differences.iter().sum::<f64>() / n;
    let variance = differences
        .iter()
        .map(|d| (d - mean) * (d - mean))
        .sum::<f64>()
        / (n - 1.0);
    let half = Z95 * (variance / n).sqrt();
    Some(Estimate {
        value: mean,
        low: mean - half,
        high: mean + half,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn wilson_matches_the_published_values() {
        // 8 of 10: Wilson 95 % interval 0.4902–0.9433.
        let estimate = wilson(8, 10).unwrap();
        assert!(close(estimate.value, 0.8));
        assert!(close(estimate.low, 0.4902), "{estimate:?}");
        assert!(close(estimate.high, 0.9433), "{estimate:?}");
        // All correct still leaves room below 1; none correct room above 0.
        let all = wilson(20, 20).unwrap();
        assert!(all.low < 1.0 && close(all.high, 1.0), "{all:?}");
        assert!(close(all.low, 0.8389), "{all:?}");
        let none = wilson(0, 20).unwrap();
        assert!(close(none.low, 0.0) && close(none.high, 0.1611), "{none:?}");
        assert_eq!(wilson(0, 0), None);
        assert_eq!(wilson(3, 2), None);
    }

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let values: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(percentile(&values, 50.0), Some(10.0));
        assert_eq!(percentile(&values, 95.0), Some(19.0));
        assert_eq!(percentile(&values, 100.0), Some(20.0));
        assert_eq!(percentile(&values, 0.0), Some(1.0));
        assert_eq!(percentile(&[4.0, 1.0, 3.0, 2.0], 50.0), Some(2.0));
        assert_eq!(percentile(&[], 50.0), None);
        assert_eq!(percentile(&values, 101.0), None);
    }

    #[test]
    fn a_paired_difference_has_its_mean_and_a_normal_interval() {
        let a = [1.0, 1.0, 1.0, 0.0];
        let b = [0.0, 1.0, 0.0, 0.0];
        let estimate = paired_difference(&a, &b).unwrap();
        // Differences 1, 0, 1, 0: mean 0.5, sample sd 0.57735, half-width 1.96·0.57735/2.
        assert!(close(estimate.value, 0.5));
        assert!(close(
            estimate.high - estimate.value,
            Z95 * 0.577_350_3 / 2.0
        ));
        assert!(estimate.contains(0.5) && !estimate.contains(1.2));
        assert_eq!(paired_difference(&[1.0], &[0.0]), None);
        assert_eq!(paired_difference(&[1.0, 0.0], &[0.0]), None);
    }
}

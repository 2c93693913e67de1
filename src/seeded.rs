//! A small deterministic random source (SplitMix64) seeded from text, for choices that must
//! look random yet repeat exactly: a council ranker's label order, a scripted model's
//! mistakes, an eval's sampling. Not for anything secret.

/// Deterministic: the same seed gives the same sequence on every platform and release.
#[derive(Clone, Debug)]
pub struct Seeded {
    state: u64,
}

impl Seeded {
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// Seeded from text parts (FNV-1a over each part and a separator), so `["a", "bc"]` and
    /// `["ab", "c"]` differ.
    pub fn from_parts(parts: &[&str]) -> Self {
        const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
        const PRIME: u64 = 0x0000_0100_0000_01b3;
        let mut hash = OFFSET;
        for part in parts {
            for byte in part.bytes().chain(std::iter::once(0xff)) {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(PRIME);
            }
        }
        Self::new(hash)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        // The top 53 bits fill an f64's mantissa exactly.
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// True with probability `p` (clamped to `[0, 1]`).
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p.clamp(0.0, 1.0)
    }

    /// Uniform in `0..n`; 0 when `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        // Widening multiply: no modulo bias worth the name for the sizes used here.
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Fisher–Yates, in place.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for last in (1..items.len()).rev() {
            let pick = self.below(last + 1);
            items.swap(last, pick);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_repeats_and_parts_are_separated() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut rng = Seeded::from_parts(&["q", "agent_a"]);
                move |_| rng.next_u64()
            })
            .collect();
        let mut again = Seeded::from_parts(&["q", "agent_a"]);
        assert_eq!(a, (0..4).map(|_| again.next_u64()).collect::<Vec<_>>());
        assert_ne!(
            Seeded::from_parts(&["a", "bc"]).next_u64(),
            Seeded::from_parts(&["ab", "c"]).next_u64()
        );
    }

    #[test]
    fn shuffles_are_permutations_and_vary_with_the_seed() {
        let orders: Vec<Vec<u32>> = (0..8)
            .map(|seed| {
                let mut items = vec![1, 2, 3, 4, 5];
                Seeded::new(seed).shuffle(&mut items);
                let mut sorted = items.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, vec![1, 2, 3, 4, 5]);
                items
            })
            .collect();
        assert!(orders.iter().any(|order| order != &orders[0]));
    }

    #[test]
    fn chance_matches_its_probability_over_many_draws() {
        let mut rng = Seeded::new(7);
        let hits = (0..20_000).filter(|_| rng.chance(0.3)).count();
        assert!((5_600..6_400).contains(&hits), "{hits}");
        assert!((0..1000).all(|_| rng.below(3) < 3));
        assert_eq!(rng.below(0), 0);
    }
}

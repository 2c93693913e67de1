//! Council rankings (issue 34, first step): reading a ranking a model wrote as text
//! (`FINAL RANKING:` then a numbered list of labels, the LLM Council's format, for models
//! that ignore the `rank` tool) and aggregating every member's ranking by Borda count,
//! ties broken by mean rank, then config order. Pure and deterministic.

use std::collections::HashMap;

/// The line that opens a ranking written as text.
pub const FINAL_RANKING: &str = "FINAL RANKING:";

/// The labels of a ranking written as text, best first: the known `labels` named after the
/// last `FINAL RANKING:` (any case), each once, in the order they first appear. `None`
/// without the heading or when it names no known label.
pub fn parse_text_ranking(text: &str, labels: &[String]) -> Option<Vec<String>> {
    let upper = text.to_uppercase();
    let start = upper.rfind(FINAL_RANKING)? + FINAL_RANKING.len();
    let tail = &upper[start..];
    let mut found: Vec<(usize, &String)> = labels
        .iter()
        .filter_map(|label| first_mention(tail, &label.to_uppercase()).map(|at| (at, label)))
        .collect();
    found.sort_by_key(|(at, _)| *at);
    let ranking: Vec<String> = found.into_iter().map(|(_, label)| label.clone()).collect();
    (!ranking.is_empty()).then_some(ranking)
}

/// Where `label` first stands as a whole word in `text` (so `Response A` is not found
/// inside `Response AB`).
fn first_mention(text: &str, label: &str) -> Option<usize> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(offset) = text[from..].find(label) {
        let at = from + offset;
        let end = at + label.len();
        let before_ok = text[..at].chars().next_back().is_none_or(|c| !is_word(c));
        let after_ok = text[end..].chars().next().is_none_or(|c| !is_word(c));
        if before_ok && after_ok {
            return Some(at);
        }
        from = end;
    }
    None
}

/// One candidate's place in the aggregate ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub candidate: String,
    /// Borda points: on a ballot of `k` candidates the first gets `k - 1`, the last 0.
    pub points: u32,
    /// The mean of its positions (1 = first) over the ballots that ranked it; `None` when
    /// no ballot did.
    pub mean_rank: Option<f64>,
    /// How many ballots ranked it.
    pub ballots: u32,
}

/// Every candidate of `candidates` (config order) in aggregate order: most Borda points,
/// then the better mean rank, then config order. A ballot names candidates best first;
/// names outside `candidates` and repeats are skipped.
pub fn borda(candidates: &[String], ballots: &[Vec<String>]) -> Vec<Standing> {
    let mut standings: Vec<Standing> = candidates
        .iter()
        .map(|candidate| Standing {
            candidate: candidate.clone(),
            points: 0,
            mean_rank: None,
            ballots: 0,
        })
        .collect();
    let index: HashMap<&str, usize> = candidates
        .iter()
        .enumerate()
        .map(|(at, candidate)| (candidate.as_str(), at))
        .collect();
    let mut rank_sums = vec![0u32; candidates.len()];
    for ballot in ballots {
        let mut seen = Vec::new();
        let valid: Vec<usize> = ballot
            .iter()
            .filter_map(|name| index.get(name.as_str()).copied())
            .filter(|at| {
                let fresh = !seen.contains(at);
                seen.push(*at);
                fresh
            })
            .collect();
        let size = u32::try_from(valid.len()).unwrap_or(u32::MAX);
        for (position, at) in (0u32..).zip(valid) {
            standings[at].points += size - 1 - position;
            standings[at].ballots += 1;
            rank_sums[at] += position + 1;
        }
    }
    for (standing, sum) in standings.iter_mut().zip(rank_sums) {
        if standing.ballots > 0 {
            standing.mean_rank = Some(f64::from(sum) / f64::from(standing.ballots));
        }
    }
    let order: Vec<usize> = (0..candidates.len()).collect();
    let mut ranked: Vec<(usize, Standing)> = order.into_iter().zip(standings).collect();
    ranked.sort_by(|(a_at, a), (b_at, b)| {
        b.points
            .cmp(&a.points)
            .then_with(|| {
                let a_rank = a.mean_rank.unwrap_or(f64::INFINITY);
                let b_rank = b.mean_rank.unwrap_or(f64::INFINITY);
                a_rank.total_cmp(&b_rank)
            })
            .then_with(|| a_at.cmp(b_at))
    });
    ranked.into_iter().map(|(_, standing)| standing).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(names: &[&str]) -> Vec<String> {
        names.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_final_ranking_is_read_best_first_from_its_numbered_list() {
        let known = labels(&["Response A", "Response B", "Response C"]);
        let text = "Response A is thorough but Response C is wrong.\n\n\
                    FINAL RANKING:\n1. Response B\n2. Response A\n3. Response C\n";
        assert_eq!(
            parse_text_ranking(text, &known),
            Some(labels(&["Response B", "Response A", "Response C"]))
        );
    }

    #[test]
    fn the_last_heading_counts_and_its_case_does_not() {
        let known = labels(&["Response A", "Response B"]);
        let text =
            "Format: FINAL RANKING: 1. Response A\n\nFinal ranking:\n1. response b\n2. Response A";
        assert_eq!(
            parse_text_ranking(text, &known),
            Some(labels(&["Response B", "Response A"]))
        );
    }

    #[test]
    fn without_the_heading_or_a_known_label_there_is_no_ranking() {
        let known = labels(&["Response A", "Response B"]);
        assert_eq!(
            parse_text_ranking("1. Response A\n2. Response B", &known),
            None
        );
        assert_eq!(
            parse_text_ranking("FINAL RANKING:\n1. Response Z", &known),
            None
        );
    }

    #[test]
    fn a_label_inside_a_longer_one_is_not_a_mention() {
        let known = labels(&["Response A", "Response AB"]);
        let text = "FINAL RANKING:\n1. Response AB\n2. Response A";
        assert_eq!(
            parse_text_ranking(text, &known),
            Some(labels(&["Response AB", "Response A"]))
        );
    }

    #[test]
    fn borda_gives_the_first_of_k_ranked_k_minus_one_points() {
        let candidates = labels(&["a", "b", "c"]);
        let ballots = vec![
            labels(&["b", "c"]),
            labels(&["a", "b"]),
            labels(&["b", "a"]),
        ];
        let standings = borda(&candidates, &ballots);
        let order: Vec<(&str, u32)> = standings
            .iter()
            .map(|standing| (standing.candidate.as_str(), standing.points))
            .collect();
        assert_eq!(order, [("b", 2), ("a", 1), ("c", 0)]);
        assert_eq!(standings[0].mean_rank, Some(4.0 / 3.0));
        assert_eq!(standings[0].ballots, 3);
    }

    #[test]
    fn ties_go_to_the_better_mean_rank_then_to_config_order() {
        let candidates = labels(&["a", "b", "c", "d"]);
        // c 4 points, a 2 (second twice: mean rank 2.0), b 2 (first once: mean 1.0), d 1.
        let ballots = vec![
            labels(&["c", "a", "d"]),
            labels(&["c", "a", "d"]),
            labels(&["b", "d", "c"]),
        ];
        let standings = borda(&candidates, &ballots);
        let order: Vec<&str> = standings.iter().map(|s| s.candidate.as_str()).collect();
        assert_eq!(order, ["c", "b", "a", "d"]);
        // Nobody ranked: config order, after everyone ranked.
        let standings = borda(&candidates, &[]);
        let order: Vec<&str> = standings.iter().map(|s| s.candidate.as_str()).collect();
        assert_eq!(order, ["a", "b", "c", "d"]);
        assert!(standings.iter().all(|s| s.mean_rank.is_none()));
    }

    #[test]
    fn unknown_names_and_repeats_on_a_ballot_are_skipped() {
        let candidates = labels(&["a", "b"]);
        let ballots = vec![labels(&["zed", "b", "b", "a"])];
        let standings = borda(&candidates, &ballots);
        assert_eq!(standings[0].candidate, "b");
        assert_eq!(standings[0].points, 1);
        assert_eq!(standings[1].points, 0);
        assert_eq!(standings[1].ballots, 1);
    }
}

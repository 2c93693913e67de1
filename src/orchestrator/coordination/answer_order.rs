//! The order a voter sees the current answers in (MassGen 0.1.90's position-bias
//! calibration): sorted by anonymous id, then rotated left so the voter's own answer comes
//! last. Deterministic, so replays and tests see the same order.

use crate::protocol::AnonId;

use super::terms::VisibleAnswer;

/// `answers` as `own` sees them. Sorted by anonymous id as text (`agent10` before
/// `agent2`, as MassGen sorts its labels), then rotated left by a seed: the position of
/// `own`'s answer plus one, which puts it last; for a voter without an answer, the number
/// in its id, so the first place still moves from voter to voter. One answer or none stays
/// as it is.
pub fn for_voter(mut answers: Vec<VisibleAnswer>, own: &AnonId) -> Vec<VisibleAnswer> {
    if answers.len() < 2 {
        return answers;
    }
    answers.sort_by(|left, right| left.anon.as_str().cmp(right.anon.as_str()));
    let seed = match answers.iter().position(|answer| &answer.anon == own) {
        Some(position) => position + 1,
        None => own_number(own),
    };
    let rotation = seed % answers.len();
    answers.rotate_left(rotation);
    answers
}

/// The digits of an anonymous id read as a number (`agent3` → 3), 0 when it has none.
fn own_number(own: &AnonId) -> usize {
    let digits: String = own.as_str().chars().filter(char::is_ascii_digit).collect();
    digits.parse().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{AgentId, AnonymousMapping, AnswerLabel};

    fn answers_from(count: usize, skip: &[usize]) -> (AnonymousMapping, Vec<VisibleAnswer>) {
        let ids: Vec<AgentId> = (1..=count)
            .map(|number| AgentId::new(format!("a{number:02}")))
            .collect();
        let mapping = AnonymousMapping::new(&ids);
        let answers = mapping
            .pairs()
            .enumerate()
            .filter(|(index, _)| !skip.contains(&(index + 1)))
            .map(|(_, (anon, _))| VisibleAnswer {
                anon: anon.clone(),
                label: AnswerLabel::answer(anon, 1),
                content: format!("answer of {anon}"),
            })
            .collect();
        (mapping, answers)
    }

    fn order(answers: &[VisibleAnswer]) -> Vec<&str> {
        answers.iter().map(|answer| answer.anon.as_str()).collect()
    }

    fn anon(mapping: &AnonymousMapping, number: usize) -> AnonId {
        let real = AgentId::new(format!("a{number:02}"));
        mapping
            .anon(&real)
            .cloned()
            .unwrap_or_else(|| unreachable!())
    }

    #[test]
    fn each_voter_sees_its_own_answer_last() {
        let (mapping, answers) = answers_from(3, &[]);
        let seen = |number| order(&for_voter(answers.clone(), &anon(&mapping, number))).join(" ");
        assert_eq!(seen(1), "agent2 agent3 agent1");
        assert_eq!(seen(2), "agent3 agent1 agent2");
        assert_eq!(seen(3), "agent1 agent2 agent3");
    }

    #[test]
    fn a_voter_without_an_answer_rotates_by_its_number() {
        // agent2 has not answered: the two answers rotate by 2 % 2 = 0.
        let (mapping, answers) = answers_from(3, &[2]);
        let seen = for_voter(answers.clone(), &anon(&mapping, 2));
        assert_eq!(order(&seen), ["agent1", "agent3"]);
        // Among agents 1, 2 and 4 of four, agent3 (no answer) rotates by 3 % 3 = 0 and
        // agent1 puts its own last.
        let (mapping, answers) = answers_from(4, &[3]);
        let seen = for_voter(answers.clone(), &anon(&mapping, 3));
        assert_eq!(order(&seen), ["agent1", "agent2", "agent4"]);
        let seen = for_voter(answers, &anon(&mapping, 1));
        assert_eq!(order(&seen), ["agent2", "agent4", "agent1"]);
        // agent4 (no answer) among three answers rotates by 4 % 3 = 1.
        let (mapping, answers) = answers_from(4, &[4]);
        let seen = for_voter(answers, &anon(&mapping, 4));
        assert_eq!(order(&seen), ["agent2", "agent3", "agent1"]);
    }

    #[test]
    fn ids_sort_as_text_like_massgen_labels() {
        let (mapping, answers) = answers_from(10, &[3, 4, 5, 6, 7, 8, 9]);
        // Sorted as text: agent1, agent10, agent2; agent10 is second, so it rotates by 2.
        let seen = for_voter(answers, &anon(&mapping, 10));
        assert_eq!(order(&seen), ["agent2", "agent1", "agent10"]);
    }

    #[test]
    fn a_single_answer_is_left_alone() {
        let (mapping, answers) = answers_from(2, &[2]);
        let seen = for_voter(answers, &anon(&mapping, 2));
        assert_eq!(order(&seen), ["agent1"]);
    }
}

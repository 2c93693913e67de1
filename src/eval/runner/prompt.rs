//! What a contender is asked for an item: the question, its lettered choices, and how to
//! state the final answer so a scorer can read it.

use crate::eval::record::Item;

pub fn question_prompt(item: &Item) -> String {
    let mut prompt = item.question.trim().to_string();
    if item.choices.is_empty() {
        prompt.push_str("\n\nEnd with the final answer alone on a last line: `Answer: …`.");
        return prompt;
    }
    prompt.push_str("\n\n");
    for (letter, choice) in ('A'..='Z').zip(&item.choices) {
        prompt.push_str(&format!("{letter}) {choice}\n"));
    }
    prompt
        .push_str("\nEnd with the letter of the correct choice alone on a last line: `Answer: X`.");
    prompt
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_the_choices_and_asks_for_a_final_line() {
        let item = Item {
            id: "1".into(),
            question: "Which? ".into(),
            answer: "B".into(),
            choices: vec!["one".into(), "two".into()],
            scorer: None,
        };
        let prompt = question_prompt(&item);
        assert!(prompt.starts_with("Which?\n\nA) one\nB) two\n"), "{prompt}");
        assert!(prompt.ends_with("`Answer: X`."));
        let open = Item {
            choices: Vec::new(),
            ..item
        };
        assert!(question_prompt(&open).contains("`Answer: …`"));
    }
}

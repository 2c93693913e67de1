//! The judge scorer's exchange: the prompt a judge model gets for one answer, and its
//! verdict read back from the reply's last line (`CORRECT` or `INCORRECT`).

use crate::eval::record::Item;

/// The judge's instructions for `answer` to `item`, with the exact reply format.
pub fn prompt(item: &Item, answer: &str) -> String {
    let mut text = String::from(
        "You are grading an answer to a question against the reference answer.\n\
         Judge only whether the answer's final conclusion agrees with the reference; ignore \
         style, length and reasoning steps, and accept equivalent wording, units or notation.\n\n",
    );
    text.push_str(&format!("## Question\n\n{}\n\n", item.question.trim()));
    if !item.choices.is_empty() {
        text.push_str("## Choices\n\n");
        for (index, choice) in item.choices.iter().enumerate() {
            let letter = char::from(b'A' + index as u8);
            text.push_str(&format!("{letter}. {}\n", choice.trim()));
        }
        text.push('\n');
    }
    text.push_str(&format!(
        "## Reference answer\n\n{}\n\n",
        item.answer.trim()
    ));
    text.push_str(&format!("## Answer to grade\n\n{}\n\n", answer.trim()));
    text.push_str(
        "## Reply format\n\n\
         Explain briefly if you wish, then end your reply with one last line that is exactly \
         one word: CORRECT if the answer agrees with the reference, INCORRECT otherwise.\n",
    );
    text
}

/// The verdict on the reply's last non-empty line: `Some(true)` for CORRECT, `Some(false)`
/// for INCORRECT (case, markdown, punctuation and a `Verdict:` prefix are tolerated);
/// `None` when the last line is neither.
pub fn parse_verdict(reply: &str) -> Option<bool> {
    let last = reply
        .lines()
        .map(str::trim)
        .rfind(|line| !line.is_empty())?;
    let word: String = last
        .chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace() || *c == ':')
        .collect::<String>()
        .to_ascii_uppercase();
    let word = word.trim();
    let word = ["FINAL VERDICT:", "VERDICT:", "GRADE:"]
        .iter()
        .find_map(|prefix| word.strip_prefix(prefix))
        .unwrap_or(word)
        .trim();
    match word {
        "CORRECT" => Some(true),
        "INCORRECT" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_shows_question_choices_reference_answer_and_format() {
        let item = Item {
            id: "7".into(),
            question: "Capital of France?".into(),
            answer: "A".into(),
            choices: vec!["Paris".into(), "Lyon".into()],
            scorer: Some("judge".into()),
        };
        let text = prompt(&item, " It is Paris. ");
        for part in [
            "## Question\n\nCapital of France?\n",
            "A. Paris\nB. Lyon\n",
            "## Reference answer\n\nA\n",
            "## Answer to grade\n\nIt is Paris.\n",
            "exactly one word: CORRECT if the answer agrees with the reference, INCORRECT",
        ] {
            assert!(text.contains(part), "{part:?} missing from:\n{text}");
        }
        let plain = Item {
            choices: vec![],
            ..item
        };
        assert!(!prompt(&plain, "x").contains("## Choices"));
    }

    #[test]
    fn verdicts_are_read_from_the_last_line() {
        assert_eq!(parse_verdict("The answer matches.\nCORRECT"), Some(true));
        assert_eq!(parse_verdict("Wrong unit.\n\nINCORRECT\n\n"), Some(false));
        assert_eq!(parse_verdict("**Correct**."), Some(true));
        assert_eq!(parse_verdict("Verdict: INCORRECT"), Some(false));
        assert_eq!(parse_verdict("CORRECT\nbut on reflection, unsure"), None);
        assert_eq!(parse_verdict("not correct"), None);
        assert_eq!(parse_verdict(""), None);
    }
}

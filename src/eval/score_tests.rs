//! Scorer parsing, defaults, and final-answer extraction over the phrasings models use.

use super::*;

fn item(answer: &str, choices: &[&str]) -> Item {
    Item {
        id: "1".into(),
        question: "q".into(),
        answer: answer.into(),
        choices: choices.iter().map(|c| c.to_string()).collect(),
        scorer: None,
    }
}

fn scorer(spec: &str) -> Scorer {
    Scorer::parse(spec).unwrap()
}

fn check(spec: &str, item: &Item, cases: &[(&str, Option<&str>, bool)]) {
    let scorer = scorer(spec);
    for (answer, extracted, correct) in cases {
        let scored = score(&scorer, item, answer);
        assert_eq!(
            scored,
            Scored {
                correct: *correct,
                extracted: extracted.map(String::from)
            },
            "{spec} on {answer:?}"
        );
    }
}

#[test]
fn every_extraction_pattern_compiles() {
    assert!(crate::eval::extract::patterns_compile());
}

#[test]
fn scorers_parse_from_their_names_and_print_back() {
    for (spec, printed) in [
        ("exact", "exact"),
        ("Normalized", "normalised"),
        ("normalised", "normalised"),
        ("number", "number"),
        ("number:0.01", "number:0.01"),
        ("choice", "choice"),
        ("regex:^4[0-9]$", "regex:^4[0-9]$"),
        ("judge", "judge"),
    ] {
        assert_eq!(scorer(spec).to_string(), printed);
    }
    assert_eq!(scorer("number:0.05"), Scorer::Number { tolerance: 0.05 });
    assert!(
        Scorer::parse("fuzzy")
            .unwrap_err()
            .contains("unknown scorer `fuzzy`")
    );
    assert!(
        Scorer::parse("number:-1")
            .unwrap_err()
            .contains("0 or more")
    );
    assert!(Scorer::parse("number:x").is_err());
    assert!(Scorer::parse("regex:(").unwrap_err().contains("not valid"));
    assert!(
        Scorer::parse("regex")
            .unwrap_err()
            .contains("needs a pattern")
    );
}

#[test]
fn the_default_follows_the_item() {
    assert_eq!(Scorer::default_for(&item("B", &["x", "y"])), Scorer::Choice);
    assert_eq!(Scorer::default_for(&item("1,234", &[])), scorer("number"));
    assert_eq!(Scorer::default_for(&item("-3/4", &[])), scorer("number"));
    assert_eq!(
        Scorer::default_for(&item("12 apples", &[])),
        Scorer::Normalised
    );
    assert_eq!(Scorer::default_for(&item("Paris", &[])), Scorer::Normalised);
}

#[test]
fn choice_letters_are_read_as_graders_read_them() {
    let question = item("B", &["Paris", "London", "Rome", "Madrid"]);
    check(
        "choice",
        &question,
        &[
            ("B", Some("B"), true),
            ("B.", Some("B"), true),
            ("Answer: B", Some("B"), true),
            ("The answer is (B).", Some("B"), true),
            ("The answer is **B**", Some("B"), true),
            ("**(B)** London", Some("B"), true),
            ("Final answer: option B", Some("B"), true),
            (
                "A seems likely at first, but the answer is B",
                Some("B"),
                true,
            ),
            ("(A) is wrong and (B) is right", Some("B"), true),
            ("Answer: C\nOn reflection the answer is B", Some("B"), true),
            ("I think it's B", Some("B"), true),
            ("$\\boxed{B}$", Some("B"), true),
            ("It is London.", Some("B"), true),
            ("Not Paris: the capital is London", Some("B"), true),
            (
                "The answer is B. Choice A is wrong: that is Paris.",
                Some("B"),
                true,
            ),
            ("I would go with option B, not A", Some("B"), true),
            ("Answer: D", Some("D"), false),
            ("Answer: E", None, false),
            ("I do not know", None, false),
        ],
    );
}

#[test]
fn numbers_are_the_last_one_given_or_the_one_marked() {
    let question = item("1234", &[]);
    check(
        "number",
        &question,
        &[
            ("1234", Some("1234"), true),
            ("The total is 1,234.", Some("1234"), true),
            ("3 boxes of 400 plus 34 make 1234", Some("1234"), true),
            ("#### 1234", Some("1234"), true),
            ("Answer: $1,234.00", Some("1234"), true),
            ("\\boxed{1234} since 1000 + 234", Some("1234"), true),
            ("The answer is 1234 (1000 + 200 + 34)", Some("1234"), true),
            (
                "Final answer: 1234\nCheck: 617 × 2 = 1234 ✓, so 2 checks",
                Some("1234"),
                true,
            ),
            ("The answer is 1235", Some("1235"), false),
            ("no idea", None, false),
        ],
    );
    check(
        "number",
        &item("0.75", &[]),
        &[
            ("3/4", Some("0.75"), true),
            ("It is \\frac{3}{4}", Some("0.75"), true),
            (".75", Some("0.75"), true),
        ],
    );
    check(
        "number",
        &item("-5", &[]),
        &[
            ("The change is -5", Some("-5"), true),
            ("It fell by −5", Some("-5"), true),
            ("x-5", Some("5"), false),
        ],
    );
    check(
        "number",
        &item("12.5%", &[]),
        &[("About 12.5 %", Some("12.5"), true)],
    );
}

#[test]
fn tolerance_is_relative_above_one_and_absolute_below() {
    let within_a_percent = scorer("number:0.01");
    let big = item("200", &[]);
    assert!(score(&within_a_percent, &big, "201.9").correct);
    assert!(!score(&within_a_percent, &big, "202.1").correct);
    let small = item("0.5", &[]);
    assert!(score(&within_a_percent, &small, "0.509").correct);
    assert!(!score(&within_a_percent, &small, "0.52").correct);
    assert!(!score(&scorer("number"), &item("0.1", &[]), "0.1001").correct);
}

#[test]
fn normalised_text_ignores_case_punctuation_articles_and_markdown() {
    let question = item("The Eiffel Tower", &[]);
    check(
        "normalised",
        &question,
        &[
            ("eiffel tower", Some("eiffel tower"), true),
            ("**The Eiffel Tower.**", Some("eiffel tower"), true),
            (
                "It is tall.\nFinal answer: an Eiffel  Tower!",
                Some("eiffel tower"),
                true,
            ),
            ("Answer:\n\n`Eiffel Tower`", Some("eiffel tower"), true),
            ("Big Ben", Some("big ben"), false),
        ],
    );
}

#[test]
fn exact_regex_and_judge() {
    check(
        "exact",
        &item("Paris", &[]),
        &[
            (" Paris\n", Some("Paris"), true),
            ("paris", Some("paris"), false),
        ],
    );
    check(
        "regex:^4[0-9]$",
        &item("42", &[]),
        &[
            ("The answer is 42", Some("42"), true),
            ("47", Some("47"), true),
            ("Answer: 52", None, false),
        ],
    );
    check("judge", &item("42", &[]), &[("42", None, false)]);
}

#[test]
fn majority_keys_group_answers_that_say_the_same() {
    let choice = item("B", &["Paris", "London"]);
    let key = |spec: &str, item: &Item, answer: &str| majority_key(&scorer(spec), item, answer);
    assert_eq!(
        key("choice", &choice, "Answer: B"),
        key("choice", &choice, "**B**")
    );
    assert_eq!(key("choice", &choice, "It is London"), Some("B".into()));
    assert_eq!(key("choice", &choice, "unsure"), None);
    let number = item("1234", &[]);
    assert_eq!(key("number", &number, "1,234"), Some("1234".into()));
    assert_eq!(key("number", &number, "#### 1234.0"), Some("1234".into()));
    let text = item("Paris", &[]);
    assert_eq!(
        key("normalised", &text, "The answer is: PARIS."),
        Some("paris".into())
    );
    assert_eq!(key("judge", &text, "Paris!"), Some("paris".into()));
    assert_eq!(key("exact", &text, "  "), None);
}

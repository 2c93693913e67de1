//! Every dataset format the loader reads, from the fixtures under tests/fixtures/eval/, and
//! the errors that say where a dataset is wrong and how to fix it.

use std::path::PathBuf;

use super::*;

fn fixture(name: &str) -> Vec<Item> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/eval")
        .join(name);
    load(&path).unwrap()
}

fn item(id: &str, question: &str, answer: &str, choices: &[&str], scorer: Option<&str>) -> Item {
    Item {
        id: id.into(),
        question: question.into(),
        answer: answer.into(),
        choices: choices.iter().map(|c| c.to_string()).collect(),
        scorer: scorer.map(String::from),
    }
}

fn error(text: &str, name: &str) -> String {
    load_text(text, name).unwrap_err().to_string()
}

#[test]
fn jsonl_items_take_their_line_number_when_they_have_no_id() {
    assert_eq!(
        fixture("plain.jsonl"),
        vec![
            item(
                "capital",
                "What is the capital of France?",
                "Paris",
                &[],
                None
            ),
            item("2", "What is 6 times 7?", "42", &[], Some("number")),
            item(
                "17",
                "Name a prime between 40 and 50.",
                "43",
                &[],
                Some("regex:^4[137]$")
            ),
            item("mc", "Which is a fruit?", "B", &["Carrot", "Apple"], None),
        ]
    );
}

#[test]
fn a_csv_finds_its_columns_by_name_and_reads_quoted_commas_and_line_breaks() {
    assert_eq!(
        fixture("qa.csv"),
        vec![
            item("q1", "Say \"hi\", then stop.", "hi", &[], None),
            item("2", "Add these:\n2, 3 and 4", "9", &[], None),
        ]
    );
    assert_eq!(
        fixture("mc.csv"),
        vec![item(
            "1",
            "Which planet is largest?",
            "B",
            &["Mars", "Jupiter", "Venus", "Earth"],
            None
        )]
    );
}

#[test]
fn mmlu_answers_are_an_index_or_the_choice_text() {
    let items = fixture("mmlu.jsonl");
    assert_eq!(items[0].answer, "B");
    assert_eq!(items[0].choices, vec!["Joule", "Newton", "Watt", "Pascal"]);
    assert_eq!(items[0].id, "1");
    assert_eq!(items[1].answer, "C");
}

#[test]
fn arc_choices_objects_and_numeric_labels_become_letters() {
    let items = fixture("arc.jsonl");
    assert_eq!(items[0].id, "Mercury_7175875");
    assert_eq!(items[0].answer, "C");
    assert_eq!(items[0].choices[2], "Planetary days will become shorter.");
    assert_eq!(items[1].answer, "C", "label \"3\" is the third choice");
    assert_eq!(
        items[2],
        item(
            "ARC-original",
            "Which gas do plants take in?",
            "B",
            &["oxygen", "carbon dioxide"],
            None
        )
    );
}

#[test]
fn hellaswag_endings_and_a_string_index_label() {
    let items = fixture("hellaswag.jsonl");
    assert_eq!(items[0].question, "A man is sitting on a roof. He");
    assert_eq!(items[0].answer, "D");
    assert_eq!(items[0].choices.len(), 4);
}

#[test]
fn gsm8k_answers_keep_what_follows_the_hashes() {
    let items = fixture("gsm8k.jsonl");
    assert_eq!(items[0].answer, "72");
    assert!(items[0].question.starts_with("Natalia sold clips"));
}

#[test]
fn a_json_list_is_read_like_jsonl() {
    assert_eq!(
        fixture("list.json"),
        vec![
            item("a", "Colour of the sky on a clear day?", "blue", &[], None),
            item("2", "Opposite of hot?", "cold", &[], None),
        ]
    );
}

#[test]
fn the_format_follows_the_content_when_the_name_has_no_extension() {
    let jsonl = load_text("{\"question\": \"q\", \"answer\": \"a\"}\n", "demo").unwrap();
    assert_eq!(jsonl[0].answer, "a");
    let csv = load_text("\u{feff}Problem,Solution\nq,a\n", "demo").unwrap();
    assert_eq!(csv[0].question, "q");
}

#[test]
fn errors_name_the_file_the_line_and_a_fix() {
    assert_eq!(
        error(
            "{\"question\": \"q\", \"answer\": \"a\"}\n\n{\"question\": \"q\"}\n",
            "d.jsonl"
        ),
        "dataset d.jsonl, line 3: the record has no answer; give the reference answer as one \
         of: answer, answerKey, label, target, output, solution"
    );
    let duplicate = error(
        "{\"id\": \"x\", \"question\": \"q\", \"answer\": \"a\"}\n\
         {\"id\": \"x\", \"question\": \"r\", \"answer\": \"b\"}\n",
        "d.jsonl",
    );
    assert_eq!(
        duplicate,
        "dataset d.jsonl, line 2: the id `x` is already used on line 1; give every item its own id"
    );
    assert!(error("\n\n", "e.jsonl").contains("dataset e.jsonl: it holds no items"));
    assert!(error("question,answer\n", "e.csv").contains("it holds no items"));
    assert!(error("{\"question\": \"q\",\n", "d.jsonl").contains("line 1: not valid JSON"));
    assert!(error("[1, 2]", "d.jsonl").contains("line 1: not a JSON object"));
    assert!(error("[1, 2]", "d.json").contains("record 1: not a JSON object"));
    assert!(error("{\"list\": []}", "d.json").contains("line 1: the record has no question"));
    let scorer = error(
        "{\"question\": \"q\", \"answer\": \"a\", \"scorer\": \"fuzzy\"}",
        "d.jsonl",
    );
    assert!(
        scorer.contains("line 1: unknown scorer `fuzzy`"),
        "{scorer}"
    );
    let choice = error(
        "{\"question\": \"q\", \"answer\": \"E\", \"choices\": [\"x\", \"y\"]}",
        "d.jsonl",
    );
    assert!(
        choice.contains("the answer \"E\" is none of the 2 choices"),
        "{choice}"
    );
    assert!(choice.contains("a letter A–B, a 0-based index"), "{choice}");
    let column = error("Text,Answer\nq,a\n", "d.csv");
    assert!(column.contains("line 1: the header (Text, Answer) names no question column"));
    assert!(
        column.contains("one of: question, stem, query, prompt"),
        "{column}"
    );
    let fields = error("question,answer\nq,a,extra\n", "d.csv");
    assert!(
        fields.contains("line 2: the row has 3 fields, the header 2"),
        "{fields}"
    );
    assert!(error("question,answer\n\"q,a\n", "d.csv").contains("line 2: a quoted field"));
    let missing = load(Path::new("/nonexistent/eval.jsonl")).unwrap_err();
    assert_eq!(missing.place, None);
    assert!(
        missing
            .to_string()
            .starts_with("dataset /nonexistent/eval.jsonl: cannot be read")
    );
}

//! The YAML loader against small documents, and against PyYAML on every difference class
//! found in real configs.

use super::*;

#[test]
fn nodes_keep_their_line_and_column() {
    let doc = parse("agents:\n  - id: a\n    backend:\n      type: scripted\n")
        .unwrap()
        .root
        .unwrap();
    let agents = doc.get("agents").unwrap();
    let Value::Seq(items) = &agents.value else {
        panic!("not a list")
    };
    let backend_type = items[0].get("backend").unwrap().get("type").unwrap();
    assert_eq!(backend_type.as_str(), Some("scripted"));
    assert_eq!(
        backend_type.loc,
        Location {
            line: 4,
            column: 13
        }
    );
}

#[test]
fn scalars_are_typed_and_quoted_numbers_stay_strings() {
    let doc = parse("a: 3\nb: 0.5\nc: true\nd: \"3\"\ne: ~\n")
        .unwrap()
        .root
        .unwrap();
    assert_eq!(doc.get("a").unwrap().value, Value::Int(3));
    assert_eq!(doc.get("b").unwrap().value, Value::Float(0.5));
    assert_eq!(doc.get("c").unwrap().value, Value::Bool(true));
    assert_eq!(doc.get("d").unwrap().value, Value::Str("3".into()));
    assert_eq!(doc.get("e").unwrap().value, Value::Null);
}

#[test]
fn syntax_errors_have_locations() {
    let error = parse("a: [1, 2\n").unwrap_err();
    assert!(error.loc.line >= 1, "{error:?}");
}

#[test]
fn a_repeated_key_keeps_the_last_value_and_is_reported() {
    let doc = parse("a: 1\nb: 2\na: 3\n").unwrap();
    assert_eq!(doc.duplicate_key.map(|loc| loc.line), Some(3));
    assert_eq!(doc.root.unwrap().get("a").unwrap().value, Value::Int(3));
}

#[test]
fn merge_keys_fill_in_missing_entries() {
    let text = "base: &b {type: scripted, model: m}\nagent:\n  <<: *b\n  model: mine\n";
    let root = parse(text).unwrap().root.unwrap();
    let agent = root.get("agent").unwrap();
    assert_eq!(agent.get("type").unwrap().as_str(), Some("scripted"));
    assert_eq!(agent.get("model").unwrap().as_str(), Some("mine"));
    assert!(agent.get("<<").is_none());
    let error = parse("a:\n  <<: 3\n").unwrap_err();
    assert!(error.message.contains("merges a mapping"), "{error:?}");
}

#[test]
fn empty_text_has_no_document_and_aliases_resolve() {
    assert_eq!(parse("").unwrap().root, None);
    assert_eq!(parse("# only a comment\n").unwrap().root, None);
    let doc = parse("base: &b {x: 1}\ncopy: *b\n").unwrap().root.unwrap();
    assert_eq!(
        doc.get("copy").unwrap().get("x").unwrap().value,
        Value::Int(1)
    );
}

#[test]
fn json_is_accepted() {
    let doc = parse(r#"{"agent": {"id": "a", "backend": {"type": "scripted"}}}"#)
        .unwrap()
        .root
        .unwrap();
    assert!(doc.get("agent").unwrap().get("backend").is_some());
}

fn root(text: &str) -> Node {
    parse(text).unwrap().root.unwrap()
}

fn values(text: &str) -> Vec<(String, Value)> {
    root(text)
        .entries()
        .unwrap()
        .iter()
        .map(|entry| (entry.key.clone(), entry.value.value.clone()))
        .collect()
}

#[test]
fn yaml_1_1_booleans_like_pyyaml_but_not_y_or_n_or_quoted() {
    let text = "a: yes\nb: No\nc: on\nd: OFF\ne: y\nf: n\ng: \"yes\"\nh: True\n";
    let got = values(text);
    let expected = [
        Value::Bool(true),
        Value::Bool(false),
        Value::Bool(true),
        Value::Bool(false),
        Value::Str("y".into()),
        Value::Str("n".into()),
        Value::Str("yes".into()),
        Value::Bool(true),
    ];
    for ((key, value), expected) in got.iter().zip(expected) {
        assert_eq!(value, &expected, "{key}");
    }
}

#[test]
fn yaml_1_1_numbers_like_pyyaml() {
    let text = "oct: 017\nzero: 0\nbin: 0b101\nhex: 0x1F\nunder: 1_000\nsexa: 1:30\n\
                neg: -12\nplus: +3\nnoexp: 1e3\nexp: 6.5e+2\ndot: 0.\nhalf: .5\n\
                o12: 0o17\ninf: -.inf\nbig: 99999999999999999999\n";
    let got = values(text);
    let get = |key: &str| got.iter().find(|(k, _)| k == key).unwrap().1.clone();
    assert_eq!(get("oct"), Value::Int(15));
    assert_eq!(get("zero"), Value::Int(0));
    assert_eq!(get("bin"), Value::Int(5));
    assert_eq!(get("hex"), Value::Int(31));
    assert_eq!(get("under"), Value::Int(1000));
    assert_eq!(get("sexa"), Value::Int(90));
    assert_eq!(get("neg"), Value::Int(-12));
    assert_eq!(get("plus"), Value::Int(3));
    assert_eq!(get("noexp"), Value::Str("1e3".into()), "PyYAML needs a dot");
    assert_eq!(get("exp"), Value::Float(650.0));
    assert_eq!(get("dot"), Value::Float(0.0));
    assert_eq!(get("half"), Value::Float(0.5));
    assert_eq!(get("o12"), Value::Str("0o17".into()), "0o is YAML 1.2 only");
    assert_eq!(get("inf"), Value::Float(f64::NEG_INFINITY));
    assert_eq!(get("big"), Value::Float(1e20));
}

#[test]
fn nulls_and_core_tags_like_pyyaml() {
    let got = values("a: ~\nb: NULL\nc:\nd: \"\"\ne: !!int \"12\"\nf: !!str 12\ng: !!float 1\n");
    let expected = [
        Value::Null,
        Value::Null,
        Value::Null,
        Value::Str(String::new()),
        Value::Int(12),
        Value::Str("12".into()),
        Value::Float(1.0),
    ];
    for ((key, value), expected) in got.iter().zip(expected) {
        assert_eq!(value, &expected, "{key}");
    }
    let error = parse("a: !!int twelve\n").unwrap_err();
    assert!(error.message.contains("`!!` type tag"), "{error:?}");
}

#[test]
fn a_block_scalar_ending_the_file_without_a_newline_ends_without_one() {
    let doc = root("a: |\n  line1\n  line2");
    assert_eq!(doc.get("a").unwrap().as_str(), Some("line1\nline2"));
    let doc = root("a: |\n  line1\n  line2\n");
    assert_eq!(doc.get("a").unwrap().as_str(), Some("line1\nline2\n"));
    let doc = root("a: \"x\\n\"");
    assert_eq!(doc.get("a").unwrap().as_str(), Some("x\n"), "quoted: kept");
}

#[test]
fn a_flow_list_closed_left_of_its_items_loads_with_true_columns() {
    // As in MassGen's configs/tools/code-execution/multi_agent_playwright_automation.yaml.
    let text = "server:\n  playwright:\n    args: [\n      \"--browser=chrome\",  # a comment\n\
                \"--caps=vision\",\n      # \"--save-trace\"\n    ]\n  next: 1\n";
    let doc = root(text);
    let playwright = doc.get("server").unwrap().get("playwright").unwrap();
    let Value::Seq(items) = &playwright.get("args").unwrap().value else {
        panic!("not a list")
    };
    let args: Vec<&str> = items.iter().filter_map(Node::as_str).collect();
    assert_eq!(args, ["--browser=chrome", "--caps=vision"]);
    assert_eq!(
        items[1].loc,
        Location { line: 5, column: 1 },
        "the column as written"
    );
    assert_eq!(
        doc.get("server").unwrap().get("next").unwrap().value,
        Value::Int(1)
    );
    // Outside flow collections indentation still matters.
    let error = parse("a:\n    b: 1\n  c: 2\n").unwrap_err();
    assert_eq!(error.loc.line, 3, "{error:?}");
}

#[test]
fn a_repeated_key_keeps_its_place_and_last_value_even_quoted() {
    let doc = parse("a: 1\nb: 2\n\"a\": 3\n").unwrap();
    let root = doc.root.unwrap();
    let keys: Vec<&str> = root
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.key.as_str())
        .collect();
    assert_eq!(keys, ["a", "b"]);
    assert_eq!(root.get("a").unwrap().value, Value::Int(3));
    assert_eq!(doc.duplicate_key.map(|loc| loc.line), Some(3));
}

fn json_of(text: &str) -> serde_json::Value {
    parse(text).unwrap().root.unwrap().to_json()
}

#[test]
fn a_flow_list_in_a_sequence_item_may_close_under_the_items_key() {
    assert_eq!(
        json_of("- args: [\n  a,\n b,\n  ]\n- next\n"),
        serde_json::json!([{"args": ["a", "b"]}, "next"])
    );
    assert_eq!(
        json_of("- model: |\n  args: [\n  x]\n"),
        serde_json::json!([{"model": "", "args": ["x"]}]),
        "an empty block scalar ends at the next key"
    );
}

#[test]
fn a_quoted_scalars_later_lines_may_sit_left_of_its_item() {
    let doc = parse("steps:\n      - 'first\n    second'\n      - \"a\n  b\"\n").unwrap();
    let root = doc.root.unwrap();
    let Value::Seq(items) = &root.get("steps").unwrap().value else {
        panic!("not a list")
    };
    let texts: Vec<&str> = items.iter().filter_map(Node::as_str).collect();
    assert_eq!(texts, ["first second", "a b"]);
    assert_eq!(items[1].loc, Location { line: 4, column: 9 });
}

#[test]
fn blanks_after_the_last_line_break_are_not_a_line() {
    assert_eq!(
        json_of("a: >\n    text\n  "),
        serde_json::json!({"a": "text\n"})
    );
    assert_eq!(json_of("a: |+\n  x\n  "), serde_json::json!({"a": "x\n"}));
    assert_eq!(json_of("a: >+\n    "), serde_json::json!({"a": ""}));
    assert_eq!(json_of("a: |\n  text"), serde_json::json!({"a": "text"}));
}

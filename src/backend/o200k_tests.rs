//! Tests of the o200k encoder against tiktoken's: the same table token for token, and the
//! same tokens for generated text of words, contractions, numbers, punctuation, white space,
//! accents, CJK, emoji and special-token text.

use std::sync::LazyLock;

use proptest::prelude::*;

use super::Encoder;

static ENCODER: LazyLock<Encoder> = LazyLock::new(|| Encoder::o200k().unwrap());

fn tiktoken() -> &'static tiktoken_rs::CoreBPE {
    tiktoken_rs::o200k_base_singleton()
}

/// Our tokens and count for `text` equal tiktoken's `encode_ordinary`.
fn assert_as_tiktoken(text: &str) {
    let theirs = tiktoken().encode_ordinary(text);
    assert_eq!(ENCODER.encode(text), theirs, "{text:?}");
    assert_eq!(ENCODER.count(text), theirs.len(), "{text:?}");
}

#[test]
fn the_packed_table_is_tiktokens_o200k_token_for_token() {
    assert_eq!(ENCODER.ranks.len(), 199_998);
    for (token, rank) in &ENCODER.ranks {
        assert_eq!(
            tiktoken().decode_bytes(&[*rank]).unwrap(),
            token.as_ref(),
            "rank {rank}"
        );
    }
}

#[test]
fn text_encodes_as_tiktoken_encodes_it() {
    assert_as_tiktoken("Fn main() { println!(\"héllo, 世界 🌍\"); } // 12345 tokens\n\n  it's");
    assert_as_tiktoken("");
    assert_as_tiktoken("hello world");
    // Special tokens' text is ordinary text, as in tiktoken's `encode_ordinary`.
    assert_as_tiktoken("a<|endoftext|>b<|endofprompt|>");
    // Pieces of 100 bytes and more take tiktoken's other merge loop.
    assert_as_tiktoken(&"w".repeat(5000));
    assert_as_tiktoken(&"ab1-".repeat(300));
    assert_as_tiktoken(&"\u{301}".repeat(200));
}

#[test]
fn a_piece_of_one_byte_is_one_token_and_an_empty_one_none() {
    assert_eq!(ENCODER.token_starts(b"a"), vec![0]);
    assert!(ENCODER.token_starts(b"").is_empty());
    assert_eq!(ENCODER.count(""), 0);
}

fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            " ",
            "  ",
            "\n",
            "\r\n",
            "\n\n",
            "\t",
            " \n ",
            "'s",
            "'T",
            "'re",
            "'VE",
            "'ll",
            "'d",
            "'m",
            "'x",
            "<|endoftext|>",
            "é",
            "É",
            "\u{301}",
            "世界",
            "こんにちは",
            "🌍",
            "👍🏽",
            "ß",
            "ﬁ",
            "Ǆ",
            "١٢٣",
            "½",
            "...",
            "//",
            "/\n",
            "()",
            "{}",
            "\"",
            "#",
            "$",
            "_",
        ])
        .prop_map(String::from),
        "[a-z]{1,10}",
        "[A-Z][a-z]{0,8}",
        "[A-Z]{2,6}",
        "[0-9]{1,7}",
        "[ \t\r\n]{1,6}",
        "[!-/:-@\\[-`{-~]{1,4}",
        "\\PC{1,6}",
        any::<char>().prop_map(String::from),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..32).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn generated_text_encodes_as_tiktoken_encodes_it(text in text()) {
        let theirs = tiktoken().encode_ordinary(&text);
        prop_assert_eq!(ENCODER.encode(&text), theirs.clone(), "{:?}", text);
        prop_assert_eq!(ENCODER.count(&text), theirs.len(), "{:?}", text);
    }
}

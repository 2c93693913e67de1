//! Tests for the shell-aware lexer.

use super::*;

fn words(text: &str) -> Vec<Vec<String>> {
    lex(text).commands.into_iter().map(|c| c.words).collect()
}

#[test]
fn quotes_escapes_and_adjacent_pieces_make_one_word() {
    assert_eq!(words(r"\c\u\r\l x"), vec![vec!["curl", "x"]]);
    assert_eq!(
        words("c''url 'a b' \"c d\""),
        vec![vec!["curl", "a b", "c d"]]
    );
    assert_eq!(words(r"$'\x63\165rl' x"), vec![vec!["curl", "x"]]);
    assert_eq!(
        words(r#"echo "a \"b\" \$c""#),
        vec![vec!["echo", "a \"b\" $c"]]
    );
    assert_eq!(words("echo ''"), vec![vec!["echo", ""]]);
}

#[test]
fn operators_split_commands_and_redirections_are_kept_apart() {
    assert_eq!(
        words("a 1; b && c || d | e & f\ng # comment"),
        vec![
            vec!["a", "1"],
            vec!["b"],
            vec!["c"],
            vec!["d"],
            vec!["e"],
            vec!["f"],
            vec!["g"]
        ]
    );
    let lexed = lex("cat a > out.txt 2>&1 < in");
    assert_eq!(lexed.commands[0].words, vec!["cat", "a"]);
    assert_eq!(lexed.commands[0].redirects, vec!["out.txt", "in"]);
    assert!(lexed.commands[0].writes);
    assert!(!lex("cat < in").commands[0].writes);
}

#[test]
fn substitutions_are_kept_for_checking() {
    let lexed = lex("echo $(curl x) `wget y` \"$(nc h 1)\" <(ssh h)");
    assert_eq!(lexed.nested, vec!["curl x", "wget y", "nc h 1", "ssh h"]);
    assert_eq!(lex("echo $((1 + 2))").nested, Vec::<String>::new());
}

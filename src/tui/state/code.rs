//! Syntax highlighting of fenced code blocks in streamed text, done once per line as each
//! line completes (never per frame): the highlighter's state is kept between deltas.

use std::fmt;
use std::sync::OnceLock;

use syntect::dumps::{from_reader, from_uncompressed_data};
use syntect::highlighting::{HighlightIterator, HighlightState, Highlighter, Theme};
use syntect::parsing::{ParseState, ScopeStack, SyntaxSet};

/// One highlighted piece of a code line: its colour and text.
pub type CodeSpan = ((u8, u8, u8), String);

/// The syntaxes of syntect's default set that answers' code blocks use, written by build.rs
/// (build/highlight.rs), and the theme their colours come from.
const SYNTAX_TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/syntaxes.packdump"));
const THEME_TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/theme.themedump"));

/// The syntax definitions and theme (megabytes once decoded), decoded on first use (the
/// first line inside a code block), never at start-up. `None` if a table could not be read (a
/// broken build): code blocks are then drawn uncoloured.
static SYNTAXES: OnceLock<Option<SyntaxSet>> = OnceLock::new();
static THEME: OnceLock<Option<Theme>> = OnceLock::new();

/// Whether the highlighting tables have been loaded in this process: they must not be until
/// a code block needs them (the footprint test checks `--help` and a demo turn).
pub fn highlight_tables_loaded() -> bool {
    SYNTAXES.get().is_some() || THEME.get().is_some()
}

fn syntaxes() -> Option<&'static SyntaxSet> {
    SYNTAXES
        .get_or_init(|| from_uncompressed_data(SYNTAX_TABLE).ok())
        .as_ref()
}

fn theme() -> Option<&'static Theme> {
    THEME.get_or_init(|| from_reader(THEME_TABLE).ok()).as_ref()
}

/// The highlighted lines of one text, as far as its complete lines go.
#[derive(Clone, Default)]
pub struct CodeLines {
    /// Per source line: the highlighted spans of a line inside a code block, `None` for
    /// every other line (prose, fences).
    pub lines: Vec<Option<Vec<CodeSpan>>>,
    /// Per source line: whether it began inside a code block (a partial line there is
    /// code, or the fence that closes it).
    inside: Vec<bool>,
    /// Bytes of the text already split into lines.
    consumed: usize,
    /// Bytes known to hold no line break past `consumed`: a long line streamed in many
    /// pieces is scanned once, not once per piece.
    scanned: usize,
    block: Option<(ParseState, HighlightState)>,
}

impl fmt::Debug for CodeLines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CodeLines")
            .field("lines", &self.lines.len())
            .finish_non_exhaustive()
    }
}

impl CodeLines {
    /// Reads the lines of `text` completed since the last call.
    pub fn update(&mut self, text: &str) {
        let mut from = self.scanned.max(self.consumed);
        while let Some(found) = text.get(from..).and_then(|rest| rest.find('\n')) {
            let end = from + found;
            let line = &text[self.consumed..end];
            self.consumed = end + 1;
            from = self.consumed;
            self.inside.push(self.block.is_some());
            let highlighted = self.line(line);
            self.lines.push(highlighted);
        }
        self.scanned = text.len();
    }

    /// Whether source line `index` begins inside a highlighted code block: while it
    /// streams it is drawn as code. Past the lines read, whether the text read ends inside.
    pub fn inside_code(&self, index: usize) -> bool {
        self.inside
            .get(index)
            .copied()
            .unwrap_or(self.block.is_some())
    }

    fn line(&mut self, line: &str) -> Option<Vec<CodeSpan>> {
        if let Some(language) = line.trim_start().strip_prefix("```") {
            self.block = match self.block.take() {
                Some(_) => None,
                None => start_block(language.trim()),
            };
            return None;
        }
        let (parse, highlight) = self.block.as_mut()?;
        let theme = theme()?;
        let with_newline = format!("{line}\n");
        let ops = parse.parse_line(&with_newline, syntaxes()?).ok()?;
        let highlighter = Highlighter::new(theme);
        let spans = HighlightIterator::new(highlight, &ops, &with_newline, &highlighter)
            .map(|(style, piece)| {
                let color = style.foreground;
                (
                    (color.r, color.g, color.b),
                    piece.trim_end_matches('\n').to_string(),
                )
            })
            .filter(|(_, piece)| !piece.is_empty())
            .collect();
        Some(spans)
    }
}

fn start_block(language: &str) -> Option<(ParseState, HighlightState)> {
    let theme = theme()?;
    let set = syntaxes()?;
    let syntax = set
        .find_syntax_by_token(language)
        .unwrap_or_else(|| set.find_syntax_plain_text());
    let highlighter = Highlighter::new(theme);
    Some((
        ParseState::new(syntax),
        HighlightState::new(&highlighter, ScopeStack::new()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_complete_lines_inside_fences_are_highlighted() {
        let mut code = CodeLines::default();
        let text = "Here:\n```rust\nfn main() {}\n```\nDone.\n";
        // Streamed in two pieces that split a line.
        code.update(&text[..20]);
        code.update(text);
        assert_eq!(code.lines.len(), 5);
        assert!(code.lines[0].is_none() && code.lines[1].is_none());
        let spans = code.lines[2].as_ref().unwrap();
        let joined: String = spans.iter().map(|(_, piece)| piece.as_str()).collect();
        assert_eq!(joined, "fn main() {}");
        assert!(
            spans.len() > 1,
            "keywords and names get their own colours: {spans:?}"
        );
        assert!(code.lines[3].is_none() && code.lines[4].is_none());
    }

    #[test]
    fn an_unknown_language_is_plain_text_but_still_code() {
        let mut code = CodeLines::default();
        code.update("```nosuchlang\nsome code\n```\n");
        assert!(code.lines[1].is_some());
    }

    /// A code block in each language kept (by a name or extension agents write after the
    /// fence), with the constructs that reach into other syntaxes: embedded CSS and script,
    /// regular expressions, SQL strings, doc comments, shell commands.
    const KEPT_LANGUAGES: &[(&str, &str)] = &[
        (
            "rust",
            "/// Doc.\nfn main() { let x: u8 = 1; println!(\"{x}\"); }",
        ),
        (
            "python",
            "import re\nr = re.compile(r'a+(b)')\nq = \"SELECT * FROM t\"\ndef f(): pass",
        ),
        (
            "js",
            "const re = /a+b/g;\nfunction f(x) { return `t${x}`; }",
        ),
        ("json", "{\"a\": [1, true, null]}"),
        ("yaml", "key: value\nlist:\n  - 1"),
        ("bash", "for f in *.rs; do echo \"$f\" | grep -c x; done"),
        ("sh", "export A=1\ncd /tmp && ls"),
        ("bat", "@echo off\nset A=1"),
        ("c", "#include <stdio.h>\nint main(void) { return 0; }"),
        ("cpp", "template <typename T> class A { public: T x; };"),
        ("cs", "public class A { public int X { get; set; } }"),
        ("go", "package main\nfunc main() { fmt.Println(1) }"),
        (
            "java",
            "/** Doc {@link A}. */\npublic class A { int x = 1; }",
        ),
        ("markdown", "# Title\n*em* `code` <b>html</b>"),
        (
            "html",
            "<style>a { color: red; }</style>\n<script>var a = 1;</script>\n<p class=\"x\">t</p>",
        ),
        ("css", "a:hover { color: #fff; }"),
        ("sql", "SELECT a FROM t WHERE b = 'c';"),
        ("diff", "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y"),
        ("makefile", "all: build\n\tcargo build --release"),
        ("ruby", "def f(x) = x.map { |y| y * 2 }\nputs \"#{f}\""),
        ("php", "<p><?php echo \"SELECT 1\"; $a = [1]; ?></p>"),
        ("lua", "local function f(x) return x end"),
        ("perl", "my $x = qr/a+/; print \"$x\\n\";"),
        ("r", "f <- function(x) { x + 1 }"),
        ("haskell", "main :: IO ()\nmain = print (1 :: Int)"),
        ("scala", "object A { def f(x: Int): Int = x }"),
        ("m", "@interface A : NSObject\n@end"),
        ("xml", "<?xml version=\"1.0\"?><a b=\"c\"/>"),
        (
            "latex",
            "\\section{A} $x^2$\n\\begin{minted}{python}\nx = 1\n\\end{minted}",
        ),
        ("txt", "plain"),
    ];

    fn scopes(
        set: &SyntaxSet,
        token: &str,
        code: &str,
    ) -> Vec<Vec<(usize, syntect::parsing::ScopeStackOp)>> {
        let syntax = set.find_syntax_by_token(token).unwrap();
        let mut state = ParseState::new(syntax);
        code.lines()
            .map(|line| state.parse_line(&format!("{line}\n"), set).unwrap())
            .collect()
    }

    #[test]
    fn the_kept_languages_highlight_as_in_syntects_full_set() {
        let ours = syntaxes().unwrap();
        let full = SyntaxSet::load_defaults_newlines();
        assert!(ours.syntaxes().len() < full.syntaxes().len());
        for (token, code) in KEPT_LANGUAGES {
            let name = &ours.find_syntax_by_token(token).unwrap().name;
            assert_eq!(name, &full.find_syntax_by_token(token).unwrap().name);
            assert!(*token == "txt" || name != "Plain Text", "{token}");
            assert_eq!(
                scopes(ours, token, code),
                scopes(&full, token, code),
                "{token}"
            );
        }
    }

    #[test]
    fn a_dropped_language_is_plain_text_and_an_embed_of_one_still_parses() {
        let ours = syntaxes().unwrap();
        assert!(ours.find_syntax_by_token("matlab").is_none());
        let mut code = CodeLines::default();
        code.update("```matlab\nx = [1 2];\n```\n");
        assert_eq!(
            code.lines[1].as_ref().unwrap().len(),
            1,
            "one uncoloured span"
        );
        let minted = "\\begin{minted}{lisp}\n(defun f (x) x)\n\\end{minted}\n\\section{B}";
        let lines = scopes(ours, "latex", minted);
        let full = scopes(&SyntaxSet::load_defaults_newlines(), "latex", minted);
        assert_eq!(lines.len(), 4);
        assert!(!lines[3].is_empty());
        assert_eq!(lines[3], full[3], "LaTeX resumes after the Lisp block");
    }

    #[test]
    fn a_long_line_streamed_in_pieces_becomes_one_line() {
        let mut code = CodeLines::default();
        let mut text = String::new();
        for _ in 0..1000 {
            text.push_str("word ");
            code.update(&text);
        }
        assert!(code.lines.is_empty());
        text.push_str("end\nnext");
        code.update(&text);
        assert_eq!(code.lines.len(), 1);
    }
}

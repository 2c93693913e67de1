//! PyYAML ignores indentation inside flow collections (`[…]`, `{…}`) and on the later lines
//! of a quoted scalar; the YAML parser here rejects a line there that sits left of the
//! enclosing block, such as a closing `]` under its key (MassGen ships a config written
//! so). In both places a line's leading spaces mean nothing, so such a line is indented
//! further and the text parsed again.

/// Whether line `line` (1-based) starts inside a flow collection or a quoted scalar, and if
/// so the column of the node on the line that opened it: the key of `key: [`, the item of
/// `- 'text`, past any `- ` before it.
pub fn flow_opened_before(text: &str, line: usize) -> Option<usize> {
    let mut scan = Scan::default();
    for (index, content) in text.lines().enumerate() {
        if index + 1 == line {
            return (scan.depth > 0 || scan.quote.is_some()).then_some(scan.opener_indent);
        }
        scan.line(content);
    }
    None
}

/// For the quoted scalar that opens on line `line` (1-based): `text` with each of its later
/// lines indented past the node that holds it where it is not, and the lines moved with the
/// spaces added to each. `None` if none needed moving.
pub fn indent_quoted_continuations(
    text: &str,
    line: usize,
) -> Option<(String, Vec<(usize, usize)>)> {
    let mut scan = Scan::default();
    let mut wanted: Vec<(usize, usize)> = Vec::new();
    for (index, content) in text.lines().enumerate() {
        let number = index + 1;
        if number > line {
            if scan.depth > 0 || scan.quote.is_none() {
                break;
            }
            wanted.push((number, scan.opener_indent + 1));
        }
        scan.line(content);
    }
    let mut current = text.to_string();
    let mut moved = Vec::new();
    for (number, indent) in wanted {
        if let Some((next, added)) = indent_line(&current, number, indent) {
            current = next;
            moved.push((number, added));
        }
    }
    (!moved.is_empty()).then_some((current, moved))
}

/// `text` with line `line` (1-based) indented to `indent` columns, and how many spaces
/// were added. `None` if the line is already indented that far.
pub fn indent_line(text: &str, line: usize, indent: usize) -> Option<(String, usize)> {
    let mut out = String::with_capacity(text.len() + indent);
    let mut added = None;
    for (index, content) in text.split_inclusive('\n').enumerate() {
        if index + 1 == line {
            let current = content.len() - content.trim_start_matches(' ').len();
            if current >= indent {
                return None;
            }
            added = Some(indent - current);
            out.extend(std::iter::repeat_n(' ', indent - current));
        }
        out.push_str(content);
    }
    added.map(|added| (out, added))
}

/// Just enough of YAML's lexical structure to follow flow nesting: quotes, comments and
/// block scalars, whose text may hold brackets.
#[derive(Default)]
struct Scan {
    depth: usize,
    /// The node column of the line that opened the flow collection or quoted scalar.
    opener_indent: usize,
    quote: Option<char>,
    /// Inside a block scalar (`|`, `>`) whose key starts at this column: its lines are
    /// the ones indented further.
    block_scalar: Option<usize>,
}

impl Scan {
    fn line(&mut self, content: &str) {
        let indent = content.len() - content.trim_start_matches(' ').len();
        let node_column = node_column(content);
        if let Some(parent) = self.block_scalar {
            if content.trim().is_empty() || indent > parent {
                return;
            }
            self.block_scalar = None;
        }
        let mut previous: Option<char> = None;
        let mut chars = content.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let token_start = if self.depth > 0 {
                previous.is_none_or(|p| p.is_whitespace() || "[{,:".contains(p))
            } else {
                node_starts_at(&content[..at])
            };
            match (self.quote, c) {
                (Some('"'), '\\') => {
                    chars.next();
                }
                (Some(quote), c) if c == quote => {
                    if quote == '\'' && chars.peek().map(|(_, next)| *next) == Some('\'') {
                        chars.next();
                    } else {
                        self.quote = None;
                    }
                }
                (Some(_), _) => {}
                (None, '#') if previous.is_none_or(char::is_whitespace) => break,
                (None, '"' | '\'') if token_start => {
                    if self.depth == 0 {
                        self.opener_indent = node_column;
                    }
                    self.quote = Some(c);
                }
                (None, '[' | '{') if token_start || self.depth > 0 => {
                    if self.depth == 0 {
                        self.opener_indent = node_column;
                    }
                    self.depth += 1;
                }
                (None, ']' | '}') if self.depth > 0 => self.depth -= 1,
                (None, _) => {}
            }
            previous = Some(c);
        }
        if self.depth == 0 && self.quote.is_none() && opens_block_scalar(content) {
            self.block_scalar = Some(node_column);
        }
    }
}

/// Where the line's node starts: past its indentation and any `- ` sequence entries.
fn node_column(content: &str) -> usize {
    let mut rest = content.trim_start_matches(' ');
    while let Some(after) = rest
        .strip_prefix('-')
        .filter(|after| after.starts_with(' '))
    {
        rest = after.trim_start_matches(' ');
    }
    content.len() - rest.len()
}

/// Whether a block-context node may start after `prefix` (the line so far): at the line's
/// start, or after `key: `, `- ` or `? `.
fn node_starts_at(prefix: &str) -> bool {
    let trimmed = prefix.trim_end();
    trimmed.is_empty() || (trimmed.len() < prefix.len() && trimmed.ends_with([':', '-', '?']))
}

/// `key: |`, `- >-`, `key: |2` and the like (a trailing comment allowed).
fn opens_block_scalar(content: &str) -> bool {
    let code = content
        .split_once(" #")
        .map_or(content, |(code, _)| code)
        .trim_end();
    let Some(at) = code.rfind(['|', '>']) else {
        return false;
    };
    let (before, after) = (&code[..at], &code[at + 1..]);
    after
        .chars()
        .all(|c| c == '-' || c == '+' || c.is_ascii_digit())
        && (before.ends_with(": ") || before.ends_with("- ") || before.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closing_bracket_under_its_key_is_inside_the_flow_list() {
        let text = "k:\n  args: [\n    \"a\",  # comment ]\n  ]\nnext: [x]\n";
        assert_eq!(flow_opened_before(text, 4), Some(2));
        assert_eq!(flow_opened_before(text, 5), None);
        assert_eq!(flow_opened_before(text, 2), None);
    }

    #[test]
    fn brackets_in_quotes_block_scalars_and_plain_words_do_not_count() {
        let text = "a: \"[\"\nb: it's [not\nc: |\n  [ literal\nd: 'x [y'\ne: 1\n";
        assert_eq!(flow_opened_before(text, 6), None);
    }

    #[test]
    fn the_opener_is_the_node_after_sequence_dashes_and_quotes_open_too() {
        let text = "- a.b: [\n  ]\nk:\n  - - 'multi\n  line'\n";
        assert_eq!(flow_opened_before(text, 2), Some(2));
        assert_eq!(flow_opened_before(text, 5), Some(6));
        assert_eq!(flow_opened_before(text, 3), None);
    }

    #[test]
    fn a_quoted_scalars_later_lines_move_past_the_node_that_holds_it() {
        let text = "k:\n  - 'multi\n line\n      and more'\nnext: x\n";
        let (moved, lines) = indent_quoted_continuations(text, 2).unwrap();
        assert_eq!(
            moved,
            "k:\n  - 'multi\n     line\n      and more'\nnext: x\n"
        );
        assert_eq!(lines, [(3, 4)]);
        assert_eq!(indent_quoted_continuations("a: 'one line'\n", 1), None);
    }

    #[test]
    fn an_empty_block_scalar_ends_at_the_next_key_of_its_mapping() {
        let text = "- model: |\n  k1: [\n  ]\n";
        assert_eq!(flow_opened_before(text, 3), Some(2));
    }

    #[test]
    fn indenting_a_line_adds_spaces_only_there() {
        let (text, added) = indent_line("a: [\n1,\n]\n", 3, 2).unwrap();
        assert_eq!((text.as_str(), added), ("a: [\n1,\n  ]\n", 2));
        assert_eq!(indent_line("a: [\n  ]\n", 2, 2), None);
    }
}

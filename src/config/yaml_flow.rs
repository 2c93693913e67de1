//! PyYAML ignores indentation inside flow collections (`[…]`, `{…}`); the YAML parser here
//! rejects a line there that sits left of the enclosing block, such as a closing `]` under
//! its key (MassGen ships a config written so). Inside a flow collection a line's leading
//! spaces mean nothing, so such a line is indented further and the text parsed again.

/// Whether line `line` (1-based) starts inside a flow collection, and if so the
/// indentation of the line that opened the outermost one.
pub fn flow_opened_before(text: &str, line: usize) -> Option<usize> {
    let mut scan = Scan::default();
    for (index, content) in text.lines().enumerate() {
        if index + 1 == line {
            return (scan.depth > 0).then_some(scan.opener_indent);
        }
        scan.line(content);
    }
    None
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
    opener_indent: usize,
    quote: Option<char>,
    /// Inside a block scalar (`|`, `>`) whose key line had this indentation.
    block_scalar: Option<usize>,
}

impl Scan {
    fn line(&mut self, content: &str) {
        let indent = content.len() - content.trim_start_matches(' ').len();
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
                (None, '"' | '\'') if token_start => self.quote = Some(c),
                (None, '[' | '{') if token_start || self.depth > 0 => {
                    if self.depth == 0 {
                        self.opener_indent = indent;
                    }
                    self.depth += 1;
                }
                (None, ']' | '}') if self.depth > 0 => self.depth -= 1,
                (None, _) => {}
            }
            previous = Some(c);
        }
        if self.depth == 0 && self.quote.is_none() && opens_block_scalar(content) {
            self.block_scalar = Some(indent);
        }
    }
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
    fn indenting_a_line_adds_spaces_only_there() {
        let (text, added) = indent_line("a: [\n1,\n]\n", 3, 2).unwrap();
        assert_eq!((text.as_str(), added), ("a: [\n1,\n  ]\n", 2));
        assert_eq!(indent_line("a: [\n  ]\n", 2, 2), None);
    }
}

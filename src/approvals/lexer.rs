//! A small shell-aware lexer: command text to words (quotes, backslash escapes, `$'…'`
//! ANSI-C quoting, adjacent quoted pieces joined), split into simple commands at `;` `&&`
//! `||` `|` `&` and newlines, with the text of every `$(…)`, backtick and `<(…)` kept for
//! checking on its own.

/// One simple command as written: its words (redirections left out) and where it
/// redirects.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Words {
    pub words: Vec<String>,
    /// The targets of `>`, `>>`, `<` and the like.
    pub redirects: Vec<String>,
    /// Whether a redirection writes (`>`, `>>`, `&>`).
    pub writes: bool,
}

/// A command text taken apart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lexed {
    pub commands: Vec<Words>,
    /// The inner text of every command substitution, to be taken apart in turn.
    pub nested: Vec<String>,
}

pub fn lex(text: &str) -> Lexed {
    let mut lexer = Lexer {
        chars: text.chars().collect(),
        at: 0,
        out: Lexed::default(),
        current: Words::default(),
        word: None,
        redirect_next: false,
    };
    lexer.run();
    lexer.out
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
    out: Lexed,
    current: Words,
    /// The word being read; `None` between words (an empty quoted word is `Some("")`).
    word: Option<String>,
    /// The next word is a redirection target.
    redirect_next: bool,
}

impl Lexer {
    fn peek(&self, offset: usize) -> Option<char> {
        self.chars.get(self.at + offset).copied()
    }

    fn push_char(&mut self, ch: char) {
        self.word.get_or_insert_with(String::new).push(ch);
    }

    fn push_str(&mut self, text: &str) {
        self.word.get_or_insert_with(String::new).push_str(text);
    }

    fn end_word(&mut self) {
        if let Some(word) = self.word.take() {
            if self.redirect_next {
                self.current.redirects.push(word);
                self.redirect_next = false;
            } else {
                self.current.words.push(word);
            }
        }
    }

    fn end_command(&mut self) {
        self.end_word();
        self.redirect_next = false;
        let command = std::mem::take(&mut self.current);
        if !command.words.is_empty() || !command.redirects.is_empty() {
            self.out.commands.push(command);
        }
    }

    fn run(&mut self) {
        while let Some(ch) = self.peek(0) {
            match ch {
                ' ' | '\t' | '\r' => {
                    self.end_word();
                    self.at += 1;
                }
                '\n' | ';' | '(' | ')' => {
                    self.end_command();
                    self.at += 1;
                }
                '|' | '&' => self.operator(ch),
                '<' | '>' => self.redirection(ch),
                '#' if self.word.is_none() => {
                    while self.peek(0).is_some_and(|ch| ch != '\n') {
                        self.at += 1;
                    }
                }
                '\\' => {
                    self.at += 1;
                    match self.peek(0) {
                        Some('\n') => self.at += 1,
                        Some(next) => {
                            self.push_char(next);
                            self.at += 1;
                        }
                        None => self.push_char('\\'),
                    }
                }
                '\'' => {
                    self.at += 1;
                    let text = self.until('\'');
                    self.push_str(&text);
                }
                '"' => {
                    self.at += 1;
                    self.double_quoted();
                }
                '`' => {
                    self.at += 1;
                    let inner = self.backticks();
                    self.push_str(&format!("`{inner}`"));
                    self.out.nested.push(inner);
                }
                '$' => self.dollar(),
                other => {
                    self.push_char(other);
                    self.at += 1;
                }
            }
        }
        self.end_command();
    }

    /// `|`, `||`, `|&`, `&`, `&&`; `&>` and `>&` are redirections.
    fn operator(&mut self, ch: char) {
        if ch == '&' && self.peek(1) == Some('>') {
            self.at += 1;
            self.redirection('>');
            return;
        }
        self.end_command();
        self.at += 1;
        if matches!(self.peek(0), Some('|' | '&')) {
            self.at += 1;
        }
    }

    fn redirection(&mut self, ch: char) {
        if self.peek(1) == Some('(') {
            // Process substitution `<(…)` / `>(…)`.
            self.at += 2;
            let inner = self.balanced();
            self.out.nested.push(inner);
            return;
        }
        // A file descriptor number written just before (`2>`) is not a word.
        if self
            .word
            .as_deref()
            .is_some_and(|word| !word.is_empty() && word.chars().all(|c| c.is_ascii_digit()))
        {
            self.word = None;
        }
        self.end_word();
        if ch == '>' {
            self.current.writes = true;
        }
        self.at += 1;
        while matches!(self.peek(0), Some('<' | '>' | '&' | '|')) {
            self.at += 1;
        }
        // `2>&1`: a descriptor, not a file.
        if self.chars.get(self.at.wrapping_sub(1)) == Some(&'&')
            && self.peek(0).is_some_and(|c| c.is_ascii_digit() || c == '-')
        {
            self.at += 1;
            return;
        }
        self.redirect_next = true;
    }

    /// Characters up to `end` (consumed), taken literally.
    fn until(&mut self, end: char) -> String {
        let mut text = String::new();
        while let Some(ch) = self.peek(0) {
            self.at += 1;
            if ch == end {
                break;
            }
            text.push(ch);
        }
        text
    }

    fn double_quoted(&mut self) {
        self.word.get_or_insert_with(String::new);
        while let Some(ch) = self.peek(0) {
            match ch {
                '"' => {
                    self.at += 1;
                    return;
                }
                '\\' => {
                    match self.peek(1) {
                        Some(next @ ('"' | '\\' | '$' | '`')) => self.push_char(next),
                        Some('\n') => {}
                        Some(next) => {
                            self.push_char('\\');
                            self.push_char(next);
                        }
                        None => self.push_char('\\'),
                    }
                    self.at += 2;
                }
                '`' => {
                    self.at += 1;
                    let inner = self.backticks();
                    self.push_str(&format!("`{inner}`"));
                    self.out.nested.push(inner);
                }
                '$' if self.peek(1) == Some('(') => self.dollar(),
                other => {
                    self.push_char(other);
                    self.at += 1;
                }
            }
        }
    }

    fn backticks(&mut self) -> String {
        let mut text = String::new();
        while let Some(ch) = self.peek(0) {
            self.at += 1;
            match ch {
                '`' => break,
                '\\' => {
                    if let Some(next) = self.peek(0) {
                        self.at += 1;
                        if !matches!(next, '`' | '\\' | '$') {
                            text.push('\\');
                        }
                        text.push(next);
                    }
                }
                other => text.push(other),
            }
        }
        text
    }

    /// `$'…'`, `$"…"`, `$(…)`, `$((…))`, or a plain `$`.
    fn dollar(&mut self) {
        match self.peek(1) {
            Some('\'') => {
                self.at += 2;
                let text = self.ansi_c();
                self.push_str(&text);
            }
            Some('"') => {
                self.at += 2;
                self.double_quoted();
            }
            Some('(') if self.peek(2) == Some('(') => {
                self.at += 3;
                let inner = self.balanced();
                self.push_str(&format!("$(({inner}"));
            }
            Some('(') => {
                self.at += 2;
                let inner = self.balanced();
                self.push_str(&format!("$({inner})"));
                self.out.nested.push(inner);
            }
            _ => {
                self.push_char('$');
                self.at += 1;
            }
        }
    }

    /// The text up to the `)` closing an already consumed `(`, quotes respected.
    fn balanced(&mut self) -> String {
        let mut depth = 1usize;
        let mut text = String::new();
        let mut quote: Option<char> = None;
        while let Some(ch) = self.peek(0) {
            self.at += 1;
            match (quote, ch) {
                (Some(open), _) if ch == open => quote = None,
                (Some('"'), '\\') | (None, '\\') => {
                    text.push(ch);
                    if let Some(next) = self.peek(0) {
                        text.push(next);
                        self.at += 1;
                    }
                    continue;
                }
                (Some(_), _) => {}
                (None, '\'' | '"') => quote = Some(ch),
                (None, '(') => depth += 1,
                (None, ')') => {
                    depth -= 1;
                    if depth == 0 {
                        return text;
                    }
                }
                (None, _) => {}
            }
            text.push(ch);
        }
        text
    }

    /// The body of `$'…'` with its escapes decoded.
    fn ansi_c(&mut self) -> String {
        let mut text = String::new();
        while let Some(ch) = self.peek(0) {
            self.at += 1;
            match ch {
                '\'' => break,
                '\\' => {
                    let Some(escape) = self.peek(0) else {
                        text.push('\\');
                        break;
                    };
                    self.at += 1;
                    match escape {
                        'n' => text.push('\n'),
                        't' => text.push('\t'),
                        'r' => text.push('\r'),
                        'a' => text.push('\u{7}'),
                        'b' => text.push('\u{8}'),
                        'e' | 'E' => text.push('\u{1b}'),
                        'f' => text.push('\u{c}'),
                        'v' => text.push('\u{b}'),
                        'x' => self.code_point(&mut text, 16, 2),
                        'u' => self.code_point(&mut text, 16, 4),
                        'U' => self.code_point(&mut text, 16, 8),
                        '0'..='7' => {
                            self.at -= 1;
                            self.code_point(&mut text, 8, 3);
                        }
                        other => text.push(other),
                    }
                }
                other => text.push(other),
            }
        }
        text
    }

    /// Up to `max` digits in `radix` as one character.
    fn code_point(&mut self, text: &mut String, radix: u32, max: usize) {
        let mut value = 0u32;
        let mut digits = 0;
        while digits < max {
            let Some(digit) = self.peek(0).and_then(|ch| ch.to_digit(radix)) else {
                break;
            };
            value = value.saturating_mul(radix).saturating_add(digit);
            digits += 1;
            self.at += 1;
        }
        match char::from_u32(value).filter(|_| digits > 0) {
            Some(ch) => text.push(ch),
            None => text.push('?'),
        }
    }
}

#[cfg(test)]
#[path = "lexer_tests.rs"]
mod tests;

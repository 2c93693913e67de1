//! A small RFC 4180 reader for dataset CSV files: comma-separated fields, double-quoted
//! fields holding commas, quotes (`""`) and line breaks, CRLF or LF line ends.

/// One record of a CSV file with the 1-based line it starts on.
#[derive(Clone, Debug, PartialEq)]
pub struct CsvRecord {
    pub line: usize,
    pub fields: Vec<String>,
}

/// Why a CSV text cannot be read, at the 1-based line where reading stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct CsvError {
    pub line: usize,
    pub problem: String,
    pub fix: String,
}

/// Every record of `text` in order. Blank lines between records are skipped; a line break
/// inside quotes belongs to the field.
pub fn parse(text: &str) -> Result<Vec<CsvRecord>, CsvError> {
    let mut records = Vec::new();
    let mut reader = Reader {
        chars: text.chars().peekable(),
        line: 1,
    };
    while let Some(record) = reader.record()? {
        let blank = record.fields.len() == 1 && record.fields[0].trim().is_empty();
        if !blank {
            records.push(record);
        }
    }
    Ok(records)
}

struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
}

impl Reader<'_> {
    /// The next record, or `None` at the end of the text.
    fn record(&mut self) -> Result<Option<CsvRecord>, CsvError> {
        if self.chars.peek().is_none() {
            return Ok(None);
        }
        let line = self.line;
        let mut fields = Vec::new();
        loop {
            let (field, ended_record) = self.field()?;
            fields.push(field);
            if ended_record {
                return Ok(Some(CsvRecord { line, fields }));
            }
        }
    }

    /// One field and whether the record ended after it (line end or end of text).
    fn field(&mut self) -> Result<(String, bool), CsvError> {
        if self.chars.peek() == Some(&'"') {
            self.chars.next();
            return self.quoted_field();
        }
        let mut field = String::new();
        while let Some(c) = self.chars.next() {
            match c {
                ',' => return Ok((field, false)),
                '\n' => {
                    self.line += 1;
                    return Ok((field, true));
                }
                '\r' if self.chars.peek() == Some(&'\n') => {}
                _ => field.push(c),
            }
        }
        Ok((field, true))
    }

    fn quoted_field(&mut self) -> Result<(String, bool), CsvError> {
        let opened_on = self.line;
        let mut field = String::new();
        loop {
            match self.chars.next() {
                None => {
                    return Err(CsvError {
                        line: opened_on,
                        problem: "a quoted field is never closed".into(),
                        fix: "end the field with a double quote, and double every quote inside \
                              it (\"\")"
                            .into(),
                    });
                }
                Some('"') if self.chars.peek() == Some(&'"') => {
                    self.chars.next();
                    field.push('"');
                }
                Some('"') => break,
                Some(c) => {
                    if c == '\n' {
                        self.line += 1;
                    }
                    field.push(c);
                }
            }
        }
        match self.chars.next() {
            None => Ok((field, true)),
            Some(',') => Ok((field, false)),
            Some('\n') => {
                self.line += 1;
                Ok((field, true))
            }
            Some('\r') if self.chars.peek() == Some(&'\n') => {
                self.chars.next();
                self.line += 1;
                Ok((field, true))
            }
            Some(other) => Err(CsvError {
                line: self.line,
                problem: format!("`{other}` follows a closing quote"),
                fix: "put a comma or a line end after a quoted field, and double every quote \
                      inside a quoted field (\"\")"
                    .into(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Vec<Vec<String>> {
        parse(text)
            .unwrap()
            .into_iter()
            .map(|record| record.fields)
            .collect()
    }

    #[test]
    fn quoted_fields_hold_commas_quotes_and_line_breaks() {
        let text = "q,a\r\n\"one, two\",\"say \"\"hi\"\"\"\n\"line\nbreak\",3\n";
        assert_eq!(
            fields(text),
            vec![
                vec!["q", "a"],
                vec!["one, two", "say \"hi\""],
                vec!["line\nbreak", "3"]
            ]
        );
        let lines: Vec<usize> = parse(text).unwrap().iter().map(|r| r.line).collect();
        assert_eq!(lines, vec![1, 2, 3]);
    }

    #[test]
    fn blank_lines_and_a_missing_final_line_end_are_fine() {
        assert_eq!(fields("a,b\n\n1,2"), vec![vec!["a", "b"], vec!["1", "2"]]);
        assert_eq!(fields("a,,\n"), vec![vec!["a", "", ""]]);
        assert_eq!(parse("").unwrap(), vec![]);
    }

    #[test]
    fn broken_quotes_name_their_line() {
        let open = parse("a,b\n1,\"never\nclosed\n").unwrap_err();
        assert_eq!(open.line, 2);
        assert!(open.problem.contains("never closed"), "{open:?}");
        let trailing = parse("a\n\"x\"y\n").unwrap_err();
        assert_eq!(trailing.line, 2);
        assert!(trailing.problem.contains("`y`"), "{trailing:?}");
    }
}

//! Headings inside text that `/export` places under one of its own: each moves down so it
//! nests below the export's heading (`# Plan` under a `###` answer becomes `####`), and an
//! underlined (setext) heading becomes a `#` one the same way. Code blocks are left alone.

/// The deepest heading Markdown has.
const DEEPEST: usize = 6;

/// `text` with every heading at least `below + 1` deep, levels kept relative.
pub fn nested(text: &str, below: usize) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut previous_is_text = false;
    for line in text.lines() {
        if let Some((mark, length)) = fence {
            if closes_fence(line, mark, length) {
                fence = None;
            }
            out.push(line.to_string());
            previous_is_text = false;
            continue;
        }
        if let Some(opened) = opens_fence(line) {
            fence = Some(opened);
            out.push(line.to_string());
            previous_is_text = false;
            continue;
        }
        if let Some((level, title)) = atx_heading(line) {
            out.push(heading(level + below, title));
            previous_is_text = false;
            continue;
        }
        if previous_is_text && let Some(level) = setext_level(line) {
            let title = out.pop().unwrap_or_default();
            out.push(heading(level + below, title.trim()));
            previous_is_text = false;
            continue;
        }
        previous_is_text = is_paragraph_text(line);
        out.push(line.to_string());
    }
    out.join("\n")
}

fn heading(level: usize, title: &str) -> String {
    let hashes = "#".repeat(level.min(DEEPEST));
    if title.is_empty() {
        hashes
    } else {
        format!("{hashes} {title}")
    }
}

/// Up to three spaces of indent, then the rest.
fn unindented(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches(' ');
    (line.len() - rest.len() <= 3).then_some(rest)
}

/// `## Title ##` → (2, "Title").
fn atx_heading(line: &str) -> Option<(usize, &str)> {
    let rest = unindented(line)?;
    let level = rest.chars().take_while(|&ch| ch == '#').count();
    if level == 0 || level > DEEPEST {
        return None;
    }
    let after = &rest[level..];
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let title = after.trim();
    let without_closing = title.trim_end_matches('#');
    let title = if without_closing.is_empty() || without_closing.ends_with([' ', '\t']) {
        without_closing.trim_end()
    } else {
        title
    };
    Some((level, title))
}

/// `===` under text is a level-1 heading, `---` a level-2 one.
fn setext_level(line: &str) -> Option<usize> {
    let rest = unindented(line)?.trim_end();
    let first = rest.chars().next()?;
    let level = match first {
        '=' => 1,
        '-' => 2,
        _ => return None,
    };
    rest.chars().all(|ch| ch == first).then_some(level)
}

/// A line that continues a paragraph, so an underline below it makes it a heading.
fn is_paragraph_text(line: &str) -> bool {
    let Some(rest) = unindented(line) else {
        return false;
    };
    let starts_block = rest.starts_with(['>', '|', '-', '*', '+', '#'])
        || rest.split_once(['.', ')']).is_some_and(|(number, _)| {
            !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())
        });
    !rest.trim().is_empty() && !starts_block
}

/// "```rust" → ('`', 3).
fn opens_fence(line: &str) -> Option<(char, usize)> {
    let rest = unindented(line)?;
    let mark = rest.chars().next().filter(|&ch| ch == '`' || ch == '~')?;
    let length = rest.chars().take_while(|&ch| ch == mark).count();
    let info = &rest[length..];
    (length >= 3 && !(mark == '`' && info.contains('`'))).then_some((mark, length))
}

fn closes_fence(line: &str, mark: char, length: usize) -> bool {
    unindented(line).is_some_and(|rest| {
        let run = rest.chars().take_while(|&ch| ch == mark).count();
        run >= length && rest[run..].trim().is_empty()
    })
}

#[cfg(test)]
mod tests {
    use super::nested;

    #[test]
    fn headings_move_below_the_one_they_sit_under() {
        assert_eq!(
            nested("# Plan\ntext\n## Steps\n#### Deep\n###### Deepest", 3),
            "#### Plan\ntext\n##### Steps\n###### Deep\n###### Deepest"
        );
        assert_eq!(nested("  ## Closed ##", 2), "#### Closed");
        assert_eq!(nested("#hashtag and #7", 2), "#hashtag and #7");
    }

    #[test]
    fn underlined_headings_become_hash_headings_and_rules_stay_rules() {
        assert_eq!(
            nested("Title\n=====\nbody\n\n---\nSub\n---", 2),
            "### Title\nbody\n\n---\n#### Sub"
        );
        assert_eq!(nested("- item\n---", 2), "- item\n---");
    }

    #[test]
    fn code_blocks_are_left_alone() {
        let text = "```sh\n# a comment\n```\n~~~~\n# not either\n~~~\n~~~~\n# Real";
        assert_eq!(
            nested(text, 3),
            "```sh\n# a comment\n```\n~~~~\n# not either\n~~~\n~~~~\n#### Real"
        );
    }
}

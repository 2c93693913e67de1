//! A `SKILL.md`'s YAML front matter (the block between the opening `---` lines): its
//! `name` and `description`, or why they cannot be read.

use super::yaml::parse;
use super::yaml_node::Value;

/// What a skill says about itself. A missing `name` is left to the caller (MassGen then
/// uses the skill's directory name); a missing `description` is empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontMatter {
    pub name: Option<String>,
    pub description: String,
}

/// The front matter at the top of `text`, as MassGen finds it: `---` on the first line,
/// YAML up to the next `---` line.
pub fn parse_front_matter(text: &str) -> Result<FrontMatter, String> {
    let text = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .replace("\r\n", "\n");
    let Some(rest) = text.strip_prefix("---\n") else {
        return Err("no YAML front matter: the file must start with a `---` line".into());
    };
    let block = if rest.starts_with("---") {
        ""
    } else {
        match rest.find("\n---") {
            Some(end) => &rest[..end],
            None => return Err("the front matter has no closing `---` line".into()),
        }
    };
    let document = parse(block).map_err(|error| {
        format!(
            "the front matter is not valid YAML (its line {}: {})",
            error.loc.line, error.message
        )
    })?;
    let Some(root) = document.root else {
        return Err("the front matter is empty: it needs `name` and `description`".into());
    };
    if root.entries().is_none() {
        return Err(format!(
            "the front matter is {}, not `name: …` and `description: …` lines",
            root.type_name()
        ));
    }
    let text_of = |key: &str| -> Result<Option<String>, String> {
        match root.get(key).map(|node| &node.value) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Str(text)) => Ok(Some(text.trim().to_string())),
            Some(Value::Int(number)) => Ok(Some(number.to_string())),
            Some(Value::Float(number)) => Ok(Some(number.to_string())),
            Some(Value::Bool(flag)) => Ok(Some(flag.to_string())),
            Some(other @ (Value::Seq(_) | Value::Map(_))) => Err(format!(
                "`{key}` is {}, not text",
                if matches!(other, Value::Seq(_)) {
                    "a list"
                } else {
                    "a mapping"
                }
            )),
        }
    };
    Ok(FrontMatter {
        name: text_of("name")?.filter(|name| !name.is_empty()),
        description: text_of("description")?.unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_name_and_description() {
        let text = "---\nname: pdf\ndescription: >\n  Read and fill\n  PDF forms.\nlicense: MIT\n---\n# PDF\n";
        assert_eq!(
            parse_front_matter(text),
            Ok(FrontMatter {
                name: Some("pdf".into()),
                description: "Read and fill PDF forms.".into(),
            })
        );
    }

    #[test]
    fn a_missing_name_is_left_to_the_caller_and_description_defaults_to_empty() {
        let parsed = parse_front_matter("---\nlicense: MIT\n---\nbody").unwrap();
        assert_eq!(parsed.name, None);
        assert_eq!(parsed.description, "");
    }

    #[test]
    fn crlf_files_parse() {
        let parsed = parse_front_matter("---\r\nname: x\r\ndescription: y\r\n---\r\n").unwrap();
        assert_eq!(parsed.name.as_deref(), Some("x"));
        assert_eq!(parsed.description, "y");
    }

    #[test]
    fn says_why_a_file_cannot_be_read() {
        let no_block = parse_front_matter("# Just markdown\n").unwrap_err();
        assert!(no_block.contains("no YAML front matter"), "{no_block}");
        let unclosed = parse_front_matter("---\nname: x\n").unwrap_err();
        assert!(unclosed.contains("no closing"), "{unclosed}");
        let invalid = parse_front_matter("---\nname: [x\n---\n").unwrap_err();
        assert!(invalid.contains("not valid YAML"), "{invalid}");
        let scalar = parse_front_matter("---\njust text\n---\n").unwrap_err();
        assert!(scalar.contains("not `name: …`"), "{scalar}");
        let listed = parse_front_matter("---\nname: [a, b]\n---\n").unwrap_err();
        assert!(listed.contains("`name` is a list"), "{listed}");
        let empty = parse_front_matter("---\n---\n").unwrap_err();
        assert!(empty.contains("empty"), "{empty}");
    }
}

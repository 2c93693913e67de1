//! What a `read_media` call asks for, read from its JSON arguments as MassGen reads them:
//! `inputs` (a list of `{files: {name: path}, prompt}`, also accepted as a JSON string,
//! with `file_paths: [..]` for `files`), a shared `prompt` and `max_concurrent`.

use serde_json::{Map, Value};

/// MassGen's default `max_concurrent`.
const DEFAULT_CONCURRENCY: usize = 4;

/// One analysis: these named files sent together with one prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct MediaInput {
    /// `(name, path as the agent wrote it)`, in the order given.
    pub files: Vec<(String, String)>,
    pub prompt: Option<String>,
}

/// A whole `read_media` call.
#[derive(Clone, Debug, PartialEq)]
pub struct MediaRequest {
    pub inputs: Vec<MediaInput>,
    pub concurrency: usize,
}

const EXAMPLE: &str =
    r#"inputs=[{"files": {"image_0": "image.png"}, "prompt": "What is wrong with this layout?"}]"#;

/// The call's inputs, or what is wrong with its arguments (said as MassGen says it).
pub fn parse(arguments: &str) -> Result<MediaRequest, String> {
    let arguments: Map<String, Value> = match serde_json::from_str(arguments) {
        Ok(Value::Object(map)) => map,
        Ok(_) | Err(_) => return Err(format!("arguments must be a JSON object, e.g. {EXAMPLE}")),
    };
    if arguments.contains_key("continue_from") {
        return Err(
            "massgen's read_media keeps no conversations: `continue_from` is not \
                    supported; call it again with the files in `inputs`"
                .into(),
        );
    }
    let shared_prompt = text(arguments.get("prompt"));
    let inputs = match arguments.get("inputs") {
        None | Some(Value::Null) => return Err("Must provide 'inputs'".into()),
        Some(Value::String(raw)) => match serde_json::from_str::<Value>(raw.trim()) {
            Ok(Value::Array(items)) => items,
            Ok(_) => {
                return Err(format!(
                    "inputs JSON string must decode to an array, e.g. {EXAMPLE}"
                ));
            }
            Err(error) => {
                return Err(format!(
                    "inputs must be a valid JSON array string: {error}. Example: {EXAMPLE}"
                ));
            }
        },
        Some(Value::Array(items)) => items.clone(),
        Some(_) => return Err(format!("inputs must be a list, e.g. {EXAMPLE}")),
    };
    if inputs.is_empty() {
        return Err(format!("inputs is empty; e.g. {EXAMPLE}"));
    }
    let inputs = inputs
        .iter()
        .enumerate()
        .map(|(index, item)| input(index, item, shared_prompt.as_deref()))
        .collect::<Result<Vec<_>, _>>()?;
    let concurrency = match arguments.get("max_concurrent") {
        None | Some(Value::Null) => DEFAULT_CONCURRENCY,
        Some(value) => value
            .as_u64()
            .filter(|count| *count > 0)
            .and_then(|count| usize::try_from(count).ok())
            .ok_or("max_concurrent must be a positive integer")?,
    };
    Ok(MediaRequest {
        inputs,
        concurrency,
    })
}

fn input(index: usize, item: &Value, shared_prompt: Option<&str>) -> Result<MediaInput, String> {
    let Value::Object(item) = item else {
        return Err(format!("inputs[{index}] must be a dict"));
    };
    let files: Vec<(String, String)> = match (item.get("files"), item.get("file_paths")) {
        (Some(Value::Object(files)), _) => files
            .iter()
            .map(|(name, path)| path.as_str().map(|path| (name.clone(), path.to_string())))
            .collect::<Option<_>>()
            .ok_or(format!("inputs[{index}]['files'] must map names to paths"))?,
        (None, Some(Value::Array(paths))) => paths
            .iter()
            .enumerate()
            .map(|(at, path)| {
                path.as_str()
                    .map(|path| (format!("image_{at}"), path.to_string()))
            })
            .collect::<Option<_>>()
            .ok_or(format!("inputs[{index}]['file_paths'] must list paths"))?,
        (Some(_), _) => {
            return Err(format!(
                "inputs[{index}]['files'] must be a non-empty dict mapping names to paths"
            ));
        }
        (None, _) => {
            return Err(format!(
                "inputs[{index}] missing required 'files' key. Use {EXAMPLE}"
            ));
        }
    };
    if files.is_empty() {
        return Err(format!(
            "inputs[{index}]['files'] must be a non-empty dict mapping names to paths"
        ));
    }
    Ok(MediaInput {
        files,
        prompt: text(item.get("prompt")).or(shared_prompt.map(str::to_string)),
    })
}

fn text(value: Option<&Value>) -> Option<String> {
    value
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_read_as_a_list_or_a_json_string_with_the_shared_prompt() {
        let listed =
            parse(r#"{"inputs": [{"files": {"a": "a.png", "b": "b.png"}}], "prompt": "Compare"}"#);
        let stringed = parse(
            r#"{"inputs": "[{\"files\": {\"a\": \"a.png\", \"b\": \"b.png\"}}]", "prompt": "Compare"}"#,
        );
        assert_eq!(listed, stringed);
        let request = listed.unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(request.concurrency, 4);
        assert_eq!(request.inputs[0].prompt.as_deref(), Some("Compare"));
        assert_eq!(
            request.inputs[0].files[1],
            ("b".to_string(), "b.png".to_string())
        );
    }

    #[test]
    fn file_paths_stand_for_files_and_missing_files_are_named() {
        let request = parse(r#"{"inputs": [{"file_paths": ["x.png"], "prompt": "What?"}]}"#);
        let files = request.map(|request| request.inputs[0].files.clone());
        assert_eq!(
            files,
            Ok(vec![("image_0".to_string(), "x.png".to_string())])
        );
        let missing = parse(r#"{"inputs": [{"image_path": "x.png"}]}"#).unwrap_err();
        assert!(
            missing.contains("inputs[0] missing required 'files' key"),
            "{missing}"
        );
        assert_eq!(parse("{}").unwrap_err(), "Must provide 'inputs'");
        let follow_up = parse(r#"{"continue_from": "conv_1"}"#).unwrap_err();
        assert!(
            follow_up.contains("`continue_from` is not supported"),
            "{follow_up}"
        );
    }
}

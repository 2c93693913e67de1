//! Scalars typed as PyYAML (YAML 1.1), and so MassGen, types them: `yes`/`no`/`on`/`off`
//! are booleans, `017` is octal, `0b101` binary, `1_000` a thousand, `1:30` sexagesimal,
//! `1e3` (no dot) text. Quoted and block scalars are always text.

use saphyr_parser::{ScalarStyle, Tag};

use crate::config::yaml_node::Value;

/// The value of a scalar written as `text`, in `style`, with an optional `!!tag`. `None`
/// when a core-schema tag does not fit the text (`!!int abc`).
pub fn resolve(text: String, style: ScalarStyle, tag: Option<&Tag>) -> Option<Value> {
    if let Some(tag) = tag.filter(|tag| tag.is_yaml_core_schema()) {
        return match tag.suffix.as_str() {
            "str" => Some(Value::Str(text)),
            "null" => Some(Value::Null),
            "bool" => boolean(&text.to_ascii_lowercase()),
            "int" => integer(&text),
            "float" => float(&text),
            _ => Some(Value::Str(text)),
        };
    }
    if style != ScalarStyle::Plain {
        return Some(Value::Str(text));
    }
    Some(plain(text))
}

fn plain(text: String) -> Value {
    if matches!(text.as_str(), "" | "~" | "null" | "Null" | "NULL") {
        return Value::Null;
    }
    let bool_form = matches!(
        text.as_str(),
        "yes"
            | "Yes"
            | "YES"
            | "no"
            | "No"
            | "NO"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | "on"
            | "On"
            | "ON"
            | "off"
            | "Off"
            | "OFF"
    );
    if bool_form && let Some(value) = boolean(&text.to_ascii_lowercase()) {
        return value;
    }
    if is_float(&text)
        && let Some(value) = float(&text)
    {
        return value;
    }
    if is_int(&text)
        && let Some(value) = integer(&text)
    {
        return value;
    }
    Value::Str(text)
}

fn boolean(lower: &str) -> Option<Value> {
    match lower {
        "yes" | "true" | "on" => Some(Value::Bool(true)),
        "no" | "false" | "off" => Some(Value::Bool(false)),
        _ => None,
    }
}

fn unsigned(text: &str) -> &str {
    text.strip_prefix(['-', '+']).unwrap_or(text)
}

fn all(text: &str, allowed: impl Fn(char) -> bool) -> bool {
    !text.is_empty() && text.chars().all(allowed)
}

/// `:[0-5]?[0-9]` groups after the first, as in `1:30:00`.
fn sexagesimal_tail<'a>(mut parts: impl Iterator<Item = &'a str>) -> bool {
    parts.all(|part| {
        (1..=2).contains(&part.len())
            && part.chars().all(|c| c.is_ascii_digit())
            && (part.len() == 1 || part.starts_with(['0', '1', '2', '3', '4', '5']))
    })
}

/// PyYAML's implicit int forms.
fn is_int(text: &str) -> bool {
    let body = unsigned(text);
    if let Some(binary) = body.strip_prefix("0b") {
        return all(binary, |c| matches!(c, '0' | '1' | '_'));
    }
    if let Some(hex) = body.strip_prefix("0x") {
        return all(hex, |c| c.is_ascii_hexdigit() || c == '_');
    }
    if body == "0" {
        return true;
    }
    if let Some(octal) = body.strip_prefix('0') {
        return all(octal, |c| matches!(c, '0'..='7' | '_'));
    }
    let mut parts = body.split(':');
    let head = parts.next().unwrap_or_default();
    let head_ok = head.starts_with(|c: char| c.is_ascii_digit() && c != '0')
        && head.chars().all(|c| c.is_ascii_digit() || c == '_');
    head_ok && (!body.contains(':') || sexagesimal_tail(parts))
}

/// PyYAML's implicit float forms: a dot is required (`1e3` is text), an exponent needs a
/// sign.
fn is_float(text: &str) -> bool {
    let body = unsigned(text);
    if matches!(body, ".inf" | ".Inf" | ".INF") || matches!(text, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let (number, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    if let Some(exponent) = exponent {
        let digits = exponent.strip_prefix(['-', '+']);
        if !digits.is_some_and(|digits| all(digits, |c| c.is_ascii_digit())) {
            return false;
        }
    }
    let Some((whole, fraction)) = number.split_once('.') else {
        return false;
    };
    let fraction_ok = fraction.chars().all(|c| c.is_ascii_digit() || c == '_');
    if whole.is_empty() {
        // `.5`: no sign allowed, at least one digit after the dot.
        return text == body && !fraction.is_empty() && fraction_ok;
    }
    if whole.contains(':') {
        let mut parts = whole.split(':');
        let head = parts.next().unwrap_or_default();
        return exponent.is_none()
            && head.starts_with(|c: char| c.is_ascii_digit())
            && head.chars().all(|c| c.is_ascii_digit() || c == '_')
            && sexagesimal_tail(parts)
            && fraction_ok;
    }
    whole.starts_with(|c: char| c.is_ascii_digit())
        && whole.chars().all(|c| c.is_ascii_digit() || c == '_')
        && fraction_ok
}

/// Base-60 digits (`1:30` = 90), most significant first.
fn base60(digits: &str) -> Option<f64> {
    digits.split(':').try_fold(0.0, |total, part| {
        part.parse::<f64>().ok().map(|part| total * 60.0 + part)
    })
}

fn integer(text: &str) -> Option<Value> {
    let cleaned = text.replace('_', "");
    let negative = cleaned.starts_with('-');
    let body = unsigned(&cleaned);
    let magnitude = if body == "0" {
        Some(0)
    } else if let Some(binary) = body.strip_prefix("0b") {
        i64::from_str_radix(binary, 2).ok()
    } else if let Some(hex) = body.strip_prefix("0x") {
        i64::from_str_radix(hex, 16).ok()
    } else if body.len() > 1 && body.starts_with('0') {
        i64::from_str_radix(&body[1..], 8).ok()
    } else if body.contains(':') {
        #[allow(clippy::cast_possible_truncation)]
        base60(body)
            .filter(|value| *value < 9.0e18)
            .map(|value| value as i64)
    } else if body.chars().all(|c| c.is_ascii_digit()) && !body.is_empty() {
        // Beyond i64 PyYAML still has an integer; the nearest float keeps its size.
        return Some(match body.parse::<i64>() {
            Ok(value) => Value::Int(if negative { -value } else { value }),
            Err(_) => Value::Float(body.parse::<f64>().ok()? * if negative { -1.0 } else { 1.0 }),
        });
    } else {
        None
    };
    magnitude.map(|value| Value::Int(if negative { -value } else { value }))
}

fn float(text: &str) -> Option<Value> {
    let cleaned = text.replace('_', "").to_ascii_lowercase();
    let sign = if cleaned.starts_with('-') { -1.0 } else { 1.0 };
    let body = unsigned(&cleaned);
    let value = match body {
        ".inf" => f64::INFINITY,
        ".nan" => f64::NAN,
        _ if body.contains(':') => base60(body)?,
        _ => body.parse::<f64>().ok()?,
    };
    Some(Value::Float(sign * value))
}

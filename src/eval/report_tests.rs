//! The Markdown table and the SVG chart of the hand-checked summary (insta snapshots), the
//! JSON shape, number formats, and the SVG's XML well-formedness with hostile labels.

use insta::assert_snapshot;

use super::*;
use crate::eval::summary::summarize;
use crate::eval::summary::tests::{contender, example, result};

fn example_summary() -> Summary {
    let (results, contenders) = example();
    summarize(&results, &contenders)
}

#[test]
fn the_markdown_table_shows_intervals_differences_costs_and_latency() {
    let text = markdown(&example_summary());
    assert!(
        text.contains("| council | strategy | 10 | 90.0 % [59.6–98.2] | +10.0 pp [−25.2–45.2] |")
    );
    assert!(text.contains("| m1 alone | single model | 10 | 80.0 % [49.0–94.3] | best single |"));
    assert!(text.contains("| m2 alone | single model | 10 (1 failed) |"));
    assert_snapshot!("eval_summary_markdown", text);
}

#[test]
fn json_carries_every_row_and_field() {
    let value = json(&example_summary());
    assert_eq!(value["items"], 10);
    assert_eq!(value["rows"].as_array().unwrap().len(), 5);
    assert_eq!(value["rows"][2]["failed"], 1);
    assert_eq!(value["rows"][0]["latency_p95_ms"], 10_000.0);
    assert!(
        (value["rows"][0]["vs_best_single"]["value"]
            .as_f64()
            .unwrap()
            - 0.1)
            .abs()
            < 1e-9
    );
}

#[test]
fn numbers_are_formatted_for_reading() {
    assert_eq!(cost_text(0.0), "$0");
    assert_eq!(cost_text(0.000_123_4), "$0.000123");
    assert_eq!(cost_text(0.012_34), "$0.0123");
    assert_eq!(cost_text(1.5), "$1.50");
    assert_eq!(cost_text(250.0), "$250.00");
    assert_eq!(latency_text(850.0), "850 ms");
    assert_eq!(latency_text(1234.0), "1.2 s");
    let estimate = |value, low, high| Estimate { value, low, high };
    assert_eq!(
        difference_text(estimate(-0.05, -0.2, 0.1)),
        "−5.0 pp [−20.0–10.0]"
    );
    assert_eq!(difference_text(estimate(0.0, 0.0, 0.0)), "0.0 pp [0.0–0.0]");
    assert_eq!(cost_ticks(0.0093), (0.002, 0.01));
    assert_eq!(cost_ticks(0.0), (0.002, 0.01));
    assert_eq!(cost_ticks(1.0), (0.2, 1.0));
    assert_eq!(tick_text(0.004, 0.002), "$0.004");
    assert_eq!(tick_text(20.0, 10.0), "$20");
}

#[test]
fn the_svg_chart_is_well_formed_and_labels_every_point() {
    let chart = svg(&example_summary());
    well_formed(&chart).unwrap();
    for label in ["council", "m1 alone", "m2 alone", "m1 ×5 majority"] {
        assert!(
            chart.contains(&format!(">{label}</text>")),
            "{label} missing"
        );
    }
    assert!(
        !chart.contains(">never ran</text>"),
        "a contender without results has no point"
    );
    assert_snapshot!("eval_summary_svg", chart);
}

#[test]
fn hostile_labels_are_escaped_and_an_empty_summary_still_draws() {
    let name = "<b>\"A&B's\"</b>";
    let results = [result(name, ContenderKind::Strategy, 1, true, 0.5, 10)];
    let summary = summarize(&results, &[contender(name, ContenderKind::Strategy)]);
    let chart = svg(&summary);
    well_formed(&chart).unwrap();
    assert!(chart.contains("&lt;b&gt;&quot;A&amp;B&apos;s&quot;&lt;/b&gt;"));
    let empty = svg(&summarize(&[], &[]));
    well_formed(&empty).unwrap();
    assert!(empty.contains("No results yet"));
    let table = markdown(&summarize(
        &[result("a|b", ContenderKind::Strategy, 1, true, 0.0, 1)],
        &[contender("a|b", ContenderKind::Strategy)],
    ));
    assert!(table.contains("| a\\|b | strategy |"), "{table}");
}

#[test]
fn the_well_formedness_check_catches_broken_xml() {
    for broken in [
        "<svg><g></svg>",
        "<svg>a & b</svg>",
        "<svg x=\"1>",
        "<svg x=1/>",
        "<svg/><svg/>",
        "<svg><text>x</g></svg>",
    ] {
        assert!(well_formed(broken).is_err(), "{broken} passed");
    }
    well_formed("<?xml version=\"1.0\"?>\n<a b='&lt;'><!-- c --><d/>x &#38; y</a>\n").unwrap();
}

/// A small XML well-formedness check: balanced tags, quoted attributes, only known or
/// numeric entities, one root element.
fn well_formed(xml: &str) -> Result<(), String> {
    let mut open: Vec<&str> = Vec::new();
    let mut roots = 0;
    let mut rest = xml;
    while !rest.is_empty() {
        let Some(at) = rest.find('<') else {
            check_text(rest, open.is_empty())?;
            break;
        };
        check_text(&rest[..at], open.is_empty())?;
        rest = &rest[at..];
        let skip = |end: &str, rest: &str| rest.find(end).map(|i| i + end.len());
        if rest.starts_with("<?") || rest.starts_with("<!--") {
            let end = if rest.starts_with("<?") { "?>" } else { "-->" };
            rest = &rest[skip(end, rest).ok_or("unclosed declaration or comment")?..];
            continue;
        }
        let close = rest.find('>').ok_or("unclosed tag")?;
        let tag = &rest[1..close];
        rest = &rest[close + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            if open.pop() != Some(name.trim()) {
                return Err(format!("</{name}> closes nothing open"));
            }
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
        let name = &tag[..name_end];
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == ':')
        {
            return Err(format!("bad tag name in <{tag}>"));
        }
        check_attributes(&tag[name_end..])?;
        if open.is_empty() {
            roots += 1;
        }
        if !self_closing {
            open.push(name);
        }
    }
    match (open.last(), roots) {
        (Some(name), _) => Err(format!("<{name}> is never closed")),
        (None, 1) => Ok(()),
        (None, roots) => Err(format!("{roots} root elements")),
    }
}

fn check_attributes(mut rest: &str) -> Result<(), String> {
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(());
        }
        let equals = rest
            .find('=')
            .ok_or(format!("attribute without value: {rest}"))?;
        let quote = rest[equals + 1..]
            .chars()
            .next()
            .filter(|q| *q == '"' || *q == '\'');
        let quote = quote.ok_or(format!("unquoted attribute: {rest}"))?;
        let value_start = equals + 2;
        let value_end = rest[value_start..]
            .find(quote)
            .ok_or("unclosed attribute value")?;
        let value = &rest[value_start..value_start + value_end];
        if value.contains('<') {
            return Err(format!("< in attribute value {value}"));
        }
        check_text(value, false)?;
        rest = &rest[value_start + value_end + 1..];
    }
}

fn check_text(text: &str, outside_root: bool) -> Result<(), String> {
    if outside_root && !text.trim().is_empty() {
        return Err(format!("text outside the root element: {text}"));
    }
    for (at, _) in text.match_indices('&') {
        let entity = text[at + 1..].split(';').next().unwrap_or("");
        let known = matches!(entity, "amp" | "lt" | "gt" | "quot" | "apos");
        let numeric = entity
            .strip_prefix('#')
            .is_some_and(|digits| !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()));
        if !(known || numeric) || !text[at + 1..].contains(';') {
            return Err(format!("bare & in {text}"));
        }
    }
    Ok(())
}

//! The scripted model's default plan: five tasks around the question, depending on each
//! other as a small DAG, whose descriptions quote the question.

use serde_json::{Value as Json, json};

/// How much of the question a default task's description quotes.
const QUOTED_CHARS: usize = 80;

/// Five tasks built around the question, depending on each other as a small DAG.
pub fn default_plan(question: &str) -> Vec<Json> {
    let subject = quote(question);
    [
        (
            format!("Pin down what {subject} must deliver"),
            "high",
            &[][..],
            "The scope and what counts as done are written down",
        ),
        (
            format!("Research options for {subject}"),
            "medium",
            &["T001"][..],
            "At least two options are compared and one is chosen",
        ),
        (
            format!("Draft the core of {subject}"),
            "high",
            &["T002"][..],
            "The draft covers every point of the scope",
        ),
        (
            "Review the draft against the scope".to_string(),
            "medium",
            &["T003"][..],
            "Every gap the review found is fixed",
        ),
        (
            "Polish and deliver the result".to_string(),
            "low",
            &["T003", "T004"][..],
            "The result is complete and reads well",
        ),
    ]
    .into_iter()
    .enumerate()
    .map(
        |(index, (description, priority, depends_on, verification))| {
            json!({
                "id": format!("T{:03}", index + 1),
                "description": description,
                "status": "pending",
                "depends_on": depends_on,
                "priority": priority,
                "metadata": {"verification": verification, "verification_group": "core"},
            })
        },
    )
    .collect()
}

pub(super) fn quote(question: &str) -> String {
    let question = question.trim();
    if question.is_empty() {
        return "the task".into();
    }
    let mut quoted: String = question.chars().take(QUOTED_CHARS).collect();
    if question.chars().count() > QUOTED_CHARS {
        quoted.push('…');
    }
    format!("\"{quoted}\"")
}

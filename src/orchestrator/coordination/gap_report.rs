//! The diagnostic gap report a gated agent passes to `submit_checklist` as `report_path`,
//! judged as MassGen 0.1.97 judges it when `checklist_require_gap_report` is on: present,
//! readable, not empty and long enough to hold an analysis. Pure: the tool side reads the
//! file.

use super::checklist::Invalid;

/// MassGen's minimum length (trimmed characters) of a report.
const MIN_LENGTH: usize = 100;

/// What the tool side found at `report_path`.
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    /// No `report_path` given.
    Missing,
    /// The path could not be used; the reason goes to the model.
    Unreadable(String),
    /// The report's text.
    Text(String),
}

impl Report {
    /// Why the report does not pass the gate; `None` when it does.
    pub fn problem(&self) -> Option<String> {
        match self {
            Self::Missing => Some(
                "Diagnostic report is required before submitting scores. Write a markdown \
                 diagnostic report covering Failure Patterns, Root Causes, and Goal Alignment, \
                 then provide its path via report_path."
                    .into(),
            ),
            Self::Unreadable(reason) => Some(reason.clone()),
            Self::Text(text) if text.trim().is_empty() => Some("Report file is empty.".into()),
            Self::Text(text) if text.trim().chars().count() < MIN_LENGTH => Some(
                "Report is too short to contain meaningful diagnostic analysis. Include Failure \
                 Patterns, Root Causes, and Goal Alignment sections."
                    .into(),
            ),
            Self::Text(_) => None,
        }
    }

    /// MassGen's validation error for a report that does not pass.
    pub(super) fn invalid(problem: &str) -> Invalid {
        Invalid {
            code: "diagnostic_report_invalid",
            explanation: format!(
                "Diagnostic report validation failed. {problem} Fix the report and resubmit \
                 submit_checklist."
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_passes_only_when_present_readable_and_long_enough() {
        assert!(
            Report::Missing
                .problem()
                .unwrap()
                .contains("provide its path via report_path")
        );
        assert_eq!(
            Report::Unreadable("Report file not found: x".into())
                .problem()
                .as_deref(),
            Some("Report file not found: x")
        );
        assert_eq!(
            Report::Text("  \n".into()).problem().as_deref(),
            Some("Report file is empty.")
        );
        assert!(
            Report::Text("## Gaps\nE2 weak".into())
                .problem()
                .unwrap()
                .contains("too short")
        );
        assert_eq!(Report::Text("x".repeat(MIN_LENGTH)).problem(), None);
        let invalid = Report::invalid("Report file is empty.");
        assert_eq!(invalid.code, "diagnostic_report_invalid");
        assert!(
            invalid
                .explanation
                .ends_with("Fix the report and resubmit submit_checklist.")
        );
    }
}

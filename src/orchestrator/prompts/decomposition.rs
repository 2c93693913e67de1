//! MassGen's decomposition coordination section: the agent's own subtask, ownership-first
//! execution, and when to publish with `new_answer` versus `stop`.

/// One agent's work as the presenter is shown it.
pub struct SubtaskWork<'a> {
    pub agent: &'a str,
    pub subtask: Option<&'a str>,
    pub stop_summary: Option<&'a str>,
    pub answer: &'a str,
}

/// What the presenter is asked in decomposition mode (MassGen's final presentation
/// content): the task, then every agent's subtask, stop summary and work.
pub fn presentation_content(task: &str, work: &[SubtaskWork<'_>]) -> String {
    let sections: String = work
        .iter()
        .map(|work| {
            format!(
                "**{}** (subtask: {})\nStop summary: {}\nWork: {}\n",
                work.agent,
                work.subtask.unwrap_or("No specific subtask assigned"),
                work.stop_summary.unwrap_or("No stop summary"),
                work.answer
            )
        })
        .collect();
    format!(
        "ORIGINAL TASK:\n{task}\n\nAGENT WORK SUMMARIES:\n{sections}\n\nYour job is to assemble \
         the final deliverable from the work each agent produced. Ensure quality, fill any gaps, \
         resolve conflicts, and answer the original query comprehensively."
    )
}

/// The `massgen_coordination` section of a decomposition round (MassGen's
/// `DecompositionSection` without a voting threshold).
pub fn instructions(subtask: Option<&str>) -> String {
    let subtask = subtask
        .map(|subtask| format!("\n**YOUR ASSIGNED SUBTASK:**\n{}\n\n", subtask.trim()))
        .unwrap_or_default();
    format!(
        "You are working as part of a decomposed team. Each agent owns a specific subtask of a \
         larger project.\n{subtask}\n{OWNERSHIP}\n\n{DECISION}\n\n{CLOSING}"
    )
}

const OWNERSHIP: &str = "**CRITICAL: OWNERSHIP-FIRST EXECUTION.**
You own one primary subtask. Keep roughly 80% of your effort on that scope.
Use up to roughly 20% for adjacent integration work only when needed (interfaces, contracts, shared styles/tests, wiring).
Do NOT take over unrelated domains owned by other agents.
There may be overlap near your boundaries; you may refine/integrate that overlap, but do NOT expand into unrelated subtasks.

Team fairness policy is active to prevent runaway iteration loops. It does NOT mean reducing quality or stopping early.
Aim for similar effort bands across agents while maintaining a strong quality bar in your own area.

**HOW DECOMPOSITION MODE WORKS:**

1. **Self-refinement**: Continue improving your own work across iterations. Fix issues you spot, try better approaches, increase quality. Submit `new_answer` whenever you have meaningful improvements.

2. **Full awareness**: When you see other agents' work, READ and UNDERSTAND all of it. Maintain awareness of the entire project state, not just your subtask.

3. **Selective integration**: Integrate parts that touch your subtask — adapt interfaces, align contracts, resolve conflicts. For parts outside your area, maintain awareness but don't redo their work.

4. **Quality bar for `new_answer`**: When you submit `new_answer`, include concrete deliverables in your scope, validation evidence (tests/checks/manual verification), and boundary integration notes.

5. **Dual-purpose new_answer**: Submit `new_answer` when you have meaningful improvements — from self-refinement, integration insights, or both.

6. **Completion**: Call `stop` when you have reviewed the current state of work (yours and others') and are satisfied that your subtask is done. This ends your execution for this round.";

const DECISION: &str = "**CHOOSING THE RIGHT TOOL — `new_answer` vs `stop`:**
Both are terminal actions that end your round. Choose based on whether you produced new work:
- `new_answer`: You did work this round — wrote code, updated files, made improvements. Use this to **share your work** with other agents and the presenter.
- `stop`: You reviewed everything and are satisfied — no further changes needed from you. This signals completion without sharing new work.";

const CLOSING: &str = "**IMPORTANT:** If you improved or updated your deliverable work this round (fixed bugs, updated code, aligned interfaces), use `new_answer` to share those changes. It's fine to call `stop` if you only ran tests or created scratch files for verification without changing your actual output.

**TOOLS:**
- `new_answer`: Submit your work (content = summary of what you did + key deliverables)
- `stop`: Signal you are satisfied and done (summary = what you accomplished and how it connects; status = \"complete\" or \"blocked\")";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subtask_leads_the_section_only_when_there_is_one() {
        let owned = instructions(Some("Write the parser"));
        assert!(owned.contains("**YOUR ASSIGNED SUBTASK:**\nWrite the parser\n"));
        assert!(owned.contains("Call `stop` when you have reviewed"));
        assert!(!instructions(None).contains("YOUR ASSIGNED SUBTASK"));
    }

    #[test]
    fn the_presenter_sees_every_subtask_with_its_work() {
        let work = [
            SubtaskWork {
                agent: "api",
                subtask: Some("Build the API"),
                stop_summary: Some("endpoints done"),
                answer: "GET /items",
            },
            SubtaskWork {
                agent: "ui",
                subtask: None,
                stop_summary: None,
                answer: "a page",
            },
        ];
        let content = presentation_content("Build a shop", &work);
        assert!(content.starts_with("ORIGINAL TASK:\nBuild a shop\n\nAGENT WORK SUMMARIES:\n"));
        assert!(content.contains(
            "**api** (subtask: Build the API)\nStop summary: endpoints done\nWork: GET /items\n"
        ));
        assert!(content.contains(
            "**ui** (subtask: No specific subtask assigned)\nStop summary: No stop summary"
        ));
        assert!(content.ends_with("answer the original query comprehensively."));
    }
}

//! The planning and execution prompts, the execution guidance for system messages, and the
//! one-line progress summary shown to peers.

use std::fmt::Write as _;

use crate::protocol::{BroadcastTarget, PlanDepth, TaskProgress};

const SCOPE_HUMAN: &str = "### 1. Scope Confirmation (REQUIRED FIRST)
Sort the request into: requirements explicitly stated; critical assumptions that change what \
gets built (NEED HUMAN VERIFICATION); technical assumptions (settled by agent consensus \
through voting).
Ask the human with `ask_others` ONLY about the few most critical items, each with your \
recommendation (good: \"Audience: I recommend beginners, since the request says 'simple'. \
Confirm?\"; bad: \"Who is the audience?\" or asking which library to use). Decide technical \
details yourselves. Keep `ask_others` calls to a minimum.";

const SCOPE_AUTONOMOUS: &str = "### 1. Scope Analysis (REQUIRED FIRST)
You have no human to ask, so you MUST decide autonomously. Sort the request into: \
requirements explicitly stated; critical assumptions; technical assumptions. Be opinionated: \
choose for EVERY assumption and write down why. The other agents refine these decisions \
through their answers and voting; all decisions are settled by consensus.";

/// The task wrapped for a planning turn: the agents write `project_plan.json`, not the
/// deliverable.
pub fn planning_prompt(
    question: &str,
    depth: PlanDepth,
    broadcast: BroadcastTarget,
    max_tasks: Option<u32>,
) -> String {
    let (scope, questions) = match broadcast {
        BroadcastTarget::Human => (
            SCOPE_HUMAN,
            "Settle what is still ambiguous before planning, asking the human only what \
             step 1 allows.",
        ),
        BroadcastTarget::Agents | BroadcastTarget::Off => (
            SCOPE_AUTONOMOUS,
            "Settle what is still ambiguous before planning by deciding, and record each \
             decision with its reasoning in a supporting document.",
        ),
    };
    let interactive = match broadcast {
        BroadcastTarget::Human => " **interactively**",
        BroadcastTarget::Agents | BroadcastTarget::Off => "",
    };
    let mut prompt = format!(
        "# TASK PLANNING MODE

You are in task planning mode. Your goal is to{interactive} create a comprehensive task plan.

## CRITICAL: PLANNING ONLY - DO NOT BUILD THE DELIVERABLE

YOU ARE A PLANNER, NOT AN EXECUTOR. Another run carries the plan out. You may write only:
- `project_plan.json` (REQUIRED): the task plan
- supporting markdown documents (`*.md`): requirements, architecture, decisions, risks
- scratch research files (notes, small experiments)

Do NOT write the deliverable itself (its code, final text or assets).

## Planning Process

{scope}

### 2. Research
Study what the plan depends on: files in the workspace and context paths, the tools and \
libraries involved, known pitfalls. Keep findings in notes or supporting documents.

### 3. Clarifying Questions
{questions}

### 4. Plan Creation
Break the work into tasks that each produce a checkable result, ordered by their \
dependencies, each saying how to verify it.

## Output Requirements

Write `project_plan.json` at the workspace root (inside `deliverable/` if that directory \
exists) with your file tools. Do NOT use the task-plan tools (`create_task_plan`, \
`add_task`…) for it: they track your own work, not the plan you hand over.

```json
{{\"tasks\": [
  {{\"id\": \"T001\", \"description\": \"...\", \"status\": \"pending\", \"depends_on\": [],
   \"priority\": \"high\", \"metadata\": {{\"verification\": \"...\",
   \"verification_method\": \"...\", \"verification_group\": \"...\"}}}}
]}}
```

- `id`: unique (T001, T002…); `description`: what to do and how, clear without this conversation
- `status`: always \"pending\"; `priority`: low, medium or high
- `depends_on`: ids of the tasks that must finish first; dependencies must form a DAG (no \
cycles, no task depending on itself, no unknown ids)
- `metadata.verification`: what done looks like; `verification_method`: how to check it (a \
command to run, a page to open); `verification_group`: tasks checked together at one checkpoint

## Planning Size

- Depth: {depth}
- Target tasks: {target}
",
        depth = depth.name(),
        target = depth.target(),
    );
    if let Some(max) = max_tasks.filter(|max| *max > 0) {
        let _ = writeln!(prompt, "- Hard limit: at most {max} tasks");
    }
    prompt.push_str(
        "
## Quality Criteria

- Every task can be verified on its own; user-visible checks come early, not only at the end
- Interfaces between tasks (files, APIs, data formats) are stated in the tasks that share them
- Nothing the request asks for is missing, and nothing it does not ask for is added

---

USER'S REQUEST:
",
    );
    prompt.push_str(question);
    prompt
}

/// Appended to every agent's system message while a plan is executed.
pub const EXECUTION_GUIDANCE: &str = "\n## Plan Execution Mode\n\n\
You are carrying out an approved task plan. It is preloaded into `tasks/plan.json`; the \
planning documents are in `planning_docs/`.\n\n\
- `get_task_plan()` shows every task; `get_ready_tasks()` the ones you can start now.\n\
- Track your work: `update_task_status(\"T001\", \"in_progress\")` when you start a task, \
`update_task_status(\"T001\", \"completed\", \"what you did\")` when it is done.\n\
- Status flow: pending → in_progress → completed → verified. Mark a task `verified` only \
after checking that it really works, following its `verification_method`, and verify \
together the tasks that share a `verification_group` (build it, run it, open it). Never mark \
verified what does not build or run.\n\
- Other agents' progress counts are informational: judge their deliverable, not how many \
tasks they ticked. Vote only for work that is complete and of high quality.\n\
- To continue from another agent's progress, call `clear_task_plan()` and then \
`create_task_plan(tasks=[...])` with their tasks and statuses.\n";

/// The user turn of an execution run.
pub fn execution_prompt(question: &str, extra: Option<&str>) -> String {
    let mut prompt = format!(
        "# PLAN EXECUTION MODE\n\n\
         Your task plan has been AUTO-LOADED into `tasks/plan.json`. Start executing!\n\n\
         ## Your Task\n{question}\n"
    );
    if let Some(extra) = extra.map(str::trim).filter(|extra| !extra.is_empty()) {
        let _ = write!(prompt, "\n## Additional Instructions\n{extra}\n");
    }
    prompt.push_str(
        "\n## Getting Started\n\
         1. **Check ready tasks**: `get_ready_tasks()` shows what can start now\n\
         2. **Track progress**: `update_task_status` to in_progress, completed (with notes), \
         then verified once checked\n\
         3. **Execute every task** of the plan, in dependency order\n\
         4. **Evaluate others**: judge the other agents' deliverables, not their task counts\n\n\
         ## Reference Materials\n\
         - `planning_docs/`: the documents written while planning\n\
         - The frozen plan, through a read-only context path, to check your work against\n\n\
         Begin execution now.",
    );
    prompt
}

/// `📊 Progress: 2/6 tasks completed (33.3%) | 1 in progress | 3 pending`.
pub fn progress_line(progress: &TaskProgress) -> String {
    let percent = if progress.total == 0 {
        0.0
    } else {
        100.0 * progress.done as f64 / progress.total as f64
    };
    format!(
        "📊 Progress: {}/{} tasks completed ({percent:.1}%) | {} in progress | {} pending",
        progress.done, progress.total, progress.in_progress, progress.pending
    )
}

#[cfg(test)]
#[path = "prompts_tests.rs"]
mod tests;

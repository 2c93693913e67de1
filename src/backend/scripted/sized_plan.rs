//! The size of plan the planning prompt asks for (its "Target tasks" and "Hard limit"
//! lines), and a default plan of that size built from templates.

use serde_json::{Value as Json, json};

use super::default_plan::{default_plan, quote};
use super::reading;
use crate::backend::{ChatRequest, Message};

const TARGET: &str = "- Target tasks:";
const HARD_LIMIT: &str = "- Hard limit: at most";
/// The plan size when the prompt names none: the five-task default.
const SMALLEST: usize = 5;

/// The stages every area of a large plan goes through, in order: description (`{area}` and
/// `{subject}` filled in), priority, and what done looks like.
const STAGES: [(&str, &str, &str, &str); 5] = [
    (
        "scope",
        "Pin down the {area} for {subject}",
        "high",
        "The decisions on the {area} are written down and agreed",
    ),
    (
        "research",
        "Research options for the {area}",
        "medium",
        "Two options for the {area} are compared and one is chosen",
    ),
    (
        "draft",
        "Draft the {area}",
        "high",
        "The draft of the {area} covers its part of the scope",
    ),
    (
        "review",
        "Review the {area} against the scope",
        "medium",
        "Every gap the review found in the {area} is fixed",
    ),
    (
        "delivery",
        "Finalise the {area}",
        "low",
        "The part on the {area} is complete and reads well",
    ),
];

const AREAS: [&str; 20] = [
    "goals",
    "audience",
    "scope limits",
    "budget",
    "schedule",
    "roles",
    "resources",
    "tools",
    "risks",
    "safety",
    "quality bar",
    "communication",
    "logistics",
    "dependencies",
    "costs",
    "fallback plan",
    "accessibility",
    "documentation",
    "feedback",
    "follow-up",
];

/// How many tasks the planning prompt asks for: the lower end of its target range, at
/// most its hard limit; five when it names no target.
pub fn requested_tasks(request: &ChatRequest) -> usize {
    let prompt = request
        .messages
        .iter()
        .find_map(|message| match message {
            Message::User { content, .. } if content.contains(reading::PLANNING_MODE) => {
                Some(content.as_str())
            }
            Message::User { .. }
            | Message::System { .. }
            | Message::Assistant { .. }
            | Message::Tool { .. } => None,
        })
        .unwrap_or_default();
    let target = number_after(prompt, TARGET).unwrap_or(SMALLEST);
    number_after(prompt, HARD_LIMIT).map_or(target, |limit| target.min(limit))
}

/// The first number on the line that starts with `label`.
fn number_after(prompt: &str, label: &str) -> Option<usize> {
    let line = prompt
        .lines()
        .find_map(|line| line.trim_start().strip_prefix(label))?;
    let digits: String = line
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok().filter(|count| *count > 0)
}

/// `count` tasks about `subject`: the five-task default up to five; above that, areas of
/// the work that each go through the five stages, every stage of an area depending on the
/// one before, so the plan is only five tasks deep however wide it is.
pub fn plan_of(count: usize, question: &str) -> Vec<Json> {
    if count <= SMALLEST {
        let mut plan = default_plan(question);
        plan.truncate(count);
        return plan;
    }
    let subject = quote(question);
    let areas: Vec<String> = (0..count.div_ceil(STAGES.len()))
        .map(|index| {
            AREAS
                .get(index)
                .map_or_else(|| format!("area {}", index + 1), ToString::to_string)
        })
        .collect();
    let id = |stage: usize, area: usize| format!("T{:03}", stage * areas.len() + area + 1);
    let mut tasks = Vec::with_capacity(count);
    for (stage, (group, description, priority, verification)) in STAGES.iter().enumerate() {
        for (index, area) in areas.iter().enumerate() {
            let fill = |text: &str| text.replace("{area}", area).replace("{subject}", &subject);
            let depends_on: Vec<String> = stage
                .checked_sub(1)
                .map(|before| id(before, index))
                .into_iter()
                .collect();
            tasks.push(json!({
                "id": id(stage, index),
                "description": fill(description),
                "status": "pending",
                "depends_on": depends_on,
                "priority": priority,
                "metadata": {"verification": fill(verification), "verification_group": group},
            }));
        }
    }
    tasks.truncate(count);
    tasks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{BroadcastTarget, PlanDepth};

    fn planning(depth: PlanDepth, max_tasks: Option<u32>) -> ChatRequest {
        let prompt =
            crate::plan::planning_prompt("Plan a picnic", depth, BroadcastTarget::Off, max_tasks);
        ChatRequest {
            messages: vec![Message::user(format!(
                "<ORIGINAL MESSAGE>{prompt}<END OF ORIGINAL MESSAGE>"
            ))]
            .into(),
            tools: vec![],
        }
    }

    #[test]
    fn the_size_is_the_lower_end_of_the_prompts_target_within_its_limit() {
        assert_eq!(requested_tasks(&planning(PlanDepth::Shallow, None)), 5);
        assert_eq!(requested_tasks(&planning(PlanDepth::Medium, None)), 20);
        assert_eq!(requested_tasks(&planning(PlanDepth::Deep, None)), 100);
        assert_eq!(requested_tasks(&planning(PlanDepth::Deep, Some(30))), 30);
        assert_eq!(requested_tasks(&planning(PlanDepth::Shallow, Some(3))), 3);
        let no_target = ChatRequest {
            messages: vec![Message::user("# TASK PLANNING MODE\nUSER'S REQUEST:\nq")].into(),
            tools: vec![],
        };
        assert_eq!(
            requested_tasks(&no_target),
            5,
            "no target: the small default"
        );
    }

    #[test]
    fn a_large_plan_is_areas_through_five_stages() {
        let plan = plan_of(100, "Plan a picnic");
        assert_eq!(plan.len(), 100);
        let ids: Vec<&str> = plan
            .iter()
            .map(|task| task["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids[..2], ["T001", "T002"]);
        assert_eq!(ids[99], "T100");
        assert_eq!(
            plan[0]["description"],
            "Pin down the goals for \"Plan a picnic\""
        );
        assert_eq!(plan[0]["depends_on"], json!([]));
        assert_eq!(plan[20]["description"], "Research options for the goals");
        assert_eq!(plan[20]["depends_on"], json!(["T001"]));
        assert_eq!(plan[99]["description"], "Finalise the follow-up");
        assert_eq!(plan[99]["depends_on"], json!(["T080"]));
        assert_eq!(plan[99]["metadata"]["verification_group"], "delivery");
    }

    #[test]
    fn sizes_between_stages_are_cut_and_small_ones_are_the_default() {
        let plan = plan_of(22, "q");
        assert_eq!(plan.len(), 22);
        assert_eq!(plan[5]["depends_on"], json!(["T001"]), "five areas");
        assert_eq!(plan_of(5, "q"), default_plan("q"));
        assert_eq!(plan_of(3, "q").len(), 3);
        let many = plan_of(130, "q");
        assert_eq!(many[25]["description"], "Pin down the area 26 for \"q\"");
    }
}

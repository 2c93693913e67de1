//! Property-style checks: random and garbage arguments never panic, and the plan is a
//! valid DAG within the task limit after every call.

use serde_json::{Map, Value, json};

use super::*;

/// xorshift64*: small, deterministic, good enough to vary inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const KEYS: [&str; 12] = [
    "tasks",
    "task_id",
    "status",
    "description",
    "depends_on",
    "dependencies",
    "priority",
    "after_task_id",
    "completion_notes",
    "verification",
    "id",
    "metadata",
];
const WORDS: [&str; 16] = [
    "T001",
    "T002",
    "T003",
    "T004",
    "T010",
    "a",
    "b",
    "0",
    "1",
    "pending",
    "in_progress",
    "completed",
    "verified",
    "blocked",
    "high",
    "",
];

fn value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 2 { 5 } else { 8 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 0),
        2 => json!(rng.below(8) as i64 - 2),
        3 => json!(rng.below(100) as f64 / 7.0),
        4 => Value::String(rng.pick(&WORDS).to_string()),
        5 => Value::Array((0..rng.below(5)).map(|_| value(rng, depth + 1)).collect()),
        6 => task_like(rng, depth + 1),
        _ => Value::String("\u{0}\"\\🦀 ∂".repeat(rng.below(3))),
    }
}

fn task_like(rng: &mut Rng, depth: usize) -> Value {
    let mut object = Map::new();
    for _ in 0..rng.below(5) {
        object.insert(rng.pick(&KEYS).to_string(), value(rng, depth + 1));
    }
    if rng.below(3) > 0 {
        object.insert(
            "description".into(),
            json!(format!("task {}", rng.below(50))),
        );
    }
    Value::Object(object)
}

fn arguments(rng: &mut Rng) -> String {
    match rng.below(10) {
        0 => {
            let length = rng.below(30);
            let alphabet: Vec<char> = "{}[]\":,0123456789abc\\ \n\u{7f}é".chars().collect();
            (0..length)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect()
        }
        1 => {
            let text = task_like(rng, 0).to_string();
            let cut = rng.below(text.len() + 1);
            text.get(..cut).unwrap_or(&text).to_string()
        }
        2 => value(rng, 0).to_string(),
        3 | 4 => {
            let tasks: Vec<Value> = (0..rng.below(7))
                .map(|_| {
                    if rng.below(4) == 0 {
                        value(rng, 1)
                    } else {
                        task_like(rng, 1)
                    }
                })
                .collect();
            json!({"tasks": tasks}).to_string()
        }
        _ => task_like(rng, 0).to_string(),
    }
}

fn check(planner: &TaskPlanner, max: usize) {
    let Some(plan) = planner.plan() else {
        return;
    };
    if let Err(error) = validate(&plan.tasks) {
        panic!("the plan stopped being valid: {error}\n{plan:#?}");
    }
    assert!(
        plan.tasks.len() <= max,
        "{} tasks over the limit {max}",
        plan.tasks.len()
    );
}

#[test]
fn random_arguments_never_panic_and_keep_a_valid_plan() {
    for seed in 1..=40u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let max = 1 + rng.below(8);
        let mut planner = TaskPlanner::new("fuzz", max as u32);
        for step in 0..400 {
            let tool = if rng.below(25) == 0 {
                "not_a_tool"
            } else {
                TOOL_NAMES[rng.below(9)]
            };
            let args = arguments(&mut rng);
            let before = planner.plan().cloned();
            let result = planner.call(tool, &args, now());
            match &result {
                Ok(value) => assert_eq!(value["success"], true, "{tool} {args}"),
                Err(value) => {
                    assert_eq!(value["success"], false);
                    assert_eq!(value["operation"], tool);
                    assert!(value["error"].as_str().is_some_and(|text| !text.is_empty()));
                    assert_eq!(
                        planner.plan().cloned(),
                        before,
                        "{tool} {args} failed but changed the plan"
                    );
                }
            }
            if is_read_only(tool) {
                assert_eq!(planner.plan().cloned(), before);
            }
            check(&planner, max);
            if step % 50 == 0
                && let Some(bytes) = planner.file_bytes()
            {
                let reloaded = TaskPlanner::from_file_bytes("fuzz", max as u32, &bytes, now());
                let reloaded =
                    reloaded.unwrap_or_else(|error| panic!("saved plan does not load: {error}"));
                assert_eq!(
                    reloaded.plan().map(|plan| &plan.tasks),
                    planner.plan().map(|plan| &plan.tasks)
                );
            }
        }
    }
}

#[test]
fn structured_sequences_reach_every_tool_path() {
    let mut rng = Rng(7);
    let mut planner = TaskPlanner::new("fuzz", 6);
    let mut successes = [0usize; 9];
    for _ in 0..3000 {
        let index = rng.below(9);
        let tool = TOOL_NAMES[index];
        let id = rng.pick(&WORDS[..8]);
        let args = match tool {
            "create_task_plan" => {
                json!({"tasks": (0..1 + rng.below(4)).map(|n| json!({"description": format!("d{n}"), "depends_on": if n > 0 { json!([rng.below(n)]) } else { json!([]) }})).collect::<Vec<_>>()})
            }
            "add_task" => {
                json!({"description": "more", "depends_on": [id], "after_task_id": if rng.below(2) == 0 { Value::Null } else { json!(id) }})
            }
            "update_task_status" => {
                json!({"task_id": id, "status": rng.pick(&TaskStatus::NAMES), "completion_notes": "n"})
            }
            "edit_task" => json!({"task_id": id, "depends_on": [rng.pick(&WORDS[..8])]}),
            _ => json!({"task_id": id}),
        };
        if planner.call(tool, &args.to_string(), now()).is_ok() {
            successes[index] += 1;
        }
        check(&planner, 6);
    }
    assert!(successes.iter().all(|count| *count > 0), "{successes:?}");
}

fn now() -> Timestamp {
    Timestamp::from_second(1_790_000_000).unwrap_or(Timestamp::UNIX_EPOCH)
}

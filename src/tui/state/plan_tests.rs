//! The reducer over planning events: task plans and their tree, blocked calls, planning
//! mode's decision, questions to the user, saved plans and their listing.

use super::*;
use crate::protocol::{BroadcastTarget, EventMsg, Mode, PlanStatus, TurnOptions, TurnOutcome};
use crate::tui::render::timeline_text::describe;
use crate::tui::test_plans::{
    PLAN_ID, asked, closed, listed_plans, plan, questions, tasks_mid_execution, turn_started,
};
use crate::tui::test_support::{event, tool_begin};
use crate::tui::theme::Theme;

fn roster() -> Vec<AgentInfo> {
    AgentInfo::roster(
        ["a", "b"].map(|id| (AgentId::new(id), "scripted".to_string(), "m".to_string())),
    )
}

fn running(mode: Mode, options: TurnOptions) -> UiState {
    let mut state = UiState::new(roster());
    state.apply(&event(1, None, turn_started(mode, options, roster())));
    state
}

/// What the newest timeline entry says.
fn last_entry(state: &UiState) -> String {
    let entry = state.timeline.last().unwrap();
    describe(&entry.kind, &Theme::default()).0
}

#[test]
fn a_task_plan_change_replaces_the_list_and_works_out_its_tree() {
    let mut state = running(Mode::Execute, TurnOptions::default());
    let tasks = tasks_mid_execution();
    state.apply(&event(
        2,
        Some("a"),
        EventMsg::TaskPlanChanged {
            tasks: tasks.clone(),
        },
    ));
    let card = &state.agents[0];
    assert_eq!(card.tasks, tasks);
    let progress = card.task_tree.progress;
    assert_eq!(
        (
            progress.total,
            progress.done,
            progress.in_progress,
            progress.blocked
        ),
        (7, 2, 1, 1)
    );
    assert_eq!(card.task_tree.current, Some(2), "T003 is in progress");
    let order: Vec<(&str, usize)> = card
        .task_tree
        .rows
        .iter()
        .map(|row| (tasks[row.task].id.as_str(), row.depth))
        .collect();
    assert_eq!(
        order,
        [
            ("T001", 0),
            ("T002", 1),
            ("T003", 2),
            ("T004", 3),
            ("T007", 4),
            ("T005", 2),
            ("T006", 1)
        ]
    );
    assert!(state.agents[1].tasks.is_empty(), "only the agent's own");
    state.apply(&event(
        3,
        Some("a"),
        EventMsg::TaskPlanChanged { tasks: Vec::new() },
    ));
    assert!(state.agents[0].task_tree.rows.is_empty());
    assert!(
        state.timeline.len() == 1,
        "task changes are not timeline entries"
    );
}

#[test]
fn a_dependency_cycle_still_shows_every_task_once() {
    use crate::protocol::{TaskPriority, TaskStatus};
    use crate::tui::test_plans::task;
    let tasks = vec![
        task("A", "a", TaskStatus::Pending, TaskPriority::Medium, &["B"]),
        task("B", "b", TaskStatus::Pending, TaskPriority::Medium, &["A"]),
        task(
            "C",
            "c",
            TaskStatus::Pending,
            TaskPriority::Medium,
            &["missing", "A"],
        ),
    ];
    let tree = TaskTree::of(&tasks);
    let order: Vec<usize> = tree.rows.iter().map(|row| row.task).collect();
    assert_eq!(order, [0, 1, 2]);
    assert_eq!(
        tree.rows[2].parent,
        Some(0),
        "the first dependency that exists"
    );
    assert_eq!(tree.current, None, "nothing is ready");
}

#[test]
fn a_blocked_call_becomes_a_blocked_tool_card_and_a_timeline_entry() {
    let mut state = running(Mode::Normal, TurnOptions::default());
    state.apply(&event(
        2,
        Some("a"),
        EventMsg::PlanningModeDecided {
            irreversible: true,
            blocked_tools: vec!["mcp__github__create_issue".into()],
        },
    ));
    assert_eq!(
        last_entry(&state),
        "🛡 planning mode: irreversible, 1 tool blocked until the presentation"
    );
    let blocked = EventMsg::ToolBlocked {
        call_id: "c1".into(),
        tool: "mcp__github__create_issue".into(),
        arguments: r#"{"title":"x"}"#.into(),
        message: "blocked during coordination".into(),
    };
    state.apply(&event(3, Some("a"), blocked));
    let tool = state.agents[0]
        .items
        .last()
        .and_then(CardItem::tool)
        .unwrap();
    assert_eq!(tool.name, "github/create_issue");
    assert_eq!(
        tool.state,
        ToolState::Blocked {
            message: "blocked during coordination".into()
        }
    );
    assert_eq!(
        last_entry(&state),
        "🚫 github/create_issue blocked by planning mode"
    );
    // A call already shown as running is blocked in place.
    state.apply(&event(
        4,
        Some("b"),
        tool_begin("c2", "mcp__fs__delete", "{}"),
    ));
    assert_eq!(state.agents[1].running_tools, 1);
    state.apply(&event(
        5,
        Some("b"),
        EventMsg::ToolBlocked {
            call_id: "c2".into(),
            tool: "mcp__fs__delete".into(),
            arguments: "{}".into(),
            message: "m".into(),
        },
    ));
    assert_eq!(state.agents[1].running_tools, 0);
    assert_eq!(state.agents[1].items.len(), 1);
}

#[test]
fn questions_to_the_user_wait_until_answered_or_closed() {
    let mut state = running(Mode::Planning, TurnOptions::default());
    state.apply(&event(
        2,
        Some("a"),
        asked("r1", BroadcastTarget::Human, questions()),
    ));
    state.apply(&event(
        3,
        Some("b"),
        asked("r2", BroadcastTarget::Human, questions()),
    ));
    state.apply(&event(
        4,
        Some("b"),
        asked("r3", BroadcastTarget::Agents, questions()),
    ));
    let waiting: Vec<&str> = state
        .planning
        .questions
        .iter()
        .map(|pending| pending.request_id.as_str())
        .collect();
    assert_eq!(waiting, ["r1", "r2"], "only the user's questions wait");
    assert_eq!(state.planning.questions[0].asker, Some(AgentId::new("a")));
    assert_eq!(
        last_entry(&state),
        "📣 asks the agents: Which database should the notes service use? (+1 more)"
    );
    assert!(matches!(
        state.agents[0].items.last(),
        Some(CardItem::Notice(text)) if text.starts_with("📣 asks you: Which database")
    ));
    state.apply(&event(
        5,
        Some("a"),
        EventMsg::BroadcastAnswered {
            request_id: "r1".into(),
            from: None,
            answer: "SQLite".into(),
        },
    ));
    assert_eq!(last_entry(&state), "💬 you replied: SQLite");
    assert!(
        matches!(
            state.agents[0].items.last(),
            Some(CardItem::Notice(text)) if text == "💬 you answered: SQLite"
        ),
        "the asker's card shows the answer under its question: {:?}",
        state.agents[0].items.last()
    );
    assert_eq!(state.planning.questions.len(), 1);
    state.apply(&event(6, Some("b"), closed("r2", true)));
    assert!(state.planning.questions.is_empty());
    assert_eq!(last_entry(&state), "⏱ the question timed out (0 replies)");
    state.apply(&event(
        7,
        Some("a"),
        asked("r4", BroadcastTarget::Human, questions()),
    ));
    state.apply(&event(
        8,
        None,
        EventMsg::TurnFinished {
            outcome: TurnOutcome::Cancelled,
            winner: None,
            duration_ms: 1,
        },
    ));
    assert!(
        state.planning.questions.is_empty(),
        "nobody waits once the turn is over"
    );
}

#[test]
fn the_turn_plan_follows_its_updates_and_a_new_planning_turn_forgets_it() {
    let options = TurnOptions {
        auto_execute: true,
        ..TurnOptions::default()
    };
    let mut state = running(Mode::Planning, options.clone());
    assert_eq!(state.turn.options, options);
    state.apply(&event(
        2,
        None,
        EventMsg::PlansListed {
            plans: listed_plans(),
        },
    ));
    let update = |seq, info| event(seq, None, EventMsg::PlanUpdated { plan: info });
    state.apply(&update(3, plan(PLAN_ID, PlanStatus::Planning, Vec::new())));
    assert_eq!(state.timeline.len(), 1, "no entry while it is being made");
    state.apply(&update(
        4,
        plan(PLAN_ID, PlanStatus::Ready, tasks_mid_execution()),
    ));
    assert_eq!(
        last_entry(&state),
        format!("📋 plan {PLAN_ID} ready: 7 tasks")
    );
    let current = state.planning.plan.as_ref().unwrap();
    assert_eq!(current.info.status, PlanStatus::Ready);
    assert_eq!(current.tree.rows.len(), 7);
    let listed = &state.planning.plans.as_ref().unwrap()[0];
    assert_eq!(listed.info.tasks.len(), 7, "the listing follows the update");

    let mut failed = plan(PLAN_ID, PlanStatus::Failed, Vec::new());
    failed.detail = Some("no agent wrote project_plan.json".into());
    state.apply(&update(5, failed));
    assert_eq!(
        last_entry(&state),
        format!("✗ plan {PLAN_ID} failed: no agent wrote project_plan.json")
    );
    let mut done = plan(PLAN_ID, PlanStatus::Completed, tasks_mid_execution());
    done.divergence = Some(0.25);
    state.apply(&update(6, done));
    assert_eq!(
        last_entry(&state),
        format!("✓ plan {PLAN_ID} completed (7 tasks, divergence 0.25)")
    );
    state.apply(&event(
        7,
        None,
        turn_started(Mode::Execute, TurnOptions::default(), roster()),
    ));
    assert!(
        state.planning.plan.is_some(),
        "an execute turn keeps it until its own update"
    );
    state.apply(&event(
        8,
        None,
        turn_started(Mode::Planning, TurnOptions::default(), roster()),
    ));
    assert!(state.planning.plan.is_none());
    assert_eq!(
        state.planning.plans.as_ref().map(Vec::len),
        Some(3),
        "the listing stays"
    );
}

#[test]
fn a_planning_entry_is_noted_once_folded_for_the_tables_legend() {
    let mut state = running(Mode::Planning, TurnOptions::default());
    state.apply(&event(2, Some("a"), tool_begin("c1", "read_file", "{}")));
    assert!(!state.timeline.planning);
    state.apply(&event(
        3,
        Some("a"),
        EventMsg::ToolBlocked {
            call_id: "c2".into(),
            tool: "mcp__github__create_issue".into(),
            arguments: "{}".into(),
            message: "irreversible".into(),
        },
    ));
    assert!(state.timeline.planning);
}

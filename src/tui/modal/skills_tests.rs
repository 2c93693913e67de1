//! `/skills` (issue 32, item 1): the run's `SkillsListed` fills the state, the view shows
//! each skill or why there are none, and the command is in the slash table and `/help`.

use insta::assert_snapshot;

use crate::protocol::{EventMsg, SkillInfo, SkillSource};
use crate::tui::render::tests::{FRANCE, both_sizes, draw, modal_view, screen_text};
use crate::tui::slash::{SLASH_NAMES, find};
use crate::tui::state::{ListedSkills, UiState};
use crate::tui::test_support::{demo_turns, event, fold};
use crate::tui::theme::Theme;
use crate::tui::view::ModalKind;

fn skill(name: &str, description: &str, source: SkillSource, file: &str) -> SkillInfo {
    SkillInfo {
        name: name.into(),
        description: description.into(),
        source,
        file: file.into(),
    }
}

fn listed(skills: Vec<SkillInfo>) -> EventMsg {
    EventMsg::SkillsListed {
        skills,
        searched: vec![
            "/work/proj/.agent/skills".into(),
            "/home/u/.agent/skills".into(),
        ],
    }
}

async fn state_with(msg: Option<EventMsg>) -> UiState {
    let mut state = fold(&demo_turns(&[FRANCE]).await);
    if let Some(msg) = msg {
        state.apply(&event(1_000, None, msg));
    }
    state
}

#[test]
fn the_event_fills_the_state() {
    let pdf = skill("pdf", "PDF tools", SkillSource::User, "/u/pdf/SKILL.md");
    let state = fold(&[event(1, None, listed(vec![pdf.clone()]))]);
    assert_eq!(
        state.tools.skills,
        Some(ListedSkills {
            skills: vec![pdf],
            searched: vec![
                "/work/proj/.agent/skills".into(),
                "/home/u/.agent/skills".into()
            ],
        })
    );
    assert_eq!(fold(&[]).tools.skills, None, "off until the run lists them");
}

#[tokio::test(start_paused = true)]
async fn skills_show_name_description_source_and_file() {
    let state = state_with(Some(listed(vec![
        skill(
            "pdf",
            "Extract text and tables from PDF files, fill forms and merge documents; \
             use it whenever the task involves a PDF.",
            SkillSource::Project,
            "/work/proj/.agent/skills/pdf/SKILL.md",
        ),
        skill(
            "xlsx",
            "Spreadsheets",
            SkillSource::User,
            "/home/u/.agent/skills/xlsx/SKILL.md",
        ),
        skill(
            "session-log_20250101_120000",
            "What the last run learned",
            SkillSource::PreviousSession,
            "/work/proj/.massgen/massgen_logs/log_20250101_120000/SKILL.md",
        ),
    ])))
    .await;
    let view = modal_view(ModalKind::Skills);
    let screen = screen_text(&draw(&state, &view, 160, 48));
    for wanted in [
        "pdf  project",
        "xlsx  user",
        "previous_session",
        "/home/u/.agent/skills/xlsx/SKILL.md",
        "Spreadsheets",
    ] {
        assert!(screen.contains(wanted), "{wanted}: {screen}");
    }
    both_sizes("modal_skills", &state, &view);
    assert_snapshot!("modal_skills_40x12", draw(&state, &view, 40, 12));
}

#[tokio::test(start_paused = true)]
async fn skills_off_and_none_found_say_so() {
    let view = modal_view(ModalKind::Skills);
    let off = state_with(None).await;
    let screen = screen_text(&draw(&off, &view, 160, 48));
    assert!(
        screen.contains("Skills are off (set orchestrator.coordination.use_skills: true)"),
        "{screen}"
    );
    both_sizes("modal_skills_off", &off, &view);
    let none = state_with(Some(listed(Vec::new()))).await;
    let screen = screen_text(&draw(&none, &view, 160, 48));
    assert!(
        screen.contains("No skills found in /work/proj/.agent/skills, /home/u/.agent/skills"),
        "{screen}"
    );
    both_sizes("modal_skills_none", &none, &view);
}

#[test]
fn skills_is_a_slash_command_listed_in_help() {
    assert!(SLASH_NAMES.contains(&"/skills"));
    assert_eq!(find("skills").map(|command| command.name), Some("/skills"));
    let help: Vec<String> = super::help::help_lines(&Theme::default(), 120)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        help.iter().any(|line| line.starts_with("/skills ")),
        "{help:#?}"
    );
}

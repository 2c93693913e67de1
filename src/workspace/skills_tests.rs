//! Discovery of skills from each source, bad files reported, names deduplicated.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use super::{SkillSource, discover};
use crate::config::SkillsConfig;

fn write_skill(root: &Path, dir: &str, text: &str) -> PathBuf {
    let file = root.join(dir).join("SKILL.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, text).unwrap();
    file
}

fn config(user: Option<PathBuf>, previous: bool) -> SkillsConfig {
    SkillsConfig {
        directory: PathBuf::from(".agent/skills"),
        user_directory: user,
        load_previous_sessions: previous,
    }
}

#[test]
fn project_and_user_skills_are_listed_and_the_first_of_a_name_wins() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let skills = project.path().join(".agent/skills");
    write_skill(
        &skills,
        "pdf",
        "---\nname: pdf\ndescription: PDF tools\n---\n",
    );
    write_skill(&skills, "unnamed", "---\ndescription: no name given\n---\n");
    write_skill(
        home.path(),
        "PDF-copy",
        "---\nname: PDF\ndescription: shadowed\n---\n",
    );
    write_skill(
        home.path(),
        "xlsx",
        "---\nname: xlsx\ndescription: sheets\n---\n",
    );
    std::fs::create_dir_all(skills.join("no-skill-file")).unwrap();

    let catalog = discover(
        project.path(),
        &project.path().join(".massgen/massgen_logs"),
        &config(Some(home.path().to_path_buf()), false),
    );
    let listed: Vec<(&str, &str, SkillSource)> = catalog
        .skills
        .iter()
        .map(|skill| {
            (
                skill.name.as_str(),
                skill.description.as_str(),
                skill.source,
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            ("pdf", "PDF tools", SkillSource::Project),
            ("unnamed", "no name given", SkillSource::Project),
            ("xlsx", "sheets", SkillSource::User),
        ]
    );
    assert!(catalog.skills[0].file.is_absolute());
    assert!(catalog.skills[0].file.ends_with("pdf/SKILL.md"));
    assert_eq!(catalog.roots.len(), 2);
    assert!(catalog.problems.is_empty());
}

#[test]
fn a_bad_skill_file_is_reported_with_its_reason_and_the_rest_still_load() {
    let project = tempfile::tempdir().unwrap();
    let skills = project.path().join(".agent/skills");
    let bad = write_skill(&skills, "broken", "# no front matter\n");
    write_skill(&skills, "good", "---\nname: good\ndescription: fine\n---\n");
    let catalog = discover(project.path(), project.path(), &config(None, false));
    assert_eq!(catalog.skills.len(), 1);
    assert_eq!(catalog.problems.len(), 1);
    assert_eq!(catalog.problems[0].file.file_name(), bad.file_name());
    assert!(catalog.problems[0].file.ends_with("broken/SKILL.md"));
    assert!(catalog.problems[0].reason.contains("no YAML front matter"));
}

#[test]
fn previous_session_skills_come_from_the_last_attempt_only_when_asked() {
    let project = tempfile::tempdir().unwrap();
    let logs = project.path().join(".massgen/massgen_logs");
    let turn = logs.join("log_20260101_000000/turn_1");
    write_skill(
        &turn.join("attempt_1/final/a/workspace/tasks"),
        "evolving_skill",
        "---\nname: old-attempt\ndescription: superseded\n---\n",
    );
    write_skill(
        &turn.join("attempt_2/final/a/workspace/tasks"),
        "evolving_skill",
        "---\ndescription: learned last time\n---\n",
    );
    let off = discover(project.path(), &logs, &config(None, false));
    assert!(off.skills.is_empty());
    let on = discover(project.path(), &logs, &config(None, true));
    assert_eq!(on.skills.len(), 1);
    assert_eq!(on.skills[0].name, "session-log_20260101_000000");
    assert_eq!(on.skills[0].description, "learned last time");
    assert_eq!(on.skills[0].source, SkillSource::PreviousSession);
    assert!(on.skills[0].file.to_string_lossy().contains("attempt_2"));
    assert_eq!(
        on.roots,
        [on.skills[0].file.parent().unwrap().to_path_buf()]
    );
}

//! Unit tests of the sandbox: the switch, the warnings given once, and that confining a
//! command leaves massgen's own threads free.

use std::path::Path;

use super::*;

#[test]
fn the_switch_turns_off_only_on_clear_words() {
    assert_eq!(Mode::parse(None), Mode::Auto);
    for off in ["off", "0", "false", "NO", " Off "] {
        assert_eq!(Mode::parse(Some(off)), Mode::Off, "{off}");
    }
    for on in ["on", "1", "auto", ""] {
        assert_eq!(Mode::parse(Some(on)), Mode::Auto, "{on}");
    }
}

#[test]
fn each_warning_is_given_once() {
    let warned = Warned::default();
    let unconfined = Confinement::Filters {
        reason: "MASSGEN_SANDBOX=off is set".into(),
    };
    let first = warned.notice(&unconfined).unwrap();
    assert!(first.contains("WITHOUT an OS sandbox (MASSGEN_SANDBOX=off is set)"));
    assert_eq!(warned.notice(&unconfined), None);
    let confined = Confinement::Landlock {
        abi: 7,
        network_denied: true,
        network_unenforced: false,
    };
    assert_eq!(warned.notice(&confined), None);
    let no_net = Confinement::Landlock {
        abi: 3,
        network_denied: false,
        network_unenforced: true,
    };
    assert!(warned.notice(&no_net).unwrap().contains("not enforced"));
    assert_eq!(warned.notice(&no_net), None);
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn confining_a_command_leaves_massgen_unrestricted() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (workspace, outside) = (root.join("ws"), root.join("outside"));
    std::fs::create_dir_all(&workspace).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let target = outside.join("x");
    let plan = Plan {
        workspace: workspace.clone(),
        network: true,
        ..Plan::default()
    };
    let launch_touch = |path: &Path| Launch {
        program: "/usr/bin/touch".into(),
        args: vec![path.display().to_string()],
        cwd: workspace.clone(),
        env: vec![("PATH", "/usr/bin:/bin".into())],
        extra_env: Vec::new(),
    };
    let mut running = launch(launch_touch(&target), plan.clone(), Mode::Auto)
        .await
        .unwrap();
    let status = running.child.wait().await.unwrap();
    running.end();
    if !matches!(running.confinement, Confinement::Landlock { .. }) {
        eprintln!("no Landlock here; nothing to check");
        return;
    }
    assert!(!status.success(), "the command wrote outside its workspace");
    assert!(!target.exists());
    // This thread, the runtime's other threads and new threads still write anywhere.
    std::fs::write(&target, "parent").unwrap();
    std::thread::spawn(move || std::fs::write(outside.join("y"), "thread").unwrap())
        .join()
        .unwrap();
    tokio::spawn(async move { std::fs::write(root.join("z"), "task").unwrap() })
        .await
        .unwrap();
    assert!(!procs::thread_has_no_new_privs());
    let mut inside = launch(launch_touch(&workspace.join("ok")), plan, Mode::Auto)
        .await
        .unwrap();
    assert!(inside.child.wait().await.unwrap().success());
    inside.end();
    assert!(workspace.join("ok").exists());
}

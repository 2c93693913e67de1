//! Tests of opening below a handle: `openat2` and the component-wise walk agree.

use std::fs;
use std::io::Read;
use std::os::fd::AsFd;
use std::path::Path;

use super::*;

/// `<root>/outside/secret`, `<root>/base/{in/file, link_out -> ../outside, link_in -> in,
/// file_link -> ../outside/secret}`.
fn tree() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    fs::create_dir_all(root.join("outside")).unwrap();
    fs::write(root.join("outside/secret"), "secret").unwrap();
    fs::create_dir_all(root.join("base/in")).unwrap();
    fs::write(root.join("base/in/file"), "inside").unwrap();
    std::os::unix::fs::symlink("../outside", root.join("base/link_out")).unwrap();
    std::os::unix::fs::symlink("in", root.join("base/link_in")).unwrap();
    std::os::unix::fs::symlink("../outside/secret", root.join("base/file_link")).unwrap();
    (dir, root)
}

/// What opening `relative` for reading gives: the content, or the error's errno.
fn answer(base: &OwnedFd, relative: &str, walk_only: bool) -> Result<String, Option<i32>> {
    let parts = parts(Path::new(relative)).map_err(|_| None)?;
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let opened = if walk_only {
        walk_open(base.as_fd(), &parts, flags, Mode::empty())
    } else {
        #[cfg(target_os = "linux")]
        {
            openat2(base.as_fd(), &parts, flags, Mode::empty()).map_err(Into::into)
        }
        #[cfg(not(target_os = "linux"))]
        walk_open(base.as_fd(), &parts, flags, Mode::empty())
    };
    let mut file = std::fs::File::from(opened.map_err(|error| error.raw_os_error())?);
    let mut text = String::new();
    file.read_to_string(&mut text)
        .map_err(|error| error.raw_os_error())?;
    Ok(text)
}

#[test]
fn the_walk_and_openat2_give_the_same_answers_and_never_leave() {
    let (_dir, root) = tree();
    let base = open_dir(&root.join("base")).unwrap();
    let cases = [
        "in/file",
        "./in/file",
        "link_in/file",
        "link_out/secret",
        "file_link",
        "../outside/secret",
        "in/../../outside/secret",
        "/etc/passwd",
        "missing/file",
        "in/file/more",
    ];
    for case in cases {
        let by_openat2 = answer(&base, case, false);
        let by_walk = answer(&base, case, true);
        assert_eq!(by_openat2, by_walk, "{case}");
        assert_ne!(by_walk, Ok("secret".to_string()), "{case}");
    }
    assert_eq!(answer(&base, "in/file", true), Ok("inside".into()));
    assert_eq!(
        answer(&base, "link_out/secret", true),
        Err(Some(Errno::LOOP.raw_os_error()))
    );
}

#[test]
fn creating_directories_stops_at_a_symlink() {
    let (_dir, root) = tree();
    let base = open_dir(&root.join("base")).unwrap();
    create_dirs(base.as_fd(), Path::new("in/new/deeper")).unwrap();
    assert!(root.join("base/in/new/deeper").is_dir());
    let error = create_dirs(base.as_fd(), Path::new("link_out/made")).unwrap_err();
    assert!(changed(&error), "{error}");
    assert!(!root.join("outside/made").exists());
}

#[test]
fn removing_never_follows_a_link_and_walking_never_enters_one() {
    let (_dir, root) = tree();
    let base = open_dir(&root.join("base")).unwrap();
    let mut seen = Vec::new();
    walk(base.as_fd(), &mut |entry| {
        seen.push((entry.relative.display().to_string(), entry.kind));
        Ok(Step::Enter)
    })
    .unwrap();
    assert_eq!(
        seen,
        vec![
            ("file_link".to_string(), Kind::Symlink),
            ("in".to_string(), Kind::Dir),
            ("in/file".to_string(), Kind::File),
            ("link_in".to_string(), Kind::Symlink),
            ("link_out".to_string(), Kind::Symlink),
        ]
    );
    let parent = open_dir(&root).unwrap();
    remove_all(parent.as_fd(), OsStr::new("base")).unwrap();
    assert!(!root.join("base").exists());
    assert_eq!(
        fs::read_to_string(root.join("outside/secret")).unwrap(),
        "secret"
    );
}

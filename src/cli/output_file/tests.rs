//! How `--output-file` paths are judged and written.

use std::fs;
use std::path::Path;

use super::writing::{Failure, write};
use super::*;
use crate::cli::front_end::Interrupts;

async fn write_now(path: &Path, contents: &[u8]) -> Result<(), Failure> {
    write(path, contents, &mut Interrupts::new()).await
}

#[tokio::test]
async fn files_are_replaced_devices_written_and_directories_refused() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let new = root.join("answer.txt");
    assert_eq!(check(&new), Ok(Target::Replace(new.clone())));
    write_now(&new, b"one").await.unwrap();
    assert_eq!(fs::read_to_string(&new).unwrap(), "one");
    assert!(check(&root).unwrap_err().contains("is a directory"));
    #[cfg(unix)]
    {
        let link = root.join("link");
        std::os::unix::fs::symlink(&new, &link).unwrap();
        assert_eq!(check(&link), Ok(Target::Replace(new.clone())));
        write_now(&link, b"two").await.unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(&new).unwrap(), "two");
        let null = Path::new("/dev/null");
        assert_eq!(check(null), Ok(Target::InPlace(null.to_path_buf())));
        write_now(null, b"gone").await.unwrap();
        let under_file = new.join("x.txt");
        assert!(check(&under_file).unwrap_err().contains("not a directory"));
    }
}

#[test]
fn missing_directories_are_named_not_made() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("no").join("such").join("answer.txt");
    let error = check(&deep).unwrap_err();
    assert!(error.contains("does not exist"), "{error}");
    assert!(error.contains(&dir.path().join("no").join("such").display().to_string()));
    assert!(!dir.path().join("no").exists());
}

#[cfg(unix)]
#[tokio::test]
async fn read_only_files_are_refused_and_modes_and_links_kept() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    let dir = tempfile::tempdir().unwrap();
    let read_only = dir.path().join("read_only.txt");
    fs::write(&read_only, "keep").unwrap();
    fs::set_permissions(&read_only, fs::Permissions::from_mode(0o444)).unwrap();
    let error = check(&read_only).unwrap_err();
    assert!(
        error.contains("read-only") && error.contains("0444"),
        "{error}"
    );
    assert!(write_now(&read_only, b"x").await.is_err());
    assert_eq!(fs::read_to_string(&read_only).unwrap(), "keep");

    let private = dir.path().join("private.txt");
    fs::write(&private, "old").unwrap();
    fs::set_permissions(&private, fs::Permissions::from_mode(0o600)).unwrap();
    write_now(&private, b"new").await.unwrap();
    assert_eq!(fs::read_to_string(&private).unwrap(), "new");
    assert_eq!(fs::metadata(&private).unwrap().mode() & 0o777, 0o600);

    let linked = dir.path().join("linked.txt");
    fs::write(&linked, "old").unwrap();
    fs::hard_link(&linked, dir.path().join("other_name.txt")).unwrap();
    assert_eq!(check(&linked), Ok(Target::Rewrite(linked.clone())));
    write_now(&linked, b"new").await.unwrap();
    let other = dir.path().join("other_name.txt");
    assert_eq!(fs::read_to_string(&other).unwrap(), "new");
    assert_eq!(fs::metadata(&linked).unwrap().nlink(), 2);
}

#[cfg(unix)]
#[tokio::test(start_paused = true)]
async fn a_fifo_without_a_reader_is_given_up_on_not_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("answer.fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let Err(Failure::Failed(error)) = write_now(&fifo, b"lost?").await else {
        panic!("a FIFO with no reader took the answer");
    };
    assert!(error.to_string().contains("no reader"), "{error}");
}

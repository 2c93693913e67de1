//! Paths in events written as text even when they are not UTF-8 (a project directory named
//! in Latin-1, say): serde refuses such a `PathBuf`, which would leave the event unlogged.
//! The bytes that are not UTF-8 become U+FFFD, as `Path::display` shows them.

use std::path::Path;

use serde::Serializer;

pub fn serialize<S: Serializer>(path: &Path, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&path.to_string_lossy())
}

pub mod option {
    use std::path::PathBuf;

    use serde::Serializer;

    pub fn serialize<S: Serializer>(
        path: &Option<PathBuf>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match path {
            Some(path) => super::serialize(path, serializer),
            None => serializer.serialize_none(),
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    use std::path::PathBuf;

    #[derive(serde::Serialize)]
    struct Holder {
        #[serde(serialize_with = "super::serialize")]
        path: PathBuf,
        #[serde(serialize_with = "super::option::serialize")]
        maybe: Option<PathBuf>,
    }

    #[test]
    fn a_path_that_is_not_utf8_is_written_lossily() {
        let path = PathBuf::from(OsStr::from_bytes(b"/tmp/caf\xe9"));
        let holder = Holder {
            path: path.clone(),
            maybe: Some(path),
        };
        let json = serde_json::to_string(&holder).unwrap();
        assert_eq!(
            json,
            "{\"path\":\"/tmp/caf\u{fffd}\",\"maybe\":\"/tmp/caf\u{fffd}\"}"
        );
    }
}

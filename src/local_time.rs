//! The local time zone, for the local-time names of log directories, sessions and plans.
//! Read once from `/etc/localtime` when `TZ` is not set: jiff's own lookup maps that file's
//! link to a zone name through its zone database, and building the database walks all of
//! `/usr/share/zoneinfo` (some 600 names kept in memory, 0.1 MB, for one zone). With `TZ`
//! set (even empty), or `/etc/localtime` unreadable, jiff's lookup decides.

use std::sync::OnceLock;

use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};

const LOCALTIME: &str = "/etc/localtime";

/// The system's time zone, found on first use.
pub fn zone() -> TimeZone {
    static ZONE: OnceLock<TimeZone> = OnceLock::new();
    ZONE.get_or_init(|| {
        // Set at all (empty means UTC, as glibc, jiff and Python read it): jiff decides.
        if std::env::var_os("TZ").is_some() {
            return TimeZone::system();
        }
        from_file(LOCALTIME).unwrap_or_else(TimeZone::system)
    })
    .clone()
}

/// Now, in the local time zone.
pub fn now() -> Zoned {
    Timestamp::now().to_zoned(zone())
}

/// The zone in the TZif file at `path` (following a link), named after the zone its link
/// points to when it points into a zoneinfo folder.
fn from_file(path: &str) -> Option<TimeZone> {
    let data = std::fs::read(path).ok()?;
    let link = std::fs::read_link(path).ok();
    let name = link
        .as_deref()
        .and_then(|target| target.to_str())
        .and_then(|target| target.rsplit_once("zoneinfo/"))
        .map_or("Local", |(_, name)| name);
    TimeZone::tzif(name, &data).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zone_file_is_read_with_the_name_its_link_gives() {
        let dir = tempfile::tempdir().unwrap();
        let Ok(utc) = std::fs::read("/usr/share/zoneinfo/Etc/UTC") else {
            return; // no zoneinfo on this machine
        };
        let file = dir.path().join("UTC");
        std::fs::write(&file, utc).unwrap();
        let zoneinfo = dir.path().join("zoneinfo");
        std::fs::create_dir(&zoneinfo).unwrap();
        std::os::unix::fs::symlink(&file, zoneinfo.join("Etc_UTC")).unwrap();
        let link = dir.path().join("localtime");
        std::os::unix::fs::symlink(zoneinfo.join("Etc_UTC"), &link).unwrap();
        let zone = from_file(link.to_str().unwrap()).unwrap();
        assert_eq!(zone.iana_name(), Some("Etc_UTC"));
        let noon = "2026-01-02T12:00:00Z".parse::<Timestamp>().unwrap();
        assert_eq!(noon.to_zoned(zone).hour(), 12);
        let plain = from_file(file.to_str().unwrap()).unwrap();
        assert_eq!(plain.iana_name(), Some("Local"));
    }

    #[test]
    fn a_missing_or_broken_zone_file_gives_none() {
        let dir = tempfile::tempdir().unwrap();
        assert!(from_file(dir.path().join("none").to_str().unwrap()).is_none());
        let junk = dir.path().join("junk");
        std::fs::write(&junk, "not a zone").unwrap();
        assert!(from_file(junk.to_str().unwrap()).is_none());
    }
}

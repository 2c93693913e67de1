//! How massgen and its namespace helper talk: the helper's command line (mode, plan,
//! temp dir, command) and the one-line messages it sends back on a pipe about the command:
//! started (and how confined), namespaces unavailable, set-up failed, or the program could
//! not be executed.

use std::ffi::OsString;
use std::io::Read;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::{Confinement, Plan};

/// argv\[1\] of the outer helper.
pub(super) const OUTER: &str = "__sandbox-exec";
/// argv\[1\] of the inner helper.
pub(super) const INNER: &str = "__sandbox-init";

/// The helper's arguments after the mode: the plan, the command's temp dir, the command.
pub(super) fn encode(plan: &Plan, tmp: &std::path::Path, argv: &[String]) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec![
        if plan.network { "1" } else { "0" }.into(),
        plan.workspace.clone().into(),
        tmp.into(),
        plan.readable.len().to_string().into(),
    ];
    args.extend(plan.readable.iter().map(OsString::from));
    args.push(plan.writable.len().to_string().into());
    args.extend(plan.writable.iter().map(OsString::from));
    args.push(if plan.read_everything { "1" } else { "0" }.into());
    args.push(plan.deny_read.len().to_string().into());
    args.extend(plan.deny_read.iter().map(OsString::from));
    args.extend(argv.iter().map(OsString::from));
    args
}

pub(super) struct Request {
    pub(super) plan: Plan,
    pub(super) tmp: PathBuf,
    pub(super) program: OsString,
    pub(super) args: Vec<OsString>,
}

pub(super) fn decode(args: Vec<OsString>) -> Option<Request> {
    let mut args = args.into_iter();
    let network = args.next()? == "1";
    let workspace = PathBuf::from(args.next()?);
    let tmp = PathBuf::from(args.next()?);
    let paths = |args: &mut std::vec::IntoIter<OsString>| -> Option<Vec<PathBuf>> {
        let count: usize = args.next()?.to_str()?.parse().ok()?;
        (0..count).map(|_| args.next().map(PathBuf::from)).collect()
    };
    let readable = paths(&mut args)?;
    let writable = paths(&mut args)?;
    let read_everything = args.next()? == "1";
    let deny_read = paths(&mut args)?;
    let program = args.next()?;
    Some(Request {
        plan: Plan {
            workspace,
            readable,
            writable,
            network,
            read_everything,
            deny_read,
        },
        tmp,
        program,
        args: args.collect(),
    })
}

/// Why a program could not be executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    NotFound,
    Denied,
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Message {
    /// Confined as said; the program is being executed.
    Started(Confinement),
    /// No namespaces here: massgen starts the command the other way.
    Unavailable(String),
    /// The sandbox could not be set up.
    Failed(String),
    /// The sandbox was set up; the program could not be executed.
    NotExecuted(Kind, String),
}

/// At most this much is read from a helper.
const MOST: usize = 64 * 1024;
/// How long a helper may take to start a command (it mounts, confines and `exec`s).
pub(super) const PATIENCE: Duration = Duration::from_secs(30);

impl Message {
    pub(super) fn to_line(&self) -> String {
        let fields: Vec<String> = match self {
            Self::Started(Confinement::Landlock {
                abi,
                network_denied,
                network_unenforced,
            }) => vec![
                "landlock".into(),
                abi.to_string(),
                flag(*network_denied),
                flag(*network_unenforced),
            ],
            Self::Started(Confinement::Filters { reason }) => vec!["filters".into(), one(reason)],
            Self::Unavailable(reason) => vec!["unavailable".into(), one(reason)],
            Self::Failed(reason) => vec!["failed".into(), one(reason)],
            Self::NotExecuted(kind, text) => {
                let kind = match kind {
                    Kind::NotFound => "not-found",
                    Kind::Denied => "denied",
                    Kind::Other => "other",
                };
                vec!["not-executed".into(), kind.into(), one(text)]
            }
        };
        format!("{}\n", fields.join("\t"))
    }

    fn parse(line: &str) -> Option<Self> {
        let fields: Vec<&str> = line.split('\t').collect();
        let text = |index: usize| fields.get(index).map(|text| (*text).to_string());
        Some(match *fields.first()? {
            "landlock" => Self::Started(Confinement::Landlock {
                abi: fields.get(1)?.parse().ok()?,
                network_denied: *fields.get(2)? == "1",
                network_unenforced: *fields.get(3)? == "1",
            }),
            "filters" => Self::Started(Confinement::Filters { reason: text(1)? }),
            "unavailable" => Self::Unavailable(text(1)?),
            "failed" => Self::Failed(text(1)?),
            "not-executed" => {
                let kind = match *fields.get(1)? {
                    "not-found" => Kind::NotFound,
                    "denied" => Kind::Denied,
                    _ => Kind::Other,
                };
                Self::NotExecuted(kind, text(2)?)
            }
            _ => return None,
        })
    }
}

fn flag(yes: bool) -> String {
    if yes { "1" } else { "0" }.into()
}

/// `text` on one line with no tabs.
fn one(text: &str) -> String {
    text.replace(['\n', '\r', '\t'], " ")
}

/// Every message until the helper lets go of the pipe (when the command has started, or
/// failed to) or `patience` runs out; `None` when it did, the helper hanging.
pub(super) fn read(
    mut pipe: impl Read + std::os::fd::AsFd,
    patience: Duration,
) -> Option<Vec<Message>> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let deadline = Instant::now() + patience;
    let mut bytes = Vec::new();
    let mut chunk = [0; 4096];
    loop {
        let left = deadline.checked_duration_since(Instant::now())?;
        let timeout = Timespec::try_from(left).ok()?;
        let mut fds = [PollFd::new(&pipe, PollFlags::IN)];
        match poll(&mut fds, Some(&timeout)) {
            Ok(0) => return None,
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => break,
        }
        match pipe.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(read) => bytes.extend_from_slice(&chunk[..read]),
        }
        if bytes.len() > MOST {
            break;
        }
    }
    Some(
        String::from_utf8_lossy(&bytes)
            .lines()
            .filter_map(Message::parse)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back_as_written() {
        let messages = [
            Message::Started(Confinement::Landlock {
                abi: 7,
                network_denied: true,
                network_unenforced: false,
            }),
            Message::Started(Confinement::Filters {
                reason: "no Landlock".into(),
            }),
            Message::Unavailable("unshare: EPERM".into()),
            Message::Failed("Landlock refused".into()),
            Message::NotExecuted(Kind::NotFound, "No such file".into()),
        ];
        let text: String = messages.iter().map(Message::to_line).collect();
        assert_eq!(sent(&text, true), Some(messages.to_vec()));
        let odd = Message::Failed("two\nlines\tand a tab".into()).to_line();
        assert_eq!(
            sent(&odd, true),
            Some(vec![Message::Failed("two lines and a tab".into())])
        );
    }

    #[test]
    fn a_helper_that_never_lets_go_is_not_waited_for() {
        let started = Instant::now();
        assert_eq!(sent("landlock\t7\t0\t0\n", false), None);
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    /// What [`read`] makes of `text` written to a pipe, closed or not.
    fn sent(text: &str, close: bool) -> Option<Vec<Message>> {
        use std::io::Write;
        let (reader, mut writer) = std::io::pipe().unwrap();
        writer.write_all(text.as_bytes()).unwrap();
        let _kept = (!close).then_some(writer);
        read(reader, Duration::from_millis(300))
    }

    #[test]
    fn requests_survive_the_command_line() {
        let plan = Plan {
            workspace: "/w s".into(),
            readable: vec!["/r1".into(), "/r 2".into()],
            writable: vec!["/x".into()],
            network: false,
            read_everything: true,
            deny_read: vec!["/d 1".into()],
        };
        let argv = ["sh".to_string(), "-c".into(), "echo 1 -- 2".into()];
        let request = decode(encode(&plan, "/t".as_ref(), &argv)).unwrap();
        assert_eq!(request.plan, plan);
        assert_eq!(request.tmp, PathBuf::from("/t"));
        assert_eq!(request.program, "sh");
        assert_eq!(request.args, ["-c", "echo 1 -- 2"]);
        assert!(decode(vec!["1".into(), "/w".into(), "/t".into(), "2".into()]).is_none());
    }
}

//! The one-line messages the namespace helper sends massgen about one command on a pipe,
//! and reading them: started (and how confined), namespaces unavailable, set-up failed,
//! or the program could not be executed.

use std::io::Read;

use super::Confinement;

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
const MOST: u64 = 64 * 1024;

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

/// Every message until the helper lets go of the pipe: when the command has started, or
/// failed to.
pub(super) fn read(pipe: impl Read) -> Vec<Message> {
    let mut bytes = Vec::new();
    let _ = pipe.take(MOST).read_to_end(&mut bytes);
    String::from_utf8_lossy(&bytes)
        .lines()
        .filter_map(Message::parse)
        .collect()
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
        assert_eq!(read(text.as_bytes()), messages);
        let odd = Message::Failed("two\nlines\tand a tab".into()).to_line();
        assert_eq!(
            read(odd.as_bytes()),
            [Message::Failed("two lines and a tab".into())]
        );
    }
}

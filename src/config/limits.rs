//! Who may set the `limits:` caps and how far: every cap has a default and a hard ceiling;
//! a config kept in the user's own config directory and `--limit NAME=VALUE` on the command
//! line may raise a cap up to its ceiling, any other config (a project's
//! `.massgen/config.yaml`, a `--config` file elsewhere) may only lower it.

use std::path::Path;

use super::error::thousands;
use super::schema::LimitsConfig;

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;

/// One cap of the `limits:` block.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    /// The key under `limits:` and the NAME of `--limit NAME=VALUE`.
    pub name: &'static str,
    /// The most anyone may set it to: a value above is refused wherever it comes from.
    pub ceiling: u64,
    /// Whether the value is a size in bytes (how it is shown).
    pub bytes: bool,
    slot: fn(&mut LimitsConfig) -> &mut u64,
}

impl Limit {
    pub fn default_value(&self) -> u64 {
        *(self.slot)(&mut LimitsConfig::default())
    }

    pub(super) fn slot<'a>(&self, limits: &'a mut LimitsConfig) -> &'a mut u64 {
        (self.slot)(limits)
    }

    /// The value as a person reads it: `1,024` or `64 MiB`.
    pub fn show(&self, value: u64) -> String {
        let plain = || thousands(usize::try_from(value).unwrap_or(usize::MAX));
        if !self.bytes {
            return plain();
        }
        match value {
            value if value >= MIB && value.is_multiple_of(MIB) => format!("{} MiB", value / MIB),
            value if value >= KIB && value.is_multiple_of(KIB) => format!("{} KiB", value / KIB),
            _ => format!("{} bytes", plain()),
        }
    }
}

/// Every cap, in the order `--help` and errors list them.
///
/// `max_agents`' ceiling is measured: a turn's memory grows with the square of the agent
/// count (every agent reads every answer): 64 scripted agents peak at 19 MB, 128 at 41 MB,
/// 256 at 125 MB and 1,000 at 1.5 GB, before real answers of kilobytes each multiply it.
pub const LIMITS: [Limit; 7] = [
    Limit {
        name: "max_agents",
        ceiling: 128,
        bytes: false,
        slot: |limits| &mut limits.max_agents,
    },
    Limit {
        name: "max_response_text_bytes",
        ceiling: 32 * MIB,
        bytes: true,
        slot: |limits| &mut limits.max_response_text_bytes,
    },
    Limit {
        name: "max_tool_arguments_bytes",
        ceiling: 32 * MIB,
        bytes: true,
        slot: |limits| &mut limits.max_tool_arguments_bytes,
    },
    Limit {
        name: "max_tool_calls_per_response",
        ceiling: 1024,
        bytes: false,
        slot: |limits| &mut limits.max_tool_calls_per_response,
    },
    Limit {
        name: "max_error_body_bytes",
        ceiling: MIB,
        bytes: true,
        slot: |limits| &mut limits.max_error_body_bytes,
    },
    Limit {
        name: "max_sse_line_bytes",
        ceiling: 64 * MIB,
        bytes: true,
        slot: |limits| &mut limits.max_sse_line_bytes,
    },
    Limit {
        name: "max_question_bytes",
        ceiling: 16 * MIB,
        bytes: true,
        slot: |limits| &mut limits.max_question_bytes,
    },
];

pub fn find(name: &str) -> Option<&'static Limit> {
    LIMITS.iter().find(|limit| limit.name == name)
}

/// Whether a config may raise limits above their defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitAuthority {
    /// A config file kept in the user's own config directory (`~/.config/massgen/`).
    UserConfigDir,
    /// Any other config: a project's, a `--config` file elsewhere, text from a view.
    LowerOnly,
}

impl LimitAuthority {
    /// The authority of the config file at `path`: its real location (symlinks resolved)
    /// must lie inside the user's real config directory.
    pub fn of_file(path: &Path) -> Self {
        let inside = super::user_config_dir()
            .and_then(|dir| dir.canonicalize().ok())
            .zip(path.canonicalize().ok())
            .is_some_and(|(dir, file)| file.starts_with(dir));
        if inside {
            Self::UserConfigDir
        } else {
            Self::LowerOnly
        }
    }
}

/// `--limit NAME=VALUE` values, each checked against its ceiling. They win over any config.
#[derive(Clone, Debug, Default)]
pub struct CommandLineLimits(Vec<(&'static Limit, u64)>);

impl CommandLineLimits {
    /// Reads `NAME=VALUE` arguments; the error is the message to print after `error: `.
    pub fn parse(arguments: &[String]) -> Result<Self, String> {
        let names = || {
            LIMITS
                .iter()
                .map(|limit| limit.name)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut set: Vec<(&'static Limit, u64)> = Vec::new();
        for argument in arguments {
            let shown = crate::sanitize::escape_for_terminal(argument);
            let Some((name, value)) = argument.split_once('=') else {
                return Err(format!(
                    "--limit `{shown}` is not NAME=VALUE\n  help: for example --limit \
                     max_agents=100; names: {}",
                    names()
                ));
            };
            let Some(limit) = find(name.trim()) else {
                return Err(format!(
                    "--limit names no limit `{}`\n  help: names: {}",
                    crate::sanitize::escape_for_terminal(name),
                    names()
                ));
            };
            let value = value.trim().replace('_', "");
            let number = match value.parse::<u64>() {
                Ok(0) | Err(_) => {
                    return Err(format!(
                        "--limit {}: `{shown}` is not a whole number of 1 or more\n  help: for \
                         example --limit {}={}",
                        limit.name,
                        limit.name,
                        limit.default_value()
                    ));
                }
                Ok(number) => number,
            };
            if number > limit.ceiling {
                return Err(format!(
                    "--limit {}={number} is above its hard ceiling of {}\n  help: use at most \
                     --limit {}={}; no config or flag can go higher",
                    limit.name,
                    limit.show(limit.ceiling),
                    limit.name,
                    limit.ceiling
                ));
            }
            set.retain(|(earlier, _)| earlier.name != limit.name);
            set.push((limit, number));
        }
        Ok(Self(set))
    }

    pub fn get(&self, name: &str) -> Option<u64> {
        self.0
            .iter()
            .find(|(limit, _)| limit.name == name)
            .map(|(_, value)| *value)
    }

    /// `limits` with every value given on the command line put in.
    pub fn apply(&self, limits: &mut LimitsConfig) {
        for (limit, value) in &self.0 {
            *limit.slot(limits) = *value;
        }
    }
}

/// Where a cap may be raised, for the help of any error that hits it.
pub fn how_to_raise(name: &str) -> String {
    let ceiling = find(name).map_or_else(String::new, |limit| {
        format!(" (at most {})", limit.show(limit.ceiling))
    });
    format!(
        "raise it for one run with `--limit {name}=N`{ceiling}, or in a config kept in your \
         own config directory ({}); a project's config can only lower it",
        user_dir_shown()
    )
}

fn user_dir_shown() -> String {
    super::user_config_dir().map_or_else(
        || "~/.config/massgen/".to_string(),
        |dir| format!("{}/", dir.display()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(arguments: &[&str]) -> Result<CommandLineLimits, String> {
        CommandLineLimits::parse(&arguments.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn defaults_lie_under_their_ceilings() {
        for limit in &LIMITS {
            assert!(limit.default_value() <= limit.ceiling, "{}", limit.name);
        }
    }

    #[test]
    fn flags_are_read_up_to_the_ceiling_and_the_last_one_wins() {
        let set = parse(&[
            "max_agents=100",
            "max_question_bytes=2_000_000",
            "max_agents=128",
        ])
        .unwrap();
        assert_eq!(set.get("max_agents"), Some(128));
        assert_eq!(set.get("max_question_bytes"), Some(2_000_000));
        let mut limits = LimitsConfig::default();
        set.apply(&mut limits);
        assert_eq!(limits.max_agents, 128);
    }

    #[test]
    fn bad_flags_say_what_and_how() {
        let above = parse(&["max_agents=129"]).unwrap_err();
        assert!(above.contains("hard ceiling of 128"), "{above}");
        assert!(parse(&["max_agents"]).unwrap_err().contains("NAME=VALUE"));
        assert!(parse(&["agents=3"]).unwrap_err().contains("max_agents"));
        assert!(parse(&["max_agents=0"]).unwrap_err().contains("1 or more"));
        assert!(parse(&["max_agents=-1"]).unwrap_err().contains("1 or more"));
    }

    #[test]
    fn sizes_are_shown_in_their_units() {
        let question = find("max_question_bytes").unwrap();
        assert_eq!(question.show(16 * MIB), "16 MiB");
        assert_eq!(question.show(64 * KIB), "64 KiB");
        assert_eq!(question.show(1000), "1,000 bytes");
        assert_eq!(find("max_agents").unwrap().show(1024), "1,024");
    }
}

//! The `limits:` block: caps that keep a hostile provider, config or input from exhausting
//! memory. Every cap has a default and a hard ceiling; a config lowers a cap, and raises it
//! (up to the ceiling) only when it is kept in the user's own config directory. Values
//! given with `--limit` win over the config's (see `config::limits`).

use super::Note;
use super::key_table::KeyTable;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::key_notes::Section;
use crate::config::limits::{CommandLineLimits, LIMITS, LimitAuthority, how_to_raise};
use crate::config::schema::LimitsConfig;

/// Who may raise limits and what the command line set: the rules a `limits:` block is
/// read under.
#[derive(Clone, Copy, Debug)]
pub struct LimitRules<'a> {
    pub authority: LimitAuthority,
    pub command_line: &'a CommandLineLimits,
}

/// The caps of this run: the config's block (if any) read under `rules`, then the command
/// line's values.
pub(super) fn parse_limits(
    limits: Option<&Fields<'_>>,
    rules: LimitRules<'_>,
    notes: &mut Vec<Note>,
) -> Result<LimitsConfig, Problem> {
    let mut config = LimitsConfig::default();
    if let Some(limits) = limits {
        KeyTable::of(Section::Limits).check(limits, notes);
        for limit in &LIMITS {
            let Some(value) = limits.unsigned(limit.name)? else {
                continue;
            };
            let key = limit.name;
            let loc = limits.get(key).map_or(limits.loc(), |node| node.loc);
            if value == 0 {
                return Err(Problem::at(
                    loc,
                    format!("`limits.{key}` is 0, so nothing could ever pass it"),
                )
                .help("use 1 or more, or remove it for the default"));
            }
            if rules.command_line.get(key).is_some() {
                continue;
            }
            if value > limit.ceiling {
                return Err(Problem::at(
                    loc,
                    format!(
                        "`limits.{key}` is {}, above its hard ceiling of {}",
                        limit.show(value),
                        limit.show(limit.ceiling)
                    ),
                )
                .help(match rules.authority {
                    LimitAuthority::UserConfigDir => format!(
                        "use at most {}: no config or flag can go higher; remove the key for \
                         the default ({})",
                        limit.ceiling,
                        limit.show(limit.default_value())
                    ),
                    LimitAuthority::LowerOnly => how_to_raise(key),
                }));
            }
            if value > limit.default_value() && rules.authority == LimitAuthority::LowerOnly {
                return Err(Problem::at(
                    loc,
                    format!(
                        "`limits.{key}` is {}, above its default of {}, and this config can \
                         only lower limits",
                        limit.show(value),
                        limit.show(limit.default_value())
                    ),
                )
                .help(how_to_raise(key)));
            }
            *limit.slot(&mut config) = value;
        }
    }
    rules.command_line.apply(&mut config);
    Ok(config)
}

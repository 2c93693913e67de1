//! The fairness keys of `orchestrator:`; wrong values are load errors naming what is valid.

use super::Gathered;
use crate::config::error::Problem;
use crate::config::fairness::Fairness;
use crate::config::fields::Fields;

/// `fairness_enabled`, `fairness_lead_cap_answers`, `max_midstream_injections_per_round`
/// and `defer_peer_updates_until_restart`; absent keys keep MassGen's defaults.
pub(super) fn parse_fairness(orchestrator: &Fields<'_>, found: &mut Gathered) -> Fairness {
    let defaults = Fairness::default();
    let mut flag = |key, default| {
        found
            .take(orchestrator.bool(key))
            .flatten()
            .unwrap_or(default)
    };
    let enabled = flag("fairness_enabled", defaults.enabled);
    let defer_peer_updates_until_restart = flag(
        "defer_peer_updates_until_restart",
        defaults.defer_peer_updates_until_restart,
    );
    Fairness {
        enabled,
        lead_cap_answers: found
            .take(count(orchestrator, "fairness_lead_cap_answers", 0))
            .flatten()
            .unwrap_or(defaults.lead_cap_answers),
        max_midstream_injections_per_round: found
            .take(count(orchestrator, "max_midstream_injections_per_round", 1))
            .flatten()
            .unwrap_or(defaults.max_midstream_injections_per_round),
        defer_peer_updates_until_restart,
    }
}

/// A whole number of at least `least`.
fn count(orchestrator: &Fields<'_>, key: &str, least: u64) -> Result<Option<u32>, Problem> {
    let loc = orchestrator
        .get(key)
        .map_or(orchestrator.loc(), |node| node.loc);
    let valid = if least == 0 {
        "0 (strict lockstep) or a positive whole number like 1 or 2"
    } else {
        "a positive whole number like 1 or 2"
    };
    let wrong = || {
        Problem::at(loc, format!("`orchestrator.{key}` must be {valid}"))
            .help(format!("for example `{key}: 2`"))
    };
    let Some(number) = orchestrator.unsigned(key).map_err(|_| wrong())? else {
        return Ok(None);
    };
    if number < least {
        return Err(wrong());
    }
    Ok(Some(u32::try_from(number).unwrap_or(u32::MAX)))
}

#[cfg(test)]
#[path = "fairness_tests.rs"]
mod tests;

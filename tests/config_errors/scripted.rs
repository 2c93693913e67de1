//! Errors in the scripted backend's options (votes for missing agents, misspelled options, speeds out of range, unknown failure modes) through the `massgen` binary: `--validate` and a real run both report `error: FILE:LINE:COL: …` with a help line, exit 1, and never panic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{Expected, assert_config_error};

#[test]
fn scripted_vote_for_a_missing_agent() {
    assert_config_error(
        "votefor.yaml",
        "agents:\n  - id: a\n    backend:\n      type: scripted\n      vote_for: b\n  - id: c\n    backend:\n      type: scripted\n      vote_for: a\n",
        &Expected {
            loc: Some((5, 17)),
            message: "`vote_for: b` names no agent of this config",
            help: Some("agent ids here: a, c"),
        },
    );
}

#[test]
fn unknown_scripted_option_suggests_the_close_one() {
    assert_config_error(
        "typo.yaml",
        "agents:\n  - id: a\n    backend:\n      type: scripted\n      tokens_per_secnd: 0\n",
        &Expected {
            loc: Some((5, 7)),
            message: "`agents[0].backend.tokens_per_secnd` is not an option of the scripted backend",
            help: Some("did you mean `tokens_per_second`?"),
        },
    );
}

#[test]
fn negative_scripted_speed() {
    assert_config_error(
        "negspeed.yaml",
        "agent:\n  id: a\n  backend:\n    type: scripted\n    tokens_per_second: -1\n",
        &Expected {
            loc: Some((5, 24)),
            message: "`agent.backend.tokens_per_second` must be 0, or between 0.1 and 1000000",
            help: Some("0 streams as fast as possible"),
        },
    );
}

#[test]
fn unknown_scripted_failure_mode() {
    assert_config_error(
        "failbogus.yaml",
        "agents:\n  - id: a\n    backend: {type: scripted, fail: {mode: bogus}}\n",
        &Expected {
            loc: Some((3, 44)),
            message: "`agents[0].backend.fail.mode` cannot be \"bogus\"",
            help: Some("valid values: error, no_workflow, hang, invalid_vote, truncate"),
        },
    );
}

#[test]
fn a_tiny_scripted_speed_is_rejected_rather_than_overflowing() {
    assert_config_error(
        "tinyspeed.yaml",
        "agent:\n  id: a\n  backend:\n    type: scripted\n    tokens_per_second: 1.0e-30\n",
        &Expected {
            loc: Some((5, 24)),
            message: "must be 0, or between 0.1 and 1000000",
            help: Some("0 streams as fast as possible"),
        },
    );
}

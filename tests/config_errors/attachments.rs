//! Attached files at `--validate`: an `upload_files` entry the agent's API does not take is
//! an error naming the entry, the API and the fix; an agent that cannot receive images in
//! its message (an agent CLI, the scripted backend given files) gets a note saying so.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{ConfigRuns, Expected, assert_config_error, assert_no_panic, describe};
use crate::support::sandbox::{Sandbox, text};

#[test]
fn an_upload_the_api_does_not_take_is_an_error_with_the_fix() {
    assert_config_error(
        "audio.yaml",
        "agents:\n  - id: a\n    backend:\n      type: claude\n      model: claude-sonnet-4-5\n      \
         upload_files:\n        - audio_path: https://x.test/a.wav\n",
        &Expected {
            loc: Some((7, 11)),
            message: "`agents[0].backend.upload_files[0]`: a.wav: the Anthropic Messages API \
                      does not take audio files in a message",
            help: Some("remove the entry, or give this agent a backend that takes the file"),
        },
    );
}

#[test]
fn a_scripted_agent_given_files_is_noted_and_still_valid() {
    let sandbox = Sandbox::new();
    std::fs::write(sandbox.root.join("cat.png"), b"\x89PNG\r\n\x1a\nxx").unwrap();
    sandbox.write(
        "s.yaml",
        "agent:\n  id: s\n  backend:\n    type: scripted\n    upload_files: [{image_path: cat.png}]\n",
    );
    let output = sandbox.validate("s.yaml");
    assert_no_panic("validate", &output);
    let info = describe("massgen --validate s.yaml", &output);
    assert_eq!(output.status.code(), Some(0), "{info}");
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(
            "note: agent `s` (scripted): the offline scripted backend ignores attached files"
        ),
        "{info}"
    );
    assert!(text(&output.stdout).contains("is valid"), "{info}");
}

#[test]
fn an_agent_cli_is_noted_to_get_paths_not_images() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "cli.yaml",
        "agents:\n  - id: coder\n    backend: {type: claude_code, cwd: work}\n",
    );
    let output = sandbox.validate("cli.yaml");
    assert_no_panic("validate", &output);
    let info = describe("massgen --validate cli.yaml", &output);
    assert!(
        text(&output.stderr).contains(
            "note: agent `coder` (claude_code): `@image` and `@pdf` files in a question will \
             not reach it as images"
        ),
        "{info}"
    );
}

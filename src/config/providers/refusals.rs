//! Why massgen does not run some of MassGen's agent programs, in the words its refusal
//! shows: AG2's framework agents, and the agent CLIs that cannot be pointed at a provider
//! URL massgen can test against.

/// AG2's reason.
pub(super) const AG2: &str = "AG2 agents are Python objects of the autogen framework, not a model \
                          API or an agent CLI; use an API backend such as `openai` or `claude` \
                          with the same model";

/// MassGen's agent-CLI types massgen does not run, with why.
pub(super) const REFUSED_CLIS: [(&str, &str); 2] = [
    (
        "copilot",
        "the GitHub Copilot CLI needs GitHub's own Copilot service and cannot be pointed at \
         another provider URL, so massgen cannot test it; use `claude_code`, `codex` or \
         `gemini_cli`, or an API backend",
    ),
    (
        "antigravity_cli",
        "the Antigravity CLI needs Google's own Antigravity service and cannot be pointed at \
         another provider URL, so massgen cannot test it; use `gemini_cli`, `claude_code` or \
         `codex`, or an API backend",
    ),
];

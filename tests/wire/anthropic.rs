//! Anthropic Messages API (`type: claude`).

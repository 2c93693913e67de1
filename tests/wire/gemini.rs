//! Gemini `streamGenerateContent?alt=sse` (`type: gemini`).

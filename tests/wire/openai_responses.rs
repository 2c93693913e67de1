//! OpenAI Responses API (`type: openai`).

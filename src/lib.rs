//! massgen: several LLM agents on one task at once. They answer in parallel, read each
//! other's answers, refine or vote, and the winner presents the final answer.
//!
//! Module map (see DESIGN.md): [`protocol`] is the shared language; [`config`] loads
//! MassGen YAML; [`backend`] talks to models; [`tools`] defines what models may call;
//! [`mcp`] runs the agents' MCP servers; [`workspace`] keeps agents' files; [`plan`] models task
//! plans and keeps saved plans;
//! [`orchestrator`] coordinates a turn; [`session`] writes `.massgen/`; [`headless`] prints
//! progress; [`tui`] is the full-screen front end; [`text`] measures text in terminal
//! columns; [`local_time`] is the local time zone; [`cli`] ties them together for the `massgen` binary; [`sandbox`] confines the
//! commands agents run.

pub mod backend;
pub mod bounded_file;
pub mod cli;
pub mod config;
pub mod headless;
pub mod local_time;
pub mod mcp;
pub mod orchestrator;
pub mod plan;
pub mod protocol;
pub mod redact;
pub mod sandbox;
pub mod sanitize;
pub mod serve;
pub mod session;
pub mod text;
pub mod tools;
pub mod tui;
pub mod workspace;

//! The hostile suite: providers, agents, configs and input that try to escape the
//! workspace, exhaust memory, leak keys or trick the terminal. Each module is one class
//! of attack.

#[path = "../support/mod.rs"]
mod support;

mod config_limits;
mod config_paths;
mod config_text;
mod full_disk;
mod input;
mod local_probe;
mod log_memory;
mod output_fifo;
mod output_file;
mod plan_files;
mod proc_secrets;
mod provider_keys;
mod provider_memory;
mod provider_stream;
mod sandbox;
mod serve_attacks;
mod sessions;
mod signals;
mod state_files;
mod terminal;
mod terminal_gone;
mod workspace_escape;

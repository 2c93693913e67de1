//! The hostile suite: providers, agents, configs and input that try to escape the
//! workspace, exhaust memory, leak keys or trick the terminal. Each module is one class
//! of attack.

#[path = "../support/mod.rs"]
mod support;

mod config_paths;
mod full_disk;
mod input;
mod output_file;
mod proc_secrets;
mod provider_keys;
mod provider_memory;
mod provider_stream;
mod sandbox;
mod sessions;
mod signals;
mod terminal;
mod workspace_escape;

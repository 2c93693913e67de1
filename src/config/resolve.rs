//! Which config a run uses: `--config PATH|@examples/NAME`, else `./.massgen/config.yaml`,
//! else `<user config dir>/config.yaml`, else the built-in offline demo.

use std::path::{Path, PathBuf};

use super::env::Env;
use super::error::{ConfigError, Problem};
use super::examples::{self, Example};
use super::load::{self, Loaded};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigChoice {
    File(PathBuf),
    Example(Example),
    /// Nothing configured: the shipped demo of three scripted agents.
    Demo(Example),
}

impl ConfigChoice {
    pub fn is_demo(&self) -> bool {
        matches!(self, Self::Demo(_))
    }

    pub fn load(&self, env: &Env) -> Result<Loaded, ConfigError> {
        match self {
            Self::File(path) => load::from_file(path, env),
            Self::Example(example) | Self::Demo(example) => {
                load::from_text(example.text, &format!("@examples/{}", example.name()), env)
            }
        }
    }
}

pub fn choose(argument: Option<&str>, cwd: &Path) -> Result<ConfigChoice, ConfigError> {
    match argument {
        Some(name) if name.starts_with("@examples/") || name.starts_with("@examples") => {
            examples::find(name)
                .map(ConfigChoice::Example)
                .ok_or_else(|| {
                    Problem::nowhere(format!("no shipped config matches `{name}`"))
                        .help("list them with: massgen --list-examples")
                        .in_source("--config")
                })
        }
        Some(path) => find_file(path, cwd).map(ConfigChoice::File).ok_or_else(|| {
            Problem::nowhere(format!("config file `{path}` not found"))
                .help(
                    "give a path to a YAML file, a name under ~/.config/massgen/agents/, \
                     or @examples/NAME (see --list-examples)",
                )
                .in_source("--config")
        }),
        None => Ok(default_file(cwd).map_or_else(demo_choice, ConfigChoice::File)),
    }
}

fn demo_choice() -> ConfigChoice {
    examples::demo().map_or_else(
        // The build embeds configs/demo; an empty example keeps this total.
        || {
            ConfigChoice::Demo(Example {
                path: examples::DEMO,
                text: "",
            })
        },
        ConfigChoice::Demo,
    )
}

fn find_file(argument: &str, cwd: &Path) -> Option<PathBuf> {
    let direct = cwd.join(argument);
    if direct.is_file() {
        return Some(direct);
    }
    let agents_dir = super::user_config_dir()?.join("agents");
    [
        agents_dir.join(argument),
        agents_dir.join(format!("{argument}.yaml")),
    ]
    .into_iter()
    .find(|candidate| candidate.is_file())
}

fn default_file(cwd: &Path) -> Option<PathBuf> {
    let project = cwd.join(".massgen").join("config.yaml");
    if project.is_file() {
        return Some(project);
    }
    let user = super::user_config_dir()?.join("config.yaml");
    user.is_file().then_some(user)
}

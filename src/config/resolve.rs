//! Which config a run uses: `--config PATH|@examples/NAME`, else `./.massgen/config.yaml`,
//! else `<user config dir>/config.yaml`, else the built-in offline demo.

use std::path::{Path, PathBuf};

use super::env::Env;
use super::error::{ConfigError, Problem};
use super::examples::{self, Example};
use super::load::{self, Loaded};
use super::path_rules::describe_kind;

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
        Some(path) => find_file(path, cwd)?
            .map(ConfigChoice::File)
            .ok_or_else(|| {
                Problem::nowhere(format!("config file `{path}` not found"))
                    .help(
                        "give a path to a YAML file, a name under ~/.config/massgen/agents/, \
                         or @examples/NAME (see --list-examples)",
                    )
                    .in_source("--config")
            }),
        None => Ok(default_file(cwd)?.map_or_else(demo_choice, ConfigChoice::File)),
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

/// `argument` from `cwd`, else as a name under the user's `agents/` directory. Something
/// other than a file at the direct path is reported if no named config is found either.
fn find_file(argument: &str, cwd: &Path) -> Result<Option<PathBuf>, ConfigError> {
    let direct = config_file_at(&cwd.join(argument), argument, "--config");
    if let Ok(Some(found)) = direct {
        return Ok(Some(found));
    }
    if let Some(agents_dir) = super::user_config_dir().map(|dir| dir.join("agents")) {
        for candidate in [
            agents_dir.join(argument),
            agents_dir.join(format!("{argument}.yaml")),
        ] {
            if let Ok(Some(found)) = config_file_at(&candidate, argument, "--config") {
                return Ok(Some(found));
            }
        }
    }
    direct
}

/// `./.massgen/config.yaml`, else the user's `config.yaml`. Something other than a file
/// at either place is an error, not a reason to run the demo instead.
fn default_file(cwd: &Path) -> Result<Option<PathBuf>, ConfigError> {
    let project = cwd.join(".massgen").join("config.yaml");
    if let Some(found) = config_file_at(&project, "./.massgen/config.yaml", "config lookup")? {
        return Ok(Some(found));
    }
    let Some(user) = super::user_config_dir().map(|dir| dir.join("config.yaml")) else {
        return Ok(None);
    };
    let shown = user.display().to_string();
    config_file_at(&user, &shown, "config lookup")
}

/// `path` if it is a file (symlinks followed); `None` if nothing is there; an error saying
/// what it is if it is something else (a directory, a FIFO, a dangling symlink…).
fn config_file_at(path: &Path, shown: &str, source: &str) -> Result<Option<PathBuf>, ConfigError> {
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_file() => Ok(Some(path.to_path_buf())),
        Ok(metadata) => {
            let kind = describe_kind(&metadata);
            let help = if metadata.is_dir() {
                format!("give the YAML file itself, or remove the directory `{shown}`")
            } else {
                "save the config to a regular file and pass that: massgen --config my.yaml".into()
            };
            Err(
                Problem::nowhere(format!("`{shown}` is {kind}, not a config file"))
                    .help(help)
                    .in_source(source),
            )
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            if std::fs::symlink_metadata(path).is_ok() {
                return Err(Problem::nowhere(format!(
                    "`{shown}` is a symbolic link to a file that does not exist"
                ))
                .help("fix or remove the link")
                .in_source(source));
            }
            Ok(None)
        }
        Err(error) => Err(Problem::nowhere(format!("cannot read `{shown}`: {error}"))
            .help("check the path and its permissions")
            .in_source(source)),
    }
}

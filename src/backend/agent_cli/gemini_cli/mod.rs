//! The Gemini CLI (`gemini_cli`): `gemini --output-format stream-json` run headless, its
//! state and settings in the agent's own CLI home (`GEMINI_CLI_HOME`), the prompt on stdin.

mod settings;
mod stream;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use crate::backend::agent_cli::dialect::{CommandPlan, Dialect, Launch, LineParser};

pub use settings::{Auth, WEB_SEARCH_TOOL, approval_mode};
pub use stream::GeminiStream;

/// The files of a "Login with Google" under the CLI's `.gemini` directory.
const LOGIN_FILES: [&str; 2] = ["oauth_creds.json", "google_accounts.json"];

/// The Google Gemini CLI (`@google/gemini-cli`).
pub struct GeminiCli;

impl Dialect for GeminiCli {
    fn backend_type(&self) -> &'static str {
        "gemini_cli"
    }

    fn program(&self) -> &'static str {
        "gemini"
    }

    fn install_command(&self) -> &'static str {
        "npm install -g @google/gemini-cli"
    }

    fn supported_versions(&self) -> (&'static str, Option<&'static str>) {
        ("0.61.0", None)
    }

    fn parse_version(&self, output: &str) -> Option<String> {
        output.split_whitespace().find_map(|word| {
            let word = word.trim_start_matches('v');
            let dotted = word.split('.').count() >= 2
                && word
                    .split('.')
                    .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()));
            dotted.then(|| word.to_owned())
        })
    }

    fn key_variables(&self) -> &'static [&'static str] {
        &["GEMINI_API_KEY", "GOOGLE_API_KEY"]
    }

    fn logged_in(&self, user_home: &Path) -> bool {
        user_home.join(".gemini").join(LOGIN_FILES[0]).is_file()
    }

    fn command(&self, launch: &Launch<'_>) -> CommandPlan {
        command_with(launch, &|name| std::env::var(name).ok())
    }

    fn parser(&self) -> Box<dyn LineParser> {
        Box::new(GeminiStream::default())
    }
}

/// The command for one start, reading the environment massgen runs in through `env`.
///
/// The prompt goes on stdin (`-p ""` makes the run headless): a command-line argument is
/// limited to 128 KiB on Linux, and massgen's prompts carry whole answers. The system prompt
/// is the CLI home's `GEMINI.md`, which the CLI appends to its own system instruction.
pub fn command_with(launch: &Launch<'_>, env: &dyn Fn(&str) -> Option<String>) -> CommandPlan {
    let gemini_dir = launch.home.join(".gemini");
    let (auth, mut plan_env) = auth(launch.base_url.is_some(), env);
    plan_env.extend([
        ("GEMINI_CLI_HOME".into(), launch.home.display().to_string()),
        ("GEMINI_CLI_NO_RELAUNCH".into(), "true".into()),
        ("GEMINI_SANDBOX".into(), "false".into()),
        ("NO_COLOR".into(), "1".into()),
    ]);
    if let Some(base_url) = launch.base_url {
        plan_env.push(("GOOGLE_GEMINI_BASE_URL".into(), base_url.into()));
    }
    let settings = settings::settings(auth, launch.bridge, launch.options);
    let mut files = vec![
        (gemini_dir.join("settings.json"), pretty(&settings)),
        (
            gemini_dir.join("GEMINI.md"),
            launch.system_prompt.to_owned(),
        ),
    ];
    if auth == Auth::Login {
        files.extend(login_files(env, &gemini_dir));
    }
    let mut args: Vec<String> = ["--output-format", "stream-json", "--skip-trust"]
        .map(String::from)
        .into();
    args.push("--approval-mode".into());
    args.push(approval_mode(launch.options.permission_mode.as_deref()).into());
    if let Some(model) = launch.model {
        args.extend(["--model".into(), model.into()]);
    }
    if let Some(session) = launch.resume {
        args.extend(["--resume".into(), session.into()]);
    }
    args.extend(["--prompt".into(), String::new()]);
    CommandPlan {
        args,
        env: plan_env,
        files,
        stdin: Some(headless_prompt(launch.prompt)),
    }
}

/// How the CLI signs in, and the environment that needs: a `GEMINI_API_KEY` (taken from
/// `GOOGLE_API_KEY` when only that is set, as MassGen does), Vertex AI when the user chose
/// it, else the user's own login. A base URL always means an API key.
fn auth(base_url: bool, env: &dyn Fn(&str) -> Option<String>) -> (Auth, Vec<(String, String)>) {
    let set = |name: &str| env(name).filter(|value| !value.is_empty());
    if set("GEMINI_API_KEY").is_some() {
        return (Auth::ApiKey, Vec::new());
    }
    if !base_url && set("GOOGLE_GENAI_USE_VERTEXAI").as_deref() == Some("true") {
        return (Auth::Vertex, Vec::new());
    }
    if let Some(key) = set("GOOGLE_API_KEY") {
        return (Auth::ApiKey, vec![("GEMINI_API_KEY".into(), key)]);
    }
    if base_url {
        return (Auth::ApiKey, Vec::new());
    }
    (Auth::Login, Vec::new())
}

/// The user's login files, copied into the agent's CLI home (where the relocated CLI looks
/// for them); none when the user has not logged in.
fn login_files(env: &dyn Fn(&str) -> Option<String>, gemini_dir: &Path) -> Vec<(PathBuf, String)> {
    let Some(user_home) = env("HOME") else {
        return Vec::new();
    };
    let user_dir = Path::new(&user_home).join(".gemini");
    LOGIN_FILES
        .iter()
        .filter_map(|name| {
            let text = std::fs::read_to_string(user_dir.join(name)).ok()?;
            Some((gemini_dir.join(name), text))
        })
        .collect()
}

/// A prompt starting with `/` would run as one of the CLI's slash commands.
fn headless_prompt(prompt: &str) -> String {
    if prompt.starts_with('/') {
        format!(" {prompt}")
    } else {
        prompt.to_owned()
    }
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

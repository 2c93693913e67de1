//! An MCP server's `security:` block read into a [`Policy`], and the server checked
//! against it: what the policy forbids is a load error naming the rule, where the refused
//! key was written, and how to allow it.

use super::Note;
use crate::config::error::Problem;
use crate::config::fields::Fields;
use crate::config::mcp_security::{Level, Policy};
use crate::config::tools::McpTransport;
use crate::config::url_policy::UrlRules;
use crate::config::yaml_node::Value;

const KEYS: [&str; 7] = [
    "level",
    "allowed_executables",
    "env",
    "allowed_hostnames",
    "resolve_dns",
    "allow_private_ips",
    "allow_localhost",
];
const ENV_KEYS: [&str; 4] = ["level", "mode", "allowed_vars", "denied_vars"];

/// Checks `transport` against the server's `security:` block, when it has one. MassGen
/// checks servers without one at `strict`; massgen leaves those to the user's choice.
pub(super) fn check(
    server: &Fields<'_>,
    transport: &McpTransport,
    notes: &mut Vec<Note>,
) -> Result<(), Problem> {
    let Some(node) = server.get("security") else {
        return Ok(());
    };
    if !matches!(node.value, Value::Map(_)) {
        return Err(server.wrong_type(
            "security",
            node,
            "a mapping",
            "security: {level: moderate}",
        ));
    }
    let security = Fields::of(node, server.key_path("security"))?;
    let policy = policy(&security, notes)?;
    let (outcome, key) = match transport {
        McpTransport::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let outcome = policy.check_stdio(command, args, env, cwd.as_deref());
            (outcome, "command")
        }
        McpTransport::StreamableHttp { url, .. } => (policy.check_url(url), "url"),
    };
    outcome.map_err(|refused| {
        let at = server
            .get(refused.key)
            .or_else(|| server.get(key))
            .map_or(server.loc(), |node| node.loc);
        Problem::at(
            at,
            format!(
                "`{}` is refused by its `security` block: {}",
                server.key_path(refused.key),
                refused.rule
            ),
        )
        .help(refused.help)
    })
}

fn policy(security: &Fields<'_>, notes: &mut Vec<Note>) -> Result<Policy, Problem> {
    unknown(security, &KEYS, notes);
    let level = level(security, notes)?;
    let mut policy = Policy {
        level,
        allowed_executables: security.strings("allowed_executables")?,
        env_level: level,
        url: UrlRules {
            allowed_hostnames: security.strings("allowed_hostnames")?,
            resolve_dns: security.bool("resolve_dns")?.unwrap_or(false),
            allow_private_ips: security.bool("allow_private_ips")?.unwrap_or(false),
            allow_localhost: security.bool("allow_localhost")?.unwrap_or(false),
        },
        ..Policy::default()
    };
    if let Some(node) = security.get("env") {
        let env = Fields::of(node, security.key_path("env"))?;
        unknown(&env, &ENV_KEYS, notes);
        if env.get("level").is_some() {
            policy.env_level = self::level(&env, notes)?;
        }
        policy.env_allowlist = env
            .choice("mode", &["denylist", "allowlist"], |mode| {
                match mode.trim() {
                    "denylist" => Some(false),
                    "allowlist" => Some(true),
                    _ => None,
                }
            })?
            .unwrap_or(false);
        policy.allowed_vars = env.strings("allowed_vars")?;
        policy.denied_vars = env.strings("denied_vars")?;
    }
    Ok(policy)
}

/// `level`; a name MassGen does not know is checked as `strict`, as MassGen does.
fn level(fields: &Fields<'_>, notes: &mut Vec<Note>) -> Result<Level, Problem> {
    let Some(name) = fields.string("level")? else {
        return Ok(Level::Strict);
    };
    Ok(Level::from_name(name.trim()).unwrap_or_else(|| {
        notes.push(Note {
            loc: fields.get("level").map(|node| node.loc),
            message: format!(
                "`{}: {name}` is not a level MassGen knows ({}); it checks the server as \
                 `strict`, and so does massgen",
                fields.key_path("level"),
                Level::NAMES.join(", ")
            ),
            ignored: None,
        });
        Level::Strict
    }))
}

fn unknown(fields: &Fields<'_>, known: &[&str], notes: &mut Vec<Note>) {
    for entry in fields.unknown(known) {
        let path = fields.key_path(&entry.key);
        notes.push(super::unknown_key_note(
            entry,
            path,
            &format!("; keys here: {}", known.join(", ")),
        ));
    }
}

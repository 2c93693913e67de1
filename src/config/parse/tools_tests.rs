//! Tool settings and context paths as configs write them, and their errors.

use crate::config::{Env, McpTransport, Permission, from_text};

fn load(yaml: &str) -> crate::config::Config {
    from_text(yaml, "t.yaml", &Env::default()).unwrap().config
}

fn error(yaml: &str) -> String {
    from_text(yaml, "t.yaml", &Env::default())
        .unwrap_err()
        .to_string()
}

const HEAD: &str = "agent:\n  id: a\n  backend:\n    type: scripted\n";

#[test]
fn servers_in_list_and_mapping_form_read_the_same() {
    let list = load(&format!(
        "{HEAD}    mcp_servers:\n      - name: fs\n        type: stdio\n        command: npx\n        \
         args: [\"-y\", \"server\"]\n        env: {{TOKEN: abc}}\n        timeout: 5\n      \
         - {{name: web, type: streamable-http, url: \"http://localhost:9/mcp\", headers: {{Authorization: x}}}}\n"
    ));
    let mapping = load(&format!(
        "{HEAD}    mcp_servers:\n      fs: {{type: stdio, command: npx, args: [\"-y\", \"server\"], \
         env: {{TOKEN: abc}}, timeout: 5}}\n      web: {{url: \"http://localhost:9/mcp\", \
         headers: {{Authorization: x}}}}\n"
    ));
    let servers = &list.agents[0].backend.tools.mcp_servers;
    assert_eq!(servers, &mapping.agents[0].backend.tools.mcp_servers);
    assert_eq!(servers.len(), 2);
    assert_eq!(servers[0].call_timeout.as_secs(), 5);
    assert_eq!(servers[1].connect_timeout.as_secs(), 30);
    let McpTransport::Stdio {
        command, args, env, ..
    } = &servers[0].transport
    else {
        panic!("{:?}", servers[0].transport);
    };
    assert_eq!((command.as_str(), args.len()), ("npx", 2));
    assert_eq!(env[0].1.expose(), "abc");
    assert!(
        !format!("{:?}", servers).contains("abc"),
        "secrets stay out of debug output"
    );
}

#[test]
fn tool_filters_command_line_and_workspace() {
    let config = load(&format!(
        "{HEAD}    cwd: workspace\n    exclude_tools: [mcp__fs__delete]\n    \
         enable_mcp_command_line: true\n    command_line_allowed_commands: [\"^ls\"]\n    \
         mcp_servers: [{{name: fs, command: x, allowed_tools: [read, mcp__fs__list]}}]\n"
    ));
    let tools = &config.agents[0].backend.tools;
    assert_eq!(tools.cwd.as_deref(), Some("workspace"));
    assert!(!tools.offers("mcp__fs__delete") && tools.offers("mcp__fs__read"));
    let server = &tools.mcp_servers[0];
    assert!(server.offers("read", "mcp__fs__read"));
    assert!(server.offers("list", "mcp__fs__list"));
    assert!(!server.offers("write", "mcp__fs__write"));
    let command_line = tools.command_line.as_ref().unwrap();
    assert_eq!(command_line.allowed_commands, ["^ls"]);
}

#[test]
fn a_security_block_refuses_what_its_level_forbids_at_load() {
    let command = error(&format!(
        "{HEAD}    mcp_servers:\n      - name: repo\n        command: git\n        \
         security: {{level: strict}}\n"
    ));
    assert!(
        command.contains("t.yaml:7:18")
            && command.contains("`agent.backend.mcp_servers[0].command` is refused by its \
                                 `security` block: level `strict` does not allow the executable `git`")
            && command.contains("allowed_executables"),
        "{command}"
    );
    let moderate = load(&format!(
        "{HEAD}    mcp_servers:\n      - {{name: repo, command: git, security: {{level: moderate}}}}\n"
    ));
    assert_eq!(moderate.agents[0].backend.tools.mcp_servers.len(), 1);
    let url = error(&format!(
        "{HEAD}    mcp_servers:\n      - name: web\n        type: streamable-http\n        \
         url: http://localhost:8000/mcp\n        security: {{level: permissive}}\n"
    ));
    assert!(
        url.contains("mcp_servers[0].url` is refused") && url.contains("allow_localhost: true"),
        "{url}"
    );
    let allowed = load(&format!(
        "{HEAD}    mcp_servers:\n      - name: web\n        type: streamable-http\n        \
         url: http://localhost:8000/mcp\n        security: {{allow_localhost: true, \
         allow_private_ips: true}}\n"
    ));
    assert_eq!(allowed.agents[0].backend.tools.mcp_servers.len(), 1);
    let env = error(&format!(
        "{HEAD}    mcp_servers:\n      - {{name: s, command: npx, env: {{PATH: /bin}}, \
         security: {{level: strict}}}}\n"
    ));
    assert!(env.contains("`PATH` is denied"), "{env}");
    // Without a block, massgen leaves the server as the user wrote it.
    let unchecked = load(&format!(
        "{HEAD}    mcp_servers: [{{name: repo, command: git}}]\n"
    ));
    assert_eq!(unchecked.agents[0].backend.tools.mcp_servers.len(), 1);
}

#[test]
fn an_unknown_security_level_checks_as_strict_with_a_warning() {
    let loaded = from_text(
        &format!(
            "{HEAD}    mcp_servers:\n      - {{name: s, command: npx, security: {{level: high, \
             sandbox: on}}}}\n"
        ),
        "t.yaml",
        &Env::default(),
    )
    .unwrap();
    let messages: Vec<&str> = loaded.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("security.level: high` is not a level MassGen knows")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("unknown key `agent.backend.mcp_servers[0].security.sandbox`")),
        "{messages:?}"
    );
    assert!(
        !messages
            .iter()
            .any(|m| m.contains("ignored: agent.backend.mcp_servers[0].security "))
    );
}

#[test]
fn context_paths_take_permissions_and_protected_paths() {
    let config = load(&format!(
        "{HEAD}orchestrator:\n  context_paths:\n    - {{path: ./docs, permission: write, \
         protected_paths: [secret.md]}}\n    - ./src\n"
    ));
    let paths = &config.orchestrator.context_paths;
    assert_eq!(paths[0].permission, Permission::Write);
    assert_eq!(
        paths[0].protected_paths,
        [std::path::PathBuf::from("secret.md")]
    );
    assert_eq!(paths[1].permission, Permission::Read);
}

#[test]
fn bad_servers_say_what_and_where() {
    let missing = error(&format!(
        "{HEAD}    mcp_servers: [{{name: fs, type: stdio}}]\n"
    ));
    assert!(
        missing.contains("mcp_servers[0].command` is missing"),
        "{missing}"
    );
    let twice = error(&format!(
        "{HEAD}    mcp_servers: [{{name: fs, command: a}}, {{name: fs, command: b}}]\n"
    ));
    assert!(twice.contains("two MCP servers"), "{twice}");
    let kind = error(&format!(
        "{HEAD}    mcp_servers: {{fs: {{type: sse, url: x}}}}\n"
    ));
    assert!(kind.contains("cannot be \"sse\""), "{kind}");
    let url = error(&format!(
        "{HEAD}    mcp_servers: {{fs: {{url: localhost}}}}\n"
    ));
    assert!(url.contains("must be an http(s) URL"), "{url}");
    let pattern = error(&format!(
        "{HEAD}    enable_mcp_command_line: true\n    command_line_blocked_commands: [\"(\"]\n"
    ));
    assert!(pattern.contains("invalid pattern"), "{pattern}");
    let permission = error(&format!(
        "{HEAD}orchestrator:\n  context_paths: [{{path: x, permission: rw}}]\n"
    ));
    assert!(
        permission.contains("valid values: read, write"),
        "{permission}"
    );
}

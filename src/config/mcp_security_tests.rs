//! Each of MassGen's MCP security rules, on its own.

use super::*;
use crate::config::url_policy::UrlRules;

fn policy(level: Level) -> Policy {
    Policy {
        level,
        env_level: level,
        ..Policy::default()
    }
}

fn url_policy(url: UrlRules) -> Policy {
    Policy {
        url,
        ..Policy::default()
    }
}

fn command(policy: &Policy, command: &str) -> Result<(), Refused> {
    policy.check_stdio(command, &[], &[], None)
}

#[test]
fn each_level_allows_its_executables() {
    let strict = policy(Level::Strict);
    for allowed in [
        "npx",
        "uvx",
        "python3.12",
        "/usr/bin/node",
        "fastmcp",
        "C:/bin/npx.exe",
    ] {
        assert_eq!(command(&strict, allowed), Ok(()), "{allowed}");
    }
    let git = command(&strict, "git").unwrap_err();
    assert_eq!(git.key, "command");
    assert!(
        git.rule
            .contains("level `strict` does not allow the executable `git`"),
        "{git:?}"
    );
    assert!(git.help.contains("allowed_executables"));
    assert_eq!(command(&policy(Level::Moderate), "git"), Ok(()));
    assert!(command(&policy(Level::Moderate), "curl").is_err());
    assert_eq!(command(&policy(Level::Permissive), "curl"), Ok(()));
    assert!(command(&policy(Level::Permissive), "docker").is_err());
}

#[test]
fn allowed_executables_replace_the_levels_list() {
    let own = Policy {
        allowed_executables: vec!["My-Server".into()],
        ..Policy::default()
    };
    assert_eq!(command(&own, "/opt/my-server"), Ok(()));
    let npx = command(&own, "npx").unwrap_err();
    assert!(
        npx.rule
            .contains("`allowed_executables` does not list `npx`"),
        "{npx:?}"
    );
}

#[test]
fn commands_with_shell_syntax_or_climbing_are_refused() {
    let strict = policy(Level::Strict);
    for bad in ["npx; rm -rf /", "npx | sh", "npx $(id)", "node > out"] {
        assert!(
            command(&strict, bad)
                .unwrap_err()
                .rule
                .contains("shell character"),
            "{bad}"
        );
    }
    assert!(
        command(&strict, "../bin/npx")
            .unwrap_err()
            .rule
            .contains("climbs")
    );
    assert!(
        command(&strict, &"x".repeat(1001))
            .unwrap_err()
            .rule
            .contains("longer than 1000")
    );
    let args = vec!["a".repeat(501)];
    let long = strict.check_stdio("npx", &args, &[], None).unwrap_err();
    assert_eq!(long.key, "args");
}

#[test]
fn environment_rules_follow_the_env_level_and_mode() {
    let strict = policy(Level::Strict);
    let env = |name: &str, value: &str| vec![(name.to_string(), Secret::new(value.to_string()))];
    let check = |policy: &Policy, name: &str, value: &str| {
        policy.check_stdio("npx", &[], &env(name, value), None)
    };
    assert!(
        check(&strict, "PATH", "/bin")
            .unwrap_err()
            .rule
            .contains("`PATH` is denied")
    );
    assert_eq!(check(&policy(Level::Moderate), "PATH", "/bin"), Ok(()));
    assert!(check(&policy(Level::Moderate), "LD_LIBRARY_PATH", "/x").is_err());
    assert!(
        check(&strict, "TOKEN", "a;b")
            .unwrap_err()
            .rule
            .contains("holds `;`")
    );
    assert_eq!(check(&strict, "TOKEN", "Bearer ${API_KEY}"), Ok(()));
    assert!(check(&strict, "TOKEN", "${A}${B}").is_err());
    assert!(check(&strict, "TOKEN", "${lower}").is_err());
    let allowlist = Policy {
        env_allowlist: true,
        allowed_vars: vec!["token".into()],
        ..Policy::default()
    };
    assert_eq!(check(&allowlist, "TOKEN", "x"), Ok(()));
    assert!(
        check(&allowlist, "OTHER", "x")
            .unwrap_err()
            .rule
            .contains("allowed_vars")
    );
    let own_denied = Policy {
        denied_vars: vec!["SECRET".into()],
        ..Policy::default()
    };
    assert_eq!(check(&own_denied, "PATH", "/bin"), Ok(()));
    assert!(check(&own_denied, "secret", "x").is_err());
}

#[test]
fn working_directories_may_not_climb() {
    let strict = policy(Level::Strict);
    let cwd = strict.check_stdio("npx", &[], &[], Some(Path::new("srv/../../etc")));
    assert_eq!(cwd.unwrap_err().key, "cwd");
    assert_eq!(
        strict.check_stdio("npx", &[], &[], Some(Path::new("/srv/mcp"))),
        Ok(())
    );
}

#[test]
fn urls_to_this_machine_or_private_networks_need_permission() {
    let strict = policy(Level::Strict);
    assert_eq!(strict.check_url("https://search.parallel.ai/mcp"), Ok(()));
    let localhost = strict.check_url("http://localhost:8000/mcp").unwrap_err();
    assert!(
        localhost.rule.contains("without `allow_localhost`"),
        "{localhost:?}"
    );
    assert!(localhost.help.contains("allow_localhost: true"));
    for private in [
        "http://127.0.0.1:8000/mcp",
        "http://10.1.2.3/mcp",
        "http://[::1]:8000/mcp",
        "http://169.254.169.254/",
    ] {
        let refused = strict.check_url(private).unwrap_err();
        assert!(
            refused.rule.contains("allow_private_ips"),
            "{private}: {refused:?}"
        );
    }
    let local = url_policy(UrlRules {
        allow_localhost: true,
        ..UrlRules::default()
    });
    assert_eq!(local.check_url("http://localhost:8000/mcp"), Ok(()));
    assert_eq!(local.check_url("http://127.0.0.1:8000/mcp"), Ok(()));
    assert!(local.check_url("http://192.168.1.5/mcp").is_err());
    let private = url_policy(UrlRules {
        allow_private_ips: true,
        ..UrlRules::default()
    });
    assert_eq!(private.check_url("http://192.168.1.5/mcp"), Ok(()));
    let named = url_policy(UrlRules {
        allowed_hostnames: vec!["LocalHost".into()],
        ..UrlRules::default()
    });
    assert_eq!(named.check_url("http://localhost:8000/mcp"), Ok(()));
}

#[test]
fn dangerous_ports_are_refused_whatever_the_host() {
    let open = url_policy(UrlRules {
        allow_localhost: true,
        allow_private_ips: true,
        ..UrlRules::default()
    });
    let refused = open.check_url("http://localhost:5432/mcp").unwrap_err();
    assert!(refused.rule.contains("port 5432"), "{refused:?}");
    assert_eq!(open.check_url("http://localhost:8080/mcp"), Ok(()));
}

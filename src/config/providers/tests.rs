//! Tests of the provider table: every backend type's row agrees with itself.

use super::*;

fn default_base_url(row: &ProviderRow) -> Option<&'static str> {
    match row.http?.base_url {
        BaseUrl::Default(url) => Some(url),
        BaseUrl::Required { .. } => None,
    }
}

#[test]
fn every_row_names_a_model_a_new_agent_can_start_with() {
    for kind in BackendKind::ALL {
        let row = row(kind);
        assert!(!row.catalog_model.is_empty(), "{kind}");
        if let ConfigModel::Required { example } = row.config_model {
            assert!(!example.is_empty(), "{kind}");
        }
    }
}

#[test]
fn local_servers_are_on_localhost_need_no_key_and_have_no_price() {
    for kind in BackendKind::ALL {
        let row = row(kind);
        let local_url =
            default_base_url(row).is_some_and(|url| url.starts_with("http://localhost:"));
        assert_eq!(row.local, local_url, "{kind}");
        assert_eq!(row.local, row.pricing == PricingRoute::Unknown, "{kind}");
        if row.local {
            assert_eq!(
                row.http.map(|provider| provider.key_vars),
                Some(&[][..]),
                "{kind}"
            );
            assert!(row.hosts.is_empty() && row.tool_biller.is_none(), "{kind}");
        }
    }
}

#[test]
fn only_http_providers_take_keys_options_and_tools() {
    for kind in BackendKind::ALL {
        let row = row(kind);
        if row.http.is_none() {
            assert!(row.hosts.is_empty(), "{kind}");
            assert!(row.extra_options.is_empty(), "{kind}");
            assert!(row.known_base_url.is_none(), "{kind}");
            assert!(
                !row.sends_organization && row.tool_biller.is_none(),
                "{kind}"
            );
        }
        if row.agent != AgentProgram::None {
            assert!(row.http.is_none(), "{kind}");
            assert!(
                matches!(row.config_model, ConfigModel::Optional { .. }),
                "{kind}"
            );
        }
    }
    let not_http: Vec<BackendKind> = BackendKind::ALL
        .into_iter()
        .filter(|kind| row(*kind).http.is_none())
        .collect();
    assert_eq!(
        not_http,
        [
            BackendKind::Scripted,
            BackendKind::ClaudeCode,
            BackendKind::Codex,
            BackendKind::GeminiCli,
            BackendKind::Ag2
        ]
    );
}

#[test]
fn a_known_base_url_is_only_written_where_there_is_no_default() {
    for kind in BackendKind::ALL {
        let row = row(kind);
        if row.known_base_url.is_some() {
            assert!(
                matches!(row.http.map(|p| p.base_url), Some(BaseUrl::Required { .. })),
                "{kind}"
            );
        }
    }
}

#[test]
fn a_host_names_one_provider_and_its_keys() {
    for kind in BackendKind::ALL {
        for host in row(kind).hosts {
            let found = kind_at_host(host).map(|found| row(found).http.map(|p| p.key_vars));
            assert_eq!(found, Some(row(kind).http.map(|p| p.key_vars)), "{host}");
            assert!(
                !row(kind).http.is_some_and(|p| p.key_vars.is_empty()),
                "{kind}"
            );
        }
    }
    assert_eq!(kind_at_host("API.Groq.com"), Some(BackendKind::Groq));
    assert_eq!(kind_at_host("api.z.ai"), Some(BackendKind::Zai));
    assert_eq!(kind_at_host("notgroq.com"), None);
    assert_eq!(kind_at_host("localhost"), None);
}

#[test]
fn the_default_base_urls_hosts_are_the_rows_own() {
    for kind in BackendKind::ALL {
        let Some(url) = default_base_url(row(kind)) else {
            continue;
        };
        let host = url
            .trim_start_matches("https://")
            .split('/')
            .next()
            .unwrap_or_default();
        if let Some(found) = kind_at_host(host) {
            assert_eq!(row(found), row(kind), "{kind} at {host}");
        }
    }
}

#[test]
fn agent_programs_are_run_or_refused_with_a_reason() {
    let clis: Vec<BackendKind> = BackendKind::ALL
        .into_iter()
        .filter(|kind| row(*kind).agent == AgentProgram::Cli)
        .collect();
    assert_eq!(
        clis,
        [
            BackendKind::ClaudeCode,
            BackendKind::Codex,
            BackendKind::GeminiCli
        ]
    );
    for (name, says) in [
        ("copilot", "GitHub's own Copilot service"),
        ("antigravity_cli", "Google's own Antigravity service"),
        ("ag2", "Python objects of the autogen framework"),
    ] {
        let reason = refused_type(name).unwrap_or_else(|| panic!("{name} is not refused"));
        assert!(reason.contains(says), "{name}: {reason}");
    }
    for kind in clis {
        assert_eq!(refused_type(kind.name()), None, "{kind}");
    }
    assert_eq!(refused_type("claude"), None);
}

#[test]
fn the_agent_clis_are_priced_as_their_vendors_apis() {
    assert_eq!(
        row(BackendKind::ClaudeCode).pricing,
        PricingRoute::Providers(&[ANTHROPIC])
    );
    assert_eq!(
        row(BackendKind::Codex).pricing,
        PricingRoute::Providers(&[OPENAI])
    );
    assert_eq!(
        row(BackendKind::GeminiCli).pricing,
        row(BackendKind::Gemini).pricing
    );
}

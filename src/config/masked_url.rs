//! URLs as they may be shown in a message: the password of `user:password@` and the
//! values of credential parameters (`?key=`, `?token=`) replaced by `***`, even when the
//! URL does not parse.

/// `url` with its credentials masked.
pub fn masked_url(url: &str) -> String {
    let (before_fragment, fragment) = match url.split_once('#') {
        Some((head, tail)) => (head, Some(tail)),
        None => (url, None),
    };
    let (address, query) = match before_fragment.split_once('?') {
        Some((head, tail)) => (head, Some(tail)),
        None => (before_fragment, None),
    };
    let mut out = mask_user_info(address);
    if let Some(query) = query {
        out.push('?');
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((name, _)) if credential_name(name) => format!("{name}=***"),
                Some(_) | None => pair.to_string(),
            })
            .collect();
        out.push_str(&pairs.join("&"));
    }
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

/// `scheme://user:password@host/path` → `scheme://user:***@host/path`.
fn mask_user_info(address: &str) -> String {
    let (scheme, rest) = match address.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest),
        None => (None, address),
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((user_info, host)) => {
            let user = user_info.split(':').next().unwrap_or_default();
            if user_info.contains(':') {
                format!("{user}:***@{host}")
            } else {
                format!("***@{host}")
            }
        }
        None => authority.to_string(),
    };
    match scheme {
        Some(scheme) => format!("{scheme}://{authority}{path}"),
        None => format!("{authority}{path}"),
    }
}

/// A variable, header or parameter name that says it holds a credential.
pub fn credential_name(name: &str) -> bool {
    const WHOLE_PARTS: [&str; 3] = ["key", "pat", "sig"];
    const WITHIN_PARTS: [&str; 7] = [
        "apikey",
        "token",
        "secret",
        "password",
        "passwd",
        "auth",
        "credential",
    ];
    let name = name.to_ascii_lowercase();
    name.split(|ch: char| !ch.is_ascii_alphanumeric())
        .any(|part| {
            WHOLE_PARTS.contains(&part) || WITHIN_PARTS.iter().any(|word| part.contains(word))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_and_credential_parameters_are_masked() {
        assert_eq!(
            masked_url("ftp://bob:hunter2-long@example.com/v1?key=abc&model=x#top"),
            "ftp://bob:***@example.com/v1?key=***&model=x#top"
        );
        assert_eq!(
            masked_url("http://[::1:8000/v1?access_token=zzz"),
            "http://[::1:8000/v1?access_token=***"
        );
        assert_eq!(masked_url("https://tok123@host/x"), "https://***@host/x");
        assert_eq!(
            masked_url("https://api.example.com/v1"),
            "https://api.example.com/v1"
        );
    }

    #[test]
    fn names_that_say_credential() {
        for name in [
            "GITHUB_TOKEN",
            "OPENAI_API_KEY",
            "db-password",
            "x-api-key",
            "Authorization",
            "client_secret",
            "GH_PAT",
            "apikey",
        ] {
            assert!(credential_name(name), "{name}");
        }
        for name in ["PATH", "HOME", "ROOT_DIR", "model", "LANG", "monkey_mode"] {
            assert!(!credential_name(name), "{name}");
        }
    }
}

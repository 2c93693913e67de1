//! Whether a simple command can reach the network: a network program, `git clone|fetch|
//! pull|push`, a package install, `/dev/tcp/`, or interpreter inline code that mentions a
//! network module or runs code it builds (counted as possible egress, conservatively).

use super::argv::SimpleCommand;
use crate::protocol::Risk;

/// A command that may send or fetch data over the network.
#[derive(Clone, Debug, PartialEq)]
pub struct Egress {
    /// What reaches out, for reasons: `curl`, `python3 -c`, `/dev/tcp`.
    pub what: String,
    /// The URL or host found in the argv; `*` when none is named.
    pub url: String,
    /// High, except package installs (medium).
    pub risk: Risk,
}

const NETWORK_PROGRAMS: [&str; 21] = [
    "curl", "wget", "nc", "ncat", "netcat", "socat", "ssh", "scp", "sftp", "telnet", "ftp",
    "aria2c", "http", "https", "lynx", "w3m", "links", "elinks", "mosh", "tftp", "xh",
];

const GIT_REMOTE_VERBS: [&str; 6] = ["clone", "fetch", "pull", "push", "ls-remote", "submodule"];

const INSTALLERS: [(&str, &[&str]); 9] = [
    ("pip", &["install", "download"]),
    ("pip3", &["install", "download"]),
    ("npm", &["install", "i", "add", "ci"]),
    ("pnpm", &["install", "i", "add"]),
    ("yarn", &["add", "install"]),
    ("cargo", &["install", "add", "fetch"]),
    ("gem", &["install"]),
    ("go", &["get", "install"]),
    ("uv", &["add", "pip"]),
];

/// What inline code may use to reach the network, or to run code it builds.
const CODE_MARKERS: [&str; 27] = [
    "urllib",
    "requests",
    "http.client",
    "httpx",
    "aiohttp",
    "socket",
    "urlopen",
    "fetch(",
    "net/http",
    "open-uri",
    "LWP",
    "IO::Socket",
    "curl_",
    "http:",
    "https:",
    "subprocess",
    "system(",
    "popen",
    "child_process",
    "require(",
    "exec(",
    "eval(",
    "__import__",
    "base64",
    "compile(",
    "getattr",
    "import(",
];

pub fn egress(command: &SimpleCommand) -> Option<Egress> {
    let program = command.program();
    let args = command.args();
    let high = |what: &str| {
        Some(Egress {
            what: what.to_string(),
            url: url_in(args).unwrap_or_else(|| "*".into()),
            risk: Risk::High,
        })
    };
    if command
        .argv
        .iter()
        .chain(&command.redirects)
        .any(|word| word.contains("/dev/tcp/") || word.contains("/dev/udp/"))
    {
        return high("/dev/tcp");
    }
    if NETWORK_PROGRAMS.contains(&program) {
        return high(program);
    }
    if program == "rsync" && args.iter().any(|arg| is_remote(arg)) {
        return high("rsync");
    }
    if program == "git"
        && let Some(verb) = git_verb(args)
        && GIT_REMOTE_VERBS.contains(&verb)
    {
        return high(&format!("git {verb}"));
    }
    if let Some((_, verbs)) = INSTALLERS.iter().find(|(name, _)| *name == program)
        && let Some(verb) = args.iter().find(|arg| !arg.starts_with('-'))
        && verbs.contains(&verb.as_str())
    {
        return Some(Egress {
            what: format!("{program} {verb}"),
            url: url_in(args).unwrap_or_else(|| "*".into()),
            risk: Risk::Medium,
        });
    }
    let code = inline_code(program, args)?;
    CODE_MARKERS
        .iter()
        .any(|marker| code.contains(marker))
        .then(|| Egress {
            what: format!("{program} inline code"),
            url: url_in(std::slice::from_ref(&code)).unwrap_or_else(|| "*".into()),
            risk: Risk::High,
        })
}

/// `git -C dir push` → `push`.
pub fn git_verb(args: &[String]) -> Option<&str> {
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        if matches!(arg.as_str(), "-C" | "-c" | "--git-dir" | "--work-tree") {
            at += 2;
        } else if arg.starts_with('-') {
            at += 1;
        } else {
            return Some(arg);
        }
    }
    None
}

fn is_interpreter(program: &str) -> bool {
    let stem = program.trim_end_matches(|ch: char| ch.is_ascii_digit() || ch == '.');
    matches!(
        stem,
        "python" | "pypy" | "node" | "nodejs" | "deno" | "bun" | "perl" | "ruby" | "php"
    )
}

/// The argv of an interpreter given code inline (`-c`, `-e`, `--eval`, `-r`, `deno eval`),
/// joined, so modules loaded with `-M` / `-r` count too.
fn inline_code(program: &str, args: &[String]) -> Option<String> {
    if !is_interpreter(program) {
        return None;
    }
    let inline = args.iter().any(|arg| {
        matches!(
            arg.as_str(),
            "--eval" | "--print" | "-p" | "eval" | "-r" | "-e" | "-E" | "-c"
        ) || (arg.starts_with('-')
            && !arg.starts_with("--")
            && arg
                .chars()
                .skip(1)
                .any(|ch| matches!(ch, 'c' | 'e' | 'E' | 'r')))
    });
    inline.then(|| args.join(" "))
}

fn is_remote(arg: &str) -> bool {
    if arg.contains("://") {
        return true;
    }
    !arg.starts_with('-')
        && !arg.starts_with('/')
        && !arg.starts_with('.')
        && arg
            .split_once(':')
            .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
}

/// The first URL (`scheme://…`) or remote (`host:path`, `user@host`) in `words`.
fn url_in(words: &[String]) -> Option<String> {
    for word in words {
        if let Some(start) = word.find("://") {
            let scheme_start = word[..start]
                .rfind(|ch: char| !(ch.is_ascii_alphanumeric() || "+.-".contains(ch)))
                .map_or(0, |at| at + 1);
            let rest = &word[scheme_start..];
            let end = rest
                .find(|ch: char| ch.is_whitespace() || "'\"`)<>".contains(ch))
                .unwrap_or(rest.len());
            return Some(rest[..end].to_string());
        }
    }
    words
        .iter()
        .find(|word| !word.starts_with('-') && (is_remote(word) || word.contains('@')))
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::approvals::argv::simple_commands;

    fn first_egress(text: &str) -> Option<Egress> {
        simple_commands(text).iter().find_map(egress)
    }

    #[test]
    fn network_programs_and_their_urls() {
        let found = first_egress(r"\c\u\r\l -s https://x.test/a?b").unwrap();
        assert_eq!(
            (found.what.as_str(), found.url.as_str()),
            ("curl", "https://x.test/a?b")
        );
        assert_eq!(first_egress("wget x").unwrap().url, "*");
        assert_eq!(
            first_egress("scp f user@host:/tmp").unwrap().url,
            "user@host:/tmp"
        );
        assert!(first_egress("rsync -a src/ dst/").is_none());
        assert!(first_egress("rsync -a src/ host:dst/").is_some());
        assert!(first_egress("cat < /dev/tcp/h/80").is_some());
        assert!(first_egress("ls -la").is_none());
    }

    #[test]
    fn git_remotes_and_installs() {
        assert_eq!(
            first_egress("git -C repo push origin main").unwrap().what,
            "git push"
        );
        assert!(first_egress("git status").is_none());
        let install = first_egress("pip install requests").unwrap();
        assert_eq!(install.risk, Risk::Medium);
        assert!(first_egress("pip list").is_none());
    }

    #[test]
    fn interpreter_inline_code_that_may_reach_out() {
        let found =
            first_egress(r#"python3 -c 'import urllib.request as u; u.urlopen("http://x")'"#)
                .unwrap();
        assert_eq!(found.url, "http://x");
        assert!(first_egress("node -e 'fetch(\"https://y\")'").is_some());
        assert!(first_egress("perl -MIO::Socket -e 1").is_some());
        assert!(first_egress("ruby -ropen-uri -e 'p 1'").is_some());
        assert!(first_egress("python -c 'exec(input())'").is_some());
        assert!(first_egress("python -c 'print(1+1)'").is_none());
        assert!(first_egress("python script.py").is_none());
    }
}

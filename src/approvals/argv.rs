//! Command text to the simple commands it runs, each as a normalized argv: leading
//! `VAR=value` assignments and wrappers (`env`, `timeout 5`, `nohup`, `xargs`…) dropped, the
//! program as its basename, and `bash -c '…'`, `eval …` and substitutions taken apart too.

use super::lexer::{self, Words};

/// How deep `bash -c "sh -c '…'"` and nested substitutions are followed.
const MAX_DEPTH: usize = 8;

/// One command the text runs.
#[derive(Clone, Debug, PartialEq)]
pub struct SimpleCommand {
    /// The normalized argv; the program is its basename (`curl`, not `/usr/bin/curl`).
    pub argv: Vec<String>,
    /// The program as written, when it was a path.
    pub program_path: Option<String>,
    pub redirects: Vec<String>,
    pub writes: bool,
}

impl SimpleCommand {
    pub fn program(&self) -> &str {
        self.argv.first().map(String::as_str).unwrap_or("")
    }

    pub fn args(&self) -> &[String] {
        self.argv.get(1..).unwrap_or(&[])
    }

    /// The argv joined by single spaces, as `command(…)` rules see it.
    pub fn line(&self) -> String {
        self.argv.join(" ")
    }

    /// The line with the program as written (`/usr/bin/curl x`), when it was a path.
    pub fn raw_line(&self) -> Option<String> {
        let path = self.program_path.as_ref()?;
        let mut argv = vec![path.clone()];
        argv.extend_from_slice(self.args());
        Some(argv.join(" "))
    }
}

/// Every simple command `text` runs, outermost first.
pub fn simple_commands(text: &str) -> Vec<SimpleCommand> {
    let mut found = Vec::new();
    collect(text, 0, &mut found);
    found
}

fn collect(text: &str, depth: usize, found: &mut Vec<SimpleCommand>) {
    if depth > MAX_DEPTH {
        return;
    }
    let lexed = lexer::lex(text);
    for words in lexed.commands {
        let Some(command) = normalize(words) else {
            continue;
        };
        let inner = inner_script(&command);
        found.push(command);
        if let Some(inner) = inner {
            collect(&inner, depth + 1, found);
        }
    }
    for nested in lexed.nested {
        collect(&nested, depth + 1, found);
    }
}

/// The script a shell runs with `-c`, or what `eval` runs.
fn inner_script(command: &SimpleCommand) -> Option<String> {
    let args = command.args();
    match command.program() {
        "eval" => Some(args.join(" ")),
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "ash" | "fish" => {
            let flag = args.iter().position(|arg| {
                arg.starts_with('-') && !arg.starts_with("--") && arg.contains('c')
            })?;
            args.get(flag + 1).cloned()
        }
        _ => None,
    }
}

const SHELL_KEYWORDS: [&str; 12] = [
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "{", "}", "!",
];

fn normalize(words: Words) -> Option<SimpleCommand> {
    let Words {
        words: mut argv,
        redirects,
        writes,
    } = words;
    loop {
        let before = argv.len();
        while argv
            .first()
            .is_some_and(|word| is_assignment(word) || SHELL_KEYWORDS.contains(&word.as_str()))
        {
            argv.remove(0);
        }
        let Some(first) = argv.first() else { break };
        let program = basename(first).to_string();
        let skip = wrapper_length(&program, &argv);
        if skip == 0 || skip >= argv.len() {
            break;
        }
        argv.drain(..skip);
        if argv.len() == before {
            break;
        }
    }
    if argv.is_empty() && redirects.is_empty() {
        return None;
    }
    let mut program_path = None;
    if let Some(first) = argv.first_mut()
        && first.contains('/')
    {
        let base = basename(first).to_string();
        program_path = Some(std::mem::replace(first, base));
    }
    Some(SimpleCommand {
        argv,
        program_path,
        redirects,
        writes,
    })
}

pub fn basename(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else {
        return false;
    };
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_')
        && chars.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

/// How many leading words a wrapper takes before the command it runs; 0 when `argv` runs
/// no wrapper.
fn wrapper_length(program: &str, argv: &[String]) -> usize {
    let (with_value, operands): (&[&str], usize) = match program {
        "env" => (
            &["-u", "--unset", "-C", "--chdir", "-S", "--split-string"],
            0,
        ),
        "command" => {
            if argv.get(1).is_some_and(|arg| arg == "-v" || arg == "-V") {
                return 0;
            }
            (&[], 0)
        }
        "exec" => (&["-a"], 0),
        "nice" => (&["-n", "--adjustment"], 0),
        "nohup" | "busybox" | "builtin" => (&[], 0),
        "timeout" => (&["-s", "--signal", "-k", "--kill-after"], 1),
        "stdbuf" => (&["-i", "-o", "-e", "--input", "--output", "--error"], 0),
        "time" => (&["-f", "--format", "-o", "--output"], 0),
        "xargs" => (
            &[
                "-I",
                "-n",
                "-P",
                "-L",
                "-s",
                "-d",
                "-E",
                "-a",
                "--max-args",
                "--max-procs",
                "--delimiter",
                "--arg-file",
                "--replace",
            ],
            0,
        ),
        _ => return 0,
    };
    let mut at = 1;
    while let Some(arg) = argv.get(at) {
        if arg == "--" {
            at += 1;
            break;
        }
        if program == "env" && is_assignment(arg) {
            at += 1;
            continue;
        }
        // `nice -5`: an old-style adjustment.
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        at += 1;
        if arg.contains('=') {
            continue;
        }
        // A short option with its value attached (`-n5`, `-oL`) takes no next word.
        if with_value.contains(&arg.as_str()) {
            at += 1;
        }
    }
    at + operands
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        simple_commands(text)
            .iter()
            .map(SimpleCommand::line)
            .collect()
    }

    #[test]
    fn wrappers_and_assignments_are_dropped_and_the_program_is_its_basename() {
        assert_eq!(lines("env A=1 timeout 5 curl x"), vec!["curl x"]);
        assert_eq!(lines("A=1 B=2 /usr/bin/curl x"), vec!["curl x"]);
        assert_eq!(
            simple_commands("/usr/bin/curl x")[0].raw_line().as_deref(),
            Some("/usr/bin/curl x")
        );
        assert_eq!(
            lines("nice -n 5 nohup stdbuf -oL time -p command exec curl x"),
            vec!["curl x"]
        );
        assert_eq!(lines("env -i -u HOME busybox wget y"), vec!["wget y"]);
        assert_eq!(lines("timeout -s KILL 10s curl x"), vec!["curl x"]);
        assert_eq!(
            lines("find . | xargs -n 1 -I{} rm {}"),
            vec!["find .", "rm {}"]
        );
        assert_eq!(lines("command -v curl"), vec!["command -v curl"]);
        assert_eq!(lines("env"), vec!["env"]);
    }

    #[test]
    fn shells_eval_and_substitutions_are_taken_apart() {
        assert_eq!(
            lines("bash -c \"wget x\""),
            vec!["bash -c wget x", "wget x"]
        );
        assert_eq!(
            lines("sh -lc 'ls; bash -c \"curl y\"'"),
            vec![
                "sh -lc ls; bash -c \"curl y\"",
                "ls",
                "bash -c curl y",
                "curl y"
            ]
        );
        assert_eq!(lines("eval 'c''url' z"), vec!["eval curl z", "curl z"]);
        assert_eq!(lines("echo $(curl x)"), vec!["echo $(curl x)", "curl x"]);
        assert_eq!(lines("if true; then ls; fi"), vec!["true", "ls"]);
    }
}

//! MassGen's own custom tools (an entry without `path`) through the real binary: with no
//! `massgen` package for the interpreter, `--validate` and a run refuse the config naming
//! the fix; with one on `PYTHONPATH` (a minimal fake here), the tool loads and runs.

use crate::common::{assert_code, assert_stderr_contains, describe};
use crate::support::sandbox::{Sandbox, text};

const CONFIG: &str = "\
agent:
  id: solo
  backend:
    type: scripted
    tokens_per_second: 0
    answer: done
    custom_tools:
      - {name: two_num_tool, function: two_num_tool}
    tool_calls:
      - {name: custom_tool__two_num_tool, arguments: {x: 2, y: 3}}
";

/// The `python3` tests run with, as an absolute path (the sandbox's `HOME` hides pyenv's).
fn python() -> String {
    let output = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    text(&output.stdout).trim().to_string()
}

/// A `massgen` package with only `massgen.tool._basic.two_num_tool` (no `_result`: the
/// worker's shim serves it).
fn fake_massgen(sandbox: &Sandbox) -> String {
    sandbox.write("fake/massgen/__init__.py", "");
    sandbox.write("fake/massgen/tool/__init__.py", "");
    sandbox.write(
        "fake/massgen/tool/_basic/__init__.py",
        "from massgen.tool._result import ExecutionResult, TextContent\n\n\
         async def two_num_tool(x: int, y: int):\n    \"\"\"Add two numbers together.\"\"\"\n    \
         return ExecutionResult(output_blocks=[TextContent(data=f\"The sum of {x} and {y} is {x + y}\")])\n",
    );
    sandbox.root.join("fake").display().to_string()
}

#[test]
fn own_tools_need_the_massgen_package_and_say_how_to_get_it() {
    let sandbox = Sandbox::new();
    sandbox.write("tools.yaml", CONFIG);
    let python = python();
    let run = |args: &[&str]| {
        sandbox
            .massgen()
            .env("MASSGEN_PYTHON", &python)
            .env_remove("PYTHONPATH")
            .args(args)
            .write_stdin("")
            .output()
            .unwrap()
    };
    let validated = run(&["--validate", "tools.yaml"]);
    assert_code(&validated, 1);
    assert_stderr_contains(
        &validated,
        "`custom_tool__two_num_tool` is one of MassGen's own tools",
    );
    assert_stderr_contains(&validated, "-m pip install massgen");
    let ran = run(&["--automation", "--config", "tools.yaml", "q"]);
    assert_code(&ran, 1);
    assert_stderr_contains(&ran, "the massgen package is not installed");
}

#[test]
fn own_tools_load_from_an_installed_massgen_package() {
    let sandbox = Sandbox::new();
    sandbox.write("tools.yaml", CONFIG);
    let python = python();
    let pythonpath = fake_massgen(&sandbox);
    let run = |args: &[&str]| {
        sandbox
            .massgen()
            .env("MASSGEN_PYTHON", &python)
            .env("PYTHONPATH", &pythonpath)
            .args(args)
            .write_stdin("")
            .output()
            .unwrap()
    };
    let validated = run(&["--validate", "tools.yaml"]);
    assert_code(&validated, 0);
    let ran = run(&["--automation", "--config", "tools.yaml", "q"]);
    assert_code(&ran, 0);
    let events =
        std::fs::read_to_string(sandbox.run_log_dir().join("turn_1/attempt_1/events.jsonl"))
            .unwrap();
    assert!(
        events.contains("The sum of 2 and 3 is 5"),
        "{}\n{events}",
        describe(&ran)
    );
}

#[test]
fn a_tool_importing_a_missing_module_is_one_warning_and_the_summary_counts_it() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "scrape.py",
        "import not_a_module_massgen_knows\n\n\
         def fetch(url: str):\n    \"\"\"Fetch a page.\"\"\"\n\n\
         def render(url: str):\n    \"\"\"Render a page.\"\"\"\n",
    );
    sandbox.write(
        "tools.yaml",
        "agent:\n  id: solo\n  backend:\n    type: scripted\n    custom_tools:\n      \
         - {path: scrape.py, function: [fetch, render]}\n",
    );
    let validated = sandbox
        .massgen()
        .env("MASSGEN_PYTHON", python())
        .args(["--validate", "tools.yaml"])
        .output()
        .unwrap();
    assert_code(&validated, 0);
    let stderr = text(&validated.stderr);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("warning: "))
        .collect();
    assert_eq!(warnings.len(), 1, "{}", describe(&validated));
    assert!(
        warnings[0].contains(
            "`custom_tool__fetch` (and `custom_tool__render`) imports `not_a_module_massgen_knows`"
        ),
        "{}",
        describe(&validated)
    );
    assert!(
        text(&validated.stdout).ends_with("(1 warning)\n"),
        "{}",
        describe(&validated)
    );
}

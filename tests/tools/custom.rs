//! Python custom tools (`backend.custom_tools`) in whole turns of scripted agents: each way
//! a config names them, preset arguments, streamed results, exceptions, a worker killed
//! mid-call and a call past its timeout. Run with the `python3` on PATH (without pydantic:
//! the worker's own schemas and massgen's shim of `massgen.tool`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use crate::scenarios::tool_results as results;
use crate::support::{Scenario, outcome};
use massgen::protocol::{Event, EventMsg, TurnOutcome};

const TOOLS: &str = r#"
import asyncio, os
from massgen.tool._result import ExecutionResult, TextContent
from massgen.tool import context_params


async def two_num_tool(x: int, y: int) -> ExecutionResult:
    """Add two numbers together.

    Args:
        x: First number
        y: Second number
    """
    return ExecutionResult(output_blocks=[TextContent(data=f"The sum of {x} and {y} is {x + y}")])


def add(a: int, b: int = 1):
    """Adds."""
    return ExecutionResult(output_blocks=[TextContent(data=f"add={a + b}")])


def sub(a: int, b: int = 1):
    """Subtracts."""
    return ExecutionResult(output_blocks=[TextContent(data=f"sub={a - b}")])


def shout(text: str, suffix: str, agent_cwd: str = "") -> ExecutionResult:
    """Shouts text."""
    print("a print must not break the protocol")
    inside = os.getcwd() == agent_cwd
    return ExecutionResult(output_blocks=[TextContent(data=f"{text.upper()}{suffix} cwd={inside}")])


async def countdown(start: int):
    """Counts down, streaming."""
    for n in range(start, 0, -1):
        yield ExecutionResult(output_blocks=[TextContent(data=f"log {n};")], is_log=True)
        yield ExecutionResult(output_blocks=[TextContent(data=f"{n} ")])
        await asyncio.sleep(0)


def explode(reason: str):
    """Fails."""
    raise ValueError(f"bad input: {reason}")


def crash(die: bool = False):
    """Kills its own worker when asked."""
    if die:
        os.kill(os.getpid(), 9)
    return ExecutionResult(output_blocks=[TextContent(data="still alive")])


async def slow(seconds: float = 30):
    """Sleeps."""
    await asyncio.sleep(seconds)
    return ExecutionResult(output_blocks=[TextContent(data="woke up")])


@context_params("agent_id", "model")
def who(agent_id: str, model: str, greeting: str = "hi") -> ExecutionResult:
    """Says who calls."""
    return ExecutionResult(output_blocks=[TextContent(data=f"{greeting} {agent_id} on {model}")])
"#;

/// A temp project holding `tools.py`.
fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tools.py");
    std::fs::write(&file, TOOLS).unwrap();
    (dir, file)
}

/// One scripted agent `a` with these `custom_tools` entries making these calls.
fn config(file: &Path, entries: &str, calls: &str, workspace: bool) -> String {
    let entries = entries.replace("FILE", &file.display().to_string());
    format!(
        "agent:\n  id: a\n  backend:\n    type: scripted\n    tokens_per_second: 0\n{}    \
         answer: done\n    custom_tools:\n{entries}    tool_calls:\n{calls}",
        if workspace {
            "    cwd: workspace\n"
        } else {
            ""
        }
    )
}

async fn run(dir: tempfile::TempDir, yaml: &str) -> (Vec<Event>, Scenario) {
    let mut scenario = Scenario::start_with_tools(dir, yaml);
    let events = scenario.handle.run_turn("go").await;
    (events, scenario)
}

fn offered(scenario: &Scenario) -> Vec<massgen::backend::ToolSpec> {
    scenario.requests_of("a")[0].tools.clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_path_and_one_function_is_offered_with_its_schema_and_called() {
    let (dir, file) = project();
    let yaml = config(
        &file,
        "      - {name: two_num_tool, category: math, path: FILE, function: two_num_tool}\n",
        "      - {name: custom_tool__two_num_tool, arguments: {x: 123, y: 456}}\n",
        false,
    );
    let (events, scenario) = run(dir, &yaml).await;
    assert_eq!(outcome(&events), TurnOutcome::Completed, "{events:#?}");
    let tool = offered(&scenario)
        .into_iter()
        .find(|tool| tool.name == "custom_tool__two_num_tool")
        .unwrap();
    assert_eq!(tool.description, "Add two numbers together.");
    assert_eq!(
        tool.parameters,
        serde_json::json!({"type": "object", "required": ["x", "y"], "properties": {
            "x": {"type": "integer", "description": "First number"},
            "y": {"type": "integer", "description": "Second number"}}})
    );
    assert_eq!(
        results(&events),
        [(
            "custom_tool__two_num_tool".to_string(),
            true,
            "The sum of 123 and 456 is 579".to_string()
        )]
    );
    // Its category goes with the call, for cards and the timeline to show.
    let categories: Vec<Option<&str>> = events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ToolCallBegin { category, .. } | EventMsg::ToolCallEnd { category, .. } => {
                Some(category.as_deref())
            }
            _ => None,
        })
        .collect();
    assert_eq!(categories, [Some("math"), Some("math")]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_of_functions_is_offered_under_its_new_names() {
    let (dir, file) = project();
    let yaml = config(
        &file,
        "      - {path: FILE, function: [add, sub], name: [plus, minus], description: [Plus, Minus]}\n",
        "      - {name: custom_tool__plus, arguments: {a: 5, b: 2}}\n      - {name: custom_tool__minus, arguments: {a: 5}}\n",
        true,
    );
    let (events, scenario) = run(dir, &yaml).await;
    let tools = offered(&scenario);
    let plus = tools
        .iter()
        .find(|tool| tool.name == "custom_tool__plus")
        .unwrap();
    assert_eq!(plus.description, "Plus");
    assert!(!tools.iter().any(|tool| tool.name == "custom_tool__add"));
    let outputs: Vec<String> = results(&events)
        .into_iter()
        .map(|(_, _, output)| output)
        .collect();
    assert_eq!(outputs, ["add=7", "sub=4"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn preset_args_are_hidden_from_the_model_and_merged_into_the_call() {
    let (dir, file) = project();
    let yaml = config(
        &file,
        "      - {path: FILE, function: shout, preset_args: {suffix: \"!!\"}}\n",
        "      - {name: custom_tool__shout, arguments: {text: hey}}\n",
        true,
    );
    let (events, scenario) = run(dir, &yaml).await;
    let tool = offered(&scenario)
        .into_iter()
        .find(|tool| tool.name == "custom_tool__shout")
        .unwrap();
    // `suffix` is preset and `agent_cwd` injected (the agent has a workspace): neither shows.
    assert_eq!(
        tool.parameters,
        serde_json::json!({"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}})
    );
    assert_eq!(results(&events)[0].2, "HEY!! cwd=True");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_async_generator_streams_blocks_into_the_result_and_context_params_are_injected() {
    let (dir, file) = project();
    let yaml = config(
        &file,
        "      - {path: FILE, function: [countdown, who]}\n",
        "      - {name: custom_tool__countdown, arguments: {start: 3}}\n      - {name: custom_tool__who, arguments: {}}\n",
        false,
    );
    let (events, scenario) = run(dir, &yaml).await;
    let outputs: Vec<String> = results(&events)
        .into_iter()
        .map(|(_, _, output)| output)
        .collect();
    // Log blocks are streamed, not kept in the result.
    assert_eq!(outputs[0], "3 2 1 ");
    assert!(outputs[1].starts_with("hi a on "), "{outputs:?}");
    let who = offered(&scenario)
        .into_iter()
        .find(|tool| tool.name == "custom_tool__who")
        .unwrap();
    assert_eq!(
        who.parameters["properties"],
        serde_json::json!({"greeting": {"type": "string", "default": "hi"}})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exception_is_a_tool_error_naming_its_last_frame() {
    let (dir, file) = project();
    let yaml = config(
        &file,
        "      - {path: FILE, function: explode}\n",
        "      - {name: custom_tool__explode, arguments: {reason: nope}}\n",
        false,
    );
    let (events, _scenario) = run(dir, &yaml).await;
    let (_, ok, output) = results(&events).remove(0);
    assert!(!ok);
    assert!(output.contains("ValueError: bad input: nope"), "{output}");
    assert!(output.contains("tools.py:44 in explode"), "{output}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_killed_mid_call_fails_that_call_and_the_next_call_works() {
    let (dir, file) = project();
    let yaml = config(
        &file,
        "      - {path: FILE, function: crash}\n",
        "      - {name: custom_tool__crash, arguments: {die: true}}\n      - {name: custom_tool__crash, arguments: {}}\n",
        true,
    );
    let (events, _scenario) = run(dir, &yaml).await;
    let results = results(&events);
    assert!(!results[0].1);
    assert!(
        results[0].2.contains("the Python tool worker stopped"),
        "{results:?}"
    );
    assert_eq!((results[1].1, results[1].2.as_str()), (true, "still alive"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_past_its_timeout_is_stopped_and_the_next_call_works() {
    let (dir, file) = project();
    let yaml = config(
        &file,
        "      - {path: FILE, function: slow, timeout: 1}\n",
        "      - {name: custom_tool__slow, arguments: {}}\n      - {name: custom_tool__slow, arguments: {seconds: 0}}\n",
        false,
    );
    let started = std::time::Instant::now();
    let (events, _scenario) = run(dir, &yaml).await;
    let results = results(&events);
    assert!(!results[0].1);
    assert!(results[0].2.contains("timed out after 1 s"), "{results:?}");
    assert_eq!(results[1].2, "woke up");
    assert!(started.elapsed().as_secs() < 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_that_does_not_import_stops_the_run_from_starting() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.py");
    std::fs::write(
        &file,
        "import no_such_module_massgen_test\n\ndef f():\n    pass\n",
    )
    .unwrap();
    let yaml = config(
        &file,
        "      - {path: FILE, function: f}\n",
        "      []\n",
        false,
    );
    let mut scenario = Scenario::start_with_tools(dir, &yaml);
    let mut events = Vec::new();
    while let Some(event) = scenario.handle.events.recv().await {
        events.push(event);
    }
    let error = events
        .iter()
        .find_map(|event| match &event.msg {
            EventMsg::AgentError { message } => Some(message.clone()),
            _ => None,
        })
        .expect("an AgentError");
    assert!(
        error.contains("custom tool `custom_tool__f` could not be loaded"),
        "{error}"
    );
    assert!(
        error.contains("No module named 'no_such_module_massgen_test'"),
        "{error}"
    );
    assert!(
        error.contains("-m pip install no_such_module_massgen_test"),
        "{error}"
    );
    assert!(matches!(events.last().unwrap().msg, EventMsg::RunFinished));
    assert!(
        !events
            .iter()
            .any(|event| matches!(event.msg, EventMsg::TurnStarted { .. }))
    );
}

/// MassGen's own `ToolManager._extract_tool_schema` (pydantic and docstring_parser, from
/// the unpacked wheel) gives the schemas the worker offers without them.
#[test]
fn the_worker_offers_the_schemas_massgens_tool_manager_builds() {
    let Some(python) = crate::harness::venv_program("python") else {
        return;
    };
    let Some(wheel) = crate::harness::peer("massgen-wheel/massgen/tool/_manager.py") else {
        return;
    };
    let wheel_root = wheel.ancestors().nth(3).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = root.join("tests/fixtures/custom_tools");
    let targets = [
        format!(
            "{}:two_num_tool",
            wheel_root
                .join("massgen/tool/_basic/_two_num_tool.py")
                .display()
        ),
        format!("{}:search_files", fixtures.join("google_rich.py").display()),
        format!("{}:no_docstring", fixtures.join("google_rich.py").display()),
        format!("{}:convert", fixtures.join("rest_numpy.py").display()),
        format!("{}:summarize", fixtures.join("rest_numpy.py").display()),
    ];
    let output = std::process::Command::new(python)
        .arg(root.join("tests/peers/custom_tool_oracle.py"))
        .arg(wheel_root)
        .arg(root.join("assets/python"))
        .args(&targets)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(3) {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "pydantic and docstring_parser must be in tests/peers/.venv: {stdout}"
        );
        eprintln!("skipping: {stdout}");
        return;
    }
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert_eq!(stdout.matches("same: ").count(), targets.len(), "{stdout}");
}

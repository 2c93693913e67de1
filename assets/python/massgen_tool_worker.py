"""massgen's Python tool worker: runs the Python functions a config names in
`custom_tools`, for one agent, as MassGen would run them.

Modes (argv[1]):
  probe            print where this interpreter finds modules (runs no tool code)
  inspect REQUEST  check tools without running them: files, functions, preset_args,
                   imports (REQUEST is JSON: {"tools": [...]}); print {"problems": [...]}
  serve            JSON lines on stdin/stdout: {"op": "load"} then {"op": "call"}s

The protocol keeps the real standard output for itself; a tool's prints go to stderr.
"""

import asyncio
import dataclasses
import importlib
import inspect
import json
import os
import pathlib
import sys
import traceback
import types
import typing

from massgen_tool_inspect import OWN_SUBMODULES, inspect_tools, resolve_file
from massgen_tool_schema import function_schema, signature_of

# --------------------------------------------------------------------------------------
# The shim: MassGen's documented tool interface, for interpreters without massgen

def install_shim():
    """Makes `massgen.tool`, `massgen.tool._result` and `massgen.tool._decorators`
    importable where the real ones are not, without replacing any real module."""
    def real(name):
        try:
            importlib.import_module(name)
            return True
        except Exception:  # a broken install counts as none
            return False

    if real("massgen.tool._result") and real("massgen.tool._decorators"):
        return
    from datetime import datetime

    result = types.ModuleType("massgen.tool._result")

    @dataclasses.dataclass
    class ContentBlock:
        block_type: str
        data: str

    @dataclasses.dataclass
    class TextContent(ContentBlock):
        def __init__(self, data):
            super().__init__(block_type="text", data=data)

    @dataclasses.dataclass
    class ImageContent(ContentBlock):
        def __init__(self, data):
            super().__init__(block_type="image", data=data)

    @dataclasses.dataclass
    class AudioContent(ContentBlock):
        def __init__(self, data):
            super().__init__(block_type="audio", data=data)

    @dataclasses.dataclass
    class ExecutionResult:
        output_blocks: list
        meta_info: typing.Optional[dict] = None
        is_streaming: bool = False
        is_final: bool = True
        is_log: bool = False
        was_interrupted: bool = False
        result_id: str = dataclasses.field(
            default_factory=lambda: datetime.now().strftime("%Y%m%d_%H%M%S_%f"))

    for cls in (ContentBlock, TextContent, ImageContent, AudioContent, ExecutionResult):
        cls.__module__ = result.__name__
        setattr(result, cls.__name__, cls)

    decorators = types.ModuleType("massgen.tool._decorators")

    def context_params(*param_names):
        def decorator(func):
            func.__context_params__ = set(param_names)
            return func
        return decorator

    decorators.context_params = context_params

    package = sys.modules.get("massgen") if real("massgen") else None
    if package is None:
        package = types.ModuleType("massgen")
        package.__path__ = []
        sys.modules["massgen"] = package
    tool = sys.modules.get("massgen.tool") if real("massgen.tool") else None
    if tool is None:
        tool = types.ModuleType("massgen.tool")
        tool.__path__ = []
        sys.modules["massgen.tool"] = tool
        package.tool = tool
    for name in ("ExecutionResult", "TextContent", "ImageContent", "AudioContent"):
        if not hasattr(tool, name):
            setattr(tool, name, getattr(result, name))
    if not hasattr(tool, "context_params"):
        tool.context_params = context_params
    for short, module in (("_result", result), ("_decorators", decorators)):
        if not real(f"massgen.tool.{short}"):
            sys.modules[module.__name__] = module
            setattr(tool, short, module)


# --------------------------------------------------------------------------------------
# serve: load the tools, then run calls one at a time

def last_frame(error):
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return None
    frame = frames[-1]
    return f"{frame.filename}:{frame.lineno} in {frame.name}"


def describe(error):
    return f"{type(error).__name__}: {error}"


def load_module(path):
    name = path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    if str(path.parent) not in sys.path:
        sys.path.append(str(path.parent))
    spec.loader.exec_module(module)
    return module


def load_own_function(function):
    for sub in OWN_SUBMODULES:
        try:
            module = importlib.import_module(f"massgen.tool.{sub}")
        except ImportError:
            continue
        if hasattr(module, function):
            return getattr(module, function)
    module = importlib.import_module("massgen.tool")
    if hasattr(module, function):
        return getattr(module, function)
    raise LookupError(f"MassGen's own tools have no function `{function}`")


class Worker:
    def __init__(self, out):
        self.out = out
        self.tools = {}
        self.context = {}
        self.loop = asyncio.new_event_loop()

    def send(self, message):
        self.out.write(json.dumps(message, ensure_ascii=False, default=str) + "\n")
        self.out.flush()

    def load(self, request):
        self.context = request.get("context", {})
        install_shim()
        modules = {}
        results = []
        for tool in request.get("tools", []):
            offered = tool["offered"]
            try:
                if tool.get("path") is None:
                    func = load_own_function(tool["function"])
                else:
                    found = resolve_file(tool["path"])
                    if found is None:
                        raise FileNotFoundError(
                            f"{tool.get('written_path') or tool['path']} does not exist")
                    if found not in modules:
                        modules[found] = load_module(found)
                    func = getattr(modules[found], tool["function"], None)
                    if func is None:
                        raise LookupError(f"{found} defines no `{tool['function']}`")
                if not callable(func):
                    raise TypeError(f"`{tool['function']}` is not a function")
                results.append(self.register(tool, func))
            except BaseException as error:  # a tool's import may raise anything, even SystemExit
                results.append({"offered": offered, "ok": False, "error": describe(error),
                                "where": last_frame(error)})
        self.send({"op": "loaded", "tools": results})

    def register(self, tool, func):
        names = set(signature_of(func).parameters)
        accepts_any = any(param.kind == inspect.Parameter.VAR_KEYWORD
                          for param in signature_of(func).parameters.values())
        preset = dict(tool.get("preset_args") or {})
        if self.context.get("agent_cwd") and "agent_cwd" in names:
            preset["agent_cwd"] = self.context["agent_cwd"]
        context = set(getattr(func, "__context_params__", set()))
        unknown = sorted(set(preset) - names)
        if unknown and not accepts_any:
            raise TypeError(f"preset_args names {unknown}, which `{func.__name__}` does not take")
        schema = function_schema(func, tool["offered"], tool.get("description"),
                                 set(preset) | context)
        self.tools[tool["offered"]] = (func, preset, context, names, accepts_any)
        return {"offered": tool["offered"], "ok": True, "schema": schema,
                "parameters": sorted(names), "context_params": sorted(context)}

    def context_values(self, wanted):
        values = dict(self.context)
        values["agent_cwd"] = values.get("agent_cwd") or os.getcwd()
        values.setdefault("messages", [])
        values.setdefault("prompt", [])
        context_file = pathlib.Path(os.getcwd()) / "CONTEXT.md"
        if "task_context" in wanted and context_file.is_file():
            values["task_context"] = context_file.read_text(encoding="utf-8", errors="replace")
        return {key: value for key, value in values.items() if key in wanted}

    def call(self, request):
        call_id = request.get("id")
        try:
            output = self.loop.run_until_complete(self.run(call_id, request))
            self.send({"id": call_id, "ok": True, "output": output or "Tool executed successfully"})
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt):
                raise
            self.send({"id": call_id, "ok": False, "error": describe(error),
                       "where": last_frame(error)})

    async def run(self, call_id, request):
        entry = self.tools.get(request.get("name"))
        if entry is None:
            raise LookupError(f"no tool named {request.get('name')!r} was loaded")
        func, preset, context, names, accepts_any = entry
        arguments = request.get("arguments") or {}
        if not isinstance(arguments, dict):
            raise TypeError("the arguments must be a JSON object")
        unknown = sorted(set(arguments) - names)
        if unknown and not accepts_any:
            raise TypeError(f"unexpected arguments {unknown}; `{func.__name__}` takes "
                            f"{sorted(names - set(preset) - context)}")
        kwargs = {**preset, **self.context_values(context), **arguments}
        result = func(**kwargs)
        if inspect.isawaitable(result):
            result = await result
        accumulated = []

        def take(item):
            if not hasattr(item, "output_blocks"):
                raise TypeError(f"the tool yielded {type(item).__name__}, not an ExecutionResult")
            is_log = bool(getattr(item, "is_log", False))
            for block in item.output_blocks or []:
                data = str(getattr(block, "data", "") or "")
                if data:
                    self.send({"id": call_id, "chunk": data, "log": is_log})
                    if not is_log:
                        accumulated.append(data)

        if inspect.isasyncgen(result):
            async for item in result:
                take(item)
        elif inspect.isgenerator(result):
            for item in result:
                take(item)
        elif hasattr(result, "output_blocks"):
            take(result)
        else:
            raise TypeError(f"Tool must return ExecutionResult or Generator, got {type(result)}")
        return "".join(accumulated)


def serve():
    # The protocol keeps the real stdin and stdout; a tool reading stdin gets nothing and
    # its prints (Python's or a C library's) go to stderr.
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdout = sys.stderr
    sys.stdin = open(os.devnull, encoding="utf-8")
    worker = Worker(out)
    for line in requests:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
        except ValueError:
            worker.send({"op": "error", "error": "the request is not JSON"})
            continue
        if request.get("op") == "load":
            worker.load(request)
        elif request.get("op") == "call":
            worker.call(request)
        else:
            worker.send({"op": "error", "error": f"unknown op {request.get('op')!r}"})


def probe():
    print(json.dumps({"executable": sys.executable, "prefix": sys.prefix,
                      "base_prefix": sys.base_prefix, "path": [p for p in sys.path if p],
                      "version": sys.version.split()[0]}))


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "probe":
        probe()
    elif mode == "inspect":
        print(json.dumps(inspect_tools(json.loads(sys.argv[2]))))
    elif mode == "serve":
        serve()
    else:
        print(f"usage: {sys.argv[0]} probe|inspect REQUEST|serve", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

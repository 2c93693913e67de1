"""Schema oracle for massgen's Python tool worker: MassGen's own
ToolManager._extract_tool_schema (massgen/tool/_manager.py from the unpacked wheel, with
pydantic and docstring_parser) against the schema the worker offers, for each FILE:FUNCTION.

usage: custom_tool_oracle.py WHEEL_DIR WORKER_DIR FILE:FUNCTION...
Exit 0 when every schema is equal, 1 on a difference, 3 when pydantic or docstring_parser
is missing.
"""

import importlib.util
import io
import json
import logging
import pathlib
import sys
import types


def main():
    wheel, worker_dir, targets = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    try:
        import docstring_parser  # noqa: F401
        import pydantic  # noqa: F401
    except ImportError as error:
        print(f"missing: {error}")
        return 3
    # MassGen's package without running its __init__ files; its logging stubbed.
    for name, path in (("massgen", wheel / "massgen"), ("massgen.tool", wheel / "massgen" / "tool")):
        module = types.ModuleType(name)
        module.__path__ = [str(path)]
        sys.modules[name] = module
    logger_config = types.ModuleType("massgen.logger_config")
    logger_config.logger = logging.getLogger("massgen")
    sys.modules["massgen.logger_config"] = logger_config
    structured = types.ModuleType("massgen.structured_logging")
    structured.get_tracer = lambda: None
    structured.log_tool_execution = lambda **kwargs: None
    sys.modules["massgen.structured_logging"] = structured
    from massgen.tool._manager import ToolManager

    sys.path.insert(0, worker_dir)
    from massgen_tool_worker import Worker

    out = io.StringIO()
    worker = Worker(out)
    tools = []
    for target in targets:
        path, function = target.rsplit(":", 1)
        tools.append({"offered": f"custom_tool__{function}", "function": function, "path": path})
    worker.load({"op": "load", "tools": tools, "context": {}})
    loaded = json.loads(out.getvalue().splitlines()[0])["tools"]
    failures = 0
    for tool, ours in zip(tools, loaded):
        spec = importlib.util.spec_from_file_location(f"oracle_{tool['function']}", tool["path"])
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        func = getattr(module, tool["function"])
        theirs = ToolManager._extract_tool_schema(func, True, False, False)
        theirs["function"]["name"] = tool["offered"]
        if not ours.get("ok") or ours["schema"] != theirs:
            failures += 1
            print(f"DIFFERENT: {tool['path']}:{tool['function']}")
            print(f"  massgen: {json.dumps(theirs, sort_keys=True)}")
            print(f"  ours:    {json.dumps(ours.get('schema') or ours, sort_keys=True)}")
        else:
            print(f"same: {tool['function']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

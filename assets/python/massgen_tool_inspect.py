"""massgen's Python tool worker, part 1: where tool files are found, and the checks of
`massgen --validate` that read tools without running them (files, top-level functions,
`preset_args`, imports)."""

import ast
import importlib.util
import pathlib
import sys

# --------------------------------------------------------------------------------------
# Where tools are found

OWN_SUBMODULES = ["_basic", "_code_executors", "_file_handlers", "_multimedia_processors",
                  "workflow_toolkits"]
SHIMMED = {"massgen", "massgen.tool", "massgen.tool._result", "massgen.tool._decorators"}


def massgen_root():
    """The directory holding the installed `massgen` package, found without importing it."""
    try:
        spec = importlib.util.find_spec("massgen")
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    locations = list(spec.submodule_search_locations or [])
    if locations:
        return pathlib.Path(locations[0]).parent
    if spec.origin:
        return pathlib.Path(spec.origin).parent.parent
    return None


def resolve_file(path):
    """A tool's file: as given, else inside the installed massgen package for `massgen/...`
    paths and paths relative to its tool folder (as MassGen looks them up)."""
    candidate = pathlib.Path(path)
    if candidate.exists():
        return candidate.resolve()
    root = massgen_root()
    if root is not None:
        if path.startswith("massgen/") and (root / path).exists():
            return (root / path).resolve()
        if (root / "massgen" / "tool" / path).exists():
            return (root / "massgen" / "tool" / path).resolve()
    return None


# --------------------------------------------------------------------------------------
# inspect: checks that run no tool code

def inspect_tools(request):
    problems = []
    for tool in request.get("tools", []):
        problems.extend(inspect_tool(tool))
    return {"problems": problems}


def problem(tool, level, message, help_text):
    return {"index": tool.get("index"), "tool": tool["offered"], "level": level,
            "message": message, "help": help_text}


def inspect_tool(tool):
    name = tool["offered"]
    if tool.get("path") is None:
        if massgen_root() is None:
            return [problem(tool, "error",
                            f"`{name}` is one of MassGen's own tools (the entry has no `path`), "
                            f"and the massgen package is not installed for {sys.executable}",
                            f"install it into that interpreter: {sys.executable} -m pip install "
                            "massgen (or set MASSGEN_PYTHON to one that has it), or give the "
                            "tool's `path`")]
        if not own_tool_exists(tool["function"]):
            return [problem(tool, "error",
                            f"`{name}`: MassGen's own tools have no function "
                            f"`{tool['function']}`",
                            "check the name, or give the `path` of the file that defines it")]
        return []
    written = tool.get("written_path") or tool["path"]
    found = resolve_file(tool["path"])
    if found is None:
        return [problem(tool, "error",
                        f"`{name}`: the file `{written}` does not exist",
                        "relative paths are looked up in the current directory, then beside "
                        "the config file; `massgen/...` paths also in the installed massgen "
                        "package")]
    try:
        tree = ast.parse(found.read_bytes(), filename=str(found))
    except SyntaxError as error:
        return [problem(tool, "error",
                        f"`{name}`: `{written}` is not valid Python: {error.msg} "
                        f"(line {error.lineno})",
                        "fix the file; `python3 -m py_compile FILE` shows the same error")]
    except OSError as error:
        return [problem(tool, "error", f"`{name}`: cannot read `{written}`: {error}",
                        "check the file's permissions")]
    found_problems = []
    functions = {node.name: node for node in tree.body
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    function = functions.get(tool["function"])
    if function is None:
        defined = ", ".join(sorted(functions)) or "none"
        found_problems.append(problem(
            tool, "error",
            f"`{name}`: `{written}` defines no function `{tool['function']}` at its top level "
            f"(functions there: {defined})",
            "check `function:`; the function must be defined with `def` at module level"))
    else:
        args = function.args
        names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        unknown = [key for key in tool.get("preset_args", []) if key not in names]
        if unknown and args.kwarg is None:
            found_problems.append(problem(
                tool, "error",
                f"`{name}`: `preset_args` names {', '.join(f'`{k}`' for k in unknown)}, which "
                f"`{tool['function']}` does not take (it takes: {', '.join(sorted(names)) or 'nothing'})",
                "preset only the function's own parameters"))
    for module in top_level_imports(tree):
        missing = missing_import(module, found.parent)
        if missing is not None:
            found_problems.append(problem(
                tool, "warning",
                f"`{name}` imports `{module}`, which {sys.executable} cannot find",
                f"{missing}; the run will stop at start until it is found"))
    return found_problems


def own_tool_exists(function):
    root = massgen_root()
    if root is None:
        return False
    folder = root / "massgen" / "tool"
    files = [folder / sub / "__init__.py" for sub in OWN_SUBMODULES]
    files.append(folder / "__init__.py")
    files.extend(path for path in folder.glob("*.py") if path.stem not in ("__init__", "_manager"))
    for path in files:
        try:
            tree = ast.parse(path.read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == function:
                return True
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if any((alias.asname or alias.name) == function for alias in node.names):
                    return True
    return False


def top_level_imports(tree):
    modules = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            modules.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.append(node.module)
    return modules


def missing_import(module, folder):
    """Why `module` cannot be imported, or None when it can (found, shimmed or beside the
    tool)."""
    top = module.split(".")[0]
    if top == "massgen":
        if module in SHIMMED or massgen_root() is not None:
            return None
        return (f"massgen's shim offers only {', '.join(sorted(SHIMMED))}; install the massgen "
                f"package: {sys.executable} -m pip install massgen")
    if (folder / f"{top}.py").exists() or (folder / top).is_dir():
        return None
    try:
        if importlib.util.find_spec(top) is not None:
            return None
    except (ImportError, ValueError):
        pass
    return (f"install it into the interpreter massgen uses: {sys.executable} -m pip install "
            f"{top} (or set MASSGEN_PYTHON to another interpreter)")

"""massgen's Python tool worker, part 2: a function's OpenAI schema as MassGen's
ToolManager builds it, without pydantic or docstring_parser: its own docstring parser
(Google, ReST, NumPy) and pydantic v2's JSON schema of each annotation."""

import collections.abc as abc
import enum
import inspect
import json
import pathlib
import re
import types
import typing

# --------------------------------------------------------------------------------------
# Docstrings: Google, ReST and NumPy, the style with the most entries winning (ReST on
# ties), as docstring_parser's AUTO style picks

PARAM_KEYS = {"param", "parameter", "arg", "argument", "attribute", "key", "keyword"}


class Parsed:
    def __init__(self):
        self.short = None
        self.long = None
        self.params = []  # (name, description)
        self.meta = 0


def split_description(parsed, chunk):
    parts = chunk.split("\n", 1)
    parsed.short = parts[0] or None
    if len(parts) > 1:
        parsed.long = (parts[1] or "").strip() or None


def parse_rest(text):
    parsed = Parsed()
    match = re.search("^:", text, flags=re.M)
    split_description(parsed, text[: match.start()] if match else text)
    if not match:
        return parsed
    rtypes, returns = set(), False
    for found in re.finditer(r"(^:.*?)(?=^:|\Z)", text[match.start():], flags=re.S | re.M):
        chunk = found.group(0)
        if not chunk:
            continue
        if ":" not in chunk.lstrip(":"):
            raise ValueError("malformed ReST field")
        args_chunk, desc = chunk.lstrip(":").split(":", 1)
        args = args_chunk.split()
        desc = desc.strip()
        if "\n" in desc:
            first, rest = desc.split("\n", 1)
            desc = first + "\n" + inspect.cleandoc(rest)
        if len(args) == 2 and args[0] == "type":
            continue
        if len(args) in (1, 2) and args[0] == "rtype":
            rtypes.add(None if len(args) == 1 else args[1])
            continue
        if args and args[0] in PARAM_KEYS:
            if len(args) not in (2, 3):
                raise ValueError("malformed ReST parameter")
            parsed.params.append((args[-1], desc))
        returns = returns or bool(args and args[0] in ("return", "returns", "yield", "yields"))
        parsed.meta += 1
    if not returns:
        parsed.meta += len(rtypes)
    return parsed


GOOGLE_TITLES = {"Arguments": "param", "Args": "param", "Parameters": "param", "Params": "param",
                 "Raises": "raises", "Exceptions": "raises", "Except": "raises",
                 "Attributes": "attribute", "Example": "examples", "Examples": "examples",
                 "Returns": "returns", "Yields": "yields"}
GOOGLE_SINGULAR = {"Example", "Examples"}
GOOGLE_EITHER = {"Returns", "Yields"}
GOOGLE_TITLES_RE = re.compile(
    "^(" + "|".join(f"({title})" for title in GOOGLE_TITLES) + "):[ \t\r\f\v]*$", flags=re.M)
GOOGLE_TYPED_ARG = re.compile(r"\s*(.+?)\s*\(\s*(.*[^\s]+)\s*\)")
GOOGLE_MULTIPLE = re.compile(r"(\s*[^:\s]+:)|([^:]*\]:.*)")


def parse_google(text):
    parsed = Parsed()
    match = GOOGLE_TITLES_RE.search(text)
    split_description(parsed, text[: match.start()] if match else text)
    if not match:
        return parsed
    meta_chunk = text[match.start():]
    matches = list(GOOGLE_TITLES_RE.finditer(meta_chunk))
    chunks = {}
    for index, found in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(meta_chunk)
        details = meta_chunk[found.end():end]
        unknown = re.search(r"\n\S", details)
        if unknown is not None:
            details = details[: unknown.start()]
        chunks[found.group(1)] = details.strip("\n")
    for title, chunk in chunks.items():
        indent = re.search(r"^\s*", chunk).group()
        key = GOOGLE_TITLES[title]
        if title in GOOGLE_SINGULAR or title in GOOGLE_EITHER:
            part = inspect.cleandoc(chunk)
            if title in GOOGLE_EITHER and GOOGLE_MULTIPLE.match(part):
                google_entry(parsed, key, part)
            else:
                parsed.meta += 1
            continue
        starts = list(re.finditer("^" + indent + r"(?=\S)", chunk, flags=re.M))
        if not starts:
            raise ValueError("empty Google section")
        for index, start in enumerate(starts):
            end = starts[index + 1].start() if index + 1 < len(starts) else len(chunk)
            google_entry(parsed, key, chunk[start.end():end].strip("\n"))
    return parsed


def google_entry(parsed, key, text):
    if ":" not in text:
        raise ValueError("Google entry without a colon")
    before, desc = text.split(":", 1)
    if before and "\n" in before:
        first, rest = before.split("\n", 1)
        before = first + inspect.cleandoc(rest)
    if desc:
        desc = desc[1:] if desc[0] == " " else desc
        if "\n" in desc:
            first, rest = desc.split("\n", 1)
            desc = first + "\n" + inspect.cleandoc(rest)
        desc = desc.strip("\n")
    if key in PARAM_KEYS:
        typed = GOOGLE_TYPED_ARG.match(before)
        parsed.params.append((typed.group(1) if typed else before, desc))
    parsed.meta += 1


NUMPY_TITLES = {"Parameters": "param", "Params": "param", "Arguments": "param", "Args": "param",
                "Other Parameters": "param", "Other Params": "param",
                "Other Arguments": "param", "Other Args": "param", "Receives": "param",
                "Receive": "param", "Raises": "kv", "Raise": "kv", "Warns": "kv", "Warn": "kv",
                "Attributes": "param", "Attribute": "param", "Returns": "kv", "Return": "kv",
                "Yields": "kv", "Yield": "kv", "Examples": "examples", "Example": "examples",
                "Warnings": "one", "Warning": "one", "See Also": "one", "Related": "one",
                "Notes": "one", "Note": "one", "References": "one", "Reference": "one"}
NUMPY_TITLES_RE = re.compile(
    "|".join(rf"^({title})\s*?\n{'-' * len(title)}\s*$" for title in NUMPY_TITLES)
    + r"|^\.\.\s*(deprecated)\s*::", flags=re.M)


def parse_numpy(text):
    parsed = Parsed()
    match = NUMPY_TITLES_RE.search(text)
    split_description(parsed, text[: match.start()] if match else text)
    if not match:
        return parsed
    meta_chunk = text[match.start():]
    matches = list(NUMPY_TITLES_RE.finditer(meta_chunk))
    for index, found in enumerate(matches):
        title = next(group for group in found.groups() if group is not None)
        end = matches[index + 1].start() if index + 1 < len(matches) else None
        body = meta_chunk[found.end():end]
        kind = NUMPY_TITLES.get(title, "one")
        if kind in ("param", "kv"):
            keys = list(re.finditer(r"^[^\s].*$", body, flags=re.M))
            for position, key in enumerate(keys):
                stop = keys[position + 1].start() if position + 1 < len(keys) else None
                value = inspect.cleandoc(body[key.end():stop])
                if kind == "param":
                    name = re.match(r"^(?P<name>.*?)(?:\s*:\s*(?P<type>.*?))?$", key.group())
                    parsed.params.append((name.group("name"), value.strip() or None))
                parsed.meta += 1
        elif kind == "examples":
            lines = body.strip("\n")
            lines = inspect.cleandoc(lines).strip().splitlines() if lines.strip() else []
            while lines:
                while lines and lines[0].startswith(">>>"):
                    lines.pop(0)
                while lines and not lines[0].startswith(">>>"):
                    lines.pop(0)
                parsed.meta += 1
        else:
            parsed.meta += 1
    return parsed


def parse_docstring(doc):
    if not doc:
        return Parsed()
    text = inspect.cleandoc(doc)
    results = []
    for parser in (parse_rest, parse_google, parse_numpy):
        try:
            results.append(parser(text))
        except (ValueError, AttributeError):
            continue
    if not results:
        return Parsed()
    return sorted(results, key=lambda parsed: parsed.meta, reverse=True)[0]


# --------------------------------------------------------------------------------------
# JSON schemas from annotations, as pydantic v2 writes them (titles removed)

PATH_TYPES = (pathlib.PurePath,)


def literal_type(values):
    kinds = set()
    for value in values:
        if isinstance(value, bool):
            kinds.add("boolean")
        elif isinstance(value, int):
            kinds.add("integer")
        elif isinstance(value, float):
            kinds.add("number")
        elif isinstance(value, str):
            kinds.add("string")
        elif value is None:
            kinds.add("null")
        else:
            kinds.add("other")
    return kinds.pop() if len(kinds) == 1 and "other" not in kinds else None


def schema_of(annotation):
    if annotation is inspect.Parameter.empty or annotation is typing.Any or annotation is object:
        return {}
    if isinstance(annotation, str):
        return {}
    simple = {str: "string", int: "integer", float: "number", bool: "boolean"}
    if annotation in simple:
        return {"type": simple[annotation]}
    if annotation is bytes:
        return {"type": "string", "format": "binary"}
    if annotation is None or annotation is type(None):
        return {"type": "null"}
    if isinstance(annotation, type) and issubclass(annotation, PATH_TYPES):
        return {"type": "string", "format": "path"}
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return schema_of(args[0])
    if origin is typing.Union or (hasattr(types, "UnionType") and origin is types.UnionType):
        others = [arg for arg in args if arg is not type(None)]
        variants = [schema_of(arg) for arg in others]
        if len(others) < len(args):
            variants.append({"type": "null"})
        return {"anyOf": variants}
    if origin is typing.Literal:
        values = list(args)
        kind = literal_type(values)
        schema = {"const": values[0]} if len(values) == 1 else {"enum": values}
        if kind is not None:
            schema["type"] = kind
        return schema
    container = origin if origin is not None else annotation
    if container in (list, abc.Sequence, abc.MutableSequence, abc.Iterable):
        return {"items": schema_of(args[0]) if args else {}, "type": "array"}
    if container in (set, frozenset, abc.Set, abc.MutableSet):
        return {"items": schema_of(args[0]) if args else {}, "type": "array", "uniqueItems": True}
    if container is tuple:
        if not args:
            return {"items": {}, "type": "array"}
        if len(args) == 2 and args[1] is Ellipsis:
            return {"items": schema_of(args[0]), "type": "array"}
        return {"maxItems": len(args), "minItems": len(args),
                "prefixItems": [schema_of(arg) for arg in args], "type": "array"}
    if container in (dict, abc.Mapping, abc.MutableMapping):
        value = schema_of(args[1]) if len(args) == 2 else {}
        return {"additionalProperties": value if value else True, "type": "object"}
    return {}


def json_default(value):
    if isinstance(value, pathlib.PurePath):
        return str(value)
    if isinstance(value, enum.Enum):
        return json_default(value.value)
    if isinstance(value, (tuple, set, frozenset)):
        return [json_default(item) for item in value]
    if isinstance(value, list):
        return [json_default(item) for item in value]
    if isinstance(value, dict):
        return {str(key): json_default(item) for key, item in value.items()}
    json.dumps(value)
    return value


def remove_titles(node):
    if isinstance(node, dict):
        node.pop("title", None)
        for value in node.values():
            remove_titles(value)
    elif isinstance(node, list):
        for item in node:
            remove_titles(item)


def signature_of(func):
    try:
        return inspect.signature(func, eval_str=True)
    except Exception:
        return inspect.signature(func)


def function_schema(func, offered, description, hidden):
    """The OpenAI function schema MassGen's ToolManager offers for `func`."""
    doc = parse_docstring(func.__doc__)
    param_docs = dict(doc.params)
    desc = "\n\n".join(part for part in (doc.short, doc.long) if part)
    context = getattr(func, "__context_params__", set())
    properties, required = {}, []
    for name, param in signature_of(func).parameters.items():
        if name in ("self", "cls") or name in context:
            continue
        if param.kind in (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL):
            continue
        schema = schema_of(param.annotation)
        if param_docs.get(name) is not None:
            schema["description"] = param_docs[name]
        if param.default is inspect.Parameter.empty:
            required.append(name)
        else:
            try:
                schema["default"] = json_default(param.default)
            except (TypeError, ValueError):
                pass
        properties[name] = schema
    parameters = {"properties": properties, "type": "object"}
    if required:
        parameters["required"] = required
    remove_titles(parameters)
    for name in hidden:
        parameters["properties"].pop(name, None)
        if name in parameters.get("required", []):
            parameters["required"].remove(name)
    if "required" in parameters and not parameters["required"]:
        parameters.pop("required")
    schema = {"type": "function", "function": {"name": offered, "parameters": parameters}}
    if description:
        schema["function"]["description"] = description
    elif desc:
        schema["function"]["description"] = desc
    return schema

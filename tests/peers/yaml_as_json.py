"""Prints, as one JSON object, what PyYAML's safe_load (MassGen's loader) makes of every
YAML file under the folder given: {relative path: tree}, or {"__error__": message} where
it refuses the file. Keys become strings, dates ISO text and infinities and NaN the text
Python prints for them ("inf", "-inf", "NaN"), as JSON needs."""

import datetime
import json
import pathlib
import sys

import yaml


def plain(value):
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return str(value).replace("nan", "NaN")
    return value


root = pathlib.Path(sys.argv[1])
trees = {}
for path in sorted(root.rglob("*")):
    if path.suffix not in (".yaml", ".yml") or not path.is_file():
        continue
    try:
        trees[str(path.relative_to(root))] = plain(yaml.safe_load(path.read_text("utf-8")))
    except yaml.YAMLError as error:
        trees[str(path.relative_to(root))] = {"__error__": str(error)}
json.dump(trees, sys.stdout)

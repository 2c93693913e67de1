"""Generates config-like YAML documents from a seed and prints, as one JSON list, each
document with the tree PyYAML's safe_load (MassGen's loader) makes of it, or the error it
gives: the samples src/config/yaml_pyyaml_tests.rs loads with massgen's loader to compare.

usage: yaml_samples.py <seed> <count>

Keys are names, as every key MassGen reads is: PyYAML would type a key such as `on` or `1`
like a value, which no config relies on.
"""

import datetime
import json
import random
import sys

import yaml

def plain(v):
    if isinstance(v, dict): return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, list): return [plain(x) for x in v]
    if isinstance(v, (datetime.date, datetime.datetime)): return v.isoformat()
    if isinstance(v, float) and v != v: return "NaN"
    if isinstance(v, float) and v in (float('inf'), float('-inf')): return str(v)
    return v

SCALARS = ["!!str 17", "!!int '42'", "!!float 1", "!!bool yes", "Zürich ✓", "日本",
  "plain\n    continued on the next line", "\"tab\\there\"", "paris", "gpt-4o", "Hello world", "yes", "no", "on", "off", "Yes", "NO", "true", "False", "TRUE",
  "null", "~", "Null", "NULL", "", "0", "17", "-3", "+5", "017", "0o17", "0x1F", "0b101", "1_000", "1:30", "-1:30:05",
  "3.14", "1e3", "1.5e3", "-.5", ".inf", "-.Inf", "1.", "1_0.5", "2024-01-01", "a: b", "#notcomment", "x #c",
  "'single ''quoted'''", '"double \\"q\\" \\n \\t \\u00e9"', "'multi\n    line'", '"esc\\x41"', "http://x.y/z?a=1",
  "@examples/basic", "${OPENAI_API_KEY}", "- dash", "[not, a, list]", "{x}", "a,b", "it's", "100%", "=", "<<"]

def scalar(rng):
    s = rng.choice(SCALARS)
    if s in ("a: b", "#notcomment", "- dash", "[not, a, list]", "{x}", "=", "<<", "@examples/basic", "%"):
        return '"' + s + '"'
    return s

def key(rng):
    return rng.choice(["id", "type", "model", "name", "base_url", "enable_web_search", "timeout", "args", "k1", "k2", "with space", "'quoted key'", '"dq"', "a.b", "x-y"])

def block(rng, ind, depth):
    lines = []
    n = rng.randint(1, 4)
    used = set()
    for _ in range(n):
        k = key(rng)
        if k in used: continue
        used.add(k)
        r = rng.random()
        pad = " " * ind
        if depth < 3 and r < 0.25:
            lines.append(f"{pad}{k}:")
            lines += block(rng, ind + rng.choice([2, 4]), depth + 1)
        elif depth < 3 and r < 0.4:
            lines.append(f"{pad}{k}:")
            sub = ind + rng.choice([0, 2])
            for _ in range(rng.randint(1, 3)):
                if rng.random() < 0.5:
                    lines.append(" " * sub + "- " + scalar(rng))
                else:
                    inner = block(rng, sub + 2, depth + 1)
                    inner[0] = " " * sub + "- " + inner[0].lstrip()
                    lines += inner
        elif r < 0.55:
            items = [scalar(rng) for _ in range(rng.randint(0, 4))]
            items = [i for i in items if "\n" not in i and i not in ("", )]
            if rng.random() < 0.5:
                lines.append(f"{pad}{k}: [{', '.join(items)}]")
            else:
                lines.append(f"{pad}{k}: [")
                for it in items:
                    lines.append(" " * (ind + rng.choice([0, 1, 2, 4, 6])) + it + ",")
                lines.append(" " * (ind + rng.choice([0, 2])) + "]")
        elif r < 0.65:
            items = [f"{key(rng)}: {scalar(rng)}" for _ in range(rng.randint(0, 3))]
            items = [i for i in items if "\n" not in i]
            lines.append(f"{pad}{k}: {{{', '.join(items)}}}")
        elif r < 0.7 and depth < 2:
            anchor = f"a{rng.randint(0, 99)}"
            lines.append(f"{pad}{k}: &{anchor}")
            lines += block(rng, ind + 2, depth + 1)
            k2 = key(rng)
            if k2 not in used:
                used.add(k2)
                if rng.random() < 0.5:
                    lines.append(f"{pad}{k2}: *{anchor}")
                else:
                    lines.append(f"{pad}{k2}:")
                    lines.append(f"{pad}  <<: *{anchor}")
                    lines.append(f"{pad}  extra: {scalar(rng)}")
        elif r < 0.72:
            lines.append(f"{pad}{k}:")
        elif r < 0.75:
            ind2 = ind + rng.choice([2, 4])
            lines.append(f"{pad}{k}: {rng.choice(['|', '|-', '|+', '>', '>-', '>+'])}")
            for _ in range(rng.randint(1, 3)):
                lines.append(" " * ind2 + rng.choice(["line one", "  indented", "", "last: x", "# not a comment"]))
        else:
            v = scalar(rng)
            if "\n" in v:
                v = v.replace("\n", "\n" + pad)
            c = rng.choice(["", "", " # comment", "   #c"])
            lines.append(f"{pad}{k}: {v}{c}")
        if rng.random() < 0.1:
            lines.append(pad + "# full-line comment")
    return lines

seed, count = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
out = []
for i in range(count):
    text = "\n".join(block(rng, 0, 0)) + rng.choice(["\n", "", "\n\n", "\n  "])
    if rng.random() < 0.1:
        text = text.replace("\n", "\r\n")
    try:
        tree = plain(yaml.safe_load(text))
        out.append({"text": text, "tree": tree})
    except yaml.YAMLError as e:
        out.append({"text": text, "error": str(e).splitlines()[0]})
json.dump(out, sys.stdout)

#!/usr/bin/env python3
"""Prints the module map of ARCHITECTURE.md from the first sentence of each module's `//!`
lines: every top-level module of `src/` and every part one level below it.

Run from the repository root: `python3 scripts/module_map.py --write` puts it between the map
markers of ARCHITECTURE.md; `--check` exits 1 when they differ; with neither it prints the map.
"""

import os
import re
import sys

SKIP = ("mod", "snapshots")


def first_sentence(path):
    lines = []
    try:
        with open(path, encoding="utf-8") as source:
            for line in source:
                if not line.startswith("//!"):
                    break
                lines.append(line[3:].strip())
    except FileNotFoundError:
        return ""
    text = " ".join(line for line in lines if line)
    found = re.search(r"^(.*?[a-z0-9)`'\"][.])(\s|$)", text)
    sentence = found.group(1) if found else text
    if len(sentence) > 170:
        sentence = sentence[:167].rsplit(" ", 1)[0] + "…"
    return sentence


def is_test(name):
    return "tests" in name or name.startswith("test_") or name in SKIP


def parts(directory):
    for entry in sorted(os.listdir(directory)):
        name = entry[:-3] if entry.endswith(".rs") else entry
        path = os.path.join(directory, entry)
        if is_test(name) or not (entry.endswith(".rs") or os.path.isdir(path)):
            continue
        if os.path.isdir(path):
            if os.path.exists(path + ".rs"):
                continue
            yield name + "/", first_sentence(os.path.join(path, "mod.rs"))
        elif os.path.isdir(os.path.join(directory, name)):
            yield name + "/", first_sentence(path)
        else:
            yield name, first_sentence(path)


def module_map(src):
    out = []
    tops = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    for top in tops:
        out.append(f"### `{top}` — {first_sentence(os.path.join(src, top, 'mod.rs'))}\n")
        for name, sentence in parts(os.path.join(src, top)):
            out.append(f"- `{name}` — {sentence}")
        out.append("")
    out.append("### Leaf helpers at the top of `src/`\n")
    for entry in sorted(os.listdir(src)):
        if entry.endswith(".rs") and entry not in ("lib.rs", "main.rs"):
            out.append(f"- `{entry[:-3]}` — {first_sentence(os.path.join(src, entry))}")
    return "\n".join(out) + "\n"


def main():
    generated = module_map("src")
    if "--check" not in sys.argv and "--write" not in sys.argv:
        sys.stdout.write(generated)
        return 0
    with open("ARCHITECTURE.md", encoding="utf-8") as doc:
        text = doc.read()
    start = text.index("<!-- module map: begin -->\n") + len("<!-- module map: begin -->\n")
    end = text.index("<!-- module map: end -->")
    if "--write" in sys.argv:
        with open("ARCHITECTURE.md", "w", encoding="utf-8") as doc:
            doc.write(text[:start] + generated + text[end:])
        return 0
    if text[start:end].strip() != generated.strip():
        print("ARCHITECTURE.md's module map is out of date: python3 scripts/module_map.py --write")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

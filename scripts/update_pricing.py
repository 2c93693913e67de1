#!/usr/bin/env python3
"""Regenerates assets/pricing.json from LiteLLM's model price list (stdlib only, Python 3.11+).

LiteLLM ships the list inside its PyPI wheel as
`litellm/model_prices_and_context_window_backup.json`. Get the wheel and run:

    pip download litellm --no-deps -d /tmp/litellm
    python3 scripts/update_pricing.py /tmp/litellm/litellm-*.whl --retrieved YYYY-MM-DD

SOURCE may be the wheel (a zip; the LiteLLM version is read from its metadata) or the JSON
file itself (then pass --litellm-version). Only chat/responses models of the providers
massgen serves are kept. Rates are stored in USD per million tokens, exactly converted from
LiteLLM's per-token numbers (decimal arithmetic, no float noise). The output is sorted by
(provider, model), one model per line, so regenerating it gives a readable diff.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
import zipfile
from decimal import Decimal
from pathlib import Path
from typing import Any

PRICE_FILE = "litellm/model_prices_and_context_window_backup.json"
MODES = {"chat", "responses"}

# LiteLLM provider -> the prefix its keys carry (stripped so `model` is the name the
# provider's own API expects). Order is irrelevant; output is sorted.
PROVIDERS: dict[str, str] = {
    "openai": "openai/",
    "anthropic": "anthropic/",
    "gemini": "gemini/",
    "vertex_ai-language-models": "vertex_ai/",  # only names the `gemini` provider lacks
    "xai": "xai/",
    "cerebras": "cerebras/",
    "together_ai": "together_ai/",
    "fireworks_ai": "fireworks_ai/",
    "groq": "groq/",
    "openrouter": "openrouter/",
    "moonshot": "moonshot/",
    "nebius": "nebius/",
    "dashscope": "dashscope/",
    "zai": "zai/",
    "deepseek": "deepseek/",
}
# Kept only for names missing from the first provider of the pair.
SECONDARY = {"vertex_ai-language-models": "gemini"}
# Keys that are price buckets, not models (together_ai's per-size tiers).
NOT_MODELS = re.compile(r"^together-ai-")

UNITS = {
    "provider": "LiteLLM provider id (litellm_provider)",
    "model": "model name as the provider's API expects it (LiteLLM prefix removed)",
    "in": "USD per 1M uncached input tokens",
    "out": "USD per 1M output tokens (reasoning included unless `reasoning` is set)",
    "cache_read": "USD per 1M input tokens read from the prompt cache",
    "cache_write": "USD per 1M input tokens written to the prompt cache (5-minute TTL)",
    "reasoning": "USD per 1M reasoning tokens, only when it differs from `out`",
    "context": "max input tokens (context window)",
}


def load(source: Path, version: str | None) -> tuple[dict[str, Any], str]:
    """Returns the price list and the LiteLLM version it came from."""
    if zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as wheel:
            data = json.loads(wheel.read(PRICE_FILE))
            if version is None:
                version = wheel_version(wheel)
    else:
        data = json.loads(source.read_text(encoding="utf-8"))
    if version is None:
        sys.exit("error: pass --litellm-version when SOURCE is a bare JSON file")
    return data, version


def wheel_version(wheel: zipfile.ZipFile) -> str:
    for name in wheel.namelist():
        if name.endswith(".dist-info/METADATA"):
            for line in wheel.read(name).decode("utf-8").splitlines():
                if line.startswith("Version:"):
                    return line.split(":", 1)[1].strip()
    sys.exit("error: no Version in the wheel's METADATA; pass --litellm-version")


def per_mtok(value: Any) -> Decimal | None:
    """USD per token (LiteLLM) -> USD per million tokens, exact."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        rate = Decimal(repr(value) if isinstance(value, float) else str(value))
    except ArithmeticError:
        return None
    if not rate.is_finite() or rate < 0:
        return None
    return (rate * 1_000_000).normalize()


def number(value: Decimal) -> str:
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def base_rates(entry: dict[str, Any]) -> dict[str, Any]:
    """The flat rates, or the first tier of a `tiered_pricing` list (dashscope)."""
    if "input_cost_per_token" in entry or "output_cost_per_token" in entry:
        return entry
    tiers = entry.get("tiered_pricing")
    if isinstance(tiers, list):
        for tier in tiers:
            rng = tier.get("range") if isinstance(tier, dict) else None
            if isinstance(rng, list) and rng and rng[0] == 0:
                return {**entry, **tier}
    return entry


def row(provider: str, model: str, entry: dict[str, Any]) -> dict[str, Any] | None:
    rates = base_rates(entry)
    inp = per_mtok(rates.get("input_cost_per_token"))
    out = per_mtok(rates.get("output_cost_per_token"))
    if inp is None or out is None:
        return None
    cache_read = per_mtok(rates.get("cache_read_input_token_cost"))
    if cache_read is None:
        cache_read = per_mtok(rates.get("input_cost_per_token_cache_hit"))
    cache_write = per_mtok(rates.get("cache_creation_input_token_cost"))
    reasoning = per_mtok(rates.get("output_cost_per_reasoning_token"))
    if reasoning == out:
        reasoning = None
    context = entry.get("max_input_tokens")
    if isinstance(context, bool) or not isinstance(context, int) or context <= 0:
        context = None
    fields = {
        "in": inp,
        "out": out,
        "cache_read": cache_read,
        "cache_write": cache_write,
        "reasoning": reasoning,
        "context": context,
    }
    return {"provider": provider, "model": model} | {
        key: value for key, value in fields.items() if value is not None
    }


def select(data: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, int], int]:
    """Returns the kept rows, the count per provider, and how many entries had no price."""
    found: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {p: {} for p in PROVIDERS}
    unpriced = 0
    for key in sorted(data):
        entry = data[key]
        if not isinstance(entry, dict) or entry.get("mode") not in MODES:
            continue
        provider = entry.get("litellm_provider")
        if provider not in PROVIDERS or NOT_MODELS.match(key):
            continue
        prefix = PROVIDERS[provider]
        model = key[len(prefix) :] if key.startswith(prefix) else key
        made = row(provider, model, entry)
        if made is None:
            unpriced += 1
            continue
        seen = found[provider].get(model.lower())
        # Two keys for one model (`deepseek-chat` and `deepseek/deepseek-chat`): prefer
        # the explicitly prefixed key, which LiteLLM keeps more complete.
        if seen is None or (key.startswith(prefix) and not seen[0].startswith(prefix)):
            found[provider][model.lower()] = (key, made)
    for secondary, primary in SECONDARY.items():
        for name in list(found[secondary]):
            if name in found[primary]:
                del found[secondary][name]
    rows = [made for provider in found.values() for _, made in provider.values()]
    rows.sort(key=lambda r: (r["provider"], r["model"].lower(), r["model"]))
    counts = {p: len(found[p]) for p in sorted(PROVIDERS)}
    return rows, counts, unpriced


def render(rows: list[dict[str, Any]], header: dict[str, Any]) -> str:
    lines = []
    for made in rows:
        parts = []
        for key, value in made.items():
            text = number(value) if isinstance(value, Decimal) else json.dumps(value)
            parts.append(f"{json.dumps(key)}: {text}")
        lines.append("{" + ", ".join(parts) + "}")
    return (
        '{"header": '
        + json.dumps(header, ensure_ascii=False)
        + ',\n"models": [\n'
        + ",\n".join(lines)
        + "\n]}\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("source", type=Path, help="litellm wheel (.whl) or the price JSON")
    parser.add_argument("-o", "--output", type=Path, default=Path("assets/pricing.json"))
    parser.add_argument("--litellm-version", help="required when SOURCE is a bare JSON file")
    parser.add_argument(
        "--retrieved", default=dt.date.today().isoformat(), help="date stamp (YYYY-MM-DD)"
    )
    args = parser.parse_args()
    dt.date.fromisoformat(args.retrieved)

    data, version = load(args.source, args.litellm_version)
    rows, counts, unpriced = select(data)
    header = {
        "source": {"package": "litellm", "version": version, "file": PRICE_FILE},
        "retrieved": args.retrieved,
        "units": UNITS,
        "models": len(rows),
    }
    text = render(rows, header)
    json.loads(text)  # never write something the Rust side cannot parse
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")

    missing = [p for p, n in counts.items() if n == 0]
    print(f"litellm {version}: kept {len(rows)} models, {len(text)} bytes -> {args.output}")
    print("  " + ", ".join(f"{p} {n}" for p, n in counts.items() if n))
    if missing:
        print(f"  providers without chat models in this list: {', '.join(missing)}")
    if unpriced:
        print(f"  skipped {unpriced} entries without token prices")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes assets/o200k_base.zlib, the o200k token table massgen estimates with (stdlib only).

tiktoken's o200k_base.tiktoken holds one `BASE64 RANK` line per token, ranks 0, 1, 2, …
in order: 3.6 MB of text. Our table holds the same tokens in the same order, each as one
length byte (1..=255) followed by its bytes (1.6 MB), zlib-compressed at level 9 (1.05 MB
in the binary). src/backend/tokens.rs inflates it and builds the tokenizer on the first
estimate, and a test there checks every token against tiktoken-rs's own table.

    python3 scripts/o200k_table.py ~/.cargo/registry/src/*/tiktoken-rs-*/assets/o200k_base.tiktoken
"""

from __future__ import annotations

import base64
import sys
import zlib
from pathlib import Path


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: o200k_table.py PATH/TO/o200k_base.tiktoken")
    out = bytearray()
    for expected, line in enumerate(Path(sys.argv[1]).read_bytes().splitlines()):
        encoded, rank = line.split(b" ")
        if int(rank) != expected:
            sys.exit(f"line {expected + 1}: rank {rank.decode()} is out of order")
        token = base64.b64decode(encoded)
        if not 1 <= len(token) <= 255:
            sys.exit(f"line {expected + 1}: a token of {len(token)} bytes does not fit")
        out.append(len(token))
        out += token
    packed = zlib.compress(bytes(out), 9)
    target = Path(__file__).resolve().parent.parent / "assets" / "o200k_base.zlib"
    target.write_bytes(packed)
    print(f"{target}: {len(packed)} bytes ({len(out)} inflated)")


if __name__ == "__main__":
    main()

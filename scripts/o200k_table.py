#!/usr/bin/env python3
"""Writes assets/o200k_base.zlib, the o200k token table massgen estimates with (stdlib only).

tiktoken's o200k_base.tiktoken holds one `BASE64 RANK` line per token, ranks 0, 1, 2, …
in order: 3.6 MB of text. Every o200k token is either one byte or the concatenation of two
tokens of lower rank (that is how byte-pair encoding built it), so our table stores, per
rank, two numbers A and B instead of the token's bytes:

- A == rank: the token is the single byte B;
- A < rank: the token is token A's bytes followed by token B's (B < rank too).

Of the splits into two lower-rank tokens, the one with the smallest A + B is kept (the most
compressible). The numbers are written as six planes of one byte each, N bytes a plane
(N = number of tokens): A's low, middle and high bytes, then B's; zlib level 9 compresses
that to 0.73 MB (the tokens' own bytes, length-prefixed, compress to 1.05 MB).
src/backend/o200k.rs inflates it and rebuilds the tokens on the first estimate, and a test
(src/backend/o200k_tests.rs) checks every token against tiktoken-rs's own table.

    python3 scripts/o200k_table.py ~/.cargo/registry/src/*/tiktoken-rs-*/assets/o200k_base.tiktoken
"""

from __future__ import annotations

import base64
import sys
import zlib
from pathlib import Path


def split(tokens: list[bytes], ranks: dict[bytes, int], rank: int) -> tuple[int, int]:
    """(A, B) for the token of `rank`, as the module docstring defines them."""
    token = tokens[rank]
    if len(token) == 1:
        return rank, token[0]
    best: tuple[int, int] | None = None
    for cut in range(1, len(token)):
        left, right = ranks.get(token[:cut]), ranks.get(token[cut:])
        if left is None or right is None or left >= rank or right >= rank:
            continue
        if best is None or left + right < best[0] + best[1]:
            best = (left, right)
    if best is None:
        sys.exit(f"rank {rank}: the token is not two tokens of lower rank")
    return best


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: o200k_table.py PATH/TO/o200k_base.tiktoken")
    tokens: list[bytes] = []
    for expected, line in enumerate(Path(sys.argv[1]).read_bytes().splitlines()):
        encoded, rank = line.split(b" ")
        if int(rank) != expected:
            sys.exit(f"line {expected + 1}: rank {rank.decode()} is out of order")
        tokens.append(base64.b64decode(encoded))
    ranks = {token: rank for rank, token in enumerate(tokens)}
    if len(ranks) != len(tokens):
        sys.exit("a token appears twice")
    pairs = [split(tokens, ranks, rank) for rank in range(len(tokens))]
    out = bytearray()
    for which in (0, 1):
        for shift in (0, 8, 16):
            out += bytes((pair[which] >> shift) & 0xFF for pair in pairs)
    packed = zlib.compress(bytes(out), 9)
    target = Path(__file__).resolve().parent.parent / "assets" / "o200k_base.zlib"
    target.write_bytes(packed)
    print(f"{target}: {len(packed)} bytes ({len(out)} inflated, {len(tokens)} tokens)")


if __name__ == "__main__":
    main()

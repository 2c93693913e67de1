"""A small MCP server for tests/tools/mcp.rs, built on the Python `mcp` package (v2).

Usage: mcp_peer.py stdio | mcp_peer.py http PORT
"""

import os
import sys
import time

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

app = MCPServer("massgen-test-peer")


@app.tool()
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


@app.tool()
def fail(message: str) -> str:
    """Always fails with `message`."""
    raise ToolError(message)


@app.tool()
def sleep(seconds: float) -> str:
    """Sleep for `seconds`, then say so."""
    time.sleep(seconds)
    return f"slept {seconds} s"


@app.tool()
def crash() -> str:
    """Exit the server process at once, mid-call."""
    print("peer: crashing on purpose", file=sys.stderr, flush=True)
    os._exit(3)


@app.tool()
def env(name: str) -> str:
    """The value of environment variable `name` (empty when unset)."""
    return os.environ.get(name, "")


@app.tool()
def cwd() -> str:
    """The server's working directory."""
    return os.getcwd()


@app.tool()
def pid() -> str:
    """The server's process id."""
    return str(os.getpid())


@app.tool()
def noisy(kib: int) -> str:
    """Write `kib` KiB to stderr before answering."""
    line = "x" * 1023
    for _ in range(kib):
        print(line, file=sys.stderr)
    sys.stderr.flush()
    return f"wrote {kib} KiB to stderr"


@app.tool()
def header(name: str, ctx: Context) -> str:
    """The value of HTTP request header `name` (streamable HTTP only)."""
    request = ctx.request_context.request
    if request is None:
        return ""
    return request.headers.get(name, "")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "http":
        app.run(transport="streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        app.run(transport="stdio")

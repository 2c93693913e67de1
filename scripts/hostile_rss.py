#!/usr/bin/env python3
"""Peak memory of the real massgen binary against a hostile provider.

Starts an OpenAI-compatible server on localhost that streams valid chat-completion chunks
forever (a never-ending answer), points three agents at it with logs on and feeds one question
after another on stdin so the run stays busy, and samples the process's resident memory for the whole run.

Usage: python3 scripts/hostile_rss.py [path/to/massgen] [seconds]
(build first: cargo build --release; the default binary is target/release/massgen under
CARGO_TARGET_DIR or ./target).
"""

import http.server
import json
import os
import socketserver
import subprocess
import sys
import tempfile
import threading
import time

CHUNK = (
    "data: "
    + json.dumps(
        {
            "id": "chatcmpl-x",
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {"content": "word " * 200}}],
        }
    )
    + "\n\n"
).encode()


class Endless(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        length = int(self.headers.get("content-length", "0"))
        self.rfile.read(length)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        try:
            while True:
                block = CHUNK * 64
                self.wfile.write(b"%x\r\n%s\r\n" % (len(block), block))
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def feed(stdin):
    try:
        for n in range(100000):
            stdin.write(f"question {n}\n".encode())
            stdin.flush()
    except (BrokenPipeError, ValueError, OSError):
        pass


def rss_kib(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def main():
    target = os.environ.get("CARGO_TARGET_DIR", "target")
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(target, "release", "massgen")
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    server = Server(("127.0.0.1", 0), Endless)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    with tempfile.TemporaryDirectory() as home:
        config = os.path.join(home, "hostile.yaml")
        agents = "\n".join(
            f"  - id: agent_{n}\n    backend:\n      type: openai\n      model: endless\n"
            f"      base_url: http://127.0.0.1:{port}/v1\n      api_key: sk-hostile-rss-0000\n"
            f"      max_retries: 20\n"
            for n in range(3)
        )
        with open(config, "w") as out:
            out.write(f"agents:\n{agents}\ntimeout_settings:\n  orchestrator_timeout_seconds: {int(seconds) + 30}\n")
        env = dict(os.environ, HOME=home, NO_COLOR="1")
        started = time.monotonic()
        child = subprocess.Popen(
            [binary, "--config", config, "--display", "quiet"],
            cwd=home,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # One question per line: each is a turn, so the run goes on after a turn gives up.
        feeder = threading.Thread(target=feed, args=(child.stdin,), daemon=True)
        feeder.start()
        samples = []
        while child.poll() is None and time.monotonic() - started < seconds:
            try:
                samples.append((time.monotonic() - started, *rss_kib(child.pid)))
            except (FileNotFoundError, ProcessLookupError, KeyError):
                break
            time.sleep(0.25)
        alive = child.poll() is None
        child.kill()
        child.wait()
        logs = sum(
            os.path.getsize(os.path.join(root, name))
            for root, _, names in os.walk(os.path.join(home, ".massgen"))
            for name in names
        ) if os.path.isdir(os.path.join(home, ".massgen")) else 0
    if not samples:
        print("no samples: massgen exited at once")
        return 1
    peak = max(hwm for _, _, hwm in samples)
    thirds = [samples[i * len(samples) // 3 : (i + 1) * len(samples) // 3] for i in range(3)]
    per_third = [max((rss for _, rss, _ in part), default=0) // 1024 for part in thirds]
    print(f"ran {samples[-1][0]:.0f} s (still running at the end: {alive})")
    print(f"peak RSS (VmHWM): {peak / 1024:.1f} MB")
    print(f"largest RSS per third of the run: {per_third} MB")
    print(f"log directory size: {logs / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Measures the release binary's footprint for BENCHMARKS.md (stdlib only, Linux).

    cargo build --release && python3 scripts/footprint.py target/release/massgen

Prints: the file size; `--help` wall time (mean and median of RUNS runs, each a fresh
process, timed with time.perf_counter_ns around fork+exec+wait); the peak RSS (GNU time's
"Maximum resident set size") of one built-in demo turn with the quiet display, and of the
same turn in the full-screen display inside an 80x24 pseudo-terminal (quit with Esc Esc q
once the turn is over), and where the quiet turn's memory is (from /proc/PID/smaps, sampled
every 50 ms, the largest sample). Each run gets a fresh temporary home and working directory. Needs
/usr/bin/time (Debian: `apt-get install time`).

Before each demo run the binary's pages are dropped from the page cache (posix_fadvise
DONTNEED), so it is read from disk as an installed binary is after a reboot. Otherwise the
peak depends on how the freshly written file happens to sit in the page cache (the kernel
maps cached pages around each one a fault touches): the same binary, copied twice, peaked
anywhere from 12.1 to 13.7 MB. From a cold cache the peak repeats within 0.3 MB.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

RUNS = 200
QUESTION = "What is the capital of France?"


def env_for(home: str) -> dict[str, str]:
    return {
        "HOME": home,
        "XDG_CONFIG_HOME": f"{home}/.config",
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "TERM": "xterm-256color",
    }


def max_rss_kib(report: str) -> int:
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report)
    if not found:
        sys.exit(f"no max RSS in GNU time's report:\n{report}")
    return int(found.group(1))


def help_times(binary: str) -> list[float]:
    times = []
    with tempfile.TemporaryDirectory() as home:
        for _ in range(RUNS):
            started = time.perf_counter_ns()
            subprocess.run([binary, "--help"], stdout=subprocess.DEVNULL, env=env_for(home), check=True)
            times.append((time.perf_counter_ns() - started) / 1e6)
    return times


def drop_from_page_cache(binary: str) -> None:
    """Drops the binary's pages from the page cache (see the module docstring). They are
    written back first: a file linked seconds ago still has dirty pages, which DONTNEED
    leaves in place."""
    descriptor = os.open(binary, os.O_RDONLY)
    try:
        os.fsync(descriptor)
        os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(descriptor)


def quiet_demo(binary: str) -> int:
    drop_from_page_cache(binary)
    with tempfile.TemporaryDirectory() as home:
        report = Path(home) / "time.txt"
        subprocess.run(
            ["/usr/bin/time", "-v", "-o", str(report), binary, "--display", "quiet", QUESTION],
            stdout=subprocess.DEVNULL,
            cwd=home,
            env=env_for(home),
            check=True,
        )
        return max_rss_kib(report.read_text())


def tui_demo(binary: str) -> int:
    drop_from_page_cache(binary)
    with tempfile.TemporaryDirectory() as home:
        report = Path(home) / "time.txt"
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(home)
            os.execve(
                "/usr/bin/time",
                ["/usr/bin/time", "-v", "-o", str(report), binary, QUESTION],
                env_for(home),
            )
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        screen = b""

        def read_for(seconds: float) -> None:
            nonlocal screen
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.1)
                if ready:
                    try:
                        screen += os.read(fd, 65536)
                    except OSError:
                        return

        # The demo turn takes about 7 s at the scripted agents' real speeds.
        read_for(15)
        text = re.sub(rb"\x1b\[[0-9;?<>=]*[A-Za-z]", b"", screen).decode("utf-8", "replace")
        if "Offline demo" not in text:
            sys.exit("the TUI did not show the demo's final answer within 15 s")
        for key in (b"\x1b", b"\x1b", b"q"):
            os.write(fd, key)
            read_for(0.5)
        read_for(3)
        _, status = os.waitpid(pid, 0)
        if "Maximum resident" not in (report.read_text() if report.exists() else ""):
            sys.exit(f"the TUI did not exit cleanly (status {status})")
        return max_rss_kib(report.read_text())


def smaps_breakdown(pid: int, binary: str) -> dict[str, int]:
    """Resident KiB of one process by kind of mapping."""
    kinds: dict[str, int] = {}
    kind = "other"
    with open(f"/proc/{pid}/smaps") as smaps:
        for line in smaps:
            fields = line.split()
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                path = fields[5] if len(fields) > 5 else ""
                perms = fields[1]
                if path == binary:
                    kind = {"r-xp": "binary: code", "r--p": "binary: read-only data, unwind tables, relocations"}.get(
                        perms, "binary: relocated data"
                    )
                elif path.startswith("/"):
                    kind = "shared libraries (libc, libm, ld.so, libgcc_s)"
                elif path == "[heap]":
                    kind = "heap (brk)"
                else:
                    kind = "anonymous: thread stacks, malloc arenas, large allocations"
            elif fields[0] == "Rss:":
                kinds[kind] = kinds.get(kind, 0) + int(fields[1])
    return kinds


def quiet_demo_breakdown(binary: str) -> dict[str, int]:
    """The mappings of the quiet demo turn at its largest sampled RSS (every 50 ms)."""
    drop_from_page_cache(binary)
    with tempfile.TemporaryDirectory() as home:
        child = subprocess.Popen(
            [binary, "--display", "quiet", QUESTION],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=home,
            env=env_for(home),
        )
        peak: dict[str, int] = {}
        while child.poll() is None:
            try:
                sample = smaps_breakdown(child.pid, binary)
            except (OSError, ValueError):
                break
            if sum(sample.values()) > sum(peak.values()):
                peak = sample
            time.sleep(0.05)
        child.wait()
        return peak


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: footprint.py PATH/TO/massgen")
    binary = str(Path(sys.argv[1]).resolve())
    print(f"binary: {os.path.getsize(binary)} bytes ({os.path.getsize(binary) / 1e6:.2f} MB)")
    times = help_times(binary)
    print(
        f"--help: mean {statistics.mean(times):.2f} ms, median {statistics.median(times):.2f} ms, "
        f"min {min(times):.2f} ms over {RUNS} runs"
    )
    print(f"demo turn, --display quiet: max RSS {quiet_demo(binary)} KiB")
    print(f"demo turn, TUI in an 80x24 pty: max RSS {tui_demo(binary)} KiB")
    peak = quiet_demo_breakdown(binary)
    print(f"where the quiet demo turn's memory is at its largest sample ({sum(peak.values())} KiB):")
    for kind, kib in sorted(peak.items(), key=lambda item: -item[1]):
        print(f"  {kib:>6} KiB  {kind}")


if __name__ == "__main__":
    main()

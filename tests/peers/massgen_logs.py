"""Runs MassGen's own log reader (massgen/logs_analyzer.py from the pinned wheel, loaded
on its own so the rest of MassGen need not be installed) on a massgen log directory, as
`massgen logs summary`, `massgen logs tools` and `massgen logs list` would, and prints one
JSON object: what it computed and the text it printed.

usage: massgen_logs.py <logs_analyzer.py> <attempt dir> <project dir>
"""

import importlib.util
import io
import json
import os
import sys
from pathlib import Path

from rich.console import Console

analyzer_path, attempt_dir, project_dir = sys.argv[1:4]
spec = importlib.util.spec_from_file_location("logs_analyzer", analyzer_path)
logs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(logs)


def printed(show):
    out = io.StringIO()
    show(Console(file=out, width=200, color_system=None, force_terminal=False))
    return out.getvalue()


analyzer = logs.LogAnalyzer(Path(attempt_dir))
history = analyzer.get_round_history()
os.chdir(project_dir)
result = {
    "summary": printed(lambda console: logs.display_summary(analyzer, console)),
    "tools": printed(lambda console: logs.display_tools(analyzer, console, "calls")),
    "list": printed(lambda console: logs.display_list(console, 10)),
    "latest": str(logs.LogAnalyzer().log_dir),
    "round_history": len(history),
    "duration_ms": sum(entry.get("duration_ms", 0) for entry in history),
    "tools_breakdown": analyzer.get_tools_breakdown("calls"),
}
json.dump(result, sys.stdout)

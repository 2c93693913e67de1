"""Runs MassGen's own session code (massgen/session/_registry.py and _state.py from the
pinned wheel, loaded on their own) the way `massgen --continue` does, in a project where
massgen ran, and prints one JSON object: the session the registry offers to continue and
the state MassGen restores from it (conversation history, turns, winners).

usage: massgen_session.py <massgen/session dir> <project dir>
Reads the registry at ~/.massgen/sessions.json: run it with HOME set as massgen had it.
"""

import importlib.util
import json
import os
import sys
from pathlib import Path


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


session_dir, project_dir = sys.argv[1:3]
registry_module = load("massgen_session_registry", Path(session_dir) / "_registry.py")
state_module = load("massgen_session_state", Path(session_dir) / "_state.py")
os.chdir(project_dir)

registry = registry_module.SessionRegistry()
recent = registry.get_most_recent_continuable_session()
result = {"sessions": registry.list_sessions(), "recent": recent}
if recent:
    state = state_module.restore_session(
        recent["session_id"], session_storage=".massgen/sessions", registry=registry
    )
    result["state"] = {
        "current_turn": state.current_turn,
        "conversation_history": state.conversation_history,
        "previous_turns": state.previous_turns,
        "winning_agents_history": state.winning_agents_history,
        "log_directory": state.log_directory,
        "incomplete_turn": state.incomplete_turn,
    }
json.dump(result, sys.stdout, default=str)

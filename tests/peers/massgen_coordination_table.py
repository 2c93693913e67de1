"""Runs MassGen's own coordination-table builder
(massgen/frontend/displays/create_coordination_table.py from the pinned wheel, loaded on
its own) on a massgen `coordination_events.json` and prints one JSON object: what the
builder read (agents, winner, question, answers, rounds) and the tables it made of it
(the event table MassGen writes as coordination_table.txt, the round table, and whether
its Rich table could be built).

usage: massgen_coordination_table.py <create_coordination_table.py> <coordination_events.json>
"""

import importlib.util
import json
import sys

builder_path, events_path = sys.argv[1:3]
spec = importlib.util.spec_from_file_location("create_coordination_table", builder_path)
tables = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tables)

with open(events_path, encoding="utf-8") as events:
    builder = tables.CoordinationTableBuilder(json.load(events))
json.dump(
    {
        "agents": builder.agents,
        "final_winner": builder.final_winner,
        "user_question": builder.user_question,
        "answers": builder.agent_answers,
        "rounds": [round_data.round_type for round_data in builder.rounds],
        "event_table": builder.generate_event_table(),
        "round_table": builder.generate_table(),
        "rich_table": builder.generate_rich_event_table() is not None,
    },
    sys.stdout,
)

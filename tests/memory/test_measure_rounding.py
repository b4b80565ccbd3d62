"""Issue 31 item 8: the seed's CS measures are rates too, rounded down like every rate shown."""

from __future__ import annotations

import json

from helpers.cli import run_lorekeeper
from lorekeeper.workspace import Workspace


def test_measure_ratios_follow_the_one_rounding_rule(workspace: Workspace):
    """Issue 31 item 8: `measure cs4` with 2 of 3 learnings archived is 0.6666 (rounded down, as
    every rate shown), not 0.6667."""
    root = str(workspace.root)
    workspace.close()
    ids = []
    for rule in ("Pin every dependency", "Write the migration first", "Name the story in the commit"):
        r = run_lorekeeper("learn", "add", rule, "--workspace", root, "--json")
        assert r.returncode == 0, r.stderr
        ids.append(str(json.loads(r.stdout)["id"]))
    r = run_lorekeeper("learn", "archive", *ids[:2], "--workspace", root)
    assert r.returncode == 0, r.stderr
    out = run_lorekeeper("measure", "cs4", "--workspace", root, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["numerator"], data["denominator"]) == (2, 3)
    assert data["value"] == 0.6666

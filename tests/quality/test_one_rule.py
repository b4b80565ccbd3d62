"""Issue 17: one underperformer verdict (panel, CLI, nightly) and percentages that never round
across the 80% boundary."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorekeeper.quality.metrics import SkillMetrics, format_rate


def test_format_rate_never_shows_the_threshold_for_less():
    assert format_rate(0.799) == "79.9%"
    assert format_rate(0.7999) == "79.9%"
    assert format_rate(0.8) == "80%"
    assert format_rate(4 / 5) == "80%"
    assert format_rate(0.25) == "25%"
    assert format_rate(2 / 3) == "66.6%"
    assert format_rate(1.0) == "100%"
    assert format_rate(None) == "-"
    m = SkillMetrics("s", None, 1000, 1000, 799, 0, 0)
    assert m.reasons == ["low success rate (79.9%)"]


def test_panel_cli_and_nightly_agree_on_the_demo(qtbot, window, demo_workspace):
    from lorekeeper.cli import main

    ws = demo_workspace
    panel = window.select_panel("quality")
    panel.reload()
    qtbot.waitUntil(lambda: panel.model.rowCount() > 0)
    in_panel = {(m.skill, m.project) for m in panel.model.rows if m.underperforming}
    assert f"{len(in_panel)} underperforming" in panel.summary.text()

    r = CliRunner().invoke(
        main, ["quality", "--underperforming", "--json", "--workspace", str(ws.root)], catch_exceptions=False
    )
    assert r.exit_code == 0, r.output
    in_cli = {(d["skill"], d["project"]) for d in json.loads(r.output)}

    ws.improve.proposals.reject(ws.improve.proposals.list("pending")[0].id, why="look again")
    from lorekeeper.store.models import Proposal

    with ws.store.write() as s:  # forget the decision, so nightly judges the same evidence as the panel
        s.query(Proposal).delete()
    summary = ws.improve.run_nightly()
    in_nightly = {(u["skill"], u["project"]) for u in summary.underperforming}

    assert in_panel == in_cli == in_nightly == {("release-notes", None)}
    # the panel's success column uses the same formatter as the CLI
    row = next(i for i, m in enumerate(panel.model.rows) if m.skill == "release-notes")
    assert panel.model.data(panel.model.index(row, panel.model.COL_SUCCESS)) == "25%"

"""Issue 17: a rate under the 80% threshold never reads as 80% on the proposal card, and the
underperformer rule gives one answer in `quality`, `nightly` and the proposal."""

from __future__ import annotations

import json

from helpers.cli import run_lorekeeper


def test_proposal_card_shows_79_5_percent_not_80(ws):
    # 35 of 44 answers pass: 79.5%, under the threshold; ":.0%" would print "80%"
    ws.quality.log_applied(["code-review"] * 44, None)
    for i in range(44):
        ws.quality.log_eval("code-review", None, i < 35)
    quality = json.loads(run_lorekeeper("quality", "--workspace", str(ws.root), "--json").stdout)
    row = next(r for r in quality if r["skill"] == "code-review")
    assert row["underperforming"] and row["reasons"] == ["low success rate (79.5%)"]
    nightly = json.loads(run_lorekeeper("nightly", "--workspace", str(ws.root), "--json").stdout)
    assert [u["skill"] for u in nightly["underperforming"]] == ["code-review"]
    pid = str(nightly["created"][0]["proposal"])
    card = run_lorekeeper("proposals", "show", pid, "--workspace", str(ws.root))
    assert card.returncode == 0, card.stderr
    assert "success 79.5%" in card.stdout, card.stdout
    assert "80%" not in card.stdout
    # the Proposals panel's card, on the same proposal
    from lorekeeper.ui.panels.proposals import card_html

    html = card_html(ws.improve.proposals.get(int(pid)))
    assert "success 79.5%" in html and "80%" not in html

"""Sage and benchmarks from the app, against the local Anthropic-API server: badges, battle view, chart, re-run."""

from __future__ import annotations

from improve_support import new_skill_text, open_window
from PySide6.QtCore import Qt


def sage_answer(content: str) -> str:
    return f"REASON: answers recommend --force\nSUMMARY: adds a pushing section\n<<<SKILL\n{content}SKILL>>>\n"


def test_sage_button_then_battle_view(qtbot, model_ws, sync_workers):
    model_ws.script.sage["code-review"] = sage_answer(new_skill_text(model_ws))
    win = open_window(qtbot, model_ws)
    panel = win.select_panel("proposals")
    qtbot.mouseClick(panel.sage_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1)
    p = panel.current()
    assert p.source == "sage" and p.benchmark is not None and p.benchmark.verdict == "PASSED"
    assert panel.badge.text().startswith("Benchmark: PASSED")
    assert "1 proposal(s) created" in panel.message.text()

    bench = win.select_panel("benchmarks")
    qtbot.waitUntil(lambda: bench.model.rowCount() == 1)
    assert bench.model.data(bench.model.index(0, bench.model.COL_VERDICT)) == "PASSED"
    assert bench.summary.text().startswith(f"Run #{bench.run.id} · proposal #{p.id} · PASSED")
    assert len(bench.cards) == 3
    card = bench.cards[0]
    assert card.title().endswith("winner: new ★")
    judge = card.judge_label.text()
    assert "A=old, B=new" in judge and "A=new, B=old" in judge and "both orders prefer new" in judge
    outputs = {w.objectName(): w.toPlainText() for w in card.findChildren(type(card.findChild(object, "oldOutput")))}
    assert "--force-with-lease" in outputs["newOutput"] and "--force-with-lease" not in outputs["oldOutput"]
    heights = [list(b.opts["height"]) for b in bench.chart.bars]
    assert len(heights) == 2 and all(n > o for o, n in zip(*heights, strict=True))

    # the kept scenarios: the operator adds one; the re-run uses it first
    assert bench.scenario_list.count() == 3 and bench.scenario_list.item(0).text().startswith("[model]")
    qtbot.keyClicks(bench.scenario_edit, "Rewrite the release branch history")
    qtbot.keyClick(bench.scenario_edit, Qt.Key.Key_Return)
    assert bench.scenario_list.count() == 4
    assert bench.scenario_list.item(0).text() == "[operator] Rewrite the release branch history"

    qtbot.mouseClick(bench.rerun_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bench.model.rowCount() == 2)
    assert bench.run.results[0].scenario == "Rewrite the release branch history"
    bench.scenario_list.setCurrentRow(0)
    qtbot.mouseClick(bench.delete_scenario_button, Qt.MouseButton.LeftButton)
    assert bench.scenario_list.count() == 3
    assert bench.run.id == max(r.id for r in bench.model.rows)
    assert model_ws.script.calls["scenarios"] == 1  # the kept scenarios were reused
    bench.proposal_combo.setCurrentIndex(bench.proposal_combo.findData(p.id))
    assert bench.model.rowCount() == 2

    from lorekeeper.llm.base import LLMSettings

    model_ws.llm.configure(LLMSettings(provider="none"))
    qtbot.mouseClick(bench.rerun_button, Qt.MouseButton.LeftButton)
    assert "ERR_LLM_UNAVAILABLE" in bench.message.text() and "no model is configured" in bench.message.text()
    assert bench.model.rowCount() == 2 and bench.rerun_button.isEnabled()
    win.close()


def test_benchmark_key_from_the_queue(qtbot, model_ws, sync_workers):
    model_ws.improve.run_nightly()
    win = open_window(qtbot, model_ws)
    panel = win.select_panel("proposals")
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1)
    panel.table.setFocus()
    qtbot.keyClick(panel.table, Qt.Key.Key_B)
    assert "Benchmark #" in panel.message.text(), panel.message.text()
    assert panel.current().benchmark is not None
    assert panel.model.data(panel.model.index(0, panel.model.COL_BENCH)).split()[0] in ("PASSED", "FAILED", "TIE")
    win.close()


def test_empty_benchmarks_panel_says_what_to_do(qtbot, weak_ws, sync_workers):
    win = open_window(qtbot, weak_ws)
    bench = win.select_panel("benchmarks")
    assert bench.empty.is_empty and "press B" in bench.empty.message.text()
    assert not bench.rerun_button.isEnabled()
    win.close()

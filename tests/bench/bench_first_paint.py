"""First paint (issue 30 d1): the app's first window on screen against a bare PySide6 window,
side by side on the same machine.

Run: `make bench` (or `QT_QPA_PLATFORM=offscreen python -m pytest -s tests/bench/bench_first_paint.py`).

Each run is a fresh Python process started by this test; it records the wall time from just
before the process is spawned to the first paint of its first top-level window (an event filter
on the QApplication, which the probe installs by subclassing it before anything else imports it):

- baseline: `QApplication` + a 560x220 `QWidget`, shown (what a bare PySide6 window costs);
- the app: `lorekeeper --workspace WS gui` exactly as the console script runs it (entry point, CLI,
  `run_app`), on a demo workspace: its first window is the "Opening workspace…" window that
  `lorekeeper.entry` paints (`lorekeeper.ui.splash`) before click, the CLI, the app's modules and
  the workspace (SQLAlchemy, every service) are imported; the opening screen then takes its place.

Runs alternate (bare, app, bare, app…) so the machine's load hits both alike; medians and their
ratio are printed (the goal: the app within 2x of the bare window). No timed assertion.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 5

PROBE = r"""
import os, sys, time
T0 = float(os.environ["LK_T0"])
import PySide6.QtWidgets as W
from PySide6.QtCore import QEvent, QObject


class Probe(QObject):
    def eventFilter(self, obj, ev):
        if ev.type() == QEvent.Type.Paint and obj.isWidgetType() and obj.isWindow():
            print(f"FIRST_PAINT {time.time() - T0:.4f}", flush=True)
            os._exit(0)
        return False


class ProbeApp(W.QApplication):
    def __init__(self, *a):
        super().__init__(*a)
        self._probe = Probe()
        self.installEventFilter(self._probe)


W.QApplication = ProbeApp
if sys.argv[1] == "bare":
    app = W.QApplication(sys.argv[:1])
    w = W.QWidget()
    w.resize(560, 220)
    w.show()
    app.exec()
else:
    sys.argv = ["lorekeeper", "--workspace", sys.argv[2], "gui"]
    from lorekeeper.entry import main
    main()
"""


def _first_paint(probe: Path, *args: str) -> float:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env["LK_T0"] = repr(time.time())
    out = subprocess.run(
        [sys.executable, str(probe), *args], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    line = next((x for x in out.stdout.splitlines() if x.startswith("FIRST_PAINT ")), None)
    assert line is not None, (out.returncode, out.stdout[-2000:], out.stderr[-2000:])
    return float(line.split()[1])


def test_first_paint_within_2x_of_a_bare_window(demo_workspace, tmp_path, capsys):
    root = str(demo_workspace.root)
    demo_workspace.close()  # the app opens it itself
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    _first_paint(probe, "bare")  # warm the OS caches for both
    _first_paint(probe, "app", root)
    bare, app = [], []
    for _ in range(RUNS):
        bare.append(_first_paint(probe, "bare"))
        app.append(_first_paint(probe, "app", root))
    b, a = statistics.median(bare), statistics.median(app)
    with capsys.disabled():
        print(
            f"\nfirst paint, median of {RUNS} alternating runs: bare PySide6 window {b * 1000:.0f} ms "
            f"(runs {', '.join(f'{x * 1000:.0f}' for x in bare)}), Lorekeeper's first window {a * 1000:.0f} ms "
            f"(runs {', '.join(f'{x * 1000:.0f}' for x in app)}): {a / b:.2f}x the bare window"
        )

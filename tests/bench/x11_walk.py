"""The judged walk under a real X server (issue 30): the four jobs of the design card from the Start
view, by the keyboard alone, at a screen size and in a language, with a screenshot after each step.

A demo workspace is created in a temporary folder; the app runs on an Xvfb display of the size
asked (no window manager: the window takes the whole screen, dialogs get the keyboard by
`xdotool windowfocus`); keys are sent with xdotool; `import -window root` (ImageMagick) saves each
step to OUT/NN-step.png; the widget that has the keyboard is logged at each step (the app runs with
a 300 ms focus logger). After the walk the store is asked, through the CLI, whether each job was
done: the proposal approved, the conflict resolved (and undone once, U, on the way), the story
purged and verified, the key at version 2 (and the chain verified after the rotation).

Needs Xvfb, xdotool, ImageMagick and the xcb libraries of Qt's platform plugin (Debian:
`apt-get install xvfb xdotool imagemagick libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0
libxcb-image0 libxcb-render-util0 libxkbcommon-x11-0`). Not a pytest test; run it by hand:

    .venv/bin/python tests/bench/x11_walk.py --size 1024x640 --lang fr --out /tmp/walk-fr

Look at the PNGs: nothing clipped, overlapping or out of reach.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STORY = "PD-201"  # a demo story with a clarification summary: what the purge erases
REASONS = {"en": "the runbook is the current rule", "fr": "le runbook est la règle en vigueur"}
YES = {"en": "alt+y", "fr": "alt+o"}  # QMessageBox's Yes / Oui mnemonic


def _app(workspace: str, focus_log: str) -> int:
    """The app, with a focus logger (what has the keyboard, every 300 ms, written to `focus_log`)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QAbstractButton, QApplication

    from lorekeeper.ui import app as uiapp
    from lorekeeper.workspace import Workspace

    def log() -> None:
        w = QApplication.focusWidget()
        text = ""
        if w is not None:
            text = f"{type(w).__name__}#{w.objectName()}"
            if isinstance(w, QAbstractButton):
                text += f" {w.text()!r}"
        Path(focus_log).write_text(text + "\n", encoding="utf-8")

    original = uiapp._application

    def application() -> QApplication:
        app = original()
        timer = QTimer(app)
        timer.timeout.connect(log)
        timer.start(300)
        app.setProperty("walk_timer", timer)
        return app

    uiapp._application = application
    return uiapp.run_app(lambda: Workspace.open(Path(workspace)), where=workspace)


class Walk:
    def __init__(self, display: str, out: Path, focus_log: Path) -> None:
        self.env = {**os.environ, "DISPLAY": display}
        self.out, self.focus_log, self.step = out, focus_log, 0
        self.lines: list[str] = []

    def xdo(self, *args: str) -> str:
        proc = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, check=False)
        return proc.stdout.strip()

    def window(self, title_start: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.xdo("search", "--onlyvisible", "--name", "^" + title_start)
            if found:
                return found.splitlines()[0]
            time.sleep(0.3)
        raise SystemExit(f"no window titled {title_start!r} within {timeout:g} s")

    def dialog(self, timeout: float = 20.0) -> str:
        """The open dialog (a window of the app other than the main one)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for wid in self.xdo("search", "--onlyvisible", "--name", ".").splitlines():
                title = self.xdo("getwindowname", wid)
                if title.endswith("Lorekeeper") and not title.startswith("Lorekeeper"):
                    return wid
            time.sleep(0.3)
        raise SystemExit("no dialog appeared")

    def answer_yes(self, name: str, lang: str) -> None:
        """Yes in the confirmation box: its mnemonic in the language (Qt's own word), else the English one."""
        for key in dict.fromkeys((YES[lang], YES["en"])):
            try:
                wid = self.dialog(timeout=3)
            except SystemExit:
                break
            self.xdo("windowfocus", "--sync", wid)
            self.xdo("key", key)
            time.sleep(1)
        time.sleep(4)
        self.shot(name, "Yes")

    def keys(self, name: str, *keys: str, window: str = "Lorekeeper — ", wait: float = 1.5) -> None:
        self.xdo("windowfocus", "--sync", self.window(window))
        for key in keys:
            if key.startswith("type:"):
                self.xdo("type", "--delay", "30", key[5:])
            else:
                self.xdo("key", "--delay", "100", key)
            time.sleep(0.4)
        time.sleep(wait)
        self.shot(name, " ".join(keys))

    def shot(self, name: str, what: str) -> None:
        path = self.out / f"{self.step:02d}-{name}.png"
        subprocess.run(["import", "-window", "root", str(path)], env=self.env, check=True)
        focus = self.focus_log.read_text(encoding="utf-8").strip() if self.focus_log.exists() else ""
        line = f"{path.name}: keys [{what}] -> focus {focus or '(none)'}"
        self.lines.append(line)
        print(line, flush=True)
        self.step += 1


def lk(root: Path, *args: str) -> object:
    proc = subprocess.run(
        [sys.executable, "-m", "lorekeeper", "--workspace", str(root), *args, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    return json.loads(proc.stdout) if proc.stdout.strip() else {"error": proc.stderr}


def _items(out: object, key: str) -> list[dict[str, object]]:
    found = out.get(key, []) if isinstance(out, dict) else out
    return [i for i in found if isinstance(i, dict)] if isinstance(found, list) else []


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="1024x640")
    ap.add_argument("--lang", default="en", choices=("en", "fr"))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--display", default=":77")
    ap.add_argument("--app", nargs=2, metavar=("WORKSPACE", "FOCUS_LOG"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.app:
        return _app(*args.app)
    for tool in ("Xvfb", "xdotool", "import"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed (see this script's docstring)")
    args.out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="lk-walk-"))
    root, focus_log = tmp / "ws", tmp / "focus.log"
    subprocess.run([sys.executable, "-m", "lorekeeper", "init", str(root), "--demo"], check=True, capture_output=True)
    xvfb = subprocess.Popen(["Xvfb", args.display, "-screen", "0", f"{args.size}x24", "-nolisten", "tcp"])
    app = None
    try:
        time.sleep(1.5)
        walk = Walk(args.display, args.out, focus_log)
        env = {**walk.env, "QT_QPA_PLATFORM": "xcb", "LOREKEEPER_LANG": args.lang}
        app = subprocess.Popen([sys.executable, __file__, "--out", str(args.out), "--app", str(root), str(focus_log)],
                               env=env)  # fmt: skip
        walk.window("Lorekeeper — ", timeout=90)
        time.sleep(3)
        walk.shot("start", "")
        # 1. approve a proposal: 1 (Proposals), A
        walk.keys("proposal", "1")
        walk.keys("proposal-approved", "a")
        # 2. arbitrate a conflict: Ctrl+1 (Start), 2 (Conflicts), 1 keep A, the reason, Enter; U undoes; again
        walk.keys("conflict", "ctrl+1", "2")
        walk.keys("conflict-kept", "1", "type:" + REASONS[args.lang], "Return")
        walk.keys("conflict-undone", "u")
        walk.keys("conflict-kept-again", "1", "type:" + REASONS[args.lang], "Return")
        # 3. purge a story: Ctrl+1, 4 (Purge runs), the story, Enter (what it erases), Enter (confirm), Yes
        walk.keys("purge", "ctrl+1", "4", "type:" + STORY, "Return")
        walk.keys("purge-confirm", "Return")
        walk.answer_yes("purged", args.lang)
        # 4. rotate the key: Ctrl+1, 5 (Audit: the keyboard on Verify chain), Tab (Rotate key…), Space, Yes
        walk.keys("audit", "ctrl+1", "5")
        walk.keys("rotate-confirm", "Tab", "space")
        walk.answer_yes("rotated", args.lang)
        walk.keys("verified", "ctrl+1", "5", "space", wait=4)  # back on Verify chain: the new key verifies
        walk.keys("quit", "ctrl+q", wait=2)
        try:
            app.wait(timeout=30)
        except subprocess.TimeoutExpired:
            print("the app did not quit on Ctrl+Q (a dialog left open?)", flush=True)
    finally:
        if app is not None and app.poll() is None:
            app.terminate()
        xvfb.terminate()
        xvfb.wait(timeout=10)
    proposals = lk(root, "proposals", "list", "--status", "all")
    conflicts = lk(root, "facts", "conflicts", "--all")
    status = lk(root, "audit", "status")
    plan = lk(root, "purge", "--story", STORY)
    report = {
        "approved": [p["id"] for p in _items(proposals, "proposals") if p.get("status") == "approved"],
        "conflicts": [(c["id"], c["status"]) for c in conflicts.get("conflicts", [])]
        if isinstance(conflicts, dict)
        else conflicts,
        "audit": status,
        "purge plan after": plan,
    }
    (args.out / "walk.txt").write_text("\n".join(walk.lines) + "\n" + json.dumps(report, indent=1), encoding="utf-8")
    print(json.dumps(report, indent=1, default=str)[:3000])
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The PyInstaller bundle runs: every lazily loaded command and panel, the data, the grammars and
the tokenizer are inside it. Marked `bundle`: only `make dist-check` runs it (it builds first and
sets LOREKEEPER_BUNDLE); with `-m bundle` and no LOREKEEPER_BUNDLE the test builds one itself."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packaging_helpers import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.bundle]

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("LOREKEEPER_BUNDLE")
    if given:
        exe = Path(given)
        assert exe.is_file(), f"LOREKEEPER_BUNDLE={given} does not exist: run `make dist` first"
        return exe
    pyinstaller = shutil.which("pyinstaller", path=str(Path(sys.executable).parent)) or shutil.which("pyinstaller")
    if pyinstaller is None:
        pytest.skip("PyInstaller is not installed (pip install -e '.[dist]'); `make dist-check` installs it")
    out = tmp_path_factory.mktemp("bundle")
    proc = subprocess.run(
        [pyinstaller, "--noconfirm", "--log-level", "WARN", "--distpath", str(out / "dist"),
         "--workpath", str(out / "work"), str(ROOT / "packaging" / "lorekeeper.spec")],
        capture_output=True, text=True, timeout=1800, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-4000:]
    return out / "dist" / "lorekeeper" / "lorekeeper"


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("bundle-env")
    (tmp / "home").mkdir()
    keep = ("PATH", "LANG", "LC_ALL", "TMPDIR")
    out = {k: os.environ[k] for k in keep if k in os.environ}  # no PYTHONPATH: the bundle stands alone
    out.update(
        HOME=str(tmp / "home"),
        XDG_CONFIG_HOME=str(tmp / "config"),
        XDG_DATA_HOME=str(tmp / "data"),
        XDG_CACHE_HOME=str(tmp / "cache"),
        PYTHON_KEYRING_BACKEND="keyrings.alt.file.PlaintextKeyring",
        QT_QPA_PLATFORM="offscreen",
    )
    return out


def run(exe: Path, *args: str, env: dict[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([str(exe), *args], capture_output=True, text=True, env=env, timeout=600, cwd=cwd, check=False)
    assert proc.returncode == 0, f"{args}: exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    return proc


def test_bundle_runs_every_command(bundle: Path, env: dict[str, str], tmp_path: Path) -> None:
    assert "0.1.0" in run(bundle, "--version", env=env).stdout
    ws = tmp_path / "ws"
    init = json.loads(run(bundle, "init", str(ws), "--demo", "--json", env=env).stdout)
    assert init["skills"] >= 8  # the starter skills and the demo data travelled
    routed = json.loads(
        run(bundle, "--workspace", str(ws), "route", "review this pull request for XSS", "--json", env=env).stdout
    )
    assert routed["skills"] and routed["skills"][0]["name"]

    rules = tmp_path / "r.evals.json"
    rule = {
        "id": "gm-001",
        "name": "No force push",
        "type": "string_not_contains",
        "value": "--force",
        "severity": "warning",
    }
    rules.write_text(json.dumps({"version": 1, "skill": "git-manager", "rules": [rule]}), encoding="utf-8")
    resp = tmp_path / "resp.txt"
    resp.write_text("git push --force", encoding="utf-8")
    ev = json.loads(run(bundle, "eval", "--rules", str(rules), "--response", str(resp), "--json", env=env).stdout)
    assert ev["passed"] is False and ev["results"][0]["id"] == "gm-001"

    project = tmp_path / "proj"  # one file per grammar the context engine understands
    project.mkdir()
    sources = {  # (the named definition, then filler: a tiny tree packs below its own header)
        "app.py": ("def handle_payment(amount):\n    return amount * 2\n", "def helper_{i}(x):\n    return x * {i}\n"),
        "web.js": (
            "function renderCart(items) { return items.length; }\n",
            "function jsHelper{i}(x) {{ return x * {i}; }}\n",
        ),
        "api.ts": (
            "export function fetchOrders(id: number): number { return id; }\n",
            "export function ts{i}(x: number): number {{ return x; }}\n",
        ),
        "view.tsx": (
            "export function Badge(): number { return 1; }\n",
            "export function tsx{i}(x: number): number {{ return x; }}\n",
        ),
        "lib.rs": ("pub fn parse_ledger(x: i32) -> i32 { x }\n", "pub fn rs_helper_{i}(x: i32) -> i32 {{ x * {i} }}\n"),
        "main.go": (
            "package main\nfunc ComputeTax(x int) int { return x }\n",
            "func GoHelper{i}(x int) int {{ return x * {i} }}\n",
        ),
        "Svc.java": (
            "class Svc { int refundOrder(int x) { return x; }\n",
            "  int javaHelper{i}(int x) {{ return x * {i}; }}\n",
        ),
    }
    for name, (head, filler) in sources.items():
        text = head + "".join(filler.format(i=i) for i in range(40)) + ("}\n" if name.endswith(".java") else "")
        (project / name).write_text(text, encoding="utf-8")
    packed = run(bundle, "ctx", "pack", str(project), "--task", "handle payment", env=env).stdout
    for word in ("handle_payment", "renderCart", "fetchOrders", "Badge", "parse_ledger", "ComputeTax", "refundOrder"):
        assert word in packed  # found by each language's tree-sitter grammar, counted by quicktok

    assert "key version" in run(bundle, "--workspace", str(ws), "audit", "status", env=env).stdout

    shots = tmp_path / "shots"
    run(bundle, "--workspace", str(ws), "gui", "--screenshot", str(shots), env=env)
    pngs = sorted(shots.glob("*.png"))
    assert len(pngs) >= 9, [p.name for p in pngs]  # one per panel
    for png in pngs:
        data = png.read_bytes()
        assert data.startswith(PNG) and len(data) > 2000, png.name


def test_bundle_schedules_itself(bundle: Path, env: dict[str, str], tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    run(bundle, "init", str(ws), env=env)
    plan = json.loads(
        run(
            bundle, "--workspace", str(ws), "schedule", "install", "--kind", "cron", "--print", "--json", env=env
        ).stdout
    )
    assert plan["command"] == [str(bundle), "--workspace", str(ws), "schedule", "run"]
    run(bundle, "--workspace", str(ws), "schedule", "run", env={**env, "PATH": "/usr/bin:/bin"}, cwd=Path("/"))
    assert json.loads((ws / "schedule" / "last-run.json").read_text(encoding="utf-8"))["ok"]

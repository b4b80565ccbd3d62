"""A copied workspace folder (issue 25 d4): recognised as a copy before it writes, so the original
keeps working; `lorekeeper workspace adopt-copy` gives the copy its own id and witness."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from helpers.cli import run_lorekeeper


def lk(*args: str):
    return run_lorekeeper(*args, env=dict(os.environ), text=True)


def test_a_copy_writes_nothing_until_adopted_and_the_original_keeps_working(tmp_path: Path) -> None:
    ws, copy = tmp_path / "ws", tmp_path / "ws2"
    assert lk("init", str(ws), "--no-starter").returncode == 0
    assert lk("--workspace", str(ws), "learn", "add", "Toujours citer la source").returncode == 0
    shutil.copytree(ws, copy, symlinks=True)

    refused = lk("--workspace", str(copy), "learn", "add", "dans la copie", "--json")
    assert refused.returncode == 4
    err = json.loads(refused.stdout)["error"]
    assert err["code"] == "ERR_WORKSPACE_COPY"
    assert "workspace adopt-copy" in err["message"] and str(ws.resolve()) in err["message"]
    # nothing was written in the copy, and the original is not locked out
    assert [x["rule"] for x in json.loads(lk("--workspace", str(copy), "learn", "list", "--json").stdout)] == [
        "Toujours citer la source"
    ]
    assert lk("--workspace", str(ws), "learn", "add", "original 1").returncode == 0

    not_copy = lk("--workspace", str(ws), "workspace", "adopt-copy", "--json")
    assert not_copy.returncode == 2 and json.loads(not_copy.stdout)["error"]["code"] == "ERR_INVALID_INPUT"

    adopted = lk("--workspace", str(copy), "workspace", "adopt-copy", "--json")
    assert adopted.returncode == 0, adopted.stdout + adopted.stderr
    info = json.loads(adopted.stdout)
    assert info["id"] != info["old_id"] and info["original"] == str(ws.resolve())
    config = (copy / "lorekeeper.toml").read_text(encoding="utf-8")
    assert f'id = "{info["id"]}"' in config and "never copy it" in config  # the new id, its comment kept

    assert lk("--workspace", str(copy), "learn", "add", "copie 1").returncode == 0
    assert lk("--workspace", str(ws), "learn", "add", "original 2").returncode == 0
    assert lk("--workspace", str(copy), "learn", "add", "copie 2").returncode == 0
    for root in (ws, copy):
        verify = lk("--workspace", str(root), "audit", "verify", "--json")
        assert verify.returncode == 0, verify.stdout
    rules = {
        root.name: [x["rule"] for x in json.loads(lk("--workspace", str(root), "learn", "list", "--json").stdout)]
        for root in (ws, copy)
    }
    assert sorted(rules["ws"]) == sorted(["Toujours citer la source", "original 1", "original 2"])
    assert sorted(rules["ws2"]) == sorted(["Toujours citer la source", "copie 1", "copie 2"])


def test_a_moved_workspace_is_not_a_copy(tmp_path: Path) -> None:
    ws, moved = tmp_path / "ws", tmp_path / "moved"
    assert lk("init", str(ws), "--no-starter").returncode == 0
    assert lk("--workspace", str(ws), "learn", "add", "avant").returncode == 0
    shutil.move(ws, moved)
    assert lk("--workspace", str(moved), "learn", "add", "après").returncode == 0
    assert lk("--workspace", str(moved), "audit", "verify").returncode == 0

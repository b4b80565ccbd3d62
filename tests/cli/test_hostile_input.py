"""Issue 24 d6: hostile input gets exit 2 with a stable code, never a hang, exit 5 or a traceback,
and nothing is written (the workspace's files, the database included, stay byte for byte).

Bombs are small but effective against the unbounded code: the alias bomb is 0.5 KB (a billion
nodes expanded), the zip bomb 40 KB (40 MB unpacked). Every case runs the real CLI in this process
under a 10-second alarm, so a regression that blocks on a FIFO fails the case instead of hanging
the suite; the two cases that would read /dev/zero forever run in a subprocess with a timeout.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from helpers.cli import run_lorekeeper

# a hang guard, not a timing: a hang never ends, and a loaded 2-core CI machine can take over 10 s
# for a bounded refusal (the 10 s figure of issue 24 is measured by hand, not asserted here)
LIMIT_S = 60


class _TimedOut(BaseException):
    pass


@contextmanager
def _alarm(seconds: int) -> Iterator[None]:
    def ring(_sig: int, _frame: object) -> None:
        raise _TimedOut(f"the command took more than {seconds} s (a hang)")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _tree(root: Path) -> dict[str, str]:
    """Every file under the workspace with its digest (the database too: no process holds it)."""
    out: dict[str, str] = {}
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            p = Path(dirpath, name)
            out[p.relative_to(root).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


# ----------------------------------------------------------------------------- hostile material


def _skill(folder: Path, front: str, body: str = "body\n") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(f"---\n{front}---\n{body}", encoding="utf-8")
    return folder


def alias_bomb(tmp: Path) -> Path:
    lines = ["name: bomb", "description: A billion laughs.", 'a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    return _skill(tmp / "bomb", "\n".join(lines) + "\n")


def deep_yaml(tmp: Path) -> Path:
    return _skill(tmp / "deep", "name: deep\ndescription: Deep.\nm: " + "[" * 20_000 + "]" * 20_000 + "\n")


def big_skill_md(tmp: Path) -> Path:
    return _skill(tmp / "big", "name: big\ndescription: Big.\n", "y" * (11 * 1024 * 1024))


def nul_skill(tmp: Path) -> Path:
    return _skill(tmp / "nul", "name: nul\ndescription: NUL inside.\n", "before\0after\n")


def numeric_description(tmp: Path) -> Path:
    return _skill(tmp / "num", "name: num\ndescription: 12345\n")


def odd_name(tmp: Path) -> Path:
    folder = _skill(tmp / "oddname", "name: oddname\ndescription: Odd names.\n")
    with open(os.fsencode(folder) + b"/bad\xff.txt", "wb") as fh:
        fh.write(b"x")
    return folder


def deep_folders(tmp: Path) -> Path:
    """A skill whose folders nest 1,200 deep (Python 3.11's os.walk and rglob recurse per level)."""
    folder = _skill(tmp / "deepdir", "name: deepdir\ndescription: Deep folders.\n")
    here = os.open(folder, os.O_RDONLY)
    try:
        for _ in range(1200):  # relative to a descriptor: the whole path would pass PATH_MAX
            os.mkdir("d", dir_fd=here)
            nxt = os.open("d", os.O_RDONLY, dir_fd=here)
            os.close(here)
            here = nxt
        fd = os.open("f", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=here)
        os.close(fd)
    finally:
        os.close(here)
    _deep.append(folder)
    return folder


_deep: list[Path] = []


def _flatten_away(folder: Path) -> None:
    """Remove a 1,200-deep tree one level at a time (shutil.rmtree recurses per level too)."""
    d = folder / "d"
    while d.is_dir():
        inner = d / "d"
        if inner.is_dir():
            os.rename(inner, folder / "d.next")
            for p in d.iterdir():
                p.unlink()
            d.rmdir()
            os.rename(folder / "d.next", d)
        else:
            for p in d.iterdir():
                p.unlink()
            d.rmdir()


@pytest.fixture(autouse=True, scope="module")
def _remove_deep_trees() -> Iterator[None]:
    yield
    for folder in _deep:
        _flatten_away(folder)


def deep_zip(tmp: Path) -> Path:
    z = tmp / "deep.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("deepzip/SKILL.md", "---\nname: deepzip\ndescription: Deep paths.\n---\nbody\n")
        zf.writestr("deepzip/" + "d/" * 1200 + "f", "x")
    return z


def fifo(tmp: Path) -> Path:
    p = tmp / "pipe"
    os.mkfifo(p)
    return p


def fifo_link(tmp: Path) -> Path:
    link = tmp / "link.txt"
    link.symlink_to(fifo(tmp))
    return link


def unix_socket(tmp: Path) -> Path:
    short = Path(tempfile.mkdtemp(prefix="lk-"))  # AF_UNIX paths are short
    p = short / "s"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(p))
    _keep.append(sock)
    return p


_keep: list[socket.socket] = []


def zip_bomb(tmp: Path) -> Path:
    """40 KB that unpack to 40 MB: five 8 MB files of zeros (each under the per-file limit)."""
    z = tmp / "bomb.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("kit/zeros/SKILL.md", "---\nname: zeros\ndescription: Zeros.\n---\nbody\n")
        for i in range(5):
            zf.writestr(f"kit/zeros/assets/zero{i}.bin", b"\0" * (8 * 1024 * 1024))
    return z


def zip_many(tmp: Path) -> Path:
    z = tmp / "many.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("kit/many/SKILL.md", "---\nname: many\ndescription: Many files.\n---\nbody\n")
        for i in range(10_001):
            zf.writestr(f"kit/many/f{i}", b"")
    return z


def zip_device(tmp: Path) -> Path:
    z = tmp / "dev.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("kit/dev/SKILL.md", "---\nname: dev\ndescription: A device inside.\n---\nbody\n")
        info = zipfile.ZipInfo("kit/dev/null")
        info.external_attr = 0o020644 << 16  # a character device
        zf.writestr(info, b"")
    return z


def deep_json(_tmp: Path) -> str:
    return "[" * 50_000 + "]" * 50_000


def non_utf8_recording(tmp: Path) -> Path:
    (tmp / "docs").mkdir()
    (tmp / "docs" / "a.md").write_text("# Notes\nUse tabs.\n", encoding="utf-8")
    p = tmp / "rec.json"
    p.write_bytes(b'{"documents": {"a.md": {"facts": []}}, "note": "\xff\xfe"}')
    return p


# ----------------------------------------------------------------------------- the hostile set

Make = Callable[[Path], "Path | str"]
CASES: list[tuple[str, Make, Callable[[str], list[str]], str]] = [
    ("yaml alias bomb: validate", alias_bomb, lambda p: ["skills", "validate", p], "ERR_INPUT_TOO_COMPLEX"),
    ("yaml alias bomb: import", alias_bomb, lambda p: ["skills", "import", p], "ERR_INPUT_TOO_COMPLEX"),
    ("yaml 20,000 deep", deep_yaml, lambda p: ["skills", "import", p], "ERR_INPUT_TOO_DEEP"),
    ("SKILL.md of 11 MB", big_skill_md, lambda p: ["skills", "import", p], "ERR_INPUT_TOO_LARGE"),
    ("SKILL.md with NUL", nul_skill, lambda p: ["skills", "import", p], "ERR_INVALID_SPEC"),
    ("numeric description", numeric_description, lambda p: ["skills", "import", p], "ERR_INVALID_SPEC"),
    ("non-UTF-8 file name", odd_name, lambda p: ["skills", "import", p], "ERR_NOT_UTF8"),
    ("folders 1,200 deep", deep_folders, lambda p: ["skills", "import", p], "ERR_INPUT_TOO_DEEP"),
    ("market add folders 1,200 deep", deep_folders, lambda p: ["market", "add", p], "ERR_INVALID_SPEC"),
    ("zip paths 1,200 deep", deep_zip, lambda p: ["skills", "import", p], "ERR_ARCHIVE_UNSAFE"),
    ("skills import FIFO", fifo, lambda p: ["skills", "import", p], "ERR_NOT_REGULAR_FILE"),
    ("skills import device", lambda _t: Path("/dev/null"), lambda p: ["skills", "import", p], "ERR_NOT_REGULAR_FILE"),
    ("learn import FIFO", fifo, lambda p: ["learn", "import", p], "ERR_NOT_REGULAR_FILE"),
    (
        "eval --response FIFO",
        fifo,
        lambda p: ["eval", "--skill", "code-review", "--response", p],
        "ERR_NOT_REGULAR_FILE",
    ),
    (
        "eval --response symlink to FIFO",
        fifo_link,
        lambda p: ["eval", "--skill", "code-review", "--response", p],
        "ERR_NOT_REGULAR_FILE",
    ),
    (
        "eval --response socket",
        unix_socket,
        lambda p: ["eval", "--skill", "code-review", "--response", p],
        "ERR_NOT_REGULAR_FILE",
    ),
    ("facts ingest FIFO", fifo, lambda p: ["facts", "ingest", p, "--project", "p"], "ERR_NOT_REGULAR_FILE"),
    (
        "--rule 50,000 deep",
        deep_json,
        lambda j: ["skills", "rules", "add", "code-review", "--rule", j],
        "ERR_INPUT_TOO_DEEP",
    ),
    (
        "facts ingest --recorded non-UTF-8",
        non_utf8_recording,
        lambda p: ["facts", "ingest", str(Path(p).parent / "docs"), "--project", "p", "--recorded", p],
        "ERR_NOT_UTF8",
    ),
    ("market add zip bomb", zip_bomb, lambda p: ["market", "add", p], "ERR_ARCHIVE_UNSAFE"),
    ("skills import zip bomb", zip_bomb, lambda p: ["skills", "import", p], "ERR_ARCHIVE_UNSAFE"),
    ("zip of 10,001 members", zip_many, lambda p: ["skills", "import", p], "ERR_ARCHIVE_UNSAFE"),
    ("zip holding a device", zip_device, lambda p: ["market", "add", p], "ERR_ARCHIVE_UNSAFE"),
]


@pytest.fixture(scope="module")
def closed_workspace(workspace_templates, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One workspace for the whole set (every case proves it wrote nothing), with no connection
    open (the cases hash its database file)."""
    ws = workspace_templates.copy(tmp_path_factory.mktemp("hostile") / "ws")
    root = Path(ws.root)
    ws.close()
    return root


@pytest.mark.parametrize(("make", "argv", "code"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_input_is_refused_with_exit_2_and_nothing_written(
    closed_workspace: Path, tmp_path: Path, make: Make, argv: Callable[[str], list[str]], code: str
) -> None:
    material = tmp_path / "material"
    material.mkdir()
    arg = str(make(material))
    before = _tree(closed_workspace)
    with _alarm(LIMIT_S):
        r = run_lorekeeper("--workspace", str(closed_workspace), *argv(arg), "--json")
    assert r.returncode == 2, (r.returncode, r.stdout[-500:], r.stderr[-500:])
    assert "Traceback" not in r.stderr and "ERR_INTERNAL" not in r.stderr
    out = json.loads(r.stdout)
    error = out.get("error") or out["errors"][0]  # `skills validate` lists every error
    assert error["code"] == code, error
    assert _tree(closed_workspace) == before


def test_the_hooks_keep_their_contract_on_hostile_input(closed_workspace: Path, tmp_path: Path) -> None:
    """A hook never breaks the agent: a FIFO transcript or a 50,000-deep payload is refused, the
    hook prints nothing, exits 0 within the limit, and hooks.log names the refusal."""
    pipe = fifo(tmp_path)
    stop = json.dumps({"hook_event_name": "Stop", "transcript_path": str(pipe)})
    with _alarm(LIMIT_S):
        r = run_lorekeeper("hooks", "claude-code", "stop", "--workspace", str(closed_workspace), input=stop)
    assert r.returncode == 0 and r.stdout == ""
    with _alarm(LIMIT_S):
        r = run_lorekeeper(
            "hooks",
            "claude-code",
            "user-prompt-submit",
            "--workspace",
            str(closed_workspace),
            input=deep_json(tmp_path),
        )
    assert r.returncode == 0 and r.stdout == ""
    log = (closed_workspace / "logs" / "hooks.log").read_text(encoding="utf-8")
    assert f"ERR_NOT_REGULAR_FILE: {pipe}" in log and "ERR_INPUT_TOO_DEEP" in log


def _process(args: list[str], stdin: int = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    # the timeout leaves room for an interpreter start on a loaded machine, still far from "forever"
    cmd = [sys.executable, "-m", "lorekeeper", *args]
    return subprocess.run(cmd, stdin=stdin, capture_output=True, text=True, timeout=LIMIT_S * 3)


def test_dev_zero_is_refused_as_a_file_and_capped_as_stdin(closed_workspace: Path) -> None:
    """/dev/zero as a response file is refused before a byte is read (a real process: unbounded
    code would read forever); stdin is read only up to its limit."""
    ws = str(closed_workspace)
    cmd = [sys.executable, "-m", "lorekeeper", "--workspace", ws, "eval", "--skill", "code-review"]
    # the timeout leaves room for an interpreter start on a loaded machine, still far from "forever"
    r = subprocess.run([*cmd, "--response", "/dev/zero", "--json"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert json.loads(r.stdout)["error"]["code"] == "ERR_NOT_REGULAR_FILE"
    before = _tree(closed_workspace)
    with _alarm(LIMIT_S):
        r = run_lorekeeper(*cmd[3:], "--response", "-", "--json", input=b"\0" * (32 * 1024 * 1024 + 1))
    assert r.returncode == 2 and json.loads(r.stdout)["error"]["code"] == "ERR_INPUT_TOO_LARGE"
    assert _tree(closed_workspace) == before

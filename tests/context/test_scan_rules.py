"""The walk a pack reads: git's own ignore rules, secrets left out, only regular files opened."""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from lorekeeper.cli import main
from lorekeeper.context.pack import pack
from lorekeeper.context.scan import SECRET_REASON, scan

# a file big enough that a pack of the tree is more than its header (tiny trees are another issue)
APP = "".join(
    f"def handler_{i}(request, retries=3):\n    return request.get('item_{i}', retries)\n\n" for i in range(40)
)
GIT = ["git", "-c", "core.excludesFile=/dev/null", "-c", "core.quotePath=false"]


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def _git_kept(root: Path) -> set[str]:
    """The files git would not ignore in `root` (a fresh repository, nothing tracked)."""
    out = subprocess.run(
        [*GIT, "ls-files", "--others", "--exclude-standard", "-z"], cwd=root, capture_output=True, check=True
    ).stdout.decode()
    kept = {p for p in out.split("\0") if p}
    every = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and ".git" not in p.parts)
    # and file by file, as `git check-ignore` sees it: the two views must agree
    ignored = subprocess.run(
        [*GIT, "check-ignore", "--no-index", "--stdin", "-z"],
        cwd=root,
        input="\0".join(every).encode(),
        capture_output=True,
    ).stdout.decode()
    assert kept == set(every) - {p for p in ignored.split("\0") if p}
    return kept


def _ours(root: Path) -> set[str]:
    sources, _ = scan(root, include_secrets=True)
    return {s.rel for s in sources}


CASES: list[dict[str, str]] = [
    {  # the three leaks
        ".gitignore": "*.log\n!keep.log\ndocs/*.md\n",
        "a.log": "x",
        "keep.log": "x",
        "sub/keep.log": "x",
        "docs/a.md": "x",
        "docs/deep/inner.md": "x",
        "sub/.gitignore": "local.txt\n",
        "sub/local.txt": "SECRET=1",
        "local.txt": "kept: the nested rule is relative to sub/",
    },
    {  # anchored, directory-only and ** patterns
        ".gitignore": "/top.txt\nout/\n**/gen/*.py\nlib/**/tmp\n",
        "top.txt": "x",
        "a/top.txt": "x",
        "out/x.py": "x",
        "a/out/y.py": "x",
        "out.py": "x",
        "a/gen/m.py": "x",
        "gen/n.py": "x",
        "gen/keep.txt": "x",
        "lib/a/b/tmp": "x",
        "lib/tmp/z.py": "x",
        "tmp": "x",
    },
    {  # whitelisting: ignore all, re-include directories and .py files; a deeper file overrides
        ".gitignore": "*\n!*/\n!*.py\n",
        "a.txt": "x",
        "m.py": "x",
        "pkg/n.py": "x",
        "pkg/data.json": "x",
        "pkg/.gitignore": "!data.json\nn.py\n",
    },
    {  # an excluded directory cannot be re-included from inside; escapes and trailing spaces
        ".gitignore": "logs/\n!logs/keep.txt\n\\#hash.py\n\\!bang.py\ntrail.py   \n# comment\n",
        "logs/keep.txt": "x",
        "#hash.py": "x",
        "!bang.py": "x",
        "trail.py": "x",
        "plain.py": "x",
    },
]


def _generated(seed: int) -> dict[str, str]:
    """A random tree with random ignore files at several depths (deterministic per seed)."""
    rnd = random.Random(seed)
    dirs = ["", "a", "a/b", "c", "a/b/c", "docs", "docs/deep"]
    names = ["x.py", "y.txt", "z.md", "keep.log", "w.log", "data.json", "c", "b"]
    pats = ["*.log", "!keep.log", "*.md", "/x.py", "b/", "c", "!c", "docs/*.md", "**/deep", "*.txt", "!y.txt", "a/b/"]
    pats += ["!*/", "*", "!*.py", "/*/z.md", "deep/", "!data.json", "**/*.json", "b/**"]
    files: dict[str, str] = {}
    for d in dirs:
        for n in rnd.sample(names, 4):
            if not any(f == f"{d}/{n}".lstrip("/") or f.startswith(f"{d}/{n}/".lstrip("/")) for f in files):
                files[f"{d}/{n}".lstrip("/")] = "x"
    for d in rnd.sample(dirs, 3):
        files[f"{d}/.gitignore".lstrip("/")] = "\n".join(rnd.sample(pats, rnd.randint(1, 5))) + "\n"
    # a file and a directory of the same name cannot coexist: keep the directory
    return {f: t for f, t in files.items() if not any(o.startswith(f + "/") for o in files)}


@pytest.mark.parametrize("case", range(len(CASES) + 8))
def test_ignore_rules_match_git(tmp_path: Path, case: int) -> None:
    files = CASES[case] if case < len(CASES) else _generated(case)
    _write(tmp_path, files)
    subprocess.run([*GIT, "init", "-q"], cwd=tmp_path, check=True)
    if case == 1:
        (tmp_path / ".git/info/exclude").write_text("a/gen/\n")
    assert _ours(tmp_path) == _git_kept(tmp_path)


def test_nested_gitignore_never_leaks_into_a_pack(tmp_path: Path) -> None:
    _write(tmp_path, CASES[0] | {"app.py": APP})
    result = pack(tmp_path)
    assert "SECRET=1" not in result.text
    rels = {e.rel for e in result.entries}
    assert "sub/local.txt" not in rels and "docs/a.md" not in rels
    assert {"keep.log", "sub/keep.log", "docs/deep/inner.md", "local.txt"} <= rels


def test_lorekeeperignore_overrides_gitignore_and_works_without_git(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            ".gitignore": "*.gen.py\n",
            ".lorekeeperignore": "fixtures/\n!keep.gen.py\n",
            "fixtures/big.py": "x = 1\n",
            "a.gen.py": "x = 1\n",
            "keep.gen.py": "x = 1\n",
            "pkg/.lorekeeperignore": "private.py\n",
            "pkg/private.py": "TOKEN = 'x'\n",
            "pkg/public.py": "x = 1\n",
        },
    )
    assert _ours(tmp_path) == {
        ".gitignore",
        ".lorekeeperignore",
        "keep.gen.py",
        "pkg/.lorekeeperignore",
        "pkg/public.py",
    }


def test_a_subdirectory_of_a_repository_keeps_the_rules_above_it(tmp_path: Path) -> None:
    _write(
        tmp_path, {".gitignore": "secret.txt\nsrc/gen/\n", "src/secret.txt": "x", "src/gen/a.py": "x", "src/a.py": "x"}
    )
    subprocess.run([*GIT, "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".git/info/exclude").write_text("/src/local.py\n")
    (tmp_path / "src/local.py").write_text("x")
    assert _ours(tmp_path / "src") == {"a.py"}


def test_a_relative_folder_inside_a_repository_is_packed_with_its_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `lorekeeper ctx pack src` run from the repository's top: was ERR_INTERNAL (a relative root
    # compared with the repository's absolute top)
    _write(tmp_path, {".gitignore": "secret.txt\n", "src/secret.txt": "SECRET=1", "src/app.py": APP})
    subprocess.run([*GIT, "init", "-q"], cwd=tmp_path, check=True)
    monkeypatch.chdir(tmp_path)
    assert {s.rel for s in scan(Path("src"))[0]} == {"app.py"}
    out = CliRunner().invoke(main, ["ctx", "pack", "src", "--budget", "4000", "--no-cache", "--json"])
    assert out.exit_code == 0, out.output
    text = json.loads(out.output)["text"]
    assert "handler_1" in text and "SECRET=1" not in text


def test_secrets_are_left_out_and_reported(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            ".env": "API_KEY=sk-live-1\n",
            ".env.production": "DB_PASSWORD=hunter2\n",
            ".env.example": "API_KEY=\n",
            "deploy/id_rsa": "-----BEGIN OPENSSH PRIVATE KEY-----\n",
            "deploy/id_rsa.pub": "ssh-ed25519 AAAA\n",
            "certs/server.pem": "-----BEGIN PRIVATE KEY-----\n",
            "app.py": APP,
        },
    )
    result = pack(tmp_path)
    for leaked in ("sk-live-1", "hunter2", "PRIVATE KEY"):
        assert leaked not in result.text
    payload = json.loads(json.dumps(result.to_dict()))
    reported = {s["rel"]: s["reason"] for s in payload["skipped"]}
    assert {r for r, why in reported.items() if why == SECRET_REASON} == {
        ".env",
        ".env.production",
        "deploy/id_rsa",
        "certs/server.pem",
    }
    assert {e.rel for e in result.entries} == {".env.example", "deploy/id_rsa.pub", "app.py"}
    notes = result.text.split("\n===", 1)[0]  # the pack's notes name them too
    assert "# left out as likely secrets: .env, .env.production, certs/server.pem, deploy/id_rsa" in notes
    assert ".env" in _ours(tmp_path)  # on request they are read


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")
def test_only_regular_files_are_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text("OUTSIDE = 1\n")
    root = tmp_path / "tree"
    _write(root, {"app.py": APP, "pkg/real.py": "X = 1\n"})
    os.mkfifo(root / "pipe")
    (root / "zero").symlink_to("/dev/zero")
    (root / "null.py").symlink_to("/dev/null")
    (root / "out.py").symlink_to(outside)
    (root / "dirlink").symlink_to(tmp_path)
    (root / "alias.py").symlink_to(root / "pkg/real.py")
    (root / "dangling.py").symlink_to(root / "missing.py")
    sock = socket.socket(socket.AF_UNIX)
    with contextlib.suppress(OSError):  # a path too long for AF_UNIX: the socket case is then not tested
        sock.bind(str(root / "sock"))
    sources, skipped = scan(root)
    assert {s.rel for s in sources} == {"app.py", "pkg/real.py", "alias.py"}
    why = {s.rel: s.reason for s in skipped}
    assert why["pipe"] == "a FIFO"
    assert why["zero"] == "a symlink to a character device"
    assert why["null.py"] == "a symlink to a character device"
    assert why["out.py"] == "a symlink leading outside the tree"
    assert why["dirlink"].startswith("a symlink to a directory")
    assert why["dangling.py"] == "a broken symlink"
    if (root / "sock").exists():
        assert why["sock"] == "a socket"
    sock.close()
    result = pack(root)  # returns (a FIFO would block a plain open forever)
    assert "OUTSIDE" not in result.text
    # the pack's header names each one with its reason (it only counted them)
    header = next(ln for ln in result.text.splitlines() if ln.startswith("# skipped, not regular files:"))
    for rel in ("pipe", "zero", "null.py", "out.py", "dirlink", "dangling.py"):
        assert f"{rel} ({why[rel]})" in header


@pytest.mark.skipif(os.name != "posix", reason="byte file names")
def test_file_names_of_any_encoding(tmp_path: Path) -> None:
    raw = os.fsencode(str(tmp_path)) + b"/caf\xe9.py"  # latin-1, not UTF-8
    try:
        with open(raw, "wb") as f:
            f.write(b"def cafe():\n    return 1\n" + APP.encode())
    except OSError:
        pytest.skip("the file system refuses non-UTF-8 names")
    (tmp_path / "ok.py").write_text(APP)
    result = pack(tmp_path)
    assert {e.rel for e in result.entries} == {"caf\\xe9.py", "ok.py"}
    json.dumps(result.to_dict(), ensure_ascii=False).encode("utf-8")  # printable as UTF-8
    result.text.encode("utf-8")
    res = CliRunner().invoke(main, ["ctx", "pack", str(tmp_path), "--json"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "caf\\\\xe9.py" in res.output and "ERR_" not in res.output


def test_include_secrets_flag_packs_them_deliberately_with_a_warning(tmp_path: Path) -> None:
    _write(tmp_path, {".env": "API_KEY=sk-live-1\n", "app.py": APP})
    runner = CliRunner()
    plain = runner.invoke(main, ["ctx", "pack", str(tmp_path), "--no-cache"])
    assert plain.exit_code == 0, plain.output
    assert "sk-live-1" not in plain.stdout and "warning" not in plain.stderr
    asked = runner.invoke(main, ["ctx", "pack", str(tmp_path), "--no-cache", "--include-secrets"])
    assert asked.exit_code == 0, asked.output
    assert "sk-live-1" in asked.stdout
    assert "warning: --include-secrets: the pack holds files that look like secrets: .env" in asked.stderr

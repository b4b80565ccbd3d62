"""Issue 24 d6, judged from outside: the hostile inputs `test_hostile_input.py` does not cover —
marketplace sources (zip and folder) carrying bombs, deep JSON, special files and odd names;
special files inside the folders `skills import`, `facts ingest` and `ctx pack` walk; symlinks to
devices. Each one: exit 2 within 10 s, a stable code, no traceback, and the workspace's files
(the database included: no connection is open) byte for byte the same.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from helpers.cli import run_lorekeeper
from market.market_fixture import make_marketplace

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
    out: dict[str, str] = {}
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            p = Path(dirpath, name)
            out[p.relative_to(root).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


# ----------------------------------------------------------------------------- marketplaces


def _zip_market(tmp: Path, extra: Callable[[zipfile.ZipFile], None]) -> Path:
    """A zipped copy of the fixture marketplace with `extra` members added."""
    src = make_marketplace(tmp / "src" / "team-market")
    z = tmp / "team-market.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in sorted(src.rglob("*")):
            if p.is_file():
                zf.write(p, "team-market/" + p.relative_to(src).as_posix())
        extra(zf)
    return z


def market_ratio_bomb(tmp: Path) -> Path:
    """One 9 MB member of zeros (under the per-file limit) in a 10 KB archive: ratio ~1000."""
    return _zip_market(
        tmp, lambda zf: zf.writestr("team-market/plugins/docs-kit/skills/pdf-forms/zeros.bin", b"\0" * (9 << 20))
    )


def market_many(tmp: Path) -> Path:
    def extra(zf: zipfile.ZipFile) -> None:
        for i in range(10_001):
            zf.writestr(f"team-market/plugins/ops-kit/skills/outage-runbook/f{i}", b"")

    return _zip_market(tmp, extra)


def market_escape(tmp: Path) -> Path:
    return _zip_market(tmp, lambda zf: zf.writestr("team-market/../../escaped.txt", b"x"))


def market_symlink_member(tmp: Path) -> Path:
    def extra(zf: zipfile.ZipFile) -> None:
        info = zipfile.ZipInfo("team-market/plugins/docs-kit/skills/pdf-forms/passwd")
        info.external_attr = (0o120777) << 16  # a symlink to /etc/passwd
        zf.writestr(info, "/etc/passwd")

    return _zip_market(tmp, extra)


def market_deep_json(tmp: Path) -> Path:
    root = make_marketplace(tmp / "deep" / "team-market")
    listing = root / ".claude-plugin" / "marketplace.json"
    data = json.loads(listing.read_text(encoding="utf-8"))
    listing.write_text(json.dumps(data)[:-1] + ', "x": ' + "[" * 50_000 + "]" * 50_000 + "}", encoding="utf-8")
    return root


def market_yaml_bomb(tmp: Path) -> Path:
    root = make_marketplace(tmp / "bomb" / "team-market")
    lines = ["name: outage-runbook", "description: A billion laughs.", 'a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    skill = root / "plugins" / "ops-kit" / "skills" / "outage-runbook" / "SKILL.md"
    skill.write_text("---\n" + "\n".join(lines) + "\n---\nbody\n", encoding="utf-8")
    return root


def market_fifo(tmp: Path) -> Path:
    root = make_marketplace(tmp / "fifo" / "team-market")
    os.mkfifo(root / "plugins" / "docs-kit" / "skills" / "pdf-forms" / "pipe")
    return root


def market_listing_fifo(tmp: Path) -> Path:
    root = make_marketplace(tmp / "lfifo" / "team-market")
    listing = root / ".claude-plugin" / "marketplace.json"
    listing.unlink()
    os.mkfifo(listing)
    return root


def market_listing_to_dev_zero(tmp: Path) -> Path:
    root = make_marketplace(tmp / "lzero" / "team-market")
    listing = root / ".claude-plugin" / "marketplace.json"
    listing.unlink()
    listing.symlink_to("/dev/zero")
    return root


def market_non_utf8_listing(tmp: Path) -> Path:
    root = make_marketplace(tmp / "latin" / "team-market")
    listing = root / ".claude-plugin" / "marketplace.json"
    listing.write_bytes(listing.read_bytes().replace(b'"Team"', b'"T\xe9am"'))
    return root


# ----------------------------------------------------------------------------- folders


def _skill(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(f"---\nname: {folder.name}\ndescription: A skill.\n---\nbody\n", encoding="utf-8")
    return folder


def skill_with_fifo(tmp: Path) -> Path:
    folder = _skill(tmp / "withfifo")
    os.mkfifo(folder / "pipe")
    return folder


def skill_with_dev_zero_link(tmp: Path) -> Path:
    folder = _skill(tmp / "withzero")
    (folder / "zero.bin").symlink_to("/dev/zero")
    return folder


def skill_md_to_fifo(tmp: Path) -> Path:
    folder = tmp / "mdfifo"
    folder.mkdir()
    os.mkfifo(folder / "SKILL.md")
    return folder


def docs_with_fifo(tmp: Path) -> Path:
    docs = tmp / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Notes\n\nUse tabs.\n", encoding="utf-8")
    os.mkfifo(docs / "b.md")
    return docs


def docs_with_dev_zero(tmp: Path) -> Path:
    docs = tmp / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Notes\n\nUse tabs.\n", encoding="utf-8")
    (docs / "zero.md").symlink_to("/dev/zero")
    return docs


def learnings_link_to_dev_zero(tmp: Path) -> Path:
    link = tmp / "learnings.md"
    link.symlink_to("/dev/zero")
    return link


def rules_link_to_fifo(tmp: Path) -> Path:
    os.mkfifo(tmp / "pipe")
    link = tmp / "rules.json"
    link.symlink_to(tmp / "pipe")
    return link


Make = Callable[[Path], Path]
CASES: list[tuple[str, Make, Callable[[str], list[str]], tuple[str, ...]]] = [
    ("market add: zip ratio 1000", market_ratio_bomb, lambda p: ["market", "add", p], ("ERR_ARCHIVE_UNSAFE",)),
    ("market add: zip of 10,001 members", market_many, lambda p: ["market", "add", p], ("ERR_ARCHIVE_UNSAFE",)),
    ("market add: zip member ../", market_escape, lambda p: ["market", "add", p], ("ERR_ARCHIVE_UNSAFE",)),
    ("market add: zip symlink member", market_symlink_member, lambda p: ["market", "add", p], ("ERR_ARCHIVE_UNSAFE",)),
    ("market add: 50,000-deep listing", market_deep_json, lambda p: ["market", "add", p], ("ERR_INPUT_TOO_DEEP",)),
    ("market add: listing is a FIFO", market_listing_fifo, lambda p: ["market", "add", p], ("ERR_NOT_REGULAR_FILE",)),
    (
        "market add: listing -> /dev/zero",
        market_listing_to_dev_zero,
        lambda p: ["market", "add", p],
        ("ERR_NOT_REGULAR_FILE",),
    ),
    ("market add: non-UTF-8 listing", market_non_utf8_listing, lambda p: ["market", "add", p], ("ERR_NOT_UTF8",)),
    ("skills import: FIFO inside", skill_with_fifo, lambda p: ["skills", "import", p], ("ERR_INVALID_SPEC",)),
    (
        "skills import: link to /dev/zero inside",
        skill_with_dev_zero_link,
        lambda p: ["skills", "import", p],
        ("ERR_INVALID_SPEC",),
    ),
    ("skills validate: SKILL.md is a FIFO", skill_md_to_fifo, lambda p: ["skills", "validate", p], ("ERR_NOT_REGULAR_FILE",)),
    ("learn import: link to /dev/zero", learnings_link_to_dev_zero, lambda p: ["learn", "import", p], ("ERR_NOT_REGULAR_FILE",)),
    (
        "eval --rules: link to a FIFO",
        rules_link_to_fifo,
        lambda p: ["eval", "--rules", p, "--response", "-", "--no-record"],
        ("ERR_NOT_REGULAR_FILE",),
    ),
]  # fmt: skip


@pytest.fixture(scope="module")
def closed_workspace(workspace_templates, tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = workspace_templates.copy(tmp_path_factory.mktemp("hostile-judge") / "ws")
    root = Path(ws.root)
    ws.close()
    return root


@pytest.mark.parametrize(("make", "argv", "codes"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_input_is_refused_with_exit_2_and_nothing_written(
    closed_workspace: Path, tmp_path: Path, make: Make, argv: Callable[[str], list[str]], codes: tuple[str, ...]
) -> None:
    material = tmp_path / "material"
    material.mkdir()
    arg = str(make(material))
    before = _tree(closed_workspace)
    with _alarm(LIMIT_S):
        r = run_lorekeeper("--workspace", str(closed_workspace), *argv(arg), "--json", input="An answer.\n")
    assert r.returncode == 2, (r.returncode, r.stdout[-500:], r.stderr[-500:])
    assert "Traceback" not in r.stderr and "ERR_INTERNAL" not in r.stdout + r.stderr
    out = json.loads(r.stdout)
    error = out.get("error") or out["errors"][0]
    assert error["code"] in codes, error
    assert material.name in json.dumps(error)  # the path is named (the deep listing's too, since 2026-12-03)
    assert _tree(closed_workspace) == before


@pytest.mark.parametrize(
    ("make", "skill", "why"),
    [(market_yaml_bomb, "outage-runbook", "alias bomb"), (market_fifo, "pdf-forms", "not a regular file")],
    ids=["YAML bomb", "FIFO"],
)
def test_a_hostile_skill_in_a_marketplace_is_refused_in_time(
    workspace, tmp_path: Path, make: Make, skill: str, why: str
) -> None:
    """The source is added (its other skills are fine); the hostile skill is listed as refused,
    never offered, and `market install` of it fails without a traceback."""
    root = workspace.root
    workspace.close()
    source = make(tmp_path)
    with _alarm(LIMIT_S):
        r = run_lorekeeper("--workspace", str(root), "market", "add", str(source), "--json")
    assert r.returncode in (0, 2) and "Traceback" not in r.stderr, (r.stdout[-500:], r.stderr[-500:])
    assert why in r.stdout
    with _alarm(LIMIT_S):
        r = run_lorekeeper("--workspace", str(root), "market", "install", skill, "--json")
    assert r.returncode in (2, 3) and "Traceback" not in r.stderr, (r.stdout[-500:], r.stderr[-500:])
    assert not (root / "skills" / skill).exists()


@pytest.mark.parametrize("make", [docs_with_fifo, docs_with_dev_zero])
def test_facts_ingest_names_the_special_files_it_skips(closed_workspace: Path, tmp_path: Path, make: Make) -> None:
    docs = make(tmp_path)
    special = next(p.name for p in docs.iterdir() if p.name != "a.md")
    with _alarm(LIMIT_S):
        r = run_lorekeeper(
            "--workspace",
            str(closed_workspace),
            "facts",
            "ingest",
            str(docs),
            "--project",
            "p",
            "--no-extract",
            "--json",
        )
    assert r.returncode == 0 and "Traceback" not in r.stderr, (r.stdout[-500:], r.stderr[-500:])
    skipped = {s["origin"]: s["reason"] for s in json.loads(r.stdout)["skipped"]}
    assert "not a regular file" in skipped[special]


def test_ctx_pack_skips_or_refuses_special_files_and_odd_names(tmp_path: Path) -> None:
    """`ctx pack` walks a code tree: a FIFO, a link to /dev/zero and a non-UTF-8 file name inside
    it never hang it or give exit 5 (skipped, or refused with exit 2)."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text("def f():\n    return 1\n\n\ndef g():\n    return f()\n", encoding="utf-8")
    os.mkfifo(src / "pipe.py")
    (src / "zero.py").symlink_to("/dev/zero")
    with open(os.fsencode(src) + b"/bad\xff.py", "wb") as fh:
        fh.write(b"x = 1\n")
    out = tmp_path / "pack.md"
    with _alarm(LIMIT_S):
        r = run_lorekeeper("ctx", "pack", str(src), "--budget", "4000", "-o", str(out), "--json")
    assert r.returncode in (0, 2), (r.returncode, r.stdout[-500:], r.stderr[-500:])
    assert "Traceback" not in r.stderr and "ERR_INTERNAL" not in r.stdout + r.stderr

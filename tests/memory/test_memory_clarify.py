"""B2: the clarification flow. The verbatim reaches the sanitizer on its stdin only; no byte of it is
written under the workspace (files, store, session log, error log), into a temp file or into any
argv; the summary passes the PII gate, is validated, then written with the seed's front matter."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from datetime import date
from pathlib import Path

import frontmatter
import pytest
from memory_support import events

from helpers.cli import run_lorekeeper

PHRASE = "Quokka lighthouse marmalade protocol"
ANSWERS = (
    f"Our customer Marie Curie (marie.curie@example.org, +33 6 12 34 56 78) wants the {PHRASE} for invoice exports.\n"
    "---\n"
    "The nightly export finishes under five minutes and totals match the ledger.\n"
    "---\n"
    "No new database; it must run on the existing cron host at 12 rue des Lilas.\n"
    "---\n"
    "Must-have: CSV export. Nice-to-have: a PDF summary.\n"
)


def _all_bytes_under(root: Path) -> list[tuple[Path, bytes]]:
    return [(p, p.read_bytes()) for p in root.rglob("*") if p.is_file()]


@pytest.fixture
def popen_calls(monkeypatch):
    """Every process started, with its argv and environment."""
    calls: list[tuple[list[str], dict[str, str]]] = []
    real = subprocess.Popen

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, args, *a, **kw):
            calls.append(([str(x) for x in args], dict(kw.get("env") or os.environ)))
            super().__init__(args, *a, **kw)

    monkeypatch.setattr(subprocess, "Popen", Recording)
    return calls


def test_verbatim_reaches_no_file_argv_or_log_and_the_summary_is_kept(workspace, popen_calls) -> None:
    ws = workspace
    started = time.time()
    out = run_lorekeeper(
        "clarify",
        "PD-77",
        "--domain",
        "billing",
        "--project",
        "backend",
        "--yes",
        "--json",
        "--date",
        "2026-04-11",
        "--workspace",
        str(ws.root),
        input=ANSWERS,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["validated"] is True
    path = Path(data["written"])
    assert path == Path(ws.root) / "clarifications" / "PD-77-clarifications.md"
    post = frontmatter.loads(path.read_text(encoding="utf-8"))
    assert post.metadata == {
        "story": "PD-77",
        "step": 0,
        "date": date(2026, 4, 11),
        "domain": "billing",
        "project": "backend",
        "retention_until": date(2027, 10, 11),
    }  # date + 18 months
    assert path.read_text(encoding="utf-8").startswith(
        "---\nstory: PD-77\nstep: 0\ndate: 2026-04-11\ndomain: billing\nproject: backend\nretention_until: 2027-10-11\n---\n"
    )
    assert "## Critères de succès" in post.content
    # no byte of the verbatim anywhere: the workspace (files, store, WAL, session log, error log)...
    needles = [PHRASE.encode(), PHRASE.lower().encode(), b"marie.curie@example.org", b"rue des Lilas", b"Marie Curie"]
    for p, blob in _all_bytes_under(Path(ws.root)):
        for n in needles:
            assert n not in blob, f"{n!r} found in {p}"
    # ...no new temp file, no argv and no environment of any process started
    for top in Path(tempfile.gettempdir()).iterdir():  # what appeared in the temp folder meanwhile
        try:
            if top.name.startswith("pytest-of-") or top.stat().st_mtime < started:
                continue
            for p in [top] if top.is_file() else top.rglob("*"):
                if p.is_file() and p.stat().st_size < 10_000_000:
                    assert PHRASE.encode() not in p.read_bytes(), p
        except OSError:
            continue
    assert popen_calls, "the sanitizer runs as a child process"
    for argv, env in popen_calls:
        assert not any(PHRASE in a for a in argv)
        assert not any(PHRASE in v for v in env.values())
    assert popen_calls[0][0][1:] == ["-m", "lorekeeper.privacy.sanitizer"]
    assert popen_calls[0][1]["CLAUDE_DISABLE_SESSION_LOG"] == "1"
    # the invocation is a signed event without content; the summary is indexed
    ev = events(ws, "verbatim_subprocess_invoked")  # the intent, before the call
    assert len(ev) == 1 and ev[0]["sig"] and ev[0]["story"] == "PD-77"
    assert ev[0]["content"]["data"] == {
        "story_id": "PD-77",
        "subprocess_name": "lorekeeper.privacy.sanitizer",
        "duration_ms": None,
        "success": None,
    }
    done = events(ws, "verbatim_subprocess_completed")  # its outcome, bound to the intent
    assert len(done) == 1 and done[0]["seq"] > ev[0]["seq"] and done[0]["story"] == "PD-77"
    assert set(done[0]["content"]["data"]) == {"story_id", "subprocess_name", "duration_ms", "success", "intent_sig"}
    assert done[0]["content"]["data"]["success"] is True and done[0]["content"]["data"]["intent_sig"] == ev[0]["sig"]
    from lorekeeper.memory.indexes import Filters

    flt = Filters.of(domain="billing", project="backend")  # a clarification search is per domain and project
    hits = ws.memory.search("invoice export ledger", "clarifications", filters=flt, top=3)
    assert [h.doc.key for h in hits] == ["PD-77"]


def test_a_rejection_keeps_nothing(workspace) -> None:
    ws = workspace
    out = run_lorekeeper(
        "clarify",
        "PD-78",
        "--domain",
        "billing",
        "--project",
        "backend",
        "--no",
        "--json",
        "--workspace",
        str(ws.root),
        input=ANSWERS,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["validated"] is False
    assert not (Path(ws.root) / "clarifications" / "PD-78-clarifications.md").exists()
    assert ws.clarifications.list() == []
    for p, blob in _all_bytes_under(Path(ws.root)):
        assert PHRASE.encode() not in blob and PHRASE.lower().encode() not in blob, p


def test_a_summary_that_still_holds_personal_data_is_refused(workspace, ollama_server) -> None:
    """With a model, the summary is the model's (temperature 0.2); the PII gate refuses it."""
    from helpers.fake_llm import Behaviour

    ws = workspace
    leaky = {
        "problem": "Call the client on 06 12 34 56 78.",
        "criteria": "Fast.",
        "constraints": "None.",
        "priorities": "CSV.",
    }
    ollama_server.behaviour = Behaviour(reply=lambda body: json.dumps(leaky))
    from lorekeeper.llm.base import LLMSettings

    ws.llm.configure(LLMSettings(provider="ollama", model="llama3.2", base_url=ollama_server.url))
    out = run_lorekeeper(
        "clarify",
        "PD-79",
        "--domain",
        "billing",
        "--project",
        "backend",
        "--yes",
        "--json",
        "--workspace",
        str(ws.root),
        input=ANSWERS,
    )
    assert out.returncode == 2
    assert json.loads(out.stdout)["error"]["code"] == "ERR_PII_DETECTED"
    assert "06 12" not in out.stderr  # the gate names kinds and places, never the data
    assert not (Path(ws.root) / "clarifications" / "PD-79-clarifications.md").exists()
    chat = [r for r in ollama_server.posts() if r.path.startswith("/api/chat")]
    assert chat and chat[-1].body["options"]["temperature"] == 0.2


@pytest.mark.parametrize("refusal", ["chain_broken", "key_missing"])
def test_the_verbatim_is_not_sent_when_the_log_refuses_the_intent(workspace, popen_calls, refusal) -> None:
    """A broken chain (the day file cut behind the signed head) or a missing key refuses the
    `verbatim_subprocess_invoked` intent: the sanitizer is never started, nothing is written."""
    import keyring

    from lorekeeper.audit.providers import KEYRING_SERVICE

    ws = workspace
    ws.audit.log.append("probe", {"n": 1})
    ws.audit.log.append("probe", {"n": 2})
    if refusal == "chain_broken":
        day = sorted((Path(ws.root) / "sessions").glob("*.jsonl"))[-1]
        lines = day.read_text(encoding="utf-8").splitlines(keepends=True)
        day.write_text("".join(lines[:-1]), encoding="utf-8")  # the last event cut: the head disagrees
        code = "ERR_AUDIT_CHAIN_BROKEN"
    else:
        for suffix in ("", ":v1", ":version"):
            keyring.delete_password(KEYRING_SERVICE, f"audit-hmac:{ws.audit.workspace_id}{suffix}")
        code = "ERR_AUDIT_KEY_UNAVAILABLE"
    before = {p: b for p, b in _all_bytes_under(Path(ws.root)) if p.parent.name == "sessions"}
    out = run_lorekeeper(
        "clarify",
        "PD-80",
        "--domain",
        "billing",
        "--project",
        "backend",
        "--yes",
        "--json",
        "--workspace",
        str(ws.root),
        input=ANSWERS,
    )
    assert out.returncode == 4, out.stdout + out.stderr
    assert json.loads(out.stdout)["error"]["code"] == code
    assert not [argv for argv, _env in popen_calls if "lorekeeper.privacy.sanitizer" in argv]
    assert events(ws, "verbatim_subprocess_invoked") == []
    assert {p: b for p, b in _all_bytes_under(Path(ws.root)) if p.parent.name == "sessions"} == before
    assert not (Path(ws.root) / "clarifications" / "PD-80-clarifications.md").exists()
    assert ws.clarifications.list() == []


def test_the_intent_is_in_the_log_before_the_sanitizer_starts(workspace, monkeypatch) -> None:
    """When the sanitizer process starts, its signed intent is already on disk in the day file."""
    ws = workspace
    seen: list[int] = []
    real = subprocess.Popen

    class Checking(real):  # type: ignore[misc, valid-type]
        def __init__(self, args, *a, **kw):
            if "lorekeeper.privacy.sanitizer" in [str(x) for x in args]:
                seen.append(len(events(ws, "verbatim_subprocess_invoked")))
            super().__init__(args, *a, **kw)

    monkeypatch.setattr(subprocess, "Popen", Checking)
    out = run_lorekeeper(
        "clarify",
        "PD-81",
        "--domain",
        "billing",
        "--project",
        "backend",
        "--yes",
        "--json",
        "--workspace",
        str(ws.root),
        input=ANSWERS,
    )
    assert out.returncode == 0, out.stderr
    assert seen == [1]
    assert len(events(ws, "verbatim_subprocess_completed")) == 1

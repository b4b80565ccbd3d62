"""Helpers of the memory tests: research notes, learnings, clarifications written through the services."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

NOTE = """---
verdict: {verdict}
impact: {impact}
date: {date}
tags: [{tags}]
{extra}---

# {title}

{summary}

## Details

{body}
"""


def write_note(
    ws: Any,
    name: str,
    title: str,
    summary: str,
    *,
    verdict: str = "signal",
    impact: str = "fort",
    date: str = "2026-11-01",
    tags: str = "memory",
    body: str = "",
    extra: str = "",
) -> Path:
    p = Path(ws.root) / "sources" / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(
        NOTE.format(
            verdict=verdict,
            impact=impact,
            date=date,
            tags=tags,
            title=title,
            summary=summary,
            body=body or summary,
            extra=extra,
        ),
        encoding="utf-8",
    )
    return p


def collect(ws: Any) -> dict[str, Any]:
    from lorekeeper.memory.collect import collect as run

    return run(ws.store, ws.memory_layout, ws.clarifications).to_dict()


def add_clarification(
    ws: Any, story: str, domain: str, project: str, day: str = "2026-10-01", text: str = "export invoices"
) -> None:
    from datetime import date

    ws.clarifications.add_validated(
        story,
        domain,
        project,
        {
            "problem": f"The team needs {text}.",
            "criteria": "Runs nightly under five minutes.",
            "constraints": "No new database.",
            "priorities": "Must-have CSV; nice-to-have PDF.",
        },
        day=date.fromisoformat(day),
    )


def old(days: int) -> datetime:
    return datetime.now(UTC) - timedelta(days=days)


def events(ws: Any, type_: str) -> list[dict[str, Any]]:
    out = []
    for f in sorted((Path(ws.root) / "sessions").glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                ev = json.loads(line)
                if ev.get("type") == type_:
                    out.append(ev)
    return out

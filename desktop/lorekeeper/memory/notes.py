"""Research notes (seed 004 B1): markdown under the workspace's `sources/` with YAML front matter
(`verdict: signal|bruit|veille`, `impact: fort|modere|faible`, `date`, `tags`, optional `domain`,
`project`, `summary`), an H1 title and a summary (the front matter's, else the first paragraph
after the H1).

A markdown file without `verdict` or `impact` is a plain document (facts, conventions), not a note:
`collect` passes it by. English spellings are accepted and stored as the seed's values
(moderate -> modere, strong/high -> fort, low/weak -> faible, noise -> bruit, watch -> veille).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import frontmatter
import yaml

from lorekeeper import safeyaml
from lorekeeper.errors import UnsafeInputError
from lorekeeper.skills.spec import split_front_matter

VERDICTS = ("signal", "bruit", "veille")
IMPACTS = ("fort", "modere", "faible")
_ALIASES = {
    "modéré": "modere",
    "moderate": "modere",
    "medium": "modere",
    "strong": "fort",
    "high": "fort",
    "low": "faible",
    "weak": "faible",
    "noise": "bruit",
    "watch": "veille",
}
_H1 = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.MULTILINE)
SUMMARY_CHARS = 600
_CLOADER: Any = getattr(yaml, "CSafeLoader", None)  # libyaml's, when PyYAML was built with it


class NoteError(ValueError):
    pass


@dataclass(frozen=True)
class ParsedNote:
    path: str  # relative to sources/, with forward slashes
    title: str
    summary: str
    body: str
    verdict: str
    impact: str
    date: str
    tags: tuple[str, ...]
    domain: str = ""
    project: str = ""
    sha256: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def norm_choice(value: object, allowed: tuple[str, ...], what: str) -> str:
    v = str(value or "").strip().lower()
    v = _ALIASES.get(v, v)
    if v not in allowed:
        raise NoteError(f"{what} {value!r} is not one of {', '.join(allowed)}")
    return v


def _date(value: object) -> str:
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    s = str(value or "").strip()
    if not s:
        return ""
    try:
        return date.fromisoformat(s[:10]).isoformat()
    except ValueError:
        raise NoteError(f"date {value!r} is not YYYY-MM-DD") from None


def _tags(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    items = value.split(",") if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) else [value]
    out: list[str] = []
    for t in items:
        s = " ".join(str(t).split())
        if s and s not in out:
            out.append(s)
    return tuple(out)


def first_paragraph(body: str) -> str:
    """The first prose paragraph after the H1 (headings, lists' markers and code fences skipped)."""
    m = _H1.search(body)
    rest = body[m.end() :] if m else body
    para: list[str] = []
    in_code = False
    for line in rest.splitlines():
        s = line.strip()
        if s.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        if not s:
            if para:
                break
            continue
        if s.startswith("#"):
            if para:
                break
            continue
        para.append(s.lstrip("-*> ").strip())
    text = " ".join(p for p in para if p)
    return text[:SUMMARY_CHARS].rstrip()


def is_note(meta: dict[str, Any]) -> bool:
    return "verdict" in meta or "impact" in meta


def _check_yaml(fm: str, rel_path: str, line0: int) -> None:
    """`safeyaml.check` of a note's front matter through libyaml's parser (issue 26: PyYAML's
    pure-Python scanner was two thirds of a 20,000-note collect). Both parsers give the same event
    stream, so the same verdict; anything libyaml refuses or cannot read is checked again by the
    pure-Python parser, whose error (and line) is the one reported."""
    if _CLOADER is not None:
        try:
            safeyaml.check(fm, what=rel_path, line0=line0, loader=_CLOADER)
            return
        except (yaml.YAMLError, UnsafeInputError, RecursionError):
            pass
    safeyaml.check(fm, what=rel_path, line0=line0)


def parse_note(text: str, rel_path: str) -> ParsedNote | None:
    """The note in `text`, None when it is not a research note; NoteError when it is a bad one."""
    split = split_front_matter(text)
    try:
        if split is not None:  # bounded first: an alias bomb or deep nesting never reaches the loader
            _check_yaml(split[0], rel_path, text.count("\n", 0, split[2]) + 1)
        post = frontmatter.loads(text)
    except UnsafeInputError as exc:
        raise NoteError(exc.message) from None
    except Exception as exc:  # noqa: BLE001 - YAML errors of every kind
        raise NoteError(f"front matter is not valid YAML: {exc}") from None
    meta = dict(post.metadata)
    if not is_note(meta):
        return None
    verdict = norm_choice(meta.get("verdict"), VERDICTS, "verdict")
    impact = norm_choice(meta.get("impact", meta.get("impact_pv")), IMPACTS, "impact")
    body = post.content
    m = _H1.search(body)
    title = (m.group(1).strip() if m else "") or str(meta.get("title") or "").strip()
    if not title:
        raise NoteError("no H1 title (a line '# Title')")
    summary = " ".join(str(meta.get("summary") or "").split()) or first_paragraph(body)
    return ParsedNote(
        path=rel_path,
        title=title,
        summary=summary,
        body=body,
        verdict=verdict,
        impact=impact,
        date=_date(meta.get("date")),
        tags=_tags(meta.get("tags")),
        domain=" ".join(str(meta.get("domain") or "").split()),
        project=" ".join(str(meta.get("project") or "").split()),
        sha256=hashlib.sha256(text.encode()).hexdigest(),
    )


@dataclass
class Scan:
    """What `scan` found under `sources/`: the notes it parsed, the (path, reason) of the invalid
    ones, and the files whose bytes hash to the sha256 the caller already holds for their path
    (`known`): path -> sha256, not parsed again (issue 26: a second collect of 20,000 files
    parsed every one of them to find them unchanged)."""

    notes: list[ParsedNote] = field(default_factory=list)
    bad: list[tuple[str, str]] = field(default_factory=list)
    unchanged: dict[str, str] = field(default_factory=dict)


def read_note(sources: Path, rel: str) -> ParsedNote | None:
    """The note at `sources/<rel>` parsed (None when it is not a note); NoteError when it is a bad
    one or cannot be read."""
    try:
        text = (sources / rel).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise NoteError(f"unreadable: {exc}") from None
    return parse_note(text, rel)


def scan(
    sources: Path,
    known: Mapping[str, str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Scan:
    """Every research note under `sources/`, the invalid ones, and those `known` already holds
    unchanged (see `Scan`). `progress(done, total)` after each file."""
    out = Scan()
    if not sources.is_dir():
        return out
    known = known or {}
    paths = sorted(sources.rglob("*.md"))
    total = len(paths)
    for i, p in enumerate(paths, 1):
        if progress is not None:
            progress(i, total)
        if not p.is_file():
            continue
        rel = p.relative_to(sources).as_posix()
        try:
            data = p.read_bytes()
        except OSError as exc:
            out.bad.append((rel, f"unreadable: {exc}"))
            continue
        sha = known.get(rel)
        if sha is not None:
            # the stored sha256 is over the UTF-8 text, and decoding then encoding valid UTF-8
            # gives the same bytes back: equal hashes are the same, already collected, text
            digest = hashlib.sha256(data).hexdigest()
            if digest == sha:
                out.unchanged[rel] = digest
                continue
        try:
            note = parse_note(data.decode("utf-8"), rel)
        except UnicodeDecodeError as exc:
            out.bad.append((rel, f"unreadable: {exc}"))
            continue
        except NoteError as exc:
            out.bad.append((rel, str(exc)))
            continue
        if note is not None:
            out.notes.append(note)
    return out

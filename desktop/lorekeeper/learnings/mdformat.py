"""The seed's `learnings.md` file, read and written without loss.

Format (seeds 000/001)::

    # Learnings

    > Auto-generated. Injected into the prompt at session start.

    ## Rules

    - [2026-04-03T14:22:00Z] [fixit] Always use t-call for translations in Odoo QWeb
    - [2026-04-03T15:10:00Z] [negative] Avoid sudo in deployment scripts

One rule per line, oldest first (the seed appends). Lorekeeper's extra fields (story, domain,
tags, scope, status, and any unknown field another tool added the same way) ride at the end of
the line in an HTML comment, which Markdown viewers do not show:

    - [2026-04-03T14:22:00Z] [fixit] Use t-call <!-- lorekeeper {"scope":"domain","domain":"odoo"} -->

The comment is written only when a field differs from its default, so a file of plain seed lines
is written back byte for byte. The timestamp text is kept as written (`Z`, milliseconds or an
offset all survive), and so is every other line: the text before the first rule (title, notes,
heading), the lines between rules (they stay above the rule that follows them) and after the last
one, a byte-order mark and CRLF line ends. Only a missing final newline is not reproduced.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from lorekeeper import safejson
from lorekeeper.errors import InvalidInputError, InvalidSpecError, UnsafeInputError

DEFAULT_PREAMBLE = "# Learnings\n\n## Rules\n\n"
DEFAULT_SCOPE = "story"
DEFAULT_STATUS = "active"
SCOPES = ("story", "domain", "global")
STATUSES = ("active", "archived")
KNOWN_FIELDS = ("story", "domain", "tags", "scope", "status")

_ENTRY = re.compile(r"^- \[(?P<stamp>[^\]]+)\] \[(?P<source>[^\]]+)\] (?P<rest>.*)$")
_META = re.compile(r"\s*<!-- lorekeeper (?P<json>\{.*\}) -->\s*$")
_SOURCE = re.compile(r"^[^\]\r\n]{1,32}$")


def decode_utf8(raw: bytes, source: str) -> str:
    """Bytes as UTF-8 text (newlines untouched); ERR_INVALID_INPUT naming the source and byte offset."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInputError(
            f"{source} is not UTF-8 text: invalid byte 0x{raw[exc.start]:02x} at byte offset {exc.start}",
            source=source,
            offset=exc.start,
        ) from None


def parse_stamp(stamp: str) -> datetime:
    """An ISO 8601 timestamp as the seed writes it; a time without an offset is read as UTC."""
    try:
        dt = datetime.fromisoformat(stamp.strip())
    except ValueError:
        raise ValueError(f"not an ISO 8601 timestamp: {stamp!r}") from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC)


def format_stamp(dt: datetime) -> str:
    """The seed's style: `2026-04-03T14:22:00Z` (UTC, whole seconds)."""
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Entry:
    """One rule line of a learnings.md file."""

    stamp: str
    source: str
    rule: str
    story: str = ""
    domain: str = ""
    tags: tuple[str, ...] = ()
    scope: str = DEFAULT_SCOPE
    status: str = DEFAULT_STATUS
    extra: dict[str, object] = field(default_factory=dict)  # unknown fields, kept as they were
    line: int = 0
    lead: str = ""  # non-rule lines between the previous rule and this one, each ending in "\n"

    @property
    def created_at(self) -> datetime:
        return parse_stamp(self.stamp)

    def meta(self) -> dict[str, object]:
        """The fields that differ from their defaults, for the trailing comment."""
        out: dict[str, object] = {}
        if self.story:
            out["story"] = self.story
        if self.domain:
            out["domain"] = self.domain
        if self.tags:
            out["tags"] = list(self.tags)
        if self.scope != DEFAULT_SCOPE:
            out["scope"] = self.scope
        if self.status != DEFAULT_STATUS:
            out["status"] = self.status
        for k, v in self.extra.items():
            if k not in out and k not in KNOWN_FIELDS:
                out[k] = v
        return out

    def render(self) -> str:
        line = f"- [{self.stamp}] [{self.source}] {self.rule}"
        meta = self.meta()
        if meta:
            line += " <!-- lorekeeper " + json.dumps(meta, ensure_ascii=False, separators=(",", ":")) + " -->"
        return line


@dataclass
class Document:
    preamble: str
    entries: list[Entry]
    skipped: list[tuple[int, str]] = field(
        default_factory=list
    )  # (line number, text) of non-rule lines among the rules
    trailer: str = ""  # non-rule lines after the last rule, each ending in "\n"


def _meta_fields(entry: Entry, meta: dict[str, object], file: str, lineno: int) -> None:
    def bad(what: str) -> InvalidSpecError:
        return InvalidSpecError(f"line {lineno}: {what}", file=file, field="lorekeeper comment")

    for key, value in meta.items():
        if key in ("story", "domain"):
            if not isinstance(value, str):
                raise bad(f"{key} must be a string")
            setattr(entry, key, value)
        elif key == "tags":
            if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
                raise bad("tags must be a list of strings")
            entry.tags = tuple(value)
        elif key == "scope":
            if value not in SCOPES:
                raise bad(f"scope must be one of {', '.join(SCOPES)}")
            entry.scope = str(value)
        elif key == "status":
            if value not in STATUSES:
                raise bad(f"status must be one of {', '.join(STATUSES)}")
            entry.status = str(value)
        else:
            entry.extra[key] = value


def parse(text: str, *, file: str = "learnings.md") -> Document:
    """Read a learnings.md. Invalid rule lines raise ERR_INVALID_SPEC naming the line; nothing is half-read.

    Lines before the first rule form the preamble, kept as written (a byte-order mark and CRLF
    line ends included, so an export writes them back). Non-rule lines among the rules are kept
    too: each rule carries the lines just above it (`lead`), the file the lines after its last
    rule (`trailer`); the non-blank ones are also listed in `skipped`, for the import report.
    """
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    newline = "\r\n" if "\r\n" in body else "\n"
    lines = body.split("\n")  # not splitlines(): U+2028 and friends may sit inside a rule
    if lines and lines[-1] == "":
        lines.pop()
    entries: list[Entry] = []
    skipped: list[tuple[int, str]] = []
    preamble_lines: list[str] = []
    pending: list[str] = []
    for lineno, raw in enumerate(lines, start=1):
        line = raw.removesuffix("\r")
        m = _ENTRY.match(line)
        if m is None:
            if not entries:
                preamble_lines.append(line)
            else:
                pending.append(line)
                if line.strip():
                    skipped.append((lineno, line))
            continue
        stamp, source, rest = m.group("stamp"), m.group("source"), m.group("rest")
        try:
            parse_stamp(stamp)
        except ValueError as exc:
            raise InvalidSpecError(f"line {lineno}: {exc}", file=file, field="timestamp") from None
        if not _SOURCE.match(source):
            raise InvalidSpecError(
                f"line {lineno}: invalid source {source!r} (at most 32 characters)", file=file, field="source"
            )
        entry = Entry(stamp=stamp, source=source, rule=rest, line=lineno, lead="".join(p + "\n" for p in pending))
        pending = []
        mm = _META.search(rest)
        if mm is not None:
            try:
                meta = safejson.loads(mm.group("json"))
            except (ValueError, UnsafeInputError):  # not JSON, or nested too deep to be our fields
                meta = None
            if isinstance(meta, dict):
                entry.rule = rest[: mm.start()]
                _meta_fields(entry, meta, file, lineno)
        if not entry.rule.strip():
            raise InvalidSpecError(f"line {lineno}: the rule is empty", file=file, field="rule")
        entries.append(entry)
    preamble = bom + "".join(line + newline for line in preamble_lines)
    trailer = "".join(p + "\n" for p in pending)
    return Document(preamble=preamble, entries=entries, skipped=skipped, trailer=trailer)


def render(entries: list[Entry], preamble: str | None = None, trailer: str = "") -> str:
    """The file text: the preamble (the seed's title and heading when there is none), then one line per rule.

    Line ends follow the preamble's (CRLF stays CRLF).
    """
    head = DEFAULT_PREAMBLE if preamble is None else preamble
    newline = "\r\n" if "\r\n" in head else "\n"
    if head.replace("\ufeff", "") and not head.endswith("\n"):
        head += newline
    body = "".join(e.lead.replace("\n", newline) + e.render() + newline for e in entries)
    return head + body + trailer.replace("\n", newline)

"""Render one file in a compression mode, with the header that says what was done to it.

Modes, from richest to leanest:
- `full`: the file, with only the safe whitespace rewrites (`rewrite.safe_rewrite`). Still parses.
- `map`: every import, definition header and member line (constants, variables, fields), the
  first line of each docstring, and the complete bodies of the definitions chosen for the task
  (whole, never cut).
- `signatures`: every import and every definition header (one line each, nesting shown by tabs).
- `reference`: the path and the names defined at the top level.

A file that failed to parse is sent `full`, as a lexical outline (its import and definition lines
with their line numbers, `outline.py`) in place of map and signatures, or as `reference`; its
header says so: it is never silently dropped. The body of a compressed file is never
larger than the file itself: when a mode would be, `full` is used instead.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from lorekeeper.context import tokens
from lorekeeper.context.chunks import Chunk, assemble, chunks_of, order
from lorekeeper.context.mmr import mmr_filter
from lorekeeper.context.outline import lexical_outline
from lorekeeper.context.parse import ParsedFile
from lorekeeper.context.rewrite import safe_rewrite
from lorekeeper.context.surprise import line_surprise

MODES = ("full", "map", "signatures", "reference")
REFERENCE_MAX_NAMES = 12  # names listed for a file in reference mode; the rest are counted
HEADER_PREFIX = "=== "  # starts every file's header line (one o200k token, rare in source code)


@dataclass
class Rendered:
    rel: str
    mode: str
    body: str
    original_tokens: int
    body_tokens: int
    note: str = ""  # fallback / downgrade reason shown in the header
    bodies: list[str] = field(default_factory=list)  # qualnames whose full body is included
    mmr_dropped: int = 0  # docstring lines the MMR filter dropped (map mode)

    @property
    def dropped(self) -> int:
        return max(0, self.original_tokens - self.body_tokens)

    @property
    def header(self) -> str:
        extra = f"; {self.note}" if self.note else ""
        return f"{HEADER_PREFIX}{self.rel} [{self.mode} -{self.dropped}{extra}]"

    @property
    def text(self) -> str:
        return self.header + "\n" + self.body if self.body else self.header + "\n"


def render(
    pf: ParsedFile,
    mode: str,
    *,
    original_tokens: int | None = None,
    bodies: set[int] | None = None,
    skip_imports: set[str] | None = None,
    note: str = "",
    scores: dict[int, float] | None = None,
    lean: bool = False,
    focus: bool = False,
) -> Rendered:
    """Render `pf` in `mode`. `bodies`: indices of definitions kept whole in map mode;
    `skip_imports`: import lines already printed once for the whole pack (MMR de-duplication);
    `scores`: task relevance of the definitions, which orders map-mode chunks; `lean`: a map
    whose skeleton keeps only the top-level headers and the classes around the chosen bodies
    (for a large file of which the task needs a few functions)."""
    n_orig = tokens.count(pf.text) if original_tokens is None else original_tokens
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    outline = False
    dropped = 0
    if pf.is_code and not pf.parsed:
        # the structure of a broken file cannot be trusted: whole, a lexical outline of its
        # import and definition lines (map and signatures), or its name
        note = _join(note, f"fallback: parse error at line {pf.error_line}")
        if mode in ("map", "signatures"):
            mode, outline = "signatures", True
            note = _join(note, "lexical outline")
    if outline:
        body = lexical_outline(pf.text, pf.language)
        chosen: list[str] = []
    elif mode == "full":
        body = safe_rewrite(pf.text, pf.protected)
        chosen = []
    elif mode == "reference":
        body = _reference(pf)
        chosen = []
    elif mode == "signatures":
        body = _signatures(pf, skip_imports)
        chosen = []
    else:
        body, chosen, dropped = _map(pf, bodies or set(), skip_imports, scores, lean or focus, focus)
        if focus:
            note = _join(note, "focus map: the task's bodies and their classes only")
        elif lean:
            note = _join(note, "lean map: top-level headers only")
    if body and not body.endswith("\n"):
        body += "\n"
    n_body = tokens.count(body)
    if not pf.text.strip():  # an empty file is sent as it is: nothing to compress, nothing to say
        return Rendered(pf.rel, "full", "", n_orig, 0, note, [])
    if mode != "full" and n_body >= n_orig and mode != "reference":
        # a compressed body must never be larger than the file: send the file itself
        body = safe_rewrite(pf.text, pf.protected)
        n_body = tokens.count(body)
        mode, chosen = "full", []
        note = _join(note, "full: smaller than its compressed form")
    if mode == "full" and n_body > n_orig:
        body, n_body = pf.text, n_orig
    if mode == "reference" and n_body > n_orig:
        body, n_body = "", 0
    return Rendered(pf.rel, mode, body, n_orig, n_body, note, chosen, dropped if mode == "map" else 0)


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a else b


def _reference(pf: ParsedFile) -> str:
    names = [d.name for d in pf.definitions if d.depth == 0]
    if not names and pf.language == "markdown":
        names = [h.lstrip("#").strip() for h in pf.headings if h.startswith(("# ", "## "))]
    if not names:
        return ""
    shown = names[:REFERENCE_MAX_NAMES]
    more = len(names) - len(shown)
    return "defines: " + ", ".join(shown) + (f" (+{more} more)" if more > 0 else "")


def _imports(pf: ParsedFile, skip: set[str] | None) -> list[str]:
    seen = set(skip or ())
    out = []
    for imp in pf.imports:
        if imp.text not in seen:  # an import repeated inside functions is printed once
            seen.add(imp.text)
            out.append(imp.text)
    return out


def _signatures(pf: ParsedFile, skip_imports: set[str] | None) -> str:
    if pf.language == "markdown":
        return "\n".join(pf.headings)
    if not pf.is_code:
        return _reference(pf)
    lines = _imports(pf, skip_imports)
    # Python's closing `:` carries nothing in a list of headers (the tabs show the nesting)
    colon = pf.language == "python"
    inside = _in_headers(pf)
    entries: list[tuple[int, int, str, bool]] = [
        (d.start, d.depth, _decorated(d.decorators, d.header.removesuffix(":") if colon else d.header), False)
        for i, d in enumerate(pf.definitions)
        if i not in inside
    ]
    spans = _header_spans(pf)
    entries.extend((m.start, m.depth, m.text, True) for m in pf.members if not _within(m.start, spans))
    entries.sort(key=lambda e: e[0])
    # consecutive members of one scope share a line (`RED = 1; GREEN = 2`): valid Python, and one
    # line break and indentation less per member (an enum, a dataclass's fields, a constants block)
    group = pf.language != "java"
    prev_member = False
    prev_depth = -1
    for _start, depth, text, member in entries:
        if (
            group
            and member
            and prev_member
            and depth == prev_depth
            and len(lines[-1]) + len(text) + 2 <= MEMBER_LINE_MAX_CHARS
        ):
            lines[-1] += (" " if lines[-1].endswith(";") else "; ") + text
        else:
            lines.append("\t" * depth + text)
        prev_member, prev_depth = member, depth
    return "\n".join(lines)


MEMBER_LINE_MAX_CHARS = 160  # grouped members wrap to a new line past this width


def _in_headers(pf: ParsedFile) -> set[int]:
    """Definitions printed already inside an enclosing definition's header: a TypeScript
    interface's header is the whole interface, members and method signatures included."""
    defs = pf.definitions
    out: set[int] = set()
    for i, d in enumerate(defs):
        p = d.parent
        while p is not None:
            if defs[p].body_start >= d.end:  # the parent's header spans this definition
                out.add(i)
                break
            p = defs[p].parent
    return out


def _header_spans(pf: ParsedFile) -> list[tuple[int, int]]:
    """Byte spans of the definitions whose header is the whole definition (a TypeScript interface)."""
    return [(d.start, d.end) for d in pf.definitions if d.body_start >= d.end > d.start]


def _within(start: int, spans: list[tuple[int, int]]) -> bool:
    """Whether a member at `start` lies in a header already printed whole (no member twice)."""
    return any(a <= start < b for a, b in spans)


DECORATOR_MAX_CHARS = 40  # a longer decorator is shown as `@name(...)`


def _decorated(decorators: list[str], header: str) -> str:
    """`@a @b(x) def f(...)`: the decorators on the header's line (a long one by name only)."""
    if not decorators:
        return header
    shown = []
    for dec in decorators:
        if header.startswith(dec):  # TypeScript class decorators are already in the header
            continue
        if len(dec) > DECORATOR_MAX_CHARS:
            dec = dec.split("(", 1)[0] + "(...)"
        shown.append(dec)
    return " ".join([*shown, header])


def _map(
    pf: ParsedFile,
    bodies: set[int],
    skip_imports: set[str] | None,
    scores: dict[int, float] | None = None,
    lean: bool = False,
    focus: bool = False,
) -> tuple[str, list[str], int]:
    """Skeleton with docstring first lines and the chosen definitions whole. With task scores,
    the chunks holding chosen bodies come first (semantic chunking, bridges, tail anchor)."""
    if not pf.is_code:
        return _signatures(pf, skip_imports), [], 0
    src = pf.text.encode("utf-8")
    imports = [] if focus else _imports(pf, skip_imports)
    chosen: list[str] = []
    per_def: dict[int, list[str]] = {}
    doc_at: list[tuple[int, str]] = []  # (definition, doc line) candidates for MMR
    covered_until = -1  # byte offset: definitions inside an already printed body are skipped
    keep = _lean_keep(pf, bodies, focus) if lean else None
    inside = _in_headers(pf)
    for i, d in enumerate(pf.definitions):
        if d.start < covered_until or i in inside:
            continue
        if keep is not None and i not in keep:
            continue
        indent = "\t" * d.depth
        if i in bodies:
            line_start = src.rfind(b"\n", 0, d.start) + 1
            per_def[i] = [src[line_start : d.end].decode("utf-8", "replace").rstrip()]
            covered_until = d.end
            chosen.append(d.qualname)
            continue
        per_def[i] = [indent + d.header]
        if d.doc and keep is None:
            doc_at.append((i, indent + "\t" + _doc_line(d.doc, pf.language)))
    dropped = 0
    if doc_at:
        kept = set(mmr_filter([t for _, t in doc_at], [line_surprise(t) for _, t in doc_at]))
        dropped = len(doc_at) - len(kept)
        for k, (i, t) in enumerate(doc_at):
            if k in kept:
                per_def[i].append(t)
    if keep is None and pf.members:
        _map_members(pf, per_def, imports, bodies)
    if not scores or not bodies:
        lines = imports + [line for i in sorted(per_def) for line in per_def[i]]
        return "\n".join(lines), chosen, dropped
    relevant, rest = order(chunks_of(pf, {i: scores.get(i, 0.0) for i in bodies}))

    def text_of(c: Chunk) -> list[str]:
        return imports if c.kind == "imports" else [line for i in c.definitions for line in per_def.get(i, [])]

    best = max(bodies, key=lambda i: (scores.get(i, 0.0), -i))
    anchor = pf.definitions[best].header
    return assemble([text_of(c) for c in relevant], [text_of(c) for c in rest], anchor), chosen, dropped


def _map_members(pf: ParsedFile, per_def: dict[int, list[str]], imports: list[str], bodies: set[int]) -> None:
    """A map names every constant, variable, attribute and type alias too (`var ( ... )` blocks,
    class fields): each after the definition it follows (before the first one: after the imports),
    consecutive ones of a scope on one line as in signatures mode; none inside a body printed whole."""
    defs = pf.definitions
    starts = [d.start for d in defs]
    whole = [(defs[i].start, defs[i].end) for i in bodies if i < len(defs)] + _header_spans(pf)
    last: tuple[int, int] | None = None  # (anchor, depth) of the line the previous member went to
    for m in sorted(pf.members, key=lambda m: m.start):
        if any(a <= m.start < b for a, b in whole):
            continue
        k = bisect.bisect_right(starts, m.start) - 1
        while k >= 0 and k not in per_def:  # a definition left out (inside a printed body): earlier
            k -= 1
        target = per_def[k] if k >= 0 else imports
        if (
            last == (k, m.depth)
            and target
            and len(target[-1]) + len(m.text) + 2 <= MEMBER_LINE_MAX_CHARS
            and pf.language != "java"
        ):
            target[-1] += (" " if target[-1].endswith(";") else "; ") + m.text
        else:
            target.append("\t" * m.depth + m.text)
        last = (k, m.depth)


def _lean_keep(pf: ParsedFile, bodies: set[int], focus: bool = False) -> set[int]:
    """Top-level definitions (not in focus), the chosen ones and every definition enclosing one."""
    keep = set(bodies) if focus else {i for i, d in enumerate(pf.definitions) if d.depth == 0} | set(bodies)
    for b in bodies:
        p = pf.definitions[b].parent
        while p is not None:
            keep.add(p)
            p = pf.definitions[p].parent
    return keep


def _doc_line(doc: str, language: str) -> str:
    return f'"""{doc}"""' if language == "python" else f"// {doc}"

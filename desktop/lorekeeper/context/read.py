"""Read one file through the engine (`lorekeeper ctx read`): the same modes and header as a pack.

`auto` sends a small file whole and a larger one as a map; with a task, the map keeps whole the
definitions that match it (by name, docstring, body identifiers and the file's own call graph).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lorekeeper.context import tokens
from lorekeeper.context.intent import classify
from lorekeeper.context.parse import ParsedFile, parse_file
from lorekeeper.context.render import MODES, Rendered, render
from lorekeeper.context.scan import scan
from lorekeeper.errors import InvalidInputError

READ_FULL_MAX_TOKENS = 2000  # auto mode sends a file up to this size whole
READ_MODES = ("auto", *MODES)
HEADER_RESERVE = 24  # tokens kept for the header line when choosing bodies under a budget


@dataclass
class ReadResult:
    rendered: Rendered
    parsed: ParsedFile
    fits_with_header: bool  # header + body is no larger than the file itself nor the budget

    @property
    def text(self) -> str:
        return self.rendered.text if self.fits_with_header else self.rendered.body


def read_file(path: Path, *, mode: str = "auto", task: str | None = None, budget: int | None = None) -> ReadResult:
    path = Path(path)
    if mode not in READ_MODES:
        raise InvalidInputError(f"unknown mode {mode!r}: use one of {', '.join(READ_MODES)}")
    if not path.is_file():
        raise InvalidInputError(f"{path} is not a file")
    sources, skipped = scan(path)
    if not sources:
        raise InvalidInputError(f"{path} is not a UTF-8 text file ({skipped[0].reason if skipped else 'unreadable'})")
    pf = parse_file(path.name, sources[0].text)
    n = tokens.count(pf.text)
    limit = n if budget is None else min(budget, n)
    intent = classify(task)
    bodies: set[int] = set()
    scores: dict[int, float] | None = None
    lean = False
    if mode == "auto":
        if task and pf.is_code:
            from lorekeeper.context.graph import relevance

            rel = relevance([pf], intent)
            scores = {di: s for (_, di), s in rel.definitions.items()}
            ranked = [di for di, s in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])) if s > 0]
            mode = "map"
            room = limit - HEADER_RESERVE
            lean = render(pf, "map", original_tokens=n).body_tokens > room  # the whole skeleton does not fit
            for di in ranked:
                trial = render(pf, "map", original_tokens=n, bodies=bodies | {di}, scores=scores, lean=lean)
                if trial.body_tokens <= room and trial.body_tokens < n:
                    bodies.add(di)
            if not ranked and n <= READ_FULL_MAX_TOKENS:
                mode = "full"
        else:
            mode = "full" if n <= min(READ_FULL_MAX_TOKENS, limit) else "map"
    r = render(pf, mode, original_tokens=n, bodies=bodies, scores=scores, lean=lean)
    for leaner in ("map", "signatures", "reference"):
        if r.body_tokens <= limit:
            break
        if MODES.index(leaner) > MODES.index(r.mode):
            r = render(pf, leaner, original_tokens=n, note=f"{r.mode}->{leaner}: over budget")
    if r.body_tokens > limit:
        r = Rendered(r.rel, r.mode, "", n, 0, "over budget: nothing fits")
    fits = tokens.count(r.text) <= limit  # neither larger than the file nor over the budget
    return ReadResult(r, pf, fits)

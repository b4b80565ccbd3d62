"""`skills optimise NAME` (issue 27 d3): a skill's description and router words improved against its
own trigger cases, filed as a proposal for review.

The loop (after Anthropic's skill-creator, inside the review queue):
1. The skill's trigger cases (`triggers.json`) are split in two, deterministically: each case's
   place comes from a hash of the seed and its query, should-trigger and should-not-trigger cases
   apart (stratified), so `--seed` and `--holdout` always give the same split. The held-out part
   is never shown to the model and never used to rank candidates.
2. The configured model reads the skill's name, description and router words and the train cases
   the router gets wrong (with the skill that took each one), and answers candidate edits as JSON:
   `{"candidates": [{"description", "triggers", "keywords"}]}`. Each later round shows it the best
   candidate so far and what that one still gets wrong.
3. Each candidate is written into the front matter (only the `description:`, `triggers:` and
   `keywords:` lines change) and scored with the real router over the whole library: the router
   rebuilt with the candidate in the skill's place, every skill's cases routed.
4. The best candidate by its train score is filed as a pending proposal (source `optimiser`), its
   card showing precision and recall on the held-out part before and after. A candidate is never
   proposed when it lowers precision or recall on the train part, the held-out part or all the
   skill's cases, or when a case of another skill that the router answered right goes wrong; it
   must improve the train or the held-out part. Without such a candidate nothing is filed.

Approving the proposal writes the new SKILL.md as any approval (the skill's other files, its
trigger cases included, stay).
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lorekeeper import safejson
from lorekeeper.errors import InvalidInputError, InvalidSpecError, LorekeeperError, NotFoundError
from lorekeeper.improve.judge import ModelAnswerError
from lorekeeper.improve.proposals import NewProposal, ProposalInfo, ProposalService
from lorekeeper.improve.suggest import _clean, _yaml_string, with_router_words
from lorekeeper.llm.base import LLMUnavailableError, Provider
from lorekeeper.llm.service import LLMService
from lorekeeper.skills.library import SkillLibrary
from lorekeeper.skills.router import DEFAULT_TOP, RoutableSkill, Router
from lorekeeper.skills.spec import SKILL_FILE, parse_skill_md
from lorekeeper.skills.triggers import TRIGGER_FILES, SkillTriggerScore, TriggerCase, evaluate

SOURCE = "optimiser"
DEFAULT_HOLDOUT = 0.4
DEFAULT_ROUNDS = 3
MAX_ROUNDS = 10
CANDIDATES_PER_ROUND = 3
MAX_TRIGGERS = 8
MAX_KEYWORDS = 12
MAX_DESCRIPTION = 1024  # the Agent Skills spec's limit
MAX_SHOWN_CASES = 40  # train cases shown to the model per round

PROMPT = """You improve how a router finds an Agent Skill. The router hints a skill for a user's
message from its TRIGGERS (phrases matched whole, case-insensitive), its KEYWORDS (whole words) and,
for a skill without either, the words of its description. Edit the skill's description, triggers
and keywords so the router hints it for the messages it is for and leaves it out of the others.
Keep the description true to the skill (what it does, then "Use when ..."), at most {max_desc}
characters; at most {max_triggers} triggers and {max_keywords} keywords; avoid generic words
(code, file, review, fix, test) that other skills need.

Skill name: {name}
Current description: {description}
Current triggers: {triggers}
Current keywords: {keywords}

Train cases, as the router answers them with the current text (a skill fires when it is in the
top {top} of the hint):
{cases}

Answer with JSON only, up to {n} candidates:
{{"candidates": [{{"description": "...", "triggers": ["...", "..."], "keywords": ["...", "..."]}}]}}
"""


# ------------------------------------------------------------------------------------ the split
def split_cases(cases: Sequence[TriggerCase], holdout: float, seed: int) -> tuple[list[TriggerCase], list[TriggerCase]]:
    """(train, held-out): stratified by `should_trigger`, each case placed by a hash of the seed
    and its query (the same cases, seed and fraction always give the same split). Each side of a
    stratum with at least two cases keeps at least one of them."""
    if not 0.0 < holdout < 1.0:
        raise InvalidInputError(f"--holdout is a fraction between 0 and 1 (exclusive), not {holdout}")
    train: list[TriggerCase] = []
    held: list[TriggerCase] = []
    for label in (True, False):
        group = [c for c in cases if c.should_trigger is label]
        group.sort(key=lambda c: hashlib.sha256(f"{seed}\0{c.query}".encode()).hexdigest())
        n = round(len(group) * holdout)
        if len(group) >= 2:
            n = min(max(n, 1), len(group) - 1)
        held.extend(group[:n])
        train.extend(group[n:])
    order = {id(c): i for i, c in enumerate(cases)}
    return sorted(train, key=lambda c: order[id(c)]), sorted(held, key=lambda c: order[id(c)])


# ------------------------------------------------------------------------- the front-matter edit
_TOP_KEY = re.compile(r"[A-Za-z_][\w-]*\s*:")


def _front(lines: list[str]) -> tuple[int, int]:
    start = 1 if lines and lines[0].lstrip("\ufeff").rstrip("\r\n") == "---" else None
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r\n") == "---"), None) if start else None
    if start is None or end is None:
        raise InvalidSpecError("SKILL.md has no front matter between '---' lines", file=SKILL_FILE)
    return start, end


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" \t"))


def _key_extent(lines: list[str], i: int, end: int) -> int:
    """The line after key line `i` and its continuation lines (more indented, or blank)."""
    base = _indent(lines[i])
    j = i + 1
    while j < end:
        text = lines[j].rstrip("\r\n")
        if text.strip() and _indent(text) <= base:
            break
        j += 1
    while j - 1 > i and not lines[j - 1].strip():  # trailing blank lines are not the value's
        j -= 1
    return j


def _one_line(text: str) -> str:
    return " ".join("".join(ch if ch.isprintable() or ch.isspace() else " " for ch in text).split())


def with_candidate(content: str, description: str, triggers: tuple[str, ...], keywords: tuple[str, ...]) -> str:
    """SKILL.md with the front matter's `description:` replaced and `metadata.triggers` and
    `metadata.keywords` set (an empty tuple removes the line): every other line kept byte for byte."""
    newline = "\r\n" if "\r\n" in content else "\n"
    lines = content.splitlines(keepends=True)
    start, end = _front(lines)
    desc_line = next((i for i in range(start, end) if re.match(r"description\s*:", lines[i])), None)
    if desc_line is None:
        raise InvalidSpecError("the front matter has no description line", file=SKILL_FILE, field="description")
    stop = _key_extent(lines, desc_line, end)
    text = _one_line(description)
    if re.match(r"description\s*:\s*>-?\s*$", lines[desc_line].rstrip("\r\n")) and desc_line + 1 < stop:
        # a folded block stays a folded block (a readable diff), in its own indentation
        first = lines[desc_line + 1].rstrip("\r\n")
        pad = first[: _indent(first)] or "  "
        wrapped = textwrap.wrap(text, width=max(40, 96 - len(pad)), break_long_words=False, break_on_hyphens=False)
        lines[desc_line:stop] = [f"description: >-{newline}"] + [f"{pad}{w}{newline}" for w in wrapped]
    else:
        lines[desc_line:stop] = [f"description: {_yaml_string(text)}{newline}"]
    start, end = _front(lines)
    meta_line = next((i for i in range(start, end) if re.match(r"metadata\s*:\s*$", lines[i].rstrip("\r\n"))), None)
    if meta_line is not None:  # drop the current router words of the metadata block
        meta_end = _key_extent(lines, meta_line, end)
        i = meta_line + 1
        while i < meta_end:
            if re.match(r"\s+(triggers|keywords)\s*:", lines[i]):
                stop = _key_extent(lines, i, meta_end)
                del lines[i:stop]
                meta_end -= stop - i
            else:
                i += 1
    out = "".join(lines)
    if triggers or keywords:
        out = with_router_words(out, triggers, keywords)
    return out


# ---------------------------------------------------------------------------------- the scores
def _rates(sc: SkillTriggerScore) -> dict[str, float | None]:
    return {"precision": sc.precision, "recall": sc.recall}


def _not_lower(after: float | None, before: float | None) -> bool:
    if before is None:
        return True
    return after is not None and after >= before


def _better(after: SkillTriggerScore, before: SkillTriggerScore) -> bool:
    pairs = ((after.precision, before.precision), (after.recall, before.recall))
    return any(a is not None and (b is None or a > b) for a, b in pairs)


def _key(sc: SkillTriggerScore) -> tuple[float, float, float]:
    """A candidate's train rank: F1, then recall, then precision (None counts 0)."""
    p, r = sc.precision or 0.0, sc.recall or 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return (round(f1, 6), r, p)


def _ckey(c: Candidate) -> tuple[float, float, float]:
    return _key(c.train) if c.train is not None else (-1.0, -1.0, -1.0)


@dataclass
class Candidate:
    round: int
    description: str
    triggers: tuple[str, ...]
    keywords: tuple[str, ...]
    content: str = ""
    train: SkillTriggerScore | None = None
    held_out: SkillTriggerScore | None = None
    whole: SkillTriggerScore | None = None
    broken: list[dict[str, object]] = field(default_factory=list)
    verdict: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "round": self.round,
            "description": self.description,
            "triggers": list(self.triggers),
            "keywords": list(self.keywords),
            "train": _rates(self.train) if self.train else None,
            "held_out": _rates(self.held_out) if self.held_out else None,
            "broken": self.broken,
            "verdict": self.verdict,
        }


@dataclass
class Optimisation:
    skill: str
    scope: str
    model: str
    seed: int
    holdout: float
    train_cases: int
    held_out_cases: int
    before: dict[str, float | None]  # held-out, current text
    after: dict[str, float | None] | None  # held-out, the proposed text (None: nothing proposed)
    train_before: dict[str, float | None]
    train_after: dict[str, float | None] | None
    candidates: list[Candidate]
    notes: list[str]
    proposal: ProposalInfo | None = None
    chosen: Candidate | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "skill": self.skill,
            "project": self.scope or None,
            "model": self.model,
            "proposal": self.proposal.id if self.proposal else None,
            "before": self.before,
            "after": self.after,
            "train": {"before": self.train_before, "after": self.train_after},
            "split": {
                "seed": self.seed,
                "holdout": self.holdout,
                "train": self.train_cases,
                "held_out": self.held_out_cases,
            },
            "proposed": self.chosen.to_dict() if self.chosen else None,
            "candidates": [c.to_dict() for c in self.candidates],
            "notes": self.notes,
        }


# ------------------------------------------------------------------------------ the model's part
def _terms(value: object, limit: int) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, list):
        items = [str(v) for v in value if isinstance(v, str | int | float)]
    else:
        return None
    return _clean(items, limit)


_FIELDS = ("description", "triggers", "keywords")
_ALIASES = {"new_description": "description", "improved_description": "description"}
_TAG = re.compile(r"<(new_description|description|triggers|keywords)>(.*?)</\1>", re.S | re.I)
_LABEL = re.compile(r"^\W*(description|triggers|keywords)\W*:\s*(.+)$", re.I | re.M)


def _fields(item: Mapping[str, object]) -> dict[str, object]:
    out = {_ALIASES.get(str(k).lower(), str(k).lower()): v for k, v in item.items()}
    return {k: v for k, v in out.items() if k in _FIELDS}


def _json_candidates(raw: str) -> list[dict[str, object]] | None:
    starts = [i for i in (raw.find("{"), raw.find("[")) if i >= 0]
    if not starts:
        return None
    last = max(raw.rfind("}"), raw.rfind("]"))
    try:
        data = safejson.loads(raw[min(starts) : last + 1], what="the model's answer")
    except LorekeeperError:
        raise
    except ValueError:
        return None
    items = data.get("candidates", [data]) if isinstance(data, dict) else data
    if not isinstance(items, list):
        return None
    found = [f for f in (_fields(i) for i in items if isinstance(i, dict)) if f]
    return found or None


def parse_candidates(raw: str) -> list[dict[str, object]]:
    """The model's candidates: JSON (`{"candidates": [...]}`, a bare list, or one object), else
    skill-creator's `<new_description>` tags (and `<triggers>`, `<keywords>`), else labelled lines
    (`DESCRIPTION: ...`, `TRIGGERS: a, b`, `KEYWORDS: c, d`)."""
    found = _json_candidates(raw)
    if found:
        return found
    for pattern in (_TAG, _LABEL):
        item: dict[str, object] = {}
        for m in pattern.finditer(raw):
            key = _ALIASES.get(m.group(1).lower(), m.group(1).lower())
            item.setdefault(key, " ".join(m.group(2).split()))
        if item:
            return [item]
    raise ModelAnswerError(
        'the model\'s answer holds no candidate (JSON {"candidates": [...]}, <new_description> tags or '
        "DESCRIPTION:/TRIGGERS:/KEYWORDS: lines); nothing was proposed"
    )


def _case_lines(score: SkillTriggerScore, cases: Sequence[TriggerCase]) -> str:
    wrong = {str(c["query"]): c for c in score.confusions}
    out = []
    for c in cases[:MAX_SHOWN_CASES]:
        w = wrong.get(c.query)
        if w is None:
            state = "right: " + ("hinted" if c.should_trigger else "left out")
        elif c.should_trigger:
            state = f"WRONG: missed (the router hinted {w['taken_by'] or 'no skill'} first)"
        else:
            state = f"WRONG: hinted at rank {w['rank']} but it is not for this skill"
        out.append(f"- should_trigger={str(c.should_trigger).lower()}: {c.query!r} -> {state}")
    return "\n".join(out)


# ------------------------------------------------------------------------------------ the service
class OptimiseService:
    def __init__(self, skills: SkillLibrary, llm: LLMService, proposals: ProposalService) -> None:
        self.skills = skills
        self.llm = llm
        self.proposals = proposals

    def optimise(
        self,
        name: str,
        project: str | None = None,
        *,
        holdout: float = DEFAULT_HOLDOUT,
        seed: int = 0,
        rounds: int = DEFAULT_ROUNDS,
        top: int = DEFAULT_TOP,
        create: bool = True,
        provider: Provider | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> Optimisation:
        if not 1 <= rounds <= MAX_ROUNDS:
            raise InvalidInputError(f"--rounds is between 1 and {MAX_ROUNDS}, not {rounds}")
        scope = self.skills.resolve_scope(name, project)
        cur = self.skills.get(name, scope or None)
        doc = parse_skill_md(cur.content, file=f"{name}/{SKILL_FILE}")
        all_cases, problems = self.skills.trigger_cases(scope or None)
        if problems:
            raise InvalidSpecError(f"a trigger file does not parse: {problems[0]['message']}", file=TRIGGER_FILES[0])
        mine = all_cases.get(name)
        if not mine:
            raise NotFoundError(
                f"skill {name!r} has no trigger cases to optimise against: add {TRIGGER_FILES[0]} to its "
                "folder or run `lorekeeper skills suggest --triggers`"
            )
        if sum(c.should_trigger for c in mine) < 2:
            raise InvalidInputError(
                f"{name} needs at least 2 should-trigger cases (it has {sum(c.should_trigger for c in mine)}): "
                "one to train on and one held out"
            )
        train, held = split_cases(mine, holdout, seed)
        if create and (name, scope) in self.proposals.pending_keys():
            pending = [p.id for p in self.proposals.list("pending", skill=name) if p.scope == scope]
            raise InvalidInputError(
                f"proposal #{pending[0] if pending else '?'} for {name} is pending: decide it first "
                "(`lorekeeper proposals show`), a skill has one pending proposal at a time"
            )
        if provider is None:
            status = self.llm.status()  # a bad [llm] config is a status here, never a crash
            if not status.ready:
                raise LLMUnavailableError(f"skills optimise needs a model: {status.reason}")
            provider = self.llm.provider()
        else:
            status = provider.status()
            if not status.ready:
                raise LLMUnavailableError(f"skills optimise needs a model: {status.reason}")
        model = f"{provider.name}:{provider.model}"

        library = self.skills.routable(scope or None)
        others = {k: v for k, v in all_cases.items() if k != name}

        def score_as(
            skill: RoutableSkill,
        ) -> tuple[SkillTriggerScore, SkillTriggerScore, SkillTriggerScore, dict[str, SkillTriggerScore]]:
            router = Router([skill if s.name == name else s for s in library])
            route = lambda q: router.route(q, top=top)  # noqa: E731
            own = evaluate({name: train}, route, top=top).skills[0]
            held_sc = evaluate({name: held}, route, top=top).skills[0]
            whole = evaluate({name: mine}, route, top=top).skills[0]
            rest = {s.name: s for s in evaluate(others, route, top=top).skills}
            return own, held_sc, whole, rest

        current = next(s for s in library if s.name == name)
        base_train, base_held, base_all, base_rest = score_as(current)
        right_before = _right_cases(base_rest, others)
        notes: list[str] = []
        candidates: list[Candidate] = []
        tried: set[tuple[str, tuple[str, ...], tuple[str, ...]]] = {
            (_one_line(doc.description), doc.triggers, doc.keywords)
        }
        best: Candidate | None = None
        shown = (doc.description, doc.triggers, doc.keywords, base_train)
        for rnd in range(1, rounds + 1):
            if progress:
                progress(f"round {rnd} of {rounds}: asking {model}")
            prompt = PROMPT.format(
                max_desc=MAX_DESCRIPTION,
                max_triggers=MAX_TRIGGERS,
                max_keywords=MAX_KEYWORDS,
                name=doc.name,
                description=_one_line(shown[0]),
                triggers=", ".join(shown[1]) or "(none)",
                keywords=", ".join(shown[2]) or "(none)",
                top=top,
                cases=_case_lines(shown[3], train),
                n=CANDIDATES_PER_ROUND,
            )
            try:
                items = parse_candidates(provider.complete(prompt))
            except ModelAnswerError as exc:
                notes.append(f"round {rnd}: {exc}")
                continue
            for item in items[:CANDIDATES_PER_ROUND]:
                cand = self._candidate(rnd, item, doc.description, doc.triggers, doc.keywords, cur.content, name)
                if cand is None:
                    notes.append(f"round {rnd}: a candidate without a usable description was skipped")
                    continue
                ident = (cand.description, cand.triggers, cand.keywords)
                if ident in tried:
                    notes.append(f"round {rnd}: a candidate repeated an earlier one (not scored again)")
                    continue
                tried.add(ident)
                candidates.append(cand)
                routable = RoutableSkill(name, cand.description, cand.triggers, cand.keywords)
                cand.train, cand.held_out, cand.whole, rest = score_as(routable)
                cand.broken = [
                    {"skill": s, "query": q, "should_trigger": t}
                    for (s, q, t) in sorted(right_before - _right_cases(rest, others))
                ]
                cand.verdict = _verdict(cand, base_train, base_held, base_all)
                if cand.verdict == "eligible" and (best is None or _ckey(cand) > _ckey(best)):
                    best = cand
            lead = max(candidates, key=_ckey, default=None)
            if lead is not None and lead.train is not None and _ckey(lead) > _key(shown[3]):
                shown = (lead.description, lead.triggers, lead.keywords, lead.train)
            if best is not None and best.train is not None and best.train.fn == 0 and best.train.fp == 0:
                break  # the train part is all right: nothing left to learn from it
        if not candidates:
            raise ModelAnswerError(
                "the model gave no usable candidate in " + f"{rounds} round(s): " + "; ".join(notes[-3:])
            )
        if best is not None:
            best.verdict = "proposed" if create else "chosen (dry run)"
        out = Optimisation(
            skill=name,
            scope=scope,
            model=model,
            seed=seed,
            holdout=holdout,
            train_cases=len(train),
            held_out_cases=len(held),
            before=_rates(base_held),
            after=_rates(best.held_out) if best and best.held_out else None,
            train_before=_rates(base_train),
            train_after=_rates(best.train) if best and best.train else None,
            candidates=candidates,
            notes=notes,
            chosen=best,
        )
        if best is None or not create:
            return out
        metrics: dict[str, Any] = {
            "optimiser": {
                "held_out": {"before": out.before, "after": out.after, "cases": len(held)},
                "train": {"before": out.train_before, "after": out.train_after, "cases": len(train)},
                "all": {"before": _rates(base_all), "after": _rates(best.whole) if best.whole else None},
                "split": {"seed": seed, "holdout": holdout},
                "candidates": len(candidates),
                "top": top,
            }
        }
        info = self.proposals.create(
            NewProposal(
                skill=name,
                scope=scope,
                project=scope,
                source=SOURCE,
                reason=(
                    f"trigger cases: held-out precision {_pct(out.before['precision'])} -> "
                    f"{_pct(out.after['precision'] if out.after else None)}, recall "
                    f"{_pct(out.before['recall'])} -> {_pct(out.after['recall'] if out.after else None)} "
                    f"({len(held)} held-out of {len(mine)} cases)"
                ),
                summary=_summary(doc.description, doc.triggers, doc.keywords, best),
                metrics=metrics,
                failing_rules=[],
                learnings=[],
                base_version=cur.version,
                current_content=cur.content,
                proposed_content=best.content,
                model=model,
            )
        )
        if info is None:
            raise InvalidInputError(f"a proposal for {name} became pending meanwhile: decide it first")
        out.proposal = info
        return out

    def _candidate(
        self,
        rnd: int,
        item: Mapping[str, object],
        description: str,
        triggers: tuple[str, ...],
        keywords: tuple[str, ...],
        content: str,
        name: str,
    ) -> Candidate | None:
        desc = item.get("description", description)
        if not isinstance(desc, str) or not _one_line(desc):
            return None
        desc = _one_line(desc)[:MAX_DESCRIPTION]
        trig = _terms(item.get("triggers"), MAX_TRIGGERS)
        kw = _terms(item.get("keywords"), MAX_KEYWORDS)
        trig = triggers if trig is None else trig
        kw = keywords if kw is None else kw
        kw = tuple(k for k in kw if k.casefold() not in {t.casefold() for t in trig})
        try:
            proposed = with_candidate(content, desc, trig, kw)
            check = parse_skill_md(proposed, file=f"{name}/{SKILL_FILE} (candidate)")
        except LorekeeperError:
            return None
        if check.name != name or check.description != desc:
            return None
        if _body(proposed) != _body(content):
            return None  # only the front matter may change
        return Candidate(rnd, desc, check.triggers, check.keywords, proposed)


def _body(content: str) -> str:
    lines = content.splitlines(keepends=True)
    _start, end = _front(lines)
    return "".join(lines[end:])


def _right_cases(
    scores: Mapping[str, SkillTriggerScore], cases: Mapping[str, Sequence[TriggerCase]]
) -> set[tuple[str, str, bool]]:
    """(skill, query, should_trigger) of the cases the router answers right."""
    out: set[tuple[str, str, bool]] = set()
    for name, items in cases.items():
        sc = scores.get(name)
        wrong = {(str(c["query"]), bool(c["should_trigger"])) for c in sc.confusions} if sc else set()
        out.update((name, c.query, c.should_trigger) for c in items if (c.query, c.should_trigger) not in wrong)
    return out


def _verdict(c: Candidate, train: SkillTriggerScore, held: SkillTriggerScore, whole: SkillTriggerScore) -> str:
    assert c.train is not None and c.held_out is not None and c.whole is not None
    for label, after, before in (("held-out", c.held_out, held), ("train", c.train, train), ("all", c.whole, whole)):
        if not _not_lower(after.recall, before.recall):
            return f"lowers {label} recall"
        if not _not_lower(after.precision, before.precision):
            return f"lowers {label} precision"
    if c.broken:
        first = c.broken[0]
        return f"breaks {len(c.broken)} case(s) of other skills ({first['skill']}: {first['query']!r})"
    if not (_better(c.train, train) or _better(c.held_out, held)):
        return "no better than the current text"
    return "eligible"


def card_rows(metrics: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The proposal card's trigger-case rows of an optimiser proposal (Proposals panel and
    `proposals show`): (title, "N cases: precision a -> b, recall c -> d"); none for others."""
    opt = metrics.get("optimiser")
    if not isinstance(opt, dict):
        return []
    rows = []
    for key, title in (("held_out", "Held-out trigger cases"), ("train", "Train trigger cases")):
        got = opt.get(key)
        part: dict[str, Any] = got if isinstance(got, dict) else {}
        b = part.get("before") or {}
        a = part.get("after") or {}
        rows.append(
            (
                title,
                f"{part.get('cases', '?')} cases: precision {_pct(b.get('precision'))} → {_pct(a.get('precision'))}, "
                f"recall {_pct(b.get('recall'))} → {_pct(a.get('recall'))}",
            )
        )
    return rows


def _pct(rate: float | None) -> str:
    from lorekeeper.rates import format_rate

    return format_rate(rate, none="n/a")


def _summary(description: str, triggers: tuple[str, ...], keywords: tuple[str, ...], c: Candidate) -> str:
    parts = []
    if _one_line(description) != c.description:
        parts.append("rewrites the description")
    if triggers != c.triggers:
        parts.append(f"triggers: {', '.join(c.triggers) or '-'}")
    if keywords != c.keywords:
        parts.append(f"keywords: {', '.join(c.keywords) or '-'}")
    return "; ".join(parts) or "front matter unchanged"


__all__ = [
    "SOURCE",
    "Candidate",
    "Optimisation",
    "OptimiseService",
    "parse_candidates",
    "split_cases",
    "with_candidate",
]

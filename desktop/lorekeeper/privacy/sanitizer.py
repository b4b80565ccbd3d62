"""The clarification sanitizer, run as a child process: `python -m lorekeeper.privacy.sanitizer`.

Seed 004 §3.10.1 and §3.12.1-2: the verbatim of the four answers reaches this process on stdin
only (a pipe), never in argv, a file, a temp file or a log; the structured summary goes back on
stdout; stderr carries nothing but a fixed error code. With a model configured, the summary is
written by it (temperature 0.2 where the provider has one; `claude -p` with
CLAUDE_DISABLE_SESSION_LOG=1 and TERM=dumb, the prompt on its stdin); without one, the
deterministic sanitizer writes a key-term abstract that never copies a phrase of the verbatim
(personal data spans removed first, proper nouns and numbers dropped, words folded and sorted).

stdin:  {"answers": {"problem", "criteria", "constraints", "priorities"}, "llm": {[llm] table} | null}
stdout: {"summary": {"problem", "criteria", "constraints", "priorities"}, "sanitizer": NAME}
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from typing import Any

from lorekeeper.text import INSTRUCTION_WORDS, fold, stop_words

SECTIONS = ("problem", "criteria", "constraints", "priorities")
TEMPERATURE = 0.2
MAX_TERMS = 8
PROMPT = (
    "You turn an operator's clarification of a software story into a structured summary that keeps the "
    "decision intent and nothing identifying. Remove every proper name, e-mail, phone number, postal address, "
    "IBAN, card number, national id, date of birth, IP address and external identifier. Write 2-4 short "
    "sentences per section, in your own words. Answer with one JSON object and nothing else, with exactly the keys "
    '"problem", "criteria", "constraints", "priorities".\n\n'
)
_WORD = re.compile(r"[^\W\d_][\w'’\-]*", re.UNICODE)


def _strip_pii(text: str) -> tuple[str, set[str]]:
    """`text` (normalised: NFKC, no zero-width characters) with every personal-data span blanked,
    and the folded words of those spans, which the abstract must not keep even where they come
    back elsewhere ("Mme Martin ... Martin asked")."""
    from lorekeeper.privacy.pii import find_pii, normalise

    out, _where = normalise(text)
    banned: set[str] = set()
    for f in sorted(find_pii(out), key=lambda f: -f.start):
        banned.update(fold(w) for w in _WORD.findall(out[f.start : f.end]) for w in re.split(r"[-'’]", w))
        out = out[: f.start] + " " + out[f.end :]
    return out, banned


def _shouting(text: str) -> list[tuple[int, int]]:
    """The sentences written in capitals (3 words or more): there, names and words look alike."""
    out = []
    for m in re.finditer(r"[^.!?;:\n]+", text):
        cased = [w for w in _WORD.findall(m.group(0)) if any(c.isalpha() for c in w)]
        if len(cased) >= 3 and all(w.isupper() for w in cased):
            out.append((m.start(), m.end()))
    return out


def key_terms(text: str, limit: int = MAX_TERMS, *, banned: set[str] | None = None) -> list[str]:
    """The answer's most frequent content words: folded, no proper nouns (capitalised away from a
    sentence start), no words with digits, no stop words, no word of a personal-data item; sorted,
    so no phrase survives. A capitalised word at a sentence start, or any word of a sentence in
    capitals, may be a name ("Marie wants...", "JEAN DUPONT WANTS..."): it is kept only when the
    answer also uses it in lower case."""
    clean, found = _strip_pii(text)
    banned = found | (banned or set())
    stop = stop_words(INSTRUCTION_WORDS)  # function words and the instruction words (lorekeeper.text)
    words = [(m, m.group(0).strip("'’-")) for m in _WORD.finditer(clean)]
    lower_seen = {fold(p) for _m, raw in words if raw[:1].islower() for p in re.split(r"[-'’]", raw)}
    shouting = _shouting(clean)
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    sentence_start = True
    for m, raw in words:
        before = clean[max(0, m.start() - 2) : m.start()]
        if before.strip()[-1:] in (".", "!", "?", ":", ";"):
            sentence_start = True
        at_start = sentence_start
        is_proper = raw[:1].isupper() and not sentence_start
        sentence_start = False
        acronym = raw.isupper() and len(raw) <= 5  # CSV, PDF, SSO: kept (folded), not names
        if not acronym and (is_proper or any(c.isupper() for c in raw[1:])):
            continue
        if any(c.isdigit() for c in raw):
            continue  # "ab123456c", "v2": identifiers, not terms
        in_caps = any(start <= m.start() < end for start, end in shouting)
        uncertain = in_caps or (at_start and raw[:1].isupper() and not acronym)
        for part in re.split(r"[-'’]", raw):
            w = fold(part)
            if len(w) < 3 or w in stop or w in banned or (uncertain and w not in lower_seen):
                continue
            counts[w] += 1
            first.setdefault(w, m.start())
    best = sorted(counts, key=lambda w: (-counts[w], first[w]))[:limit]
    return sorted(best)


def deterministic_summary(answers: dict[str, str]) -> dict[str, str]:
    """The four key-term abstracts. A word of a personal item found in one answer is dropped from
    all four ("Mme Martin" in the problem, "martin" again in the constraints)."""
    banned: set[str] = set()
    for sec in SECTIONS:
        banned |= _strip_pii(answers.get(sec, ""))[1]
    out: dict[str, str] = {}
    for sec in SECTIONS:
        terms = key_terms(answers.get(sec, ""), banned=banned)
        out[sec] = ("Key terms: " + ", ".join(terms) + ".") if terms else "Nothing stated."
    return out


def _parse_model_json(text: str) -> dict[str, str]:
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        raise ValueError("no JSON object")
    data = json.loads(text[start : end + 1])
    if not isinstance(data, dict):
        raise ValueError("not an object")
    return {sec: " ".join(str(data.get(sec) or "").split()) for sec in SECTIONS}


#: `claude -p` keeps no session log of the verbatim (seed 004 §3.10.1), and writes no escapes
QUIET_CLAUDE_ENV = (("CLAUDE_DISABLE_SESSION_LOG", "1"), ("TERM", "dumb"))


def model_summary(answers: dict[str, str], llm: dict[str, Any]) -> tuple[dict[str, str], str]:
    from dataclasses import replace

    from lorekeeper.llm import make_provider
    from lorekeeper.llm.base import LLMSettings

    settings = LLMSettings.from_mapping(llm)
    if settings.provider not in ("anthropic", "ollama", "claude-cli"):
        return deterministic_summary(answers), "deterministic"
    text = PROMPT + json.dumps({sec: answers.get(sec, "") for sec in SECTIONS}, ensure_ascii=False)
    # the providers' public options (issue 28), not their private methods: temperature 0.2 where
    # the provider has one, and `claude -p` without its session log of the verbatim (§3.10.1)
    settings = replace(settings, temperature=TEMPERATURE, extra_env=QUIET_CLAUDE_ENV)
    answer = str(make_provider(settings).complete(text))
    return _parse_model_json(answer), settings.provider


def main() -> int:
    raw = bytearray(sys.stdin.buffer.read())
    try:
        try:
            request = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            sys.stderr.write("ERR_INVALID_INPUT\n")
            return 2
        answers = {sec: str((request.get("answers") or {}).get(sec) or "") for sec in SECTIONS}
        llm = request.get("llm")
        try:
            if isinstance(llm, dict) and str(llm.get("provider") or "none") not in ("", "none"):
                summary, name = model_summary(answers, llm)
            else:
                summary, name = deterministic_summary(answers), "deterministic"
        except Exception as exc:  # noqa: BLE001 - the code only: an exception text might quote the verbatim
            code = getattr(exc, "code", "") or "ERR_LLM_UNAVAILABLE"
            sys.stderr.write(f"{code}\n")
            return 4
        sys.stdout.write(json.dumps({"summary": summary, "sanitizer": name}, ensure_ascii=False))
        sys.stdout.flush()
        return 0
    finally:
        raw[:] = b"\0" * len(raw)  # overwrite the verbatim before the process ends (§3.10.1)


if __name__ == "__main__":
    sys.exit(main())

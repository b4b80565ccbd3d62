"""promptfoo's assertion type names: accepted where the semantics match, refused with the right
spelling (or the reason there is none) where they differ. The README's table mirrors this module.
"""

from __future__ import annotations

_CANONICAL = (
    "icontains",
    "contains_any",
    "contains_all",
    "icontains_any",
    "icontains_all",
    "starts_with",
    "ends_with",
    "equals",
    "is_json",
    "min_words",
    "max_words",
)


def _build_aliases() -> dict[str, str]:
    out = {
        "contains": "string_contains",
        "not-contains": "string_not_contains",
        "regex": "regex_match",
        "not-regex": "regex_not_match",
        # near misses of our own names, same semantics
        "not_string_contains": "string_not_contains",
        "not_regex_match": "regex_not_match",
        "not_contains": "string_not_contains",
    }
    for t in _CANONICAL:
        dashed = t.replace("_", "-")
        out[dashed] = t
        out["not-" + dashed] = "not_" + t
    return out


#: promptfoo spelling -> Lorekeeper type, same semantics (promptfoo's `not-` prefix included).
ALIASES: dict[str, str] = _build_aliases()

_MODEL = (
    "needs a model, so it is not deterministic; Lorekeeper evals are deterministic "
    "(use Sage or a benchmark's judge for model-graded checks)"
)
_CODE = "runs user code; Lorekeeper evals are declarative (use regex_match or another deterministic type)"
_META = "checks provider metadata (cost, latency, tool calls), not the response text"
_SCORE = "scores similarity to a reference against a threshold; there is no equivalent (use equals or icontains)"
_FORMAT = "checks a format that has no equivalent here (use regex_match)"

_REFUSED_GROUPS: dict[str, tuple[str, ...]] = {
    _MODEL: (
        "llm-rubric",
        "search-rubric",
        "model-graded-closedqa",
        "model-graded-factuality",
        "factuality",
        "g-eval",
        "answer-relevance",
        "context-faithfulness",
        "context-recall",
        "context-relevance",
        "similar",
        "classifier",
        "moderation",
        "select-best",
        "max-score",
        "pi",
    ),
    _CODE: ("javascript", "python", "webhook", "ruby"),
    _META: (
        "cost",
        "latency",
        "finish-reason",
        "is-valid-function-call",
        "is-valid-openai-function-call",
        "is-valid-openai-tools-call",
        "tool-call-f1",
        "is-refusal",
    ),
    _SCORE: ("levenshtein", "rouge-n", "bleu", "gleu", "meteor", "f-score", "perplexity", "perplexity-score"),
    _FORMAT: ("is-sql", "contains-sql", "is-xml", "contains-xml", "is-html", "contains-html"),
}

#: spelling -> why it is refused (and the right spelling when there is one).
REFUSED: dict[str, str] = {
    "contains-json": "promptfoo's contains-json finds JSON anywhere in the response; use is_json "
    "(the whole response, or one fenced ```json block, is JSON)",
    "word-count": "use min_words / max_words",
    "regex_search": "use regex_match (a search anywhere in the response)",
    "json": "use is_json",
}
for _why, _names in _REFUSED_GROUPS.items():
    for _n in _names:
        REFUSED[_n] = f"promptfoo's {_n} {_why}"
        REFUSED["not-" + _n] = f"promptfoo's {_n} {_why}"
REFUSED["not-contains-json"] = REFUSED["contains-json"]

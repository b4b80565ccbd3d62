"""The intent classifier on labelled requests paraphrased from real issue trackers (English and
French): weighted evidence (error signatures, the sentence's form, imperative verbs and their
objects) instead of the first keyword found."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import yaml

from lorekeeper.context.intent import TASK_TYPES, classify

DATA = Path(__file__).parent / "data" / "intents.yaml"


def _requests() -> list[dict[str, str]]:
    loaded = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return list(loaded["requests"])


def test_labelled_requests_cover_every_task_type() -> None:
    reqs = _requests()
    assert len(reqs) >= 30
    per_type = Counter(r["type"] for r in reqs)
    assert set(per_type) <= set(TASK_TYPES)
    assert all(per_type[t] >= 2 for t in TASK_TYPES), per_type


def test_classifier_accuracy_on_labelled_requests() -> None:
    reqs = _requests()
    wrong = [(r["task"], r["type"], classify(r["task"]).task_type) for r in reqs]
    wrong = [w for w in wrong if w[1] != w[2]]
    accuracy = 1 - len(wrong) / len(reqs)
    assert accuracy >= 0.9, wrong
    held = [r for r in reqs if r.get("split") == "heldout"]
    assert held and sum(classify(r["task"]).task_type == r["type"] for r in held) >= 0.9 * len(held)


def test_error_evidence_beats_question_and_verb_forms() -> None:
    # a pasted traceback alone is a bug report
    tb = "Traceback (most recent call last):\n  File \"a.py\", line 3, in f\nKeyError: 'x'"
    assert classify(tb).task_type == "fix_bug"
    # a question about a symptom is a bug, a question about the design is exploration
    assert classify("Why does the pager crash on Windows?").task_type == "fix_bug"
    assert classify("How does the pager pick a program?").task_type == "explore"
    # the goal outweighs the means, the object outweighs the verb
    assert classify("Refactor the parser to fix the off-by-one").task_type == "fix_bug"
    assert classify("Add a test for the pager").task_type == "test"
    assert classify("Ajoute une section à la documentation").task_type == "document"
    # French, accents or not
    assert classify("Corrige le plantage de l'export").task_type == "fix_bug"
    assert classify("ecris des tests pour le parseur").task_type == "test"


def test_confidence_reflects_the_margin() -> None:
    clear = classify("fix the crash in parse_args")
    mixed = classify("the test fails, please fix it")
    assert clear.task_type == mixed.task_type == "fix_bug"
    assert clear.confidence > mixed.confidence
    assert clear.action_verb == "fix"


def test_exceptions_and_stack_frames_are_slots() -> None:
    py = classify(
        'Traceback (most recent call last):\n  File "/site-packages/click/core.py", line 12, in main\nKeyError: 1'
    )
    assert py.frames == [("/site-packages/click/core.py", 12, "main")] and py.exceptions == ["KeyError"]
    js = classify("TypeError: x is undefined\n    at parseArgs (src/cli/args.ts:40:7)")
    assert js.frames == [("src/cli/args.ts", 40, "parseArgs")]
    go = classify("panic: runtime error: index out of range\n\t/home/u/cobra/command.go:812 +0x1d")
    assert go.task_type == "fix_bug" and go.frames == [("/home/u/cobra/command.go", 812, "")]
    # click names its exceptions without an Error suffix: next to "raise" they still count
    assert classify("resolve_command raises NoSuchCommand for upper-case names").exceptions == ["NoSuchCommand"]

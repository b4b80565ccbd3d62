"""lorekeeper.diffs, the Qt-free diff behind the viewer (and usable by the CLI)."""

from __future__ import annotations

from lorekeeper.diffs import Fold, compute_diff, visible_rows, word_spans, wrapped_lines


def marked(text: str, spans) -> list[str]:
    return [text[s:e] for s, e in spans]


def test_rows_face_each_other_and_count_changes():
    d = compute_diff("a\nb\nc\nd\n", "a\nB\nc\nd\ne\nf\n")
    assert [(r.kind, r.left and r.left.number, r.right and r.right.number) for r in d.rows] == [
        ("equal", 1, 1),
        ("change", 2, 2),
        ("equal", 3, 3),
        ("equal", 4, 4),
        ("insert", None, 5),
        ("insert", None, 6),
    ]
    assert [(h.first, h.end) for h in d.hunks] == [(1, 2), (4, 6)]
    assert d.summary == "2 changes, +3 \u22121 lines"
    assert d.left_text() == "a\nb\nc\nd\n" and d.right_text() == "a\nB\nc\nd\ne\nf\n"
    assert compute_diff("same\n", "same\n").summary == "No difference."


def test_words_are_marked_in_repetitive_paragraphs():
    sentence = "Read the description first, then the tests, and only then the code; the style comes last. "
    before = sentence * 8
    after = before.replace("description", "summary", 1).replace("code;", "diff;", 3)
    sa, sb = word_spans(before, after)
    assert marked(before, sa) == ["description", "code", "code", "code"]
    assert marked(after, sb) == ["summary", "diff", "diff", "diff"]
    assert word_spans("- item one", "- item two") == (((7, 10),), ((7, 10),))


def test_unchanged_stretches_fold_with_context():
    old = [f"l{i}" for i in range(1, 41)]
    new = list(old)
    new[19] = "changed"
    rows = visible_rows(compute_diff("\n".join(old), "\n".join(new)))
    folds = [r for r in rows if isinstance(r, Fold)]
    assert [(f.first, f.count) for f in folds] == [(0, 16), (23, 17)]  # 3 lines kept each side
    assert len(visible_rows(compute_diff("\n".join(old), "\n".join(new)), expanded={0, 23})) == 40


def test_wrapped_lines_estimates_a_monospaced_layout():
    assert wrapped_lines("short", 80) == 1
    assert wrapped_lines("word " * 40, 20) == 10  # 4 words (19 cells) a line
    assert wrapped_lines("x" * 2000, 100) == 20  # no space: broken anywhere

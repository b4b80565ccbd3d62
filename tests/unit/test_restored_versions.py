"""`restored_versions` (issue 30 d5): which version brings an earlier one back whole."""

from __future__ import annotations

from datetime import UTC, datetime

from lorekeeper.skills.files import SkillFile
from lorekeeper.skills.library import SkillVersionInfo, restored_versions


def v(n: int, content: str, evals: str = "", files: tuple[SkillFile, ...] = ()) -> SkillVersionInfo:
    return SkillVersionInfo("s", "", n, content, evals, "", "me", datetime(2026, 1, n, tzinfo=UTC), files=files)


def test_an_approve_undo_pair_is_no_net_change() -> None:
    f = SkillFile("run.sh", "ab" * 32, 0o755, 3)
    history = [v(1, "A"), v(2, "B"), v(3, "A"), v(4, "B"), v(5, "A"), v(6, "A", "rules"), v(7, "A", files=(f,))]
    # v3 restores v1, v4 brings v2 back, v5 restores v3 (the latest with that content); a changed
    # rules file or another file is a change
    assert restored_versions(reversed(history)) == {3: 1, 4: 2, 5: 3}

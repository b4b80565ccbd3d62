"""Whether a skill's stored files are the bytes Lorekeeper wrote (no key needed).

Every file of a skill version besides SKILL.md and its evals file is a blob stored under its own
SHA-256 (`skill_blobs`); Lorekeeper always writes a blob under the hash of its bytes. A blob whose
bytes no longer hash to its key (or have another size) was changed outside Lorekeeper: the
Skills panel flags the skill, `lorekeeper skills verify` reports it (ERR_UNSIGNED_ENTRY, exit 1).
SKILL.md and the evals text are stored as plain columns without a signature: this check does
not cover them.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import and_, select

from lorekeeper.store.engine import Store
from lorekeeper.store.models import Skill, SkillBlob, SkillVersion, SkillVersionFile

TAMPERED_CODE = "ERR_UNSIGNED_ENTRY"  # as the store's signed rows that do not verify (audit status)
SkillKey = tuple[str, str]  # (name, project: "" for the global skill)


def tampered_files(store: Store, only: SkillKey | None = None) -> dict[SkillKey, list[str]]:
    """The files of each skill's current version (or of `only`) whose stored bytes do not verify.
    It hashes every blob once: run it in a job, not on a GUI thread."""
    q = (
        select(Skill.name, Skill.project, SkillVersionFile.path, SkillBlob.sha256, SkillBlob.size, SkillBlob.data)
        .join(SkillVersion, and_(SkillVersion.skill_id == Skill.id, SkillVersion.version == Skill.current_version))
        .join(SkillVersionFile, SkillVersionFile.version_id == SkillVersion.id)
        .join(SkillBlob, SkillBlob.sha256 == SkillVersionFile.sha256)
    )
    if only is not None:
        q = q.where(Skill.name == only[0], Skill.project == only[1])
    verdicts: dict[str, bool] = {}
    out: dict[SkillKey, list[str]] = {}
    with store.session() as s:
        for name, project, path, sha, size, data in s.execute(q.execution_options(yield_per=64)):
            ok = verdicts.get(sha)
            if ok is None:
                raw = bytes(data)
                ok = verdicts[sha] = len(raw) == size and hashlib.sha256(raw).hexdigest() == sha
            if not ok:
                out.setdefault((name, project), []).append(path)
    for paths in out.values():
        paths.sort()
    return out


def tampered_text(paths: list[str]) -> str:
    """The warning for one skill, with the error code."""
    shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    return (
        f"This skill's content was changed outside Lorekeeper (the stored bytes of {shown} do not match their "
        f"hash) — review it before routing. {TAMPERED_CODE}"
    )


__all__ = ["TAMPERED_CODE", "SkillKey", "tampered_files", "tampered_text"]

"""`SkillRows`: the skill tables as the other skill services use them, with one verification path.

Issue 24: a skill row or version that does not verify (its signature, its ledger entry, its files
manifest) is never shown, evaluated, forked, restored or exported; `refuse_forged` (one version) and
`verified_rows` (many, one ledger read per table) are the only places that decide it. Writes of a
version go through `write_version_in` (inside the caller's transaction; the commit hook signs the
rows) and every change's signed audit event through `emit`.
"""

from __future__ import annotations

import builtins
import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, func, insert, select
from sqlalchemy.orm import Session

from lorekeeper.errors import InvalidInputError, LorekeeperError
from lorekeeper.locations import os_login
from lorekeeper.skills.files import Limits, SkillFile
from lorekeeper.skills.model import ForgedSkillError, SkillVersionInfo
from lorekeeper.skills.spec import SKILL_FILE, SkillDoc
from lorekeeper.store.engine import Store
from lorekeeper.store.feed import note as note_changes
from lorekeeper.store.models import (
    Skill,
    SkillBlob,
    SkillVersion,
    SkillVersionFile,
    files_digest_in,
    files_digests_in,
    utcnow,
)
from lorekeeper.store.signed import add_signed_rows

# Called after each committed change with (event name, plain data): the signed audit chain hooks in
# here (`lorekeeper.learnings.audit_hook`). It returns a warning when it could not sign the change
# (kept for `take_audit_warnings`; the change itself stands), else None.
SkillEventHook = Callable[[str, dict[str, object]], str | None]

BLOBS_STORED = "lorekeeper_blobs_stored"  # session.info: blob sha256s known to be in the store
BLOBS_CHECKED = "lorekeeper_blobs_checked"  # session.info: blob sha256s already looked up
PENDING_NEW = "lorekeeper_skills_pending"  # session.info: a bulk import's new skills (plain rows) and files

_SKILLS = cast(Table, Skill.__table__)
_VERSIONS = cast(Table, SkillVersion.__table__)

author_name = os_login  # who acts without a Vault identity (one definition: locations.os_login)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class SkillRows:
    """Reads and writes skill rows for the other skill services; verifies what they read."""

    def __init__(
        self,
        store: Store,
        *,
        on_event: SkillEventHook | None = None,
        limits: Limits | None = None,
        verifier: Callable[[], Any] | None = None,
        key_loaded: Callable[[], bool] | None = None,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()  # per-file and per-skill size caps ([skills] in lorekeeper.toml)
        self.on_event = on_event  # saves, rule edits, restores, forks, fork deletions, imports: signed
        self.audit_warnings: list[str] = []
        # issue 24: the session's row verifier: a skill or skill version that does not verify, is
        # older than its ledger entry or whose files manifest changed is never used or exported
        self.verifier = verifier
        # whether the key session is loaded already: reads that must not load the key (`route`,
        # `eval --no-record`) verify only then; the writers load it (they sign anyway)
        self.key_loaded: Callable[[], bool] = key_loaded or (lambda: False)
        self.forged_skipped: set[tuple[str, str]] = set()

    # ---------------------------------------------------------------- verification
    def legacy(self) -> bool:
        """Nothing to verify with: no verifier, or the keyless starter rows of this process."""
        return self.verifier is None or bool(self.store.info.get("lorekeeper_keyless_legacy"))

    def checking(self) -> bool:
        return not self.legacy() and self.key_loaded()

    def start_key(self) -> None:
        """The key session for a signed write that copies a version (checked first)."""
        if not self.legacy():
            assert self.verifier is not None
            self.verifier()

    def key_for_reading(self) -> bool:
        """Start the key session for a caller that asked for verified skills; False when it
        cannot start (nothing can be verified without the key: the library as stored)."""
        if self.legacy():
            return False
        assert self.verifier is not None
        try:
            self.verifier()
        except LorekeeperError:
            return False
        return True

    def refuse_forged(self, s: Session, sk: Skill, v: SkillVersion, *, current: bool) -> None:
        """ERR_UNSIGNED_ENTRY when the version (and for the current one, the skill row) is not the
        one Lorekeeper signed: a forged SKILL.md or rules are never shown, evaluated, forked or
        restored as a new signed version (which would launder them)."""
        if not self.checking():
            return
        assert self.verifier is not None
        verifier = self.verifier()
        ok_sk = not current or bool(verifier.filter([sk], purpose="skills read"))
        ok_v = ok_sk and bool(verifier.filter([v], purpose="skills read"))
        if ok_v and v.files_digest == files_digest_in(s, v.id):
            return
        where = f" (project {sk.project})" if sk.project else ""
        raise ForgedSkillError(
            f"skill {sk.name!r}{where} version {v.version} does not verify: it was changed outside Lorekeeper, "
            "so it is not used. `lorekeeper skills verify` lists what; `lorekeeper skills restore` a version that verifies."
        )

    def verified_rows(self, s: Session, rows: Sequence[Any]) -> builtins.list[Any]:
        """The (skill, current version) rows whose skill row, version and files manifest are the
        ones Lorekeeper signed (issue 26: at 10,000 skills one ledger read per table and one
        manifest query per 500, not three queries per skill)."""
        if self.legacy():
            return builtins.list(rows)  # (the starter rows a keyless `init` writes in this process)
        assert self.verifier is not None
        verifier = self.verifier()
        kept_sk = {id(sk) for sk in verifier.filter([sk for sk, _ in rows], purpose="skills export")}
        rows = [(sk, v) for sk, v in rows if id(sk) in kept_sk]
        kept_v = {id(v) for v in verifier.filter([v for _, v in rows], purpose="skills export")}
        rows = [(sk, v) for sk, v in rows if id(v) in kept_v]
        digests = files_digests_in(s, [v.id for _, v in rows])
        return [(sk, v) for sk, v in rows if v.files_digest == digests[v.id]]

    def forged(self, only: tuple[str, str] | None = None) -> dict[tuple[str, str], builtins.list[str]]:
        """(name, project) -> what of the current version does not verify (needs the verifier)."""
        out: dict[tuple[str, str], builtins.list[str]] = {}
        if self.verifier is None:
            return out
        verifier = self.verifier()
        with self.store.session() as s:
            q = select(Skill)
            if only is not None:
                q = q.where(Skill.name == only[0], Skill.project == only[1])
            for sk in s.scalars(q):
                if not verifier.filter([sk], purpose="skills verify"):
                    out[(sk.name, sk.project)] = ["the skill row (current version) does not verify"]
                    continue
                v = self.current_row(s, sk)
                if v is None:
                    out[(sk.name, sk.project)] = ["its current version is missing"]
                elif not verifier.filter([v], purpose="skills verify"):
                    out[(sk.name, sk.project)] = [f"{SKILL_FILE}, rules and files of version {v.version} do not verify"]
                elif v.files_digest != files_digest_in(s, v.id):
                    out[(sk.name, sk.project)] = [f"the files manifest of version {v.version} was changed"]
        return out

    # ---------------------------------------------------------------- audit events
    def emit(self, name: str, data: dict[str, object]) -> None:
        if self.on_event is not None:
            warning = self.on_event(name, data)
            if warning:
                self.audit_warnings.append(warning)

    def take_audit_warnings(self) -> builtins.list[str]:
        """Changes the audit chain could not sign (the change itself was kept), then cleared."""
        out, self.audit_warnings = self.audit_warnings, []
        return out

    # ---------------------------------------------------------------- rows
    @staticmethod
    def skill(s: Session, name: str, project: str) -> Skill | None:
        return s.scalar(select(Skill).where(Skill.name == name, Skill.project == project))

    @staticmethod
    def skills_named(s: Session, names: Sequence[str]) -> dict[tuple[str, str], Skill]:
        out: dict[tuple[str, str], Skill] = {}
        for i in range(0, len(names), 500):
            for sk in s.scalars(select(Skill).where(Skill.name.in_(names[i : i + 500]))):
                out[(sk.name, sk.project)] = sk
        return out

    @staticmethod
    def current_row(s: Session, sk: Skill) -> SkillVersion | None:
        return s.scalar(
            select(SkillVersion).where(SkillVersion.skill_id == sk.id, SkillVersion.version == sk.current_version)
        )

    @staticmethod
    def version_row(s: Session, sk: Skill, version: int) -> SkillVersion | None:
        return s.scalar(select(SkillVersion).where(SkillVersion.skill_id == sk.id, SkillVersion.version == version))

    def current_number(self, name: str, project: str) -> int | None:
        with self.store.session() as s:
            sk = self.skill(s, name, project)
            return sk.current_version if sk is not None else None

    def blobs(self, shas: Sequence[str]) -> dict[str, bytes]:
        """The bytes of these blobs (by SHA-256)."""
        want = sorted(set(shas))
        out: dict[str, bytes] = {}
        with self.store.session() as s:
            for i in range(0, len(want), 500):
                for sha, data in s.execute(
                    select(SkillBlob.sha256, SkillBlob.data).where(SkillBlob.sha256.in_(want[i : i + 500]))
                ):
                    out[sha] = bytes(data)
        return out

    @staticmethod
    def version_info(sk: Skill, v: SkillVersion, files: Sequence[SkillFile] = ()) -> SkillVersionInfo:
        return SkillVersionInfo(
            name=sk.name,
            project=sk.project,
            version=v.version,
            content=v.content,
            evals=v.evals,
            message=v.message,
            author=v.author,
            created_at=v.created_at,
            current=v.version == sk.current_version,
            files=tuple(files),
        )

    # ---------------------------------------------------------------- writing a version
    def write_version_in(
        self, s: Session, doc: SkillDoc, evals: str, project: str, message: str, author: str, *, absent: bool = False
    ) -> SkillVersionInfo:
        """A new current version inside the caller's transaction (the commit hook signs it), or the
        current one when nothing changed. `absent`: the caller read in this transaction that no
        such skill exists (no lookup; its rows go with the transaction's next flush, in one batch)."""
        now = utcnow()
        files: Sequence[SkillFile] = doc.files if doc.files is not None else ()
        if absent:  # a bulk import: plain rows, INSERTed at once with their files (`flush_files`)
            return _add_new_skill(s, doc, evals, project, message, author, now, files)
        sk = self.skill(s, doc.name, project)
        if sk is None:
            sk = Skill(name=doc.name, project=project, current_version=1, created_at=now, updated_at=now)
            s.add(sk)  # flushed with its first version below (one flush, not two)
            number = 1
        else:
            cur = self.current_row(s, sk)
            cur_files = manifest(s, cur.id) if cur is not None else []
            if doc.files is None:  # an edit of SKILL.md or the rules: the other files stay
                files = cur_files
            if cur is not None and cur.content == doc.content and cur.evals == evals and list(files) == cur_files:
                return self.version_info(sk, cur, cur_files)
            number = (s.scalar(select(func.max(SkillVersion.version)).where(SkillVersion.skill_id == sk.id)) or 0) + 1
        v = SkillVersion(
            skill=sk,
            version=number,
            content=doc.content,
            evals=evals,
            description=doc.description,
            triggers=", ".join(doc.triggers),
            keywords=", ".join(doc.keywords),
            message=message,
            author=author,
            created_at=now,
        )
        s.add(v)
        sk.current_version = number
        sk.updated_at = now
        flush_files(s)
        s.flush()
        store_files(s, v, files, doc.blobs)
        return self.version_info(sk, v, files)


def _add_new_skill(
    s: Session,
    doc: SkillDoc,
    evals: str,
    project: str,
    message: str,
    author: str,
    now: datetime,
    files: Sequence[SkillFile],
) -> SkillVersionInfo:
    """A skill the caller knows to be absent, with its first version, as plain rows for `flush_files`."""
    skill = {"name": doc.name, "project": project, "current_version": 1, "created_at": now, "updated_at": now}
    version = {
        "version": 1,
        "content": doc.content,
        "evals": evals,
        "description": doc.description,
        "triggers": ", ".join(doc.triggers),
        "keywords": ", ".join(doc.keywords),
        "message": message,
        "author": author,
        "created_at": now,
        "files_digest": "",
    }
    s.info.setdefault(PENDING_NEW, []).append((skill, version, files, doc.blobs))
    return SkillVersionInfo(
        name=doc.name,
        project=project,
        version=1,
        content=doc.content,
        evals=evals,
        message=message,
        author=author,
        created_at=now,
        current=True,
        files=tuple(files),
    )


def manifest(s: Session, version_id: int) -> builtins.list[SkillFile]:
    return manifests(s, [version_id]).get(version_id, [])


def manifests(s: Session, version_ids: Sequence[int]) -> dict[int, builtins.list[SkillFile]]:
    out: dict[int, builtins.list[SkillFile]] = {}
    ids = builtins.list(version_ids)
    for i in range(0, len(ids), 500):
        rows = s.execute(
            select(
                SkillVersionFile.version_id,
                SkillVersionFile.path,
                SkillVersionFile.sha256,
                SkillVersionFile.mode,
                SkillBlob.size,
            )
            .join(SkillBlob, SkillBlob.sha256 == SkillVersionFile.sha256)
            .where(SkillVersionFile.version_id.in_(ids[i : i + 500]))
        )
        for vid, path, sha, mode, size in rows:
            out.setdefault(vid, []).append(SkillFile(path, sha, mode, size))
    for files in out.values():
        files.sort()
    return out


def prefetch_blobs(s: Session, shas: Iterable[str]) -> None:
    """Look these blobs up in one query per 500 (`store_files` then asks nothing for them)."""
    have: set[str] = s.info.setdefault(BLOBS_STORED, set())
    checked: set[str] = s.info.setdefault(BLOBS_CHECKED, set())
    ask = sorted(set(shas) - checked)
    for i in range(0, len(ask), 500):
        have.update(s.scalars(select(SkillBlob.sha256).where(SkillBlob.sha256.in_(ask[i : i + 500]))))
    checked.update(ask)


def flush_files(s: Session) -> None:
    """The rows of the skills a bulk import added (`write_version_in(absent=True)`): the skills,
    their versions, the new blobs and the manifests, each as Core INSERTs of many rows; the
    commit hook signs the skill and version rows from their values (`add_signed_rows`). Issue 26:
    40,000 ORM objects at 10,000 skills, each flushed, then updated when signed, cost more than
    the import's reading."""
    pending: list[tuple[dict[str, Any], dict[str, Any], Sequence[SkillFile], Mapping[str, bytes]]]
    pending = s.info.pop(PENDING_NEW, [])
    if not pending:
        return
    skills = [skill for skill, *_ in pending]
    versions = [version for _sk, version, *_ in pending]
    # ids by each row's unique key (name and project; a new skill's only version): RETURNING in
    # parameter order costs twice the INSERT itself
    by_key = {(skill["name"], skill["project"]): (skill, version) for skill, version, *_ in pending}
    for i in range(0, len(pending), 1000):
        got = s.execute(
            insert(_SKILLS).returning(_SKILLS.c.id, _SKILLS.c.name, _SKILLS.c.project), skills[i : i + 1000]
        )
        for ident, name, project in got:
            skill, version = by_key[(name, project)]
            skill["id"] = version["skill_id"] = int(ident)
    by_skill = {version["skill_id"]: version for version in versions}
    for i in range(0, len(pending), 1000):
        got = s.execute(insert(_VERSIONS).returning(_VERSIONS.c.id, _VERSIONS.c.skill_id), versions[i : i + 1000])
        for ident, skill_id in got:
            by_skill[skill_id]["id"] = int(ident)
    if any("id" not in version for version in versions):  # (every row INSERTed answers with its id)
        raise InvalidInputError("the store did not return the ids of the imported skills; nothing was imported")
    note_changes(s, "skills", [skill["name"] for skill in skills])
    prefetch_blobs(s, (f.sha256 for *_rows, files, _b in pending for f in files))
    have: set[str] = s.info[BLOBS_STORED]
    blobs: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    for _skill, version, files, data in pending:
        for f in files:
            if f.sha256 not in have:
                if f.sha256 not in data:
                    raise InvalidInputError(f"file content {f.sha256[:12]} is not in the store")
                blobs.append({"sha256": f.sha256, "size": len(data[f.sha256]), "data": data[f.sha256]})
                have.add(f.sha256)
            rows.append({"version_id": version["id"], "path": f.path, "sha256": f.sha256, "mode": f.mode})
    for i in range(0, len(blobs), 500):
        s.execute(insert(SkillBlob), blobs[i : i + 500])
    for i in range(0, len(rows), 1000):
        s.execute(insert(SkillVersionFile), rows[i : i + 1000])
    add_signed_rows(s, Skill, skills)
    add_signed_rows(s, SkillVersion, versions)


def store_files(
    s: Session, version: SkillVersion, files: Sequence[SkillFile], blobs: Mapping[str, bytes], *, flush: bool = True
) -> None:
    """The version's file rows; a blob is written once, whoever else holds the same bytes."""
    if not files:
        return
    shas = sorted({f.sha256 for f in files})
    prefetch_blobs(s, shas)  # the blobs this transaction knows to be stored (a bulk import checks them at once)
    have: set[str] = s.info[BLOBS_STORED]
    for sha in shas:
        if sha not in have:
            if sha not in blobs:
                raise InvalidInputError(f"file content {sha[:12]} is not in the store")
            s.add(SkillBlob(sha256=sha, size=len(blobs[sha]), data=blobs[sha]))
            have.add(sha)
    for f in files:
        s.add(SkillVersionFile(version=version, path=f.path, sha256=f.sha256, mode=f.mode))
    if flush:
        s.flush()

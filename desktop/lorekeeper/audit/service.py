"""`ws.audit`: the audit chain of one workspace, built lazily but explicitly.

Nothing here touches the key provider until `require_key()` is called: the deterministic
commands (route, eval --rules, skills) work on a machine without any keyring, and the commands
that sign or verify call `require_key()` first, so they fail closed before any write.
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select

from lorekeeper.audit.errors import CAUSE_TITLES, AuditKeyUnavailableError
from lorekeeper.audit.log import OWN_ROTATIONS, ChainState, SessionLog, VerifyReport
from lorekeeper.audit.providers import KeyProvider, provider_from_config
from lorekeeper.audit.rows import RowVerifier, install_row_signing
from lorekeeper.audit.session import KeySession, start_key_session
from lorekeeper.audit.signer import Signer
from lorekeeper.audit.witness import HeadWitness
from lorekeeper.config import Config
from lorekeeper.fsutil import atomic_write_text
from lorekeeper.store.engine import Store

EVENT_KEY_ROTATED = "audit_key_rotated"
EVENT_KEY_CREATED = "audit_key_created"
EVENT_UNSIGNED_ENTRY = "unsigned_entry"


@dataclass(frozen=True)
class AuditStatus:
    provider: str
    location: str
    state: str  # "loaded" | "failed" | "not_loaded"
    key_version: int | None
    loaded_at: str | None
    code: str | None = None
    cause: str | None = None
    message: str | None = None
    pending_version: int | None = None  # kept for callers; a rotation now starts the next session at once

    @property
    def title(self) -> str:
        return CAUSE_TITLES.get(self.cause or "", "Audit key unavailable")

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__.items())


def ensure_workspace_id(config_path: Path) -> str:
    """The workspace's random id ([workspace] id), added to lorekeeper.toml when missing."""
    import tomllib

    text = config_path.read_text(encoding="utf-8")
    current = (tomllib.loads(text).get("workspace") or {}).get("id")
    if current:
        return str(current)
    new_id = uuid.uuid4().hex
    line = f'id = "{new_id}"  # names this workspace\'s audit key in the keyring; never copy it\n'
    out, inserted = [], False
    for raw in text.splitlines(keepends=True):
        out.append(raw)
        if not inserted and raw.strip() == "[workspace]":
            out.append(line)
            inserted = True
    if not inserted:
        out.insert(0, "[workspace]\n" + line + "\n")
    atomic_write_text(config_path, "".join(out))
    return new_id


class AuditService:
    """The chain's files live in `sessions_dir` (day files) and `locks_dir` (the append lock); its
    checkpoints and signed rows in `store`; `config` names the key provider and the workspace id."""

    def __init__(self, store: Store, config: Config, sessions_dir: Path, locks_dir: Path) -> None:
        self.store = store
        self.config = config
        self.sessions_dir = sessions_dir
        self.locks_dir = locks_dir
        self._lock = threading.Lock()
        self._session: KeySession | None = None
        self._failure: AuditKeyUnavailableError | None = None
        self._log: SessionLog | None = None
        self._provider: KeyProvider | None = None
        self._pending_version: int | None = None
        self._verifier: RowVerifier | None = None
        self.last_refused: dict[str, int] = {}  # sign-rows: unsigned rows born after the baseline, not signed
        # every SignedColumns row is signed at commit (versioned ones recorded in the row ledger)
        install_row_signing(store, self.row_signer, workspace=lambda: self.workspace_id)

    # ------------------------------------------------------------------ the key session
    @property
    def workspace_id(self) -> str:
        return str(self.config.get("workspace.id", "") or "")

    def provider(self) -> KeyProvider:
        if self._provider is None:
            self._provider = provider_from_config(self.config, self.workspace_id)
        return self._provider

    def require_key(self) -> KeySession:
        """The session's key, loaded on the first call and immutable afterwards; fails closed."""
        with self._lock:
            if self._session is not None:
                return self._session
            try:
                self._session = start_key_session(self.provider())
                self._failure = None
            except AuditKeyUnavailableError as exc:
                self._failure = exc
                self._provider = None  # a retry re-reads credentials (VAULT_TOKEN, keyring)
                raise
            return self._session

    def check_writable(self) -> None:
        """Fail closed before a write (issue 24): ERR_AUDIT_KEY_UNAVAILABLE / ERR_AUDIT_KEY_INVALID
        without a usable key, ERR_AUDIT_CHAIN_BROKEN when the log disagrees with its signed head.
        Both exit 4 and nothing is written: every change has its event, so no event, no change."""
        self.require_key()
        self.log.check()

    def guard_write(self) -> None:
        """The store's write guard (`Store.write_guards`): every write transaction of the workspace
        is refused when `check_writable` fails, before the store's lock is taken. The chain's own
        bookkeeping and the repairs (adopt, restore, init) run under `store.unguarded()`."""
        self.check_writable()

    @property
    def key_session(self) -> KeySession | None:
        return self._session

    def status(self) -> AuditStatus:
        name = str(self.config.get("audit.provider", "keyring"))
        if self._session is not None:
            s = self._session
            return AuditStatus(
                s.provider, s.location, "loaded", s.version, s.loaded_at, pending_version=self._pending_version
            )
        try:
            location = self.provider().describe()
        except AuditKeyUnavailableError:
            location = ""
        if self._failure is not None:
            f = self._failure
            return AuditStatus(name, location, "failed", None, None, f.code, f.cause, f.message)
        return AuditStatus(name, location, "not_loaded", None, None)

    # ------------------------------------------------------------------ services that need the key
    def witness(self) -> HeadWitness:
        """Where the head is kept outside the workspace: Vault KV with Vault, the user's state dir otherwise."""
        from lorekeeper.audit.providers import VaultProvider
        from lorekeeper.audit.witness import FileWitness, VaultWitness

        provider = self.provider()
        if isinstance(provider, VaultProvider):
            return VaultWitness(provider, self.workspace_id)
        return FileWitness(self.workspace_id)

    def _refuse_copy(self) -> None:
        """A copied folder (`cp -a ws ws2`) keeps the original's id, so its key entry and head
        witness: its writes would move the witness past the original's store and lock the original
        out ("rolled back"). Refused here, before anything is written (issue 25 d4)."""
        from lorekeeper.audit.errors import WorkspaceCopyError
        from lorekeeper.audit.witness import copy_of

        if self.config.path is None or not self.workspace_id:
            return
        root = self.config.path.parent
        original = copy_of(self.workspace_id, root)
        if original is not None:
            raise WorkspaceCopyError(
                f"{root} is a copy of the workspace at {original} (same [workspace] id "
                f"{self.workspace_id}): nothing is written, so the original keeps working. Run "
                f"`lorekeeper workspace adopt-copy --workspace {root}` to give this copy its own id and "
                "head witness (the original is not touched).",
                original=str(original),
            )

    def _new_log(self, signer: Signer) -> SessionLog:
        return SessionLog(
            self.sessions_dir,
            self.locks_dir,
            self.store,
            signer,
            workspace_id=self.workspace_id,
            witness=self.witness(),
            current_version=lambda: self.provider().load().version,
        )

    @property
    def log(self) -> SessionLog:
        session = self.require_key()
        with self._lock:
            if self._log is None:
                self._refuse_copy()
                self._log = self._new_log(session.signer)
                fresh = True
            else:
                fresh = False
        if fresh:
            self._log.recover()  # start: roll the head forward, replay the outbox a crash left
        return self._log

    def row_verifier(self) -> RowVerifier:
        """The session's verifier of signed rows (one per session: its verdict cache is shared)."""
        if self._verifier is None:
            log = self.log
            self._verifier = RowVerifier(
                self.require_key().signer,
                report=lambda data: log.record(EVENT_UNSIGNED_ENTRY, data),
                store=self.store,
                workspace=self.workspace_id,
            )
        return self._verifier

    def row_signer(self) -> Signer:
        """For the store's commit hook: the session key's signer (fail closed)."""
        return self.require_key().signer

    def unsigned_rows(self) -> dict[str, int]:
        """Per signed table, the rows whose signature does not verify (`audit status`)."""
        from sqlalchemy import select

        from lorekeeper.audit.rows import signed_models

        verifier = self.row_verifier()
        verifier.refresh()  # issue 24: read every table's row ledger as it stands now
        out: dict[str, int] = {}
        with self.store.session() as s:
            for name, model in signed_models().items():
                bad = 0
                for row in s.scalars(select(model)).yield_per(1000):
                    if not verifier.ok(row):
                        bad += 1
                out[name] = bad
        return out

    def verify(self, target: Path | None = None) -> VerifyReport:
        return self.log.verify(target)

    def chain_state(self) -> ChainState:
        """The log's breaks, acknowledged or not (`audit status`, the Audit panel at start)."""
        return self.log.chain_state()

    def acknowledge(self, reason: str = "") -> dict[str, Any]:
        """`audit acknowledge`: a signed `break_acknowledged` event naming the unacknowledged breaks."""
        return self.log.acknowledge(reason)

    def init_key(self, *, record: bool = True) -> dict[str, Any]:
        """Create the first key in the configured provider (an operator action), then start on it.

        `record` writes a signed `audit_key_created` event. `lorekeeper init` creates the keyring
        key without one, so a workspace switched to Vault before its first event starts with an
        empty log rather than with an event signed by a key it no longer uses.
        """
        if self._session is not None:
            raise AuditKeyUnavailableError(
                f"this workspace already has a key (version {self._session.version}); use rotate.",
                cause="config",
                provider=self._session.provider,
            )
        if not self.workspace_id and self.config.path is not None:
            new_id = ensure_workspace_id(self.config.path)
            self.config.data.setdefault("workspace", {})["id"] = new_id
            self._provider = None
        loaded = self.provider().init_key()
        session = self.require_key()
        out: dict[str, Any] = {
            "provider": session.provider,
            "location": session.location,
            "key_version": loaded.version,
        }
        if record:
            event = self.log.append(EVENT_KEY_CREATED, {"provider": session.provider, "key_version": loaded.version})
            out["event_sig"] = event["sig"]
        # issue 24: the rows written before this workspace had a key (a keyless `init`) are its
        # legacy rows: signed now, as `audit sign-rows` would
        from lorekeeper.audit.ledger import LEGACY_UNSIGNED
        from lorekeeper.store.models import RowLedger

        with self.store.session() as s:
            legacy = s.scalar(select(RowLedger.key).where(RowLedger.version == LEGACY_UNSIGNED).limit(1))
        if legacy is not None and record:
            out["legacy_rows_signed"] = sum(self.sign_unsigned_rows().values())
        return out

    def rotate(self) -> dict[str, Any]:
        """New key version in the provider (old ones archived), then a new key session on it.

        One key per session (seed 004 §3.12.5): rotating ends this session and starts the next one
        at once, with the new key. Its first event is the signed `audit_key_rotated`; every event
        after it (this process included, no restart) is signed with the new version too. Older
        versions stay readable for verification through the provider.
        """
        session = self.require_key()
        provider = self.provider()
        expected = max(session.version, self._pending_version or 0)
        data = {"provider": session.provider, "previous_version": session.version, "new_version": expected + 1}
        # the event is committed (outbox) before the key changes: a crash at any point leaves either
        # no rotation (the outbox row is dropped at the next start) or a rotation with its event
        # the rotation lock covers the event from its outbox row to its flush with the new key: a
        # process on an older key leaves a row under way alone, and drops one nobody holds
        with self.log.rotation_lock.exclusive():
            row_id = self.log.record(EVENT_KEY_ROTATED, data, flush=False)
            try:
                new = provider.rotate(expected)
            except BaseException:
                # refused (another process rotated first) or failed: this rotation never happened,
                # so its event must not be replayed by the next flush as if it had
                self.log.drop_outbox([row_id])
                raise
            new_signer = Signer(new.key, new.version, key_lookup=provider.key_version)
            log = self._new_log(new_signer)
            OWN_ROTATIONS.add(row_id)  # this process's flush writes it; others leave it alone
            try:
                log.flush_outbox()
            finally:
                OWN_ROTATIONS.discard(row_id)
        event = log.last_event() or {"sig": ""}
        with self._lock:  # the next event, from any thread, is signed by the new session's key
            self._session = KeySession(
                provider=session.provider,
                location=session.location,
                version=new.version,
                loaded_at=datetime.now(UTC).isoformat(timespec="seconds"),
                signer=new_signer,
            )
            self._log = log
            self._pending_version = None
        return {
            "provider": session.provider,
            "previous_version": session.version,
            "new_version": new.version,
            "event_sig": event["sig"],
            "session_version": new.version,
        }

    def sign_unsigned_rows(self) -> dict[str, int]:
        """Sign the rows of every signed model that exist unsigned (the data migration).

        Issue 24: only legacy rows (unsigned when migration 0017 recorded the baseline) are signed;
        an unsigned row born after it is a forgery: left unsigned, counted in `self.last_refused`.
        """
        from lorekeeper.audit.rows import REFUSED_UNSIGNED, sign_unsigned, signed_models

        signer = self.require_key().signer
        log = self.log
        counts: dict[str, int] = {}
        refused: dict[str, int] = {}
        with self.store.write() as s:
            for name, model in signed_models().items():
                counts[name] = sign_unsigned(s, model, signer)
            refused = {k: v for k, v in s.info.pop(REFUSED_UNSIGNED, {}).items() if v}
            if any(counts.values()) or refused:
                log.record("rows_signed", {"tables": counts, **({"refused": refused} if refused else {})})
        self.last_refused = refused
        return counts

"""`ws.audit`: the audit chain of one workspace, built lazily but explicitly.

Nothing here touches the key provider until `require_key()` is called: the deterministic
commands (route, eval --rules, skills) work on a machine without any keyring, and the commands
that sign or verify call `require_key()` first, so they fail closed before any write.
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select

from lorekeeper.audit.errors import CAUSE_TITLES, AuditKeyUnavailableError
from lorekeeper.audit.log import OWN_ROTATIONS, ChainState, SessionLog, VerifyReport
from lorekeeper.audit.providers import KeyProvider, LoadedKey, provider_from_config
from lorekeeper.audit.rows import RowVerifier, install_row_signing
from lorekeeper.audit.session import KeySession, start_key_session
from lorekeeper.audit.settings import AuditSettings
from lorekeeper.audit.signer import Signer
from lorekeeper.audit.trust import TrustState, check_trust, require_trust, store_roots_unverified
from lorekeeper.audit.witness import FileWitness, HeadWitness
from lorekeeper.config import Config
from lorekeeper.errors import InvalidInputError, LorekeeperError
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


class _ConfigView:
    """`config.get` with the [audit] keys of `settings` (a provider built before they are saved)."""

    def __init__(self, config: Config, settings: AuditSettings) -> None:
        self.config = config
        self.values = {
            "audit.provider": settings.provider,
            "audit.vault.addr": settings.addr,
            "audit.vault.mount": settings.mount,
            "audit.vault.path": settings.path,
            "audit.vault.auth": settings.auth,
            "audit.vault.role_id": settings.role_id,
        }

    def get(self, dotted: str, default: Any = None) -> Any:
        return self.values[dotted] if dotted in self.values else self.config.get(dotted, default)


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
        self._operator: str | None = None
        self._pending_version: int | None = None
        self._verifier: RowVerifier | None = None
        self.last_refused: dict[str, int] = {}  # sign-rows: unsigned rows born after the baseline, not signed
        self._trusted_version: int | None = None  # issue 25: the key version the store's trust root accepted
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
        Both exit 4 and nothing is written: every change has its event, so no event, no change.
        Issue 25: ERR_STORE_KEY_MISMATCH (exit 4) first when the key is not the store's trust root."""
        self.require_key()
        self.require_trust()
        self.log.check()

    # ------------------------------------------------------------------ the store's trust root
    def trust_state(self) -> TrustState:
        """This session's key against the store's trust root (recorded when the store has none)."""
        session = self.require_key()
        return check_trust(
            self.store,
            session.signer,
            provider=session.provider,
            location=session.location,
            workspace=self.workspace_id,
        )

    def require_trust(self) -> None:
        """ERR_STORE_KEY_MISMATCH unless the store's trust root is this session's key (checked once
        per key session: a root never changes to accept a key it refused)."""
        session = self.require_key()
        if self._trusted_version == session.version:
            return
        require_trust(
            self.store,
            session.signer,
            provider=session.provider,
            location=session.location,
            workspace=self.workspace_id,
        )
        self._trusted_version = session.version

    def guard_write(self) -> None:
        """The store's write guard (`Store.write_guards`): every write transaction of the workspace
        is refused when `check_writable` fails, before the store's lock is taken. The chain's own
        bookkeeping and the repairs (adopt, restore, init) run under `store.unguarded()`."""
        self.check_writable()

    @property
    def key_session(self) -> KeySession | None:
        return self._session

    def key_loaded(self) -> bool:
        """Whether this process has loaded the key session (never loads it)."""
        return self._session is not None

    def follow_rotation(self) -> bool:
        """Another process rotated the key (issue 23 d4): this session moves to the provider's
        committed version, as its own rotation would; True when it moved. A long-lived process (the
        app) then signs with the new version and shows it. Asks the provider: call it off the GUI
        thread. Nothing happens before the key is loaded, or when the provider cannot be read."""
        session = self._session
        if session is None:
            return False
        try:
            provider = self.provider()
            loaded = provider.load()
        except AuditKeyUnavailableError:
            return False
        if loaded.version <= session.version:
            return False
        signer = Signer(loaded.key, loaded.version, key_lookup=provider.key_version)
        with self._lock:
            if self._session is not session:
                return False  # this process rotated (or followed) meanwhile
            self._session = KeySession(
                provider=session.provider,
                location=session.location,
                version=loaded.version,
                loaded_at=datetime.now(UTC).isoformat(timespec="seconds"),
                signer=signer,
            )
            if self._log is not None:
                self._log = self._new_log(signer)
            self._verifier = None  # its cache was keyed to the old session
            self._pending_version = None
        return True

    def status(self, *, follow: bool = False) -> AuditStatus:
        """The key's state; `follow`: first move to a version another process rotated to
        (`follow_rotation`; asks the provider, so only off the GUI thread)."""
        if follow:
            self.follow_rotation()
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
            operator=self.operator,
        )

    def operator(self) -> str:
        """Who makes this session's decisions (issue 25 d2): the Vault identity of the token or
        AppRole login when the key comes from Vault, else the OS login. Asked once per session."""
        with self._lock:
            if self._operator is not None:
                return self._operator
        from lorekeeper.audit.log import operator_name
        from lorekeeper.errors import LorekeeperError

        name = ""
        ask = getattr(self.provider(), "operator_identity", None)
        if ask is not None:
            try:
                name = str(ask() or "").strip()
            except LorekeeperError:  # Vault gave the key but not the token's name: the OS login
                name = ""
        with self._lock:
            self._operator = name or operator_name()
            return self._operator

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

    def session_log(self) -> SessionLog:
        """The signed log, as the `audit_log` callable the services get: the key loads on the first
        call, never at wiring."""
        return self.log

    def open_before_first_write(self) -> None:
        """A `store.before_write` hook: the audit session starts (key, log recovery under the log's
        lock) before the first write transaction, never inside one (lock order: the log's lock,
        then the store's). It runs once, then removes itself."""
        with contextlib.suppress(ValueError):  # another thread got here first
            self.store.before_write.remove(self.open_before_first_write)
        with contextlib.suppress(LorekeeperError):  # no key: a write that needs it fails closed later
            _ = self.log

    def row_verifier(self) -> RowVerifier:
        """The session's verifier of signed rows (one per session: its verdict cache is shared)."""
        if self._verifier is None:
            log = self.log
            self._verifier = RowVerifier(
                self.require_key().signer,
                report=lambda data: log.record(EVENT_UNSIGNED_ENTRY, data),
                store=self.store,
                workspace=self.workspace_id,
                behind=log.store_behind,
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
        moved = self._move_keyring_key()  # a hand switch to an empty Vault path: the same key, moved
        roots = store_roots_unverified(self.store)
        if moved is None and roots and record and not self._provider_has_key():
            # issue 25: a new key could never verify a store that another key already signs
            from lorekeeper.audit.trust import StoreKeyMismatchError

            newest = roots[-1]
            raise StoreKeyMismatchError(
                f"this store is already signed by another key (fingerprint {newest.fingerprint}, version "
                f"{newest.key_version}, from {newest.provider}: {newest.location}, recorded by workspace "
                f"{newest.workspace}): no new key is created, since nothing it signs could be verified by the "
                "other workspaces on the store. Use the store's key: `lorekeeper audit setup --provider vault "
                "--addr ADDR --mount MOUNT --path PATH` with its Vault address, mount and path.",
                store_fingerprint=newest.fingerprint,
                store_location=newest.location,
            )
        loaded = moved or self.provider().init_key()
        session = self.require_key()
        out: dict[str, Any] = {
            "provider": session.provider,
            "location": session.location,
            "key_version": loaded.version,
        }
        if record:
            self.require_trust()  # the store's trust root: this key, from now on
            out["fingerprint"] = self.trust_state().fingerprint
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

    # ------------------------------------------------------------------ `audit setup` (issue 25 d2)
    def setup(self, settings: AuditSettings) -> dict[str, Any]:
        """Switch the key provider and create, move or adopt the key in one step, in any order.

        - the new place holds no key: this workspace's key (every version) is moved there, so all it
          signed still verifies and its head witness moves with it ("moved"); a workspace without a
          key gets a new one there ("created");
        - the new place holds this workspace's key already: the switch only ("same_key");
        - it holds another key (the team's): the workspace joins it ("joined") when that key is the
          store's trust root (or the store has none) and this workspace has no signed history under
          its own key; else ERR_STORE_KEY_MISMATCH and nothing changes.
        Then lorekeeper.toml is rewritten (atomically) and a signed `audit_provider_changed` event
        opens the log under the new session.
        """
        from lorekeeper.audit.settings import save_audit_settings
        from lorekeeper.audit.trust import fingerprint

        settings.validate()
        if self.config.path is None:
            raise InvalidInputError("this workspace has no lorekeeper.toml to configure")
        if not self.workspace_id:
            self.config.data.setdefault("workspace", {})["id"] = ensure_workspace_id(self.config.path)
            self._provider = None
        old = self.provider()
        target = provider_from_config(_ConfigView(self.config, settings), self.workspace_id)
        old_keys = self._all_versions(old)
        if target.describe() == old.describe():
            how = "same_key" if old_keys else "created"
        elif target.has_key():
            loaded = target.load()
            if old_keys and fingerprint(old_keys.get(loaded.version, b"")) == fingerprint(loaded.key):
                how = "same_key"
            else:
                how = "joined"
                self._check_join(Signer(loaded.key, loaded.version, key_lookup=target.key_version), target)
        elif old_keys:
            target.import_versions(old_keys)
            how = "moved"
        else:
            how = "created"
        if how in ("moved", "same_key") and target.describe() != old.describe():
            old_witness, new_witness = self.witness(), self._witness_for(target)
            head = old_witness.read()
            if head is not None and new_witness.read() is None:
                new_witness.write(head)  # signed by the same key: the head keeps its epoch
        save_audit_settings(self.config.path, settings)
        self.config.reload()
        with self._lock:
            self._provider = None
            self._session = None
            self._failure = None
            self._log = None
            self._verifier = None
            self._trusted_version = None
        out: dict[str, Any] = {"setup": how, "provider": settings.provider}
        if how == "created":
            out.update(self.init_key())
            return out
        session = self.require_key()
        self.check_writable()  # the trust root (recorded now if the store had none) and the chain
        event = self.log.append(
            "audit_provider_changed",
            {"provider": session.provider, "location": session.location, "setup": how, "previous": old.describe()},
        )
        out.update(
            {
                "location": session.location,
                "key_version": session.version,
                "fingerprint": self.trust_state().fingerprint,
                "event_sig": event["sig"],
            }
        )
        return out

    def _witness_for(self, provider: KeyProvider) -> HeadWitness:
        from lorekeeper.audit.providers import VaultProvider
        from lorekeeper.audit.witness import FileWitness, VaultWitness

        if isinstance(provider, VaultProvider):
            return VaultWitness(provider, self.workspace_id)
        return FileWitness(self.workspace_id)

    @staticmethod
    def _all_versions(provider: KeyProvider) -> dict[int, bytes]:
        """Every version of the provider's key ({} when it has none)."""
        try:
            current = provider.load()
        except AuditKeyUnavailableError as exc:
            if exc.cause == "missing":
                return {}
            raise
        keys = {current.version: current.key}
        for version in range(1, current.version):
            keys[version] = provider.key_version(version)
        return keys

    def _check_join(self, team: Signer, target: KeyProvider) -> None:
        """Joining another key: it must be the store's trust root (or the store has none and no
        other key signs it), and this workspace must have no signed history under its own key."""
        from lorekeeper.audit.trust import StoreKeyMismatchError, check_trust
        from lorekeeper.store.models import AuditCheckpoint, AuditHead

        state = check_trust(
            self.store, team, provider=target.name, location=target.describe(), workspace="", record=False
        )
        if not state.ok:
            raise StoreKeyMismatchError(
                f"the key at {target.describe()} is not the key that signs this workspace's store "
                f"({self.config.get('store.url', '')}): nothing was changed. Point [store] url at the team's store "
                "first (the one that key signs), or give `audit setup` a new, empty path to move this "
                "workspace's own key there.",
                fingerprint=state.fingerprint,
            )
        events = sum(1 for p in sorted(self.sessions_dir.glob("*.jsonl")) if p.stat().st_size)
        with self.store.session() as s:
            head = s.get(AuditHead, self.workspace_id)
            count = int(head.count) if head is not None else 0
        if events or count:
            raise StoreKeyMismatchError(
                f"this workspace has a signed session log under its own key ({count} event(s) in its head, "
                f"{events} log file(s)); the key at {target.describe()} is another key, so that history would no "
                "longer verify: nothing was changed. Give `audit setup` a new, empty path to move this key, or "
                "join the team from a fresh `lorekeeper init`.",
            )
        if head is not None:  # an empty head signed by the old key: the new key starts the log afresh
            with self.store.unguarded(), self.store.write() as s:
                for model in (AuditHead, AuditCheckpoint):
                    for row in s.scalars(select(model).where(model.workspace == self.workspace_id)):
                        s.delete(row)

    def _move_keyring_key(self) -> LoadedKey | None:
        """`init-key` after switching a keyring workspace to Vault by hand (issue 25 d2): the empty
        Vault path takes the workspace's keyring key (every version) and its head witness, instead of
        a new key that nothing this workspace signed would verify with."""
        from lorekeeper.audit.providers import KeyringProvider, VaultProvider

        provider = self.provider()
        if not isinstance(provider, VaultProvider) or not self.workspace_id or provider.has_key():
            return None
        try:
            keys = self._all_versions(KeyringProvider(self.workspace_id))
        except AuditKeyUnavailableError:  # no keyring on this machine: nothing to move
            return None
        if not keys:
            return None
        loaded = provider.import_versions(keys)
        old_witness, new_witness = FileWitness(self.workspace_id), self._witness_for(provider)
        head = old_witness.read()
        if head is not None and new_witness.read() is None:
            new_witness.write(head)
        return loaded

    def _provider_has_key(self) -> bool:
        try:
            self.provider().load()
        except AuditKeyUnavailableError as exc:
            return exc.cause != "missing"  # another failure is reported by init_key itself
        return True

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
        try:  # the store's trust root gains the new version now (else the next write records it)
            self.require_trust()
        except LorekeeperError as exc:
            log.warnings.append(f"the store's trust root was not updated yet: {exc}")
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

"""Stable error codes.

Every failure a user can meet carries a code from DESIGN.md (or one of the few generic ones
below) and a message that says what to do. The CLI maps codes to exit codes that scripts rely on.
"""

from __future__ import annotations

# Exit codes of the CLI (documented in the README).
EXIT_OK = 0
EXIT_CHECK_FAILED = 1  # e.g. `eval --strict` with a failed warning rule
EXIT_INVALID = 2  # invalid input: bad spec, bad arguments, unreadable file
EXIT_NOT_FOUND = 3  # a named object (skill, project, version) does not exist
EXIT_UNAVAILABLE = 4  # environment: key, lock, model or store unavailable (ERR_STORE_BUSY)
EXIT_INTERNAL = 5  # an unexpected error (ERR_INTERNAL): a bug; the traceback is in the error log

_EXIT_BY_CODE = {
    "ERR_INVALID_SPEC": EXIT_INVALID,
    "ERR_INVALID_INPUT": EXIT_INVALID,
    "ERR_NOT_FOUND": EXIT_NOT_FOUND,
    "ERR_WORKSPACE": EXIT_UNAVAILABLE,
    "ERR_AUDIT_KEY_UNAVAILABLE": EXIT_UNAVAILABLE,
    "ERR_AUDIT_KEY_INVALID": EXIT_UNAVAILABLE,
    "ERR_LOCK_TIMEOUT": EXIT_UNAVAILABLE,
    "ERR_LLM_UNAVAILABLE": EXIT_UNAVAILABLE,
    "ERR_STORE": EXIT_UNAVAILABLE,
    # one write path (issue 9): the write lock was not free within [store] busy_timeout
    "ERR_STORE_BUSY": EXIT_UNAVAILABLE,
    "ERR_STORE_CONFLICT": EXIT_UNAVAILABLE,
    "ERR_DERIVED_WRITE_FAILED": EXIT_UNAVAILABLE,  # saved in the store; `lorekeeper repair` rewrites the files
    "ERR_INTERNAL": EXIT_INTERNAL,
    "ERR_CANCELLED": EXIT_UNAVAILABLE,  # a job stopped before it ended (the app's Cancel; a newer job)
    # issue 26: the agent service cannot run (no private runtime folder); agent calls run cold
    "ERR_AGENTD_UNAVAILABLE": EXIT_UNAVAILABLE,
    "ERR_LIVE_DB_ACCESS": EXIT_INTERNAL,  # issue 23: code of ours opened a live database file (a bug)
    # signed audit chain (issue 3)
    "ERR_TRACE_WRITE_FAILED": EXIT_UNAVAILABLE,
    "ERR_FAIL_CLOSED_RECURSION": EXIT_UNAVAILABLE,
    "ERR_UNSIGNED_ENTRY": EXIT_CHECK_FAILED,
    "ERR_AUDIT_VERIFY_FAILED": EXIT_CHECK_FAILED,
    "ERR_AUDIT_CHAIN_BROKEN": EXIT_UNAVAILABLE,  # issue 18: append refuses a log that disagrees with its head
    "ERR_WORKSPACE_COPY": EXIT_UNAVAILABLE,  # issue 25: a copied folder; `lorekeeper workspace adopt-copy`
    "ERR_STORE_KEY_MISMATCH": EXIT_UNAVAILABLE,  # issue 25: the key is not the store's trust root; nothing written
    "ERR_CANONICAL_JSON": EXIT_INVALID,
    # improvement loop (issue 6): the model answered in a form the prompt did not ask for
    "ERR_MODEL_ANSWER_INVALID": EXIT_UNAVAILABLE,
    # GDPR purge (issue 13): verification still found the story's data somewhere
    "ERR_PURGE_INCOMPLETE": EXIT_CHECK_FAILED,
    # backups and recovery (issue 23)
    "ERR_STORE_DAMAGED": EXIT_UNAVAILABLE,  # names the newest backup and the restore command
    "ERR_WORKSPACE_IN_USE": EXIT_UNAVAILABLE,  # restore refused while another process has the workspace open
    "ERR_BACKUP_FAILED": EXIT_UNAVAILABLE,  # the copy failed integrity_check (or could not be written)
    "ERR_BACKUP_INVALID": EXIT_INVALID,  # restore was given something that is not a usable backup
    "ERR_BACKUP_UNSUPPORTED": EXIT_UNAVAILABLE,  # PostgreSQL store: pg_dump / pg_restore guidance
    # hostile input (issue 24 d6): refused before it can hang the process or exhaust its memory
    "ERR_NOT_REGULAR_FILE": EXIT_INVALID,  # a FIFO, device, socket or folder where a file was wanted
    "ERR_INPUT_TOO_LARGE": EXIT_INVALID,  # a file, stdin or document over its size limit
    "ERR_INPUT_TOO_DEEP": EXIT_INVALID,  # JSON or YAML nested deeper than the limit
    "ERR_INPUT_TOO_COMPLEX": EXIT_INVALID,  # YAML whose aliases expand past the limit (an alias bomb)
    "ERR_ARCHIVE_UNSAFE": EXIT_INVALID,  # an archive over its limits (members, size, ratio) or unsafe
    "ERR_NOT_UTF8": EXIT_INVALID,  # a text file or file name that is not UTF-8
}


class LorekeeperError(Exception):
    """An error with a stable code and an actionable message."""

    code = "ERR_INTERNAL"

    def __init__(self, message: str, *, code: str | None = None, **details: object) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.details = details

    @property
    def exit_code(self) -> int:
        return _EXIT_BY_CODE.get(self.code, EXIT_INVALID)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "message": self.message}
        out.update({k: v for k, v in self.details.items() if v is not None})
        return out

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class InvalidSpecError(LorekeeperError):
    """A skill, rules file or other specification is invalid. Names the file and the field/rule."""

    code = "ERR_INVALID_SPEC"

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        rule_id: str | None = None,
        field: str | None = None,
        line: int | None = None,
    ) -> None:
        where = []
        if file:
            where.append(str(file) + (f":{line}" if line else ""))
        if rule_id:
            where.append(f"rule {rule_id}")
        if field:
            where.append(f"field {field}")
        prefix = (", ".join(where) + ": ") if where else ""
        super().__init__(prefix + message, file=file, rule_id=rule_id, field=field, line=line)
        self.file = file
        self.rule_id = rule_id
        self.field = field
        self.line = line


class InvalidInputError(LorekeeperError):
    code = "ERR_INVALID_INPUT"


class UnsafeInputError(InvalidSpecError):
    """Input refused before reading or parsing it could hang the process or exhaust its memory:
    a special file, an oversized file, too deep a nesting, an alias bomb, an archive over its
    limits, bytes that are not UTF-8. Its code says which (ERR_NOT_REGULAR_FILE, ...; all exit 2);
    it names the file like an InvalidSpecError, so every place that collects spec errors collects
    these too."""

    def __init__(
        self,
        message: str,
        *,
        code: str,
        file: str | None = None,
        field: str | None = None,
        line: int | None = None,
    ) -> None:
        super().__init__(message, file=file, field=field, line=line)
        self.code = code


class NotFoundError(LorekeeperError):
    code = "ERR_NOT_FOUND"


class WorkspaceError(LorekeeperError):
    code = "ERR_WORKSPACE"


class DerivedWriteError(LorekeeperError):
    """The store change is committed, but a file derived from it (skills/ folder, index) is not written."""

    code = "ERR_DERIVED_WRITE_FAILED"

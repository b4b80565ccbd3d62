"""`lorekeeper audit status|acknowledge|init-key|verify [PATH]|rotate|sign --test-key HEX FILE|append|events|tombstone|set-secret`.

Every command that signs or verifies loads the key session first (`ws.audit.require_key()`), so
an unavailable key stops it with ERR_AUDIT_KEY_UNAVAILABLE (exit 4) before anything is written.
`sign --test-key` needs no workspace: it reproduces published test vectors offline.
"""

from __future__ import annotations

import stat
import sys
from pathlib import Path
from typing import Any

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, same_operator, workspace_option
from lorekeeper.cli.progress import progress_option
from lorekeeper.errors import EXIT_CHECK_FAILED, EXIT_UNAVAILABLE, InvalidInputError
from lorekeeper.fsutil import not_regular, read_user_bytes


@click.group()
def audit() -> None:
    """The signed audit chain: key, session log, verification, rotation."""


def _read_source(source: str) -> bytes:
    """A JSON file or stdin ('-'): bounded, and a regular file only (a FIFO is refused, not read)."""
    return read_user_bytes(source, limit=SOURCE_LIMIT, what="file")


SOURCE_LIMIT = 64 * 1024 * 1024


def _load_source(source: str) -> Any:
    """The strict JSON of a file or stdin; an error names where it came from (the file, or stdin)."""
    from lorekeeper.audit.errors import CanonicalJSONError
    from lorekeeper.audit.jcs import loads
    from lorekeeper.fsutil import shown_path

    raw = _read_source(source)
    try:
        return loads(raw)
    except CanonicalJSONError as exc:
        shown = "stdin" if source == "-" else shown_path(source)
        raise CanonicalJSONError(f"{shown}: {exc.message}", file=shown) from None


@audit.command("status")
@workspace_option
@json_option
@progress_option("audit status")
@handle_errors
def status_cmd(workspace_dir: Path | None, as_json: bool) -> None:
    """The key provider, key version and load time, and the size of the session log."""
    with open_workspace(workspace_dir) as ws:
        session = ws.audit.require_key()
        log = ws.audit.log
        files = log.files()
        head = log.head_row()
        trust = ws.audit.trust_state()  # issue 25: the store's trust root (recorded when it has none)
        unsigned = ws.audit.unsigned_rows()  # issue 18: rows that do not verify, per signed table
        from lorekeeper.agents.hooks import snapshot_status

        # issue 24: the hook's snapshots, a cache that feeds the agent: forged on disk now + rejected so far
        hook_snapshots = snapshot_status(ws, session.signer)
        unsigned["hook_snapshot"] = hook_snapshots["invalid"] + hook_snapshots["rejected"]
        data: dict[str, Any] = {
            **session.to_dict(),
            "state": "loaded",
            "workspace_id": ws.audit.workspace_id,
            "session_files": len(files),
            "sessions_dir": str(ws.root / "sessions"),
            "head": None
            if head is None
            else {"epoch": head.epoch, "count": head.count, "file": head.file, "seq": head.seq},
            "witness": log.witness.name if log.witness is not None else None,
            "outbox_pending": log.pending(),
            "trust_root": trust.to_dict(),
            "unsigned_entries": {
                "code": "ERR_UNSIGNED_ENTRY",
                "total": sum(unsigned.values()),
                "by_table": unsigned,
                # issue 25: with another key's trust root, what fails to verify was signed by that key
                "reason": "signed_by_another_key" if not trust.ok else "bad_signature_or_tampered",
            },
            "caches": {"hook_snapshot": hook_snapshots},
            # issue 31 item 10: a break in the middle of the log is said at every start until acknowledged
            "chain": ws.audit.chain_state().to_dict(),
            "warnings": list(log.warnings),
        }
    if as_json:
        emit_json(data)
        if not trust.ok:
            sys.exit(EXIT_UNAVAILABLE)
        return
    click.echo(f"provider     {data['provider']}  ({data['location']})")
    click.echo(f"key version  {data['key_version']}")
    click.echo(f"loaded at    {data['loaded_at']}")
    click.echo(f"session log  {data['session_files']} file(s) in {data['sessions_dir']}")
    h = data["head"]
    click.echo(
        f"head         {h['count']} events, epoch {h['epoch']}, last {h['file']}#{h['seq']}"
        if h
        else "head         none"
    )
    click.echo(f"witness      {data['witness'] or '-'}")
    click.echo(f"outbox       {data['outbox_pending']} event(s) waiting")
    tr = data["trust_root"]
    if tr["state"] == "mismatch":
        click.echo(f"trust root   MISMATCH: this key {tr['fingerprint']} is not the store's (ERR_STORE_KEY_MISMATCH)")
    else:
        click.echo(f"trust root   {tr['state']}: key fingerprint {tr['fingerprint']} signs this store")
    u = data["unsigned_entries"]
    detail = ", ".join(f"{t}: {n}" for t, n in u["by_table"].items() if n)
    why = "signed by another key (not this workspace's)" if not trust.ok else "do not verify"
    click.echo(f"unsigned     {u['total']} row(s) {why} (ERR_UNSIGNED_ENTRY){': ' + detail if detail else ''}")
    hs = data["caches"]["hook_snapshot"]
    click.echo(
        f"hook cache   {hs['files']} snapshot(s), {hs['invalid']} that would be rejected now, "
        f"{hs['rejected']} rejected and rebuilt so far"
    )
    chain = data["chain"]
    if chain["breaks"]:
        first = chain["breaks"][0]
        at = first["file"] + (f" line {first['line']}" if first["line"] else "")
        at += f" (event #{first['seq']})" if first["seq"] is not None else ""
        more = f"; {len(chain['breaks']) - 1} more" if len(chain["breaks"]) > 1 else ""
        click.echo(f"chain        BREAK (ERR_AUDIT_VERIFY_FAILED) at {at}: {first['message']}{more}")
        for b in chain["breaks"][1:]:
            click.echo(
                f"             also {b['file']}" + (f" line {b['line']}" if b["line"] else "") + f": {b['message']}"
            )
        click.echo(
            "             run `lorekeeper audit verify` for the report, then `lorekeeper audit acknowledge "
            "--reason TEXT` once you have looked into it"
        )
        click.echo(
            f"warning: the session log has {len(chain['breaks'])} unacknowledged break(s), first at {at}", err=True
        )
    elif chain["acknowledged"]:
        last = chain["acknowledgements"][-1] if chain["acknowledgements"] else {}
        click.echo(
            f"chain        {len(chain['acknowledged'])} break(s), acknowledged"
            + (f" by {last.get('operator')} at {str(last.get('ts') or '')[:19]}" if last else "")
            + (f": {last['reason']}" if last.get("reason") else "")
            + " (`audit verify` still lists them)"
        )
    else:
        click.echo("chain        verified, no break")
    for w in data["warnings"]:
        click.echo(f"warning: {w}", err=True)
    if not trust.ok:
        click.echo(f"error: ERR_STORE_KEY_MISMATCH: {tr['message']}", err=True)
        sys.exit(EXIT_UNAVAILABLE)


@audit.command("acknowledge")
@click.option(
    "--reason",
    "--why",
    "reason",
    default="",
    help="Why the break is acceptable (what you found); kept, signed, in the event (--why is the same option).",
)
@workspace_option
@json_option
@handle_errors
def acknowledge_cmd(reason: str, workspace_dir: Path | None, as_json: bool) -> None:
    """Acknowledge the chain's current breaks with a signed `break_acknowledged` event.

    `audit status` and the Audit panel stop reporting the breaks it names; a new or different
    break is reported again. `audit verify` still lists every break (the log is not changed).
    """
    from lorekeeper.audit.log import MAX_ACK_REASON

    if len(reason.strip()) > MAX_ACK_REASON:  # validated before the key is loaded
        raise InvalidInputError(f"--reason is {len(reason.strip())} characters long (the limit is {MAX_ACK_REASON})")
    with open_workspace(workspace_dir) as ws:
        ws.audit.require_key()
        out = ws.audit.acknowledge(reason)
    if as_json:
        emit_json(out)
        return
    if not out["acknowledged"]:
        n = out["already_acknowledged"]
        click.echo(
            "nothing to acknowledge: "
            + (f"the {n} break(s) in the log are already acknowledged" if n else "the chain has no break")
        )
        return
    ev = out["event"]
    for b in out["acknowledged"]:
        at = (
            b["file"]
            + (f" line {b['line']}" if b["line"] else "")
            + (f" (event #{b['seq']})" if b["seq"] is not None else "")
        )
        click.echo(f"acknowledged {at}: {b['message']}")
    click.echo(f"signed event break_acknowledged #{ev['seq']} written to {ev['file']} by {out['operator']}")


@audit.command("init-key")
@workspace_option
@json_option
@handle_errors
def init_key_cmd(workspace_dir: Path | None, as_json: bool) -> None:
    """Create the first audit key in the configured provider (never done silently for Vault)."""
    with open_workspace(workspace_dir) as ws:
        data = ws.audit.init_key()
    if as_json:
        emit_json(data)
    else:
        click.echo(f"Audit key version {data['key_version']} created in {data['location']}.")


@audit.command("setup")
@click.option("--provider", "provider", type=click.Choice(["vault", "keyring"]), required=True)
@click.option("--addr", default=None, help="Vault address (default: [audit.vault] addr).")
@click.option("--mount", default=None, help="KV v2 mount (default: [audit.vault] mount).")
@click.option("--path", "kv_path", default=None, help="KV path of the key: the team's shared path (Vault).")
@click.option("--auth", type=click.Choice(["token", "approle"]), default=None, help="Vault login method.")
@click.option("--role-id", default=None, help="AppRole role id (with --auth approle).")
@workspace_option
@json_option
@handle_errors
def setup_cmd(
    provider: str,
    addr: str | None,
    mount: str | None,
    kv_path: str | None,
    auth: str | None,
    role_id: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Switch the key provider and move, create or join the key in one step, in any order.

    An empty Vault path takes this workspace's key (all it signed still verifies); a path holding
    the team's key is joined when that key signs this workspace's store. Writes lorekeeper.toml.
    """
    from lorekeeper.audit.settings import AuditSettings

    with open_workspace(workspace_dir) as ws:
        current = AuditSettings.from_config(ws.config)
        settings = AuditSettings(
            provider=provider,
            addr=addr or current.addr,
            mount=mount or current.mount,
            path=kv_path or current.path,
            auth=auth or current.auth,
            role_id=role_id if role_id is not None else current.role_id,
        )
        data = ws.audit.setup(settings)
    if as_json:
        emit_json(data)
        return
    verbs = {
        "moved": "this workspace's key moved to",
        "joined": "joined the key at",
        "created": "new key created in",
        "same_key": "already using the key at",
    }
    click.echo(
        f"Audit key: {verbs.get(data['setup'], data['setup'])} {data.get('location', '')} "
        f"(version {data.get('key_version')}, fingerprint {data.get('fingerprint', '?')})."
    )


@audit.command("verify")
@click.argument("path", required=False, type=click.Path(path_type=Path))
@click.option(
    "--adopt",
    is_flag=True,
    help="After reporting, start a new signed head over the log as it stands (upgrades, a reset state dir).",
)
@workspace_option
@json_option
@progress_option("audit verify")
@handle_errors
def verify_cmd(path: Path | None, adopt: bool, workspace_dir: Path | None, as_json: bool) -> None:
    """Verify signatures, chain and checkpoints of the session log (PATH: a file or folder).

    Exits 1 on any break and names the file and line.
    """
    if path is not None and path.exists():
        mode = path.stat().st_mode
        if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):  # a FIFO or a device: refused, never read
            raise not_regular(path, mode, "session log")
    with open_workspace(workspace_dir) as ws:
        ws.audit.require_key()
        report = ws.audit.verify(path)
        if adopt:
            adopted = ws.audit.log.adopt()
            if not as_json:
                click.echo(
                    f"adopted: new head at epoch {adopted['epoch']} over {adopted['count']} event(s) "
                    "(signed event audit_head_adopted)"
                )
    if as_json:
        emit_json(report.to_dict())
    else:
        click.echo(report.text())
    if not report.ok:
        if not as_json:
            first = report.issues[0]
            click.echo(f"error: ERR_AUDIT_VERIFY_FAILED: {first}", err=True)
        sys.exit(EXIT_CHECK_FAILED)


@audit.command("rotate")
@workspace_option
@json_option
@progress_option("audit rotate")
@handle_errors
def rotate_cmd(workspace_dir: Path | None, as_json: bool) -> None:
    """New key version; the old one stays readable for verification; signed audit_key_rotated event."""
    with open_workspace(workspace_dir) as ws:
        data = ws.audit.rotate()
    if as_json:
        emit_json(data)
    else:
        click.echo(
            f"Audit key rotated: version {data['previous_version']} -> {data['new_version']} "
            f"(signed event audit_key_rotated {data['event_sig'][:16]}…)."
        )


@audit.command("sign")
@click.option("--test-key", "test_key", required=True, help="A TEST key, 64 hex characters (never a real one).")
@click.argument("file")
@json_option
@handle_errors
def sign_cmd(test_key: str, file: str, as_json: bool) -> None:
    """Print the canonical JSON and the HMAC-SHA256 of a payload FILE (or -) without its `sig`."""
    from lorekeeper.audit.log import sign_payload_with_key
    from lorekeeper.audit.signer import parse_key_hex

    key = parse_key_hex(test_key, where="--test-key")
    payload = _load_source(file)
    if not isinstance(payload, dict):
        raise InvalidInputError("the payload must be a JSON object")
    canonical, signature = sign_payload_with_key(key, payload)
    if as_json:
        emit_json({"canonical": canonical, "signature": signature})
    else:
        click.echo(canonical)
        click.echo(signature)


@audit.command("append")
@click.argument("event_type")
@click.option("--story", default=None, help="The story this event belongs to (used by purges and filters).")
@click.option("--data", "data_src", default=None, help="The event data: a JSON file, or - for stdin.")
@workspace_option
@json_option
@handle_errors
def append_cmd(
    event_type: str, story: str | None, data_src: str | None, workspace_dir: Path | None, as_json: bool
) -> None:
    """Write one signed, chained event to today's session log (for operators' scripts)."""
    data = _load_source(data_src) if data_src else None  # validated before the key is even loaded
    with open_workspace(workspace_dir) as ws:
        ws.audit.require_key()
        event = ws.audit.log.append(event_type, data, story=story)
    if as_json:
        emit_json({k: v for k, v in event.items() if k != "content"})
    else:
        click.echo(
            f"event #{event['seq']} {event_type} written ({event['ts'][:10]}.jsonl, key v{event['key_version']})"
        )


@audit.command("events")
@click.option("--type", "event_type", default=None, help="Only this event type.")
@click.option("--story", default=None, help="Only this story.")
@click.option("--date", "day", default=None, help="Only this day (YYYY-MM-DD).")
@click.option(
    "--by", "by", default=None, help='Only the events of this operator (the Vault identity or OS login shown as "by").'
)
@workspace_option
@json_option
@handle_errors
def events_cmd(
    event_type: str | None,
    story: str | None,
    day: str | None,
    by: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """List the session log's events with their verification status."""
    with open_workspace(workspace_dir) as ws:
        ws.audit.require_key()
        records = ws.audit.log.events()
    records = [
        r
        for r in records
        if (not event_type or r.type == event_type)
        and (not story or r.story == story)
        and (not day or r.file.startswith(day))
        and (by is None or same_operator(r.by, by))
    ]
    if as_json:
        emit_json({"events": [{**{k: v for k, v in r.__dict__.items() if k != "raw"}, "by": r.by} for r in records]})
        return
    for r in records:
        click.echo(
            f"{r.file}:{r.line:<5} #{r.seq or '?':<5} {r.ts[:19]}  {r.type:<24} {r.story or '-':<10} {r.status:<8} "
            f"{r.by or '-'}"
        )


@audit.command("tombstone")
@click.argument("file")
@click.argument("seq", type=int)
@click.option(
    "--reason",
    "--why",
    "reason",
    required=True,
    help="Why (e.g. the erasure request); kept, signed, in the tombstone (--why is the same option).",
)
@workspace_option
@json_option
@handle_errors
def tombstone_cmd(file: str, seq: int, reason: str, workspace_dir: Path | None, as_json: bool) -> None:
    """Replace event SEQ of FILE by a signed tombstone (GDPR erasure): the chain still verifies."""
    with open_workspace(workspace_dir) as ws:
        # fail closed like every write (issue 24), and like `purge --force`: a tombstone rewrites a
        # line of a log that no longer agrees with its signed head (exit 4, the file untouched)
        ws.audit.check_writable()
        ws.audit.log.tombstone(file, seq, reason=reason)
    if as_json:
        emit_json({"file": file, "seq": seq, "tombstoned": True})
    else:
        click.echo(f"event #{seq} of {file} replaced by a signed tombstone")


@audit.command("set-secret")
@click.option("--approle", is_flag=True, help="Store an AppRole secret id instead of a token.")
@workspace_option
@json_option
@handle_errors
def set_secret_cmd(approle: bool, workspace_dir: Path | None, as_json: bool) -> None:
    """Keep the Vault token (or AppRole secret id) in the OS keyring; read from a hidden prompt or stdin."""
    from lorekeeper.audit.providers import store_vault_secret

    if sys.stdin.isatty():
        value = click.prompt("AppRole secret id" if approle else "Vault token", hide_input=True, err=as_json)
    else:
        value = sys.stdin.readline().strip()
    if not value:
        raise InvalidInputError("nothing to store")
    with open_workspace(workspace_dir) as ws:
        entry = store_vault_secret(ws.audit.workspace_id, value, approle=approle)
    if as_json:
        emit_json({"stored": True, "keyring_service": "lorekeeper", "keyring_entry": entry})
    else:
        click.echo(f"stored in the OS keyring as lorekeeper/{entry}")


@audit.command("sign-rows")
@workspace_option
@json_option
@progress_option("audit sign-rows")
@handle_errors
def sign_rows_cmd(workspace_dir: Path | None, as_json: bool) -> None:
    """Sign the store rows that exist unsigned (once, after upgrading); signed rows are left alone."""
    with open_workspace(workspace_dir) as ws:
        ws.audit.require_key()
        counts = ws.audit.sign_unsigned_rows()
        refused = dict(ws.audit.last_refused)
    if as_json:
        emit_json({"signed": counts, **({"refused": refused} if refused else {})})
    else:
        click.echo(", ".join(f"{t}: {n}" for t, n in counts.items()) or "no signed tables registered")
    if refused:
        # issue 24: never laundered; ERR_UNSIGNED_ENTRY's rows born signed stay out of every agent path
        click.echo(
            "ERR_UNSIGNED_ENTRY: not signed, they appeared unsigned after signing existed (forged): "
            + ", ".join(f"{t}: {n}" for t, n in refused.items()),
            err=True,
        )

"""Issue 28 d5: `save_audit_settings` edits lorekeeper.toml with tomlkit. Only the [audit] keys change,
in whatever form the operator wrote them; comments and every other line survive; a file that is
not TOML, or an [audit] that is not a table, is refused with nothing written."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from lorekeeper.audit.settings import AuditSettings, save_audit_settings
from lorekeeper.errors import InvalidSpecError

VAULT = AuditSettings(
    provider="vault",
    addr="https://bao.example:8200",
    mount="secret",
    path="team/it's-ours",
    auth="approle",
    role_id="r-1",
)
COMMENTED = """\
# Lorekeeper workspace configuration (the operator's notes stay)

[workspace]
name = "Nord"  # the client

[audit]
# keyring for one operator, vault for a team
provider = "keyring"                   # or "vault"

[audit.vault]
addr = "http://127.0.0.1:8200"         # VAULT_ADDR overrides
path = "lorekeeper/memory-audit-hmac"  # the token: OS keyring, or VAULT_TOKEN

[llm]
provider = "none"                      # anthropic | ollama | claude-cli | none
"""


def _audit(path: Path) -> dict[str, object]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))["audit"]
    vault = data.pop("vault")
    return {**data, **vault}


def test_the_settings_are_set_and_every_comment_survives(tmp_path: Path):
    config = tmp_path / "lorekeeper.toml"
    config.write_text(COMMENTED, encoding="utf-8")

    save_audit_settings(config, VAULT)

    text = config.read_text(encoding="utf-8")
    assert _audit(config) == {
        "provider": "vault",
        "addr": "https://bao.example:8200",
        "mount": "secret",
        "path": "team/it's-ours",
        "auth": "approle",
        "role_id": "r-1",
    }
    for line in COMMENTED.splitlines():
        if "#" in line:
            assert line[line.index("#") :] in text  # every comment, where it was
    lines = text.splitlines()
    assert 'provider = "vault"                   # or "vault"' in lines  # the value set beside its comment
    assert 'addr = "https://bao.example:8200"         # VAULT_ADDR overrides' in lines
    kept = [line for line in COMMENTED.splitlines() if not any(k in line for k in ("provider", "addr", "path ="))]
    assert all(line in lines for line in kept)  # the other lines, unchanged
    assert text.index("[audit.vault]") < text.index("mount =") < text.index("[llm]")  # new keys in their table


def test_dotted_keys_and_a_missing_table_are_edited_in_place(tmp_path: Path):
    config = tmp_path / "lorekeeper.toml"
    config.write_text('# mine\naudit.provider = "keyring"  # dotted\n\n[llm]\nprovider = "none"\n', encoding="utf-8")
    save_audit_settings(config, VAULT)
    assert _audit(config)["provider"] == "vault" and _audit(config)["role_id"] == "r-1"
    assert "# mine" in config.read_text(encoding="utf-8") and "# dotted" in config.read_text(encoding="utf-8")

    bare = tmp_path / "bare.toml"
    bare.write_text('[workspace]\nname = "x"  # kept\n', encoding="utf-8")
    save_audit_settings(bare, AuditSettings())
    assert _audit(bare)["provider"] == "keyring" and 'name = "x"  # kept' in bare.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "text",
    ['[audit\nprovider = "keyring"\n', 'audit = "keyring"\n', '[audit]\nvault = "not a table"\n'],
    ids=["not-toml", "audit-not-a-table", "vault-not-a-table"],
)
def test_a_config_that_cannot_be_edited_is_refused_and_left_alone(tmp_path: Path, text: str):
    config = tmp_path / "lorekeeper.toml"
    config.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidSpecError):
        save_audit_settings(config, VAULT)
    assert config.read_text(encoding="utf-8") == text

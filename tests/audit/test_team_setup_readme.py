"""Issue 25: the README's "Team setup" block, run as it stands (bash, the real `lorekeeper`
command) against the suite's PostgreSQL cluster and OpenBao dev server: two workspaces on one
store and one Vault path verify each other's rows and both prompts hold both teams' rules."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from audit_helpers import BaoServer

README = Path(__file__).resolve().parents[2] / "README.md"
pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def team_setup_block() -> str:
    text = README.read_text(encoding="utf-8")
    m = re.search(r"<!-- team-setup:begin -->\s*```bash\n(.*?)```\s*<!-- team-setup:end -->", text, re.S)
    assert m, "README.md has no team-setup block"
    return m.group(1)


def test_the_readme_team_setup_works_as_written(tmp_path: Path, pg_url: str, bao: BaoServer):
    script = team_setup_block().replace("lorekeeper/team-hmac", f"lk-readme/{uuid.uuid4().hex}")
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "LK_STORE_URL": pg_url,
        "VAULT_ADDR": bao.addr,
        "VAULT_TOKEN": bao.token,
    }
    out = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(r"(?m)^trust root\s+trusted", out.stdout), out.stdout
    assert re.search(r"(?m)^unsigned\s+0 row", out.stdout), out.stdout
    assert "chain verified" in out.stdout
    prompt = out.stdout[out.stdout.rindex("LEARNINGS") :]
    assert "Run the migrations before the tests" in prompt and "Pin the Node version in CI" in prompt

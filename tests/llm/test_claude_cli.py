"""claude-cli runs `claude -p` with the prompt on stdin only: a test program checks it received it so."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from lorekeeper.llm import LLMSettings, LLMUnavailableError, make_provider

FAKE = r"""#!{python}
import os, sys, time
prompt = sys.stdin.read()
mode = os.path.basename(sys.argv[0])
# The prompt must arrive on stdin only: never in argv, never in the environment.
leak = [a for a in sys.argv[1:] if prompt and (prompt in a or a in prompt and len(a) > 12)]
leak += [k for k, v in os.environ.items() if prompt and len(prompt) > 12 and prompt in v]
if leak:
    sys.stderr.write("PROMPT LEAKED: %r\n" % leak)
    sys.exit(3)
if "-p" not in sys.argv:
    sys.stderr.write("expected -p\n"); sys.exit(4)
if mode == "claude-silent":
    time.sleep(30)
if mode == "claude-fail":
    sys.stderr.write("first line\nError: not logged in\n"); sys.exit(2)
answer = "GOT[%d]: %s | args=%s" % (len(prompt), prompt.upper(), " ".join(sys.argv[1:]))
for i in range(0, len(answer), 5):
    sys.stdout.write(answer[i:i+5]); sys.stdout.flush()
"""


@pytest.fixture
def fake_bin(tmp_path: Path) -> Path:
    d = tmp_path / "bin"
    d.mkdir()
    for name in ("claude", "claude-silent", "claude-fail"):
        p = d / name
        p.write_text(FAKE.replace("{python}", sys.executable), encoding="utf-8")
        p.chmod(p.stat().st_mode | stat.S_IXUSR)
    return d


def provider(cmd: Path, **kw):
    return make_provider(LLMSettings(provider="claude-cli", command=str(cmd), **kw))


def test_the_prompt_goes_through_stdin_and_the_answer_streams_back(fake_bin):
    prompt = "SKILLS_HINT (focus on these):\n- code-review: x\n\nreview this secret diff, ünïcode ✓"
    p = provider(fake_bin / "claude", model="sonnet")
    pieces = list(p.stream(prompt))
    assert len(pieces) >= 1
    out = "".join(pieces)
    assert out.startswith(f"GOT[{len(prompt)}]: ")
    assert prompt.upper() in out
    assert out.endswith("args=-p --model sonnet")


def test_a_program_that_fails_reports_its_last_error_line(fake_bin):
    with pytest.raises(LLMUnavailableError, match="exited with status 2: Error: not logged in"):
        list(provider(fake_bin / "claude-fail").stream("hello there, model"))


def test_a_silent_program_is_stopped_after_the_timeout(fake_bin):
    with pytest.raises(LLMUnavailableError, match=r"wrote nothing for 0\.5 s"):
        list(provider(fake_bin / "claude-silent", timeout=0.5).stream("hello there, model"))


def test_a_missing_program_makes_the_provider_unavailable(tmp_path):
    p = provider(tmp_path / "no-such-claude")
    st = p.status()
    assert not st.ready and "not found" in st.reason
    with pytest.raises(LLMUnavailableError, match="not found"):
        list(p.stream("x"))


def test_the_test_program_does_catch_a_prompt_in_argv(fake_bin):
    """The guard itself works: the same program fails when the prompt is passed as an argument."""
    import subprocess

    prompt = "this prompt must not be an argument"
    r = subprocess.run(
        [str(fake_bin / "claude"), "-p", prompt], input=prompt, capture_output=True, text=True, check=False
    )
    assert r.returncode == 3 and "PROMPT LEAKED" in r.stderr
    assert os.access(fake_bin / "claude", os.X_OK)


def test_llm_ask_through_claude_cli(workspace, fake_bin):
    import json

    from click.testing import CliRunner

    from lorekeeper.cli import main

    def run(*args):
        return CliRunner().invoke(main, [*args, "--workspace", str(workspace.root)], catch_exceptions=False)

    assert run("llm", "configure", "--provider", "claude-cli", "--command", str(fake_bin / "claude")).exit_code == 0
    workspace.learnings.add("Keep answers short")
    r = run("llm", "ask", "please review this code", "--json")
    assert r.exit_code == 0, r.output
    answer = json.loads(r.output)["answer"]
    assert "LEARNINGS (PAST CORRECTIONS" in answer and "- KEEP ANSWERS SHORT" in answer  # the prompt came in on stdin
    assert answer.endswith("args=-p")

"""claude-cli runs `claude -p` as a plain model: prompt on stdin only, stream-json out, no tools,
no settings, no saved session, in an empty temporary directory. A test program checks all that."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from lorekeeper.llm import LLMSettings, LLMUnavailableError, make_provider
from lorekeeper.llm.claude_cli import WORKDIR_PREFIX

# The documented argv (README, provider section), after the program itself.
DOCUMENTED = [
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    "--include-partial-messages",
    "--tools",
    "",
    "--strict-mcp-config",
    "--setting-sources",
    "",
    "--no-session-persistence",
    "--disable-slash-commands",
]

FAKE = r"""#!{python}
import json, os, sys, time
prompt = sys.stdin.read()
mode = os.path.basename(sys.argv[0])
log = os.environ.get("FAKE_CLAUDE_LOG")
if log:
    with open(log, "a", encoding="utf-8") as f:
        f.write(json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd(), "files": os.listdir("."),
                            "claudecode": os.environ.get("CLAUDECODE")}) + "\n")
# The prompt must arrive on stdin only: never in argv, never in the environment.
leak = [a for a in sys.argv[1:] if prompt and (prompt in a or a in prompt and len(a) > 12)]
leak += [k for k, v in os.environ.items() if prompt and len(prompt) > 12 and prompt in v]
if leak:
    sys.stderr.write("PROMPT LEAKED: %r\n" % leak)
    sys.exit(3)
args = sys.argv[1:]
if "-p" not in args:
    sys.stderr.write("expected -p\n"); sys.exit(4)
# Like Claude Code: print mode with stream-json output requires --verbose.
if args[args.index("--output-format") + 1] == "stream-json" and "--verbose" not in args:
    sys.stderr.write("Error: When using --print, --output-format=stream-json requires --verbose\n"); sys.exit(1)

def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n"); sys.stdout.flush()

def delta(text):
    emit({"type": "stream_event", "event": {"type": "content_block_delta", "index": 0,
          "delta": {"type": "text_delta", "text": text}}})

emit({"type": "system", "subtype": "init", "cwd": os.getcwd(), "tools": [], "mcp_servers": []})
if mode == "claude-silent":
    time.sleep(30)
if mode == "claude-fail":
    sys.stderr.write("first line\nError: not logged in\n"); sys.exit(2)
if mode == "claude-result-error":
    emit({"type": "result", "subtype": "success", "is_error": True, "result": "Invalid API key · Please run /login"})
    sys.exit(1)
if mode == "claude-text":
    sys.stdout.write("plain text from an old program\n"); sys.exit(0)
answer = "GOT[%d]: %s" % (len(prompt), prompt.upper())
stop = "max_tokens" if mode == "claude-cut" else "end_turn"
pause = 0.15 if mode in ("claude-slow", "claude-stalls") else 0
emit({"type": "stream_event", "event": {"type": "message_start", "message": {"content": [], "stop_reason": None}}})
for i in range(0, len(answer), 5):
    delta(answer[i:i+5])
    time.sleep(pause)
    if mode == "claude-stalls" and i >= 10:
        time.sleep(30)
if mode != "claude-whole":
    emit({"type": "stream_event", "event": {"type": "message_delta", "delta": {"stop_reason": stop}}})
emit({"type": "assistant", "message": {"content": [{"type": "text", "text": answer}], "stop_reason": stop}})
emit({"type": "result", "subtype": "success", "is_error": False, "result": answer, "stop_reason": stop})
"""

MODES = (
    "claude",
    "claude-silent",
    "claude-fail",
    "claude-slow",
    "claude-stalls",
    "claude-cut",
    "claude-result-error",
    "claude-text",
    "claude-whole",
)


@pytest.fixture
def fake_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "bin"
    d.mkdir()
    for name in MODES:
        p = d / name
        p.write_text(FAKE.replace("{python}", sys.executable), encoding="utf-8")
        p.chmod(p.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("FAKE_CLAUDE_LOG", str(tmp_path / "calls.jsonl"))
    return d


def calls(fake_bin: Path) -> list[dict[str, object]]:
    path = fake_bin.parent / "calls.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def provider(cmd: Path, **kw):
    return make_provider(LLMSettings(provider="claude-cli", command=str(cmd), **kw))


def test_the_prompt_goes_through_stdin_and_the_answer_streams_back(fake_bin):
    prompt = "SKILLS_HINT (focus on these):\n- code-review: x\n\nreview this secret diff, ünïcode ✓"
    p = provider(fake_bin / "claude", model="sonnet")
    pieces = list(p.stream(prompt))
    assert len(pieces) > 1  # text deltas, as the model writes them
    assert "".join(pieces) == f"GOT[{len(prompt)}]: {prompt.upper()}"  # once: the whole message is not repeated
    assert not p.last_truncated


def test_argv_is_the_documented_one_and_never_carries_the_prompt(fake_bin):
    list(provider(fake_bin / "claude", model="sonnet").stream("a prompt that stays on stdin"))
    list(provider(fake_bin / "claude").stream("a prompt that stays on stdin"))
    first, second = calls(fake_bin)
    assert first["argv"] == [*DOCUMENTED, "--model", "sonnet"]
    assert second["argv"] == DOCUMENTED


def test_the_readme_documents_the_exact_flags():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    shown = " ".join(f'"{a}"' if a == "" else a for a in DOCUMENTED)
    assert f"claude {shown}" in " ".join(readme.split()), shown


def test_it_runs_in_a_new_empty_directory_that_is_removed_afterwards(fake_bin, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "CLAUDE.md").write_text("project instructions the model must not see", encoding="utf-8")
    monkeypatch.setenv("CLAUDECODE", "1")  # as inside a Claude Code session
    list(provider(fake_bin / "claude").stream("hello there, model"))
    list(provider(fake_bin / "claude").stream("hello again, model"))
    one, two = calls(fake_bin)
    cwd = Path(str(one["cwd"]))
    assert cwd != tmp_path and cwd.name.startswith(WORKDIR_PREFIX)
    assert one["files"] == [] and two["files"] == []
    assert one["cwd"] != two["cwd"]  # one directory per call
    assert not cwd.exists()
    assert one["claudecode"] is None  # the nested-session marker is not passed on


def test_a_long_answer_that_keeps_streaming_is_not_killed_at_the_timeout(fake_bin):
    """~1.5 s of answer in pieces 0.15 s apart, with a 0.6 s timeout: silence is what counts."""
    prompt = "x" * 45
    p = provider(fake_bin / "claude-slow", timeout=0.6)
    assert "".join(p.stream(prompt)) == f"GOT[45]: {prompt.upper()}"


def test_a_program_that_goes_silent_mid_answer_is_stopped(fake_bin):
    got: list[str] = []
    with pytest.raises(LLMUnavailableError, match=r"wrote nothing for 0\.6 s"):
        for piece in provider(fake_bin / "claude-stalls", timeout=0.6).stream("hello there, model"):
            got.append(piece)
    assert "".join(got).startswith("GOT[18]")


def test_a_silent_program_is_stopped_after_the_timeout(fake_bin):
    with pytest.raises(LLMUnavailableError, match=r"wrote nothing for 0\.5 s"):
        list(provider(fake_bin / "claude-silent", timeout=0.5).stream("hello there, model"))


def test_an_answer_cut_at_max_tokens_is_flagged(fake_bin):
    p = provider(fake_bin / "claude-cut")
    answer = p.complete("hello there, model")
    assert answer.startswith("GOT[") and answer.truncated and p.last_truncated


def test_without_partial_messages_the_whole_message_is_the_answer(fake_bin):
    p = provider(fake_bin / "claude-whole")
    assert p.complete("hello there") == "GOT[11]: HELLO THERE"


def test_a_program_that_fails_reports_its_last_error_line(fake_bin):
    with pytest.raises(LLMUnavailableError, match="exited with status 2: Error: not logged in"):
        list(provider(fake_bin / "claude-fail").stream("hello there, model"))


def test_an_error_result_is_reported(fake_bin):
    with pytest.raises(LLMUnavailableError, match="reported an error: Invalid API key"):
        list(provider(fake_bin / "claude-result-error").stream("hello there, model"))


def test_a_program_that_does_not_speak_stream_json_says_so(fake_bin):
    with pytest.raises(LLMUnavailableError, match="did not answer in stream-json"):
        list(provider(fake_bin / "claude-text").stream("hello there, model"))


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
        [str(fake_bin / "claude"), *DOCUMENTED, prompt], input=prompt, capture_output=True, text=True, check=False
    )
    assert r.returncode == 3 and "PROMPT LEAKED" in r.stderr
    assert os.access(fake_bin / "claude", os.X_OK)


def test_llm_ask_through_claude_cli(workspace, fake_bin):
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
    assert calls(fake_bin)[-1]["argv"] == DOCUMENTED

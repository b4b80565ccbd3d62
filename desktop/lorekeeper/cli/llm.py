"""`lorekeeper llm status|configure|set-key|delete-key|ask`: the model behind the Playground."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, open_workspace, workspace_option
from lorekeeper.evals.footnote import with_footnote
from lorekeeper.llm.base import PROVIDERS, LLMUnavailableError


@click.group()
def llm() -> None:
    """The model provider: anthropic, ollama, claude-cli or none."""


@llm.command("status")
@click.option("--offline", is_flag=True, help="Only read the configuration and the key; do not contact the server.")
@workspace_option
@json_option
@handle_errors
def status(offline: bool, workspace_dir: Path | None, as_json: bool) -> None:
    """Which provider and model, whether a key is set, whether the server answers, and its models.

    The server is contacted with a short timeout: Ollama's model list (/api/tags), Anthropic's free
    model list (GET /v1/models, which also proves the key); never a paid generation.
    """
    with open_workspace(workspace_dir) as ws:
        st = ws.llm.status() if offline else ws.llm.check()
        settings = ws.llm.settings
        key = ws.llm.key_source(settings.provider)
    data = {
        **st.to_dict(),
        "base_url": settings.base_url or None,
        "timeout": settings.timeout,
        "max_retries": settings.max_retries,
        "key": key or None,
    }
    if as_json:
        emit_json(data)
        return
    click.echo(f"provider: {st.provider}")
    click.echo(f"model:    {st.model or '-'}")
    click.echo(f"base_url: {settings.base_url or '(provider default)'}")
    if settings.provider == "anthropic":
        click.echo(f"api key:  {key or 'not set'}")
    if st.checked:
        click.echo(f"server:   {'reachable' if st.reachable else 'not reachable'}")
        if st.reachable:
            click.echo(f"models:   {', '.join(st.models) if st.models else '(none)'}")
    click.echo("ready" if st.ready else f"unavailable: {st.reason}")


@llm.command("configure")
@click.option("--provider", type=click.Choice(PROVIDERS), default=None)
@click.option("--model", default=None, help="Model name ('' for the provider's default).")
@click.option("--base-url", default=None, help="Server URL ('' for the provider's default).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None, help="Seconds.")
@click.option("--max-retries", type=click.IntRange(min=0), default=None)
@click.option("--max-tokens", type=click.IntRange(min=1), default=None)
@click.option("--command", "command_", default=None, help="claude-cli: the program to run (default: claude).")
@workspace_option
@json_option
@handle_errors
def configure(
    provider: str | None,
    model: str | None,
    base_url: str | None,
    timeout: float | None,
    max_retries: int | None,
    max_tokens: int | None,
    command_: str | None,
    workspace_dir: Path | None,
    as_json: bool,
) -> None:
    """Change the [llm] table of lorekeeper.toml (other settings and comments are kept)."""
    changes: dict[str, Any] = {  # each value has its own field's type
        k: v
        for k, v in {
            "provider": provider,
            "model": model,
            "base_url": base_url,
            "timeout": timeout,
            "max_retries": max_retries,
            "max_tokens": max_tokens,
            "command": command_,
        }.items()
        if v is not None
    }
    with open_workspace(workspace_dir) as ws:
        settings = ws.llm.configure(dataclasses.replace(ws.llm.settings, **changes))
        st = ws.llm.status()
    if as_json:
        emit_json({**settings.to_dict(), "ready": st.ready, "reason": st.reason})
        return
    click.echo(
        f"provider {settings.provider}, model {settings.effective_model or '-'}, base_url {settings.base_url or '(default)'}"
    )
    if not st.ready:
        click.echo(f"not ready yet: {st.reason}")


@llm.command("set-key")
@click.option("--provider", type=click.Choice(["anthropic"]), default="anthropic", show_default=True)
@workspace_option
@json_option
@handle_errors
def set_key(provider: str, workspace_dir: Path | None, as_json: bool) -> None:
    """Store the API key in the OS keyring. The key is read from a hidden prompt, or from stdin when piped."""
    if sys.stdin.isatty():
        key = click.prompt(f"{provider} API key", hide_input=True, prompt_suffix=": ", err=as_json)
    else:
        key = sys.stdin.readline()
    with open_workspace(workspace_dir) as ws:
        ws.llm.set_key(key, provider)
    if as_json:
        emit_json({"provider": provider, "stored": True})
    else:
        click.echo(f"stored the {provider} API key in the OS keyring")


@llm.command("delete-key")
@click.option("--provider", type=click.Choice(["anthropic"]), default="anthropic", show_default=True)
@workspace_option
@json_option
@handle_errors
def delete_key(provider: str, workspace_dir: Path | None, as_json: bool) -> None:
    """Remove the API key from the OS keyring."""
    with open_workspace(workspace_dir) as ws:
        removed = ws.llm.delete_key(provider)
    if as_json:
        emit_json({"provider": provider, "removed": bool(removed)})
    else:
        click.echo("removed the key" if removed else "no key was stored")


def warn_truncated(truncated: bool, limit: int) -> None:
    """Say on stderr that the model stopped at the output limit (the Playground's label)."""
    if truncated:
        click.echo(
            f"note: the answer was cut at max_tokens ({limit} tokens); raise [llm] max_tokens "
            "(`lorekeeper llm configure --max-tokens N`) to get it whole",
            err=True,
        )


@llm.command("ask")
@click.argument("message")
@click.option("--project", default=None)
@click.option("--no-stream", is_flag=True, help="Print the answer at the end instead of as it arrives.")
@workspace_option
@json_option
@handle_errors
def ask(message: str, project: str | None, no_stream: bool, workspace_dir: Path | None, as_json: bool) -> None:
    """Send MESSAGE with its assembled prompt to the model; print the answer and its eval footnote.

    Like the Playground, it records the quality events (skills applied, eval outcomes) and keeps
    the answer under its id (`interaction` in --json; on stderr otherwise) for `lorekeeper feedback
    up|down ID` and `lorekeeper fixit ID`.
    """
    with open_workspace(workspace_dir) as ws:
        st = ws.llm.status()
        if not st.ready:
            raise LLMUnavailableError(st.reason)
        prompt = ws.reflect.prepare(message, project)
        live = not (as_json or no_stream)
        answer = ws.reflect.send(prompt, on_chunk=(lambda t: click.echo(t, nl=False)) if live else None)
        limit = ws.llm.settings.max_tokens
    if as_json:
        emit_json(answer.to_dict())
        return
    if live:
        click.echo()
        if answer.footnote:
            click.echo(f"---\n{answer.footnote}")
    else:
        click.echo(with_footnote(answer.text, answer.footnote))
    warn_truncated(answer.truncated, limit)
    # the id `feedback up|down` and `fixit` take (on stderr: stdout stays the answer)
    click.echo(f"answer: {answer.interaction}  (lorekeeper feedback up|down {answer.interaction[:8]})", err=True)

"""Small HTTP servers on 127.0.0.1 that speak the Anthropic Messages API and the Ollama API.

The real SDK clients talk to them. Each server records the requests it got and answers with what
the test programmed: a text (streamed in several chunks), an error status, a stream that fails
half-way, or a delay longer than the client's timeout.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]  # lower-cased names; a header sent twice keeps one value here
    body: dict[str, Any]
    raw_headers: list[tuple[str, str]] = field(default_factory=list)  # as sent, duplicates included
    method: str = "POST"

    def header_count(self, name: str) -> int:
        return sum(1 for k, _ in self.raw_headers if k.lower() == name.lower())


@dataclass
class Behaviour:
    """What the next requests get. `reply` computes the answer text from the request body."""

    reply: Callable[[dict[str, Any]], str] = lambda body: "Hello from the fake model."
    status: int = 200
    error_type: str = "api_error"
    error_message: str = "something went wrong"
    delay: float = 0.0  # seconds before the first byte
    fail_midstream: bool = False  # send some text, then an error event
    chunk_size: int = 7
    fail_times: int = 0  # answer the first N requests with `status`, then succeed
    chunk_delay: float = 0.0  # seconds between two streamed pieces
    stop_reason: str = "end_turn"  # Anthropic: why the answer ended ("max_tokens": cut at the limit)
    drop_times: int = 0  # close the first N connections without a byte of answer (a connection error)
    done_reason: str = "stop"  # Ollama: why the answer ended ("length": cut at num_predict)


def last_user_text(body: dict[str, Any]) -> str:
    msgs = body.get("messages") or []
    if not msgs:
        return ""
    content = msgs[-1].get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content or "")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class FakeServer:
    def __init__(self) -> None:
        self.behaviour = Behaviour()
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._served = 0
        handler = self._handler_class()
        self.httpd = _Server(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        """Stop listening (a second call does nothing): a test may stop it to play "server down"."""
        if getattr(self, "_stopped", False):
            return
        self._stopped = True
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def prompts(self) -> list[str]:
        return [last_user_text(r.body) for r in self.requests]

    def _next_fails(self) -> bool:
        with self._lock:
            self._served += 1
            b = self.behaviour
            if b.fail_times:
                return self._served <= b.fail_times
            return b.status != 200

    def _drops(self) -> bool:
        with self._lock:
            b = self.behaviour
            if b.drop_times > 0:
                b.drop_times -= 1
                return True
            return False

    def posts(self) -> list[Recorded]:
        return [r for r in self.requests if r.method == "POST"]

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _body(self) -> dict[str, Any]:
                n = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(n) if n else b""
                try:
                    return json.loads(raw or b"{}")
                except ValueError:
                    return {}

            def _json(self, status: int, obj: Any) -> None:
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _record(self, method: str, body: dict[str, Any]) -> None:
                headers = {k.lower(): v for k, v in self.headers.items()}
                with server._lock:
                    server.requests.append(Recorded(self.path, headers, body, list(self.headers.items()), method))

            def do_POST(self) -> None:
                body = self._body()
                self._record("POST", body)
                if server._drops():
                    self.close_connection = True
                    self.connection.shutdown(2)  # socket.SHUT_RDWR: no status line, nothing
                    return
                server.handle(self, body)

            def do_GET(self) -> None:
                self._record("GET", {})
                server.handle_get(self)

        return Handler

    def handle(self, h: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def handle_get(self, h: BaseHTTPRequestHandler) -> None:
        h._json(404, {"error": "not found"})  # type: ignore[attr-defined]


def _vector(text: str, dims: int) -> list[float]:
    """A deterministic stand-in embedding: different texts, different vectors."""
    import hashlib

    raw = hashlib.sha256(text.encode()).digest()
    block = 1
    while len(raw) < dims:  # 768 dims (nomic-embed-text) need more than one digest
        raw += hashlib.sha256(f"{block}:{text}".encode()).digest()
        block += 1
    return [b / 255 for b in raw[:dims]]


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


class FakeAnthropic(FakeServer):
    """POST /v1/messages: JSON or SSE (`"stream": true`), errors in the API's JSON shape; GET /v1/models."""

    models: tuple[str, ...] = ("claude-test", "claude-sonnet-4-6")

    def handle_get(self, h: BaseHTTPRequestHandler) -> None:
        if h.path.split("?")[0].rstrip("/") != "/v1/models":
            h._json(404, {"type": "error", "error": {"type": "not_found_error", "message": f"no route {h.path}"}})  # type: ignore[attr-defined]
            return
        if self._next_fails():
            b = self.behaviour
            h._json(
                b.status if b.status != 200 else 500,
                {"type": "error", "error": {"type": b.error_type, "message": b.error_message}},
            )  # type: ignore[attr-defined]
            return
        data = [
            {"type": "model", "id": m, "display_name": m, "created_at": "2026-01-01T00:00:00Z"} for m in self.models
        ]
        first, last = (data[0]["id"], data[-1]["id"]) if data else (None, None)
        h._json(200, {"data": data, "has_more": False, "first_id": first, "last_id": last})  # type: ignore[attr-defined]

    def handle(self, h: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        b = self.behaviour
        if b.delay:
            time.sleep(b.delay)
        if h.path.split("?")[0].rstrip("/") != "/v1/messages":  # Claude Code adds ?beta=true
            h._json(404, {"type": "error", "error": {"type": "not_found_error", "message": f"no route {h.path}"}})  # type: ignore[attr-defined]
            return
        if self._next_fails():
            h._json(
                b.status if b.status != 200 else 500,
                {"type": "error", "error": {"type": b.error_type, "message": b.error_message}},
            )  # type: ignore[attr-defined]
            return
        text = b.reply(body)
        model = body.get("model", "fake")
        if not body.get("stream"):
            h._json(  # type: ignore[attr-defined]
                200,
                {
                    "id": "msg_fake",
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [{"type": "text", "text": text}] if text else [],
                    "stop_reason": b.stop_reason,
                    "stop_sequence": None,
                    "usage": {"input_tokens": 10, "output_tokens": max(len(text) // 4, 1)},
                },
            )
            return
        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        h.send_header("Cache-Control", "no-cache")
        h.send_header("Connection", "close")
        h.end_headers()

        def event(name: str, data: dict[str, Any]) -> None:
            h.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
            h.wfile.flush()

        event(
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": "msg_fake",
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": 10, "output_tokens": 1},
                },
            },
        )
        event(
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        )
        event("ping", {"type": "ping"})
        pieces = _chunks(text, b.chunk_size)
        for i, piece in enumerate(pieces):
            if b.fail_midstream and i == len(pieces) // 2:
                event("error", {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
                h.close_connection = True
                return
            event(
                "content_block_delta",
                {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}},
            )
            if b.chunk_delay:
                time.sleep(b.chunk_delay)
        event("content_block_stop", {"type": "content_block_stop", "index": 0})
        event(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": b.stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        )
        event("message_stop", {"type": "message_stop"})
        h.close_connection = True


class FakeOllama(FakeServer):
    """POST /api/chat (NDJSON stream or one JSON), POST /api/embed, GET /api/tags; errors as {"error": ...}."""

    embed_dims: int = 8
    legacy_only: bool = False  # an older server: /api/embeddings (one prompt) but no /api/embed
    models: tuple[str, ...] = ("llama-test:latest", "nomic-embed-text:latest")

    def handle_get(self, h: BaseHTTPRequestHandler) -> None:
        b = self.behaviour
        if b.delay:
            time.sleep(b.delay)
        if h.path.rstrip("/") != "/api/tags":
            h._json(404, {"error": f"no route {h.path}"})  # type: ignore[attr-defined]
            return
        if self._next_fails():
            h._json(b.status if b.status != 200 else 500, {"error": b.error_message})  # type: ignore[attr-defined]
            return
        models = [{"name": m, "model": m, "size": 1, "digest": "0" * 12, "details": {}} for m in self.models]
        h._json(200, {"models": models})  # type: ignore[attr-defined]

    def handle(self, h: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        b = self.behaviour
        if b.delay:
            time.sleep(b.delay)
        path = h.path.rstrip("/")
        if self._next_fails():
            h._json(b.status if b.status != 200 else 500, {"error": b.error_message})  # type: ignore[attr-defined]
            return
        if path == "/api/embeddings":
            t = str(body.get("prompt") or "")
            h._json(200, {"embedding": _vector(t, self.embed_dims)})  # type: ignore[attr-defined]
            return
        if path == "/api/embed" and not self.legacy_only:
            inputs = body.get("input")
            inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
            vecs = [_vector(t, self.embed_dims) for t in inputs]
            h._json(200, {"model": body.get("model"), "embeddings": vecs})  # type: ignore[attr-defined]
            return
        if path != "/api/chat":
            h._json(404, {"error": f"no route {h.path}"})  # type: ignore[attr-defined]
            return
        text = b.reply(body)
        model = body.get("model", "fake")
        stamp = "2026-11-29T19:00:00.000000Z"
        done = {
            "model": model,
            "created_at": stamp,
            "message": {"role": "assistant", "content": ""},
            "done": True,
            "done_reason": b.done_reason,
            "total_duration": 1000,
            "eval_count": 3,
        }
        if body.get("stream") is False:
            done["message"]["content"] = text
            h._json(200, done)  # type: ignore[attr-defined]
            return
        h.send_response(200)
        h.send_header("Content-Type", "application/x-ndjson")
        h.send_header("Connection", "close")
        h.end_headers()
        pieces = _chunks(text, b.chunk_size)
        for i, piece in enumerate(pieces):
            if b.fail_midstream and i == len(pieces) // 2:
                h.wfile.write((json.dumps({"error": "model runner crashed"}) + "\n").encode())
                h.wfile.flush()
                h.close_connection = True
                return
            line = {
                "model": model,
                "created_at": stamp,
                "message": {"role": "assistant", "content": piece},
                "done": False,
            }
            h.wfile.write((json.dumps(line) + "\n").encode())
            h.wfile.flush()
        h.wfile.write((json.dumps(done) + "\n").encode())
        h.wfile.flush()
        h.close_connection = True

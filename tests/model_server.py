"""A real HTTP server on 127.0.0.1 that speaks Anthropic's Messages API and OpenAI's chat
completions, for the providers' tests and the commentator's benchmark.

By default it answers every task sensibly (a merge that covers every fact id, a
score for a pick, a line for everything else) and reports usage the way the
real API does, with its prompt caching rules: the prefix up to a block marked
``cache_control`` is cached only when it is at least the model's minimum
(``MINIMUM_CACHEABLE``), is read back only when byte-identical and not expired
(5 minutes, or 1 hour for ``"ttl": "1h"``, refreshed on every read), and usage
splits the input into cache reads, cache writes and the rest. Its clock can be
injected, so a replay is judged by tournament time. A test can queue scripted
replies (status, body, delay) to play 429s, overloads, timeouts and garbage.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.http_server import served

FACT_LINE = re.compile(r"^(\d+): (?:<player_text [^>]*>)?(.+?)(?:</player_text>)?$", re.MULTILINE)
# The minimum cacheable prompt length, in tokens, by model family, as published for
# Sonnet 4.x and 5 and Opus 4.x (1,024) and Haiku 4.5 (4,096); shorter is not cached.
MINIMUM_CACHEABLE = {"haiku": 4096, "sonnet": 1024, "opus": 1024}
TTL = {"5m": 300.0, "1h": 3600.0}
# The pick her prompt (prompts/prediction.txt) says is worth the most points.
SUGGESTION = re.compile(r"most points\s+under this pool's rules\s+is (\d+-\d+)")


@dataclass
class Reply:
    status: int = 200
    body: str | None = None  # None: the default answer for the request
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class ModelServer:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.replies: deque[Reply] = deque()
        self.always: Reply | None = None  # the reply when none is queued (a provider down)
        self.requests: list[Recorded] = []
        self.url = ""
        self.clock = clock  # seconds; a replay passes its tournament clock
        self._cache: dict[tuple[str, str], float] = {}  # (model, prefix) -> expiry
        self._lock = threading.Lock()

    def queue(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    def answer_text(self, prompt: str) -> str:
        """What a well-behaved model would say to each of BETanIA's tasks."""
        if "PRESERVE EVERY DISTINCT FACT" in prompt:
            facts = FACT_LINE.findall(prompt)
            return json.dumps([{"text": text, "covers": [int(i)]} for i, text in facts])
        if "Place your own prediction" in prompt:
            suggested = SUGGESTION.search(prompt)
            return suggested[1] if suggested else "1-0"  # a model that trusts the ratings
        if "If its author shares a lasting fact" in prompt:
            return "[]"
        if "Fuse your diary" in prompt:
            return "The story so far: goals, picks, and a pool that keeps guessing."
        if "Write its diary entry" in prompt:
            return "A match worth a line: picks were made, points were scored."
        return "What a time to be in this pool."

    def respond(self, path: str, body: dict[str, Any]) -> tuple[int, str, dict[str, str], float]:
        with self._lock:
            reply = self.replies.popleft() if self.replies else (self.always or Reply())
        if reply.body is not None or reply.status != 200:
            return (
                reply.status,
                reply.body
                or json.dumps(
                    {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}
                ),
                reply.headers,
                reply.delay,
            )
        if path.endswith("/messages"):
            return 200, self._message(body), reply.headers, reply.delay
        return 200, self._completion(body), reply.headers, reply.delay

    def _usage(self, body: dict[str, Any]) -> dict[str, int]:
        """Input tokens split as the API's cache would: read, written, and the rest."""
        model = body.get("model", "")
        minimum = next((n for name, n in MINIMUM_CACHEABLE.items() if name in model), 1024)
        blocks = list(_blocks(body.get("system", [])))
        for message in body.get("messages", []):
            blocks.extend(_blocks(message["content"]))
        total = sum(len(text) for text, _ in blocks) // 4
        prefix, breakpoints = "", []
        for text, control in blocks:
            prefix += text
            if control is not None:
                breakpoints.append((prefix, TTL[control.get("ttl", "5m")]))
        now, read, written = self.clock(), 0, 0
        with self._lock:
            for prefix, ttl in reversed(breakpoints):  # the longest prefix still cached
                if self._cache.get((model, prefix), -1.0) > now:
                    read = len(prefix) // 4
                    self._cache[(model, prefix)] = now + ttl  # a read refreshes it
                    break
            for prefix, ttl in breakpoints:
                tokens = len(prefix) // 4
                if tokens > read and tokens >= minimum:
                    self._cache[(model, prefix)] = now + ttl
                    written = tokens - read
        return {
            "input_tokens": total - read - written,
            "cache_creation_input_tokens": written,
            "cache_read_input_tokens": read,
        }

    def answer_data(self, prompt: str, schema: dict[str, Any]) -> dict[str, Any]:
        """The same answer as data, in the shape of the request's schema."""
        text = self.answer_text(prompt)
        if "home" in schema["properties"]:
            home, away = (int(n) for n in text.split("-"))
            return {"home": home, "away": away}
        if "claims" in schema["properties"]:  # a text with its claims: it declares none
            return {"text": text, "claims": []}
        (key,) = schema["properties"]  # {"facts": [...]}, {"merged": [...]}
        return {key: json.loads(text)}

    def _message(self, body: dict[str, Any]) -> str:
        prompt = "".join(text for text, _ in _blocks(body["messages"][-1]["content"]))
        usage = self._usage(body)
        text = self.answer_text(prompt)
        content: list[dict[str, Any]] = [{"type": "text", "text": text}]
        if body.get("tool_choice", {}).get("type") == "tool":  # forced: the tool's input
            (tool,) = body["tools"]
            data = self.answer_data(prompt, tool["input_schema"])
            content = [
                {"type": "tool_use", "id": "toolu_local", "name": tool["name"], "input": data}
            ]
        searching = [t for t in body.get("tools", []) if t.get("type", "").startswith("web_search")]
        if searching:
            content = _searched(prompt, text)
            usage["server_tool_use"] = {"web_search_requests": 1, "web_fetch_requests": 0}
        return json.dumps(
            {
                "id": "msg_local",
                "type": "message",
                "role": "assistant",
                "model": body.get("model", "local"),
                "content": content,
                "stop_reason": "tool_use" if content[0]["type"] == "tool_use" else "end_turn",
                "stop_sequence": None,
                "usage": {**usage, "output_tokens": len(text) // 4},
            }
        )

    def _completion(self, body: dict[str, Any]) -> str:
        prompt = body["messages"][-1]["content"]
        text = self.answer_text(prompt)
        form = body.get("response_format") or {}
        schema = form.get("json_schema", {}).get("schema") or form.get("schema")
        if schema is not None:
            text = json.dumps(self.answer_data(prompt, schema))
        return json.dumps(
            {
                "id": "chatcmpl-local",
                "object": "chat.completion",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": len(text) // 4},
            }
        )


MATCH_LINE = re.compile(r"^#\d+ (.+?) v (.+?) \(", re.MULTILINE)
NEWS = "https://news.example/team-news"


def _searched(prompt: str, text: str) -> list[dict[str, Any]]:
    """One web search for the match's team news, as the Messages API answers it: the
    query, the pages found, and the answer's text citing one of them."""
    teams = MATCH_LINE.search(prompt)
    query = f"{teams[1]} {teams[2]} team news" if teams else "team news"
    return [
        {"type": "server_tool_use", "id": "srvtoolu_local", "name": "web_search",
         "input": {"query": query}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_local", "content": [
            {"type": "web_search_result", "url": NEWS, "title": "Team news",
             "encrypted_content": "EqgfCioIARgB", "page_age": "1 day ago"},
        ]},
        {"type": "text", "text": text, "citations": [
            {"type": "web_search_result_location", "url": NEWS, "title": "Team news",
             "cited_text": "Both squads are fit.", "encrypted_index": "Eo8BCioIAhgB"},
        ]},
    ]  # fmt: skip


def _blocks(content: str | list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, str] | None]]:
    """A system or message content as (text, cache_control) blocks, in order."""
    if isinstance(content, str):
        yield content, None
        return
    for block in content:
        yield block.get("text", ""), block.get("cache_control")


@contextmanager
def model_server(clock: Callable[[], float] = time.monotonic) -> Iterator[ModelServer]:
    state = ModelServer(clock)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw)
            except json.JSONDecodeError:
                body = {}
            state.requests.append(
                Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            status, text, headers, delay = state.respond(self.path, body)
            if delay:
                time.sleep(delay)
            payload = text.encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with served(server) as state.url:
        yield state

"""Anthropic's Messages API through the official SDK.

The immutable persona goes first as a system block marked with
``cache_control``, so the provider caches it; it is byte-identical on every
call. The SDK retries 429, 5xx and overloaded (529) answers with backoff, and
honours ``ANTHROPIC_BASE_URL``; what still fails becomes a ``ModelError``. A call
that wants data (a pick, facts, a merge: ``Request.schema``) forces one tool whose
input schema is the answer's, and the tool's input comes back as JSON text.
With ``web_search``, a pick may also search the web for team news
(``bot.agent.providers.web_search``).
"""

from __future__ import annotations

import json
from typing import Any

import anthropic

from bot.agent.providers.base import ModelCall, ModelError
from bot.agent.providers.usage import Stopwatch, UsageSink, discard
from bot.agent.providers.web_search import WebSearch, sources
from memory.usage import ModelUsage
from prompts import load

# claude-sonnet-4-5 reaches end-of-life on 30 November 2026 (the SDK says so).
DEFAULT_MODEL = "claude-sonnet-5"
ANSWER_TOOL = "answer"  # the one tool of a call that wants data (``Request.schema``)


class AnthropicModel:
    name = "anthropic"

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        max_tokens: int = 400,
        on_usage: UsageSink = discard,
        web_search: WebSearch | None = None,
    ) -> None:
        self.model = model
        self.max_tokens = max_tokens
        self.on_usage = on_usage
        self.web_search = web_search  # team news for her picks, when asked for
        self.client = anthropic.Anthropic(
            api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries
        )

    def request(self, call: ModelCall) -> dict[str, Any]:
        """The request body: the stable prefix cached, the rest of the context as the message.

        The cache lives an hour, refreshed on every read: a live tournament calls her
        at kick-offs, goals, whistles and her picks an hour before each match, so
        calls are minutes to an hour apart and a 5-minute cache would be cold for most
        of them. A 1-hour write costs twice the input price and a read a tenth.
        """
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": [
                {
                    "type": "text",
                    "text": call.system,
                    "cache_control": {"type": "ephemeral", "ttl": "1h"},
                }
            ],
            "messages": [{"role": "user", "content": call.prompt}],
        }
        schema = call.form
        if schema is not None:
            # Data, not words: one tool whose input is the answer, and the model must use it.
            tool = {"name": ANSWER_TOOL, "description": load("answer_tool"), "input_schema": schema}
            body["tools"] = [tool]
            body["tool_choice"] = {"type": "tool", "name": ANSWER_TOOL}
        searching = (
            self.web_search.tool() if self.web_search and call.task == "prediction" else None
        )
        if searching is not None:
            # A forced tool would answer before searching: the model chooses, and a pick
            # written as text ("2-1") is read as well as the tool's input.
            body["tools"] = [*body.get("tools", []), searching]
            body["tool_choice"] = {"type": "auto"}
        return body

    def complete(self, call: ModelCall) -> str:
        watch = Stopwatch()
        try:
            response = self.client.messages.create(**self.request(call))
            text = "".join(
                block.text for block in response.content if getattr(block, "type", "") == "text"
            )
            used = [b for b in response.content if getattr(b, "type", "") == "tool_use"]
            if used:  # the structured answer: its input, as the JSON the parsers read
                text = json.dumps(used[0].input)
            found = sources(response.content)
        except anthropic.AnthropicError as error:
            self.on_usage(
                ModelUsage(
                    self.name, self.model, call.task, latency_ms=watch.ms, error=_describe(error)
                )
            )
            raise ModelError(f"anthropic: {_describe(error)}") from error
        except (ValueError, TypeError, AttributeError) as error:  # a body that is not a Message
            self.on_usage(
                ModelUsage(
                    self.name,
                    self.model,
                    call.task,
                    latency_ms=watch.ms,
                    error=f"malformed answer: {error}",
                )
            )
            raise ModelError(f"anthropic: malformed answer: {error}") from error
        usage = response.usage
        if self.web_search is not None:
            server = getattr(usage, "server_tool_use", None)
            self.web_search.spent(getattr(server, "web_search_requests", 0) or len(found.searches))
        self.on_usage(
            ModelUsage(
                self.name,
                self.model,
                call.task,
                input_tokens=usage.input_tokens or 0,
                output_tokens=usage.output_tokens or 0,
                cache_read_tokens=usage.cache_read_input_tokens or 0,
                cache_write_tokens=usage.cache_creation_input_tokens or 0,
                latency_ms=watch.ms,
                sources=str(found),
            )
        )
        if not text.strip():
            raise ModelError("anthropic: an empty answer")
        return text.strip()


def _describe(error: Exception) -> str:
    status = getattr(error, "status_code", None)
    name = type(error).__name__
    return f"{name} {status}" if status else f"{name}: {error}"[:200]

"""Any server that speaks OpenAI's chat completions (Ollama, llama.cpp, vLLM), over httpx.

Retries 429, 5xx and connection failures with exponential backoff, honouring
``Retry-After``; the transport and the sleep are injectable, as in httpx. A call
that wants data (``Request.schema``) asks for it with ``response_format``, in the
first form the server takes (``FORMATS``), and as text where it takes none.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from bot.agent.providers.base import ModelCall, ModelError
from bot.agent.providers.usage import Stopwatch, UsageSink, discard
from memory.usage import ModelUsage

RETRYABLE = {408, 409, 429, 500, 502, 503, 504, 529}
# How a call that wants data asks for it: OpenAI's ``json_schema``, then llama.cpp's
# ``json_object`` with a schema (llama-cpp-python's server takes only that one).
FORMATS = ("json_schema", "json_object")


class OpenAICompatibleModel:
    name = "openai-compatible"

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        max_tokens: int = 400,
        backoff: float = 0.5,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        on_usage: UsageSink = discard,
    ) -> None:
        self.model = model
        self.formats = list(FORMATS)  # the structured forms this server may still take
        self.max_retries = max_retries
        self.max_tokens = max_tokens
        self.backoff = backoff
        self.sleep = sleep
        self.on_usage = on_usage
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.client = httpx.Client(
            base_url=base_url.rstrip("/"), timeout=timeout, transport=transport, headers=headers
        )

    def request(self, call: ModelCall) -> dict[str, object]:
        body: dict[str, object] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": [
                {"role": "system", "content": call.system},
                {"role": "user", "content": call.prompt},
            ],
        }
        schema = self._schema(call)
        if schema is not None:
            body["response_format"] = (
                {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}}
                if self.formats[0] == "json_schema"
                else {"type": "json_object", "schema": schema}
            )
        return body

    def _schema(self, call: ModelCall) -> dict[str, Any] | None:
        """The answer's schema when the call wants data and this server still takes a form."""
        return call.form if self.formats else None

    def _post_structured(self, call: ModelCall) -> dict[str, Any]:
        """Ask in OpenAI's form, then llama.cpp's, then as text: a server that refuses a form
        is not asked in it again."""
        while True:
            try:
                return self._post(call)
            except httpx.HTTPStatusError as error:
                if not _refuses_form(error.response) or self._schema(call) is None:
                    raise
                self.formats.pop(0)

    def complete(self, call: ModelCall) -> str:
        watch = Stopwatch()
        try:
            body = self._post_structured(call)
            text = body["choices"][0]["message"]["content"]
            usage = body.get("usage") or {}
            if not isinstance(text, str):
                raise TypeError("the message content is not text")
        except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as error:
            self.on_usage(
                ModelUsage(
                    self.name, self.model, call.task, latency_ms=watch.ms, error=_describe(error)
                )
            )
            raise ModelError(f"{self.name}: {_describe(error)}") from error
        self.on_usage(
            ModelUsage(
                self.name,
                self.model,
                call.task,
                input_tokens=int(usage.get("prompt_tokens") or 0),
                output_tokens=int(usage.get("completion_tokens") or 0),
                latency_ms=watch.ms,
            )
        )
        if not text.strip():
            raise ModelError(f"{self.name}: an empty answer")
        return text.strip()

    def _post(self, call: ModelCall) -> dict[str, Any]:
        for attempt in range(self.max_retries + 1):
            try:
                response = self.client.post("/chat/completions", json=self.request(call))
            except httpx.TransportError:
                if attempt == self.max_retries:
                    raise
                self.sleep(self.backoff * 2**attempt)
                continue
            if (
                response.status_code in RETRYABLE
                and attempt < self.max_retries
                and not _refuses_form(response)
            ):
                self.sleep(_retry_after(response) or self.backoff * 2**attempt)
                continue
            response.raise_for_status()
            body: dict[str, Any] = response.json()
            return body
        raise AssertionError("the loop returns or raises")


def _refuses_form(response: httpx.Response) -> bool:
    """A server refusing the request's ``response_format``: a 400 or 422, or any error that
    names it (llama-cpp-python's server answers 500 with its validation error)."""
    if response.is_success:
        return False
    return response.status_code in (400, 422) or "response_format" in response.text


def _retry_after(response: httpx.Response) -> float | None:
    try:
        return min(float(response.headers.get("retry-after", "")), 30.0)
    except ValueError:
        return None


def _describe(error: Exception) -> str:
    if isinstance(error, httpx.HTTPStatusError):
        return f"HTTP {error.response.status_code}"
    return f"{type(error).__name__}: {error}"[:200]

"""Fetching a JSON document from a file or a URL, with the HTTP transport injectable."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from game.errors import UserError


class SourceError(UserError, RuntimeError):
    """The document could not be had or read; the message says which and why.

    ``retry_after``: the seconds the source asked us to wait (HTTP 429), if it did.
    """

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def is_url(location: str) -> bool:
    return location.startswith(("http://", "https://"))


def read_text(
    location: str, transport: httpx.BaseTransport | None = None, timeout: float = 30.0
) -> str:
    if is_url(location):
        try:
            with httpx.Client(
                transport=transport, timeout=timeout, follow_redirects=True
            ) as client:
                response = client.get(location)
                response.raise_for_status()
                return response.text
        except httpx.HTTPStatusError as error:
            raise SourceError(f"{location}: HTTP {error.response.status_code}") from None
        except httpx.HTTPError as error:
            raise SourceError(f"{location}: {type(error).__name__}: {error}") from None
    try:
        return Path(location).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SourceError(f"{location}: {getattr(error, 'strerror', None) or error}") from None


def read_json(location: str, transport: httpx.BaseTransport | None = None) -> Any:
    text = read_text(location, transport)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise SourceError(
            f"{location}: not valid JSON ({error.msg} at line {error.lineno})"
        ) from None

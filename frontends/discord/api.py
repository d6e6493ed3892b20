"""Discord's HTTP API as the pool uses it, and its rate limits honoured.

Every answer is read for Discord's rate-limit headers: a bucket with nothing
left waits until it resets before its next request; a 429 waits ``retry_after``
(seconds, from the body, else the headers) and tries again, and a global 429
holds every request. A 5xx, a timeout or a refused connection is tried again
with a growing pause, up to ``patience`` seconds (forever for the poster: an
outage delays posts, it loses none). Any other 4xx is Discord saying no: raised.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from frontends.discord import DISCORD_API_URL

DEFAULT_API_URL = DISCORD_API_URL
FIRST_PAUSE = 0.5
LONGEST_PAUSE = 60.0
log = logging.getLogger("betania.discord")
USER_AGENT = "DiscordBot (https://github.com/betania-pool/betania, 0.1)"


class DiscordError(Exception):
    """Discord refused a request (4xx other than 429), kept failing (5xx), or could not be
    reached at all (``status`` None: nothing answered, so no status is claimed)."""

    def __init__(self, status: int | None, text: str) -> None:
        said = (
            f"Discord answered {status}" if status is not None else "Discord could not be reached"
        )
        super().__init__(f"{said}: {text[:200]}")
        self.status = status


class DiscordApi:
    def __init__(
        self,
        base_url: str = DEFAULT_API_URL,
        bot_token: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = 10.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bot_token = bot_token
        self.client = httpx.AsyncClient(
            base_url=base_url.rstrip("/") + "/",
            transport=transport,
            timeout=timeout,
            headers={"User-Agent": USER_AGENT},
        )
        self.sleep = sleep
        self.clock = clock
        self.global_until = 0.0
        self.bucket_until: dict[str, float] = {}  # per route: when its bucket refills
        self.rate_limited = 0  # 429 answers met, for the curious and the benches
        self.down_since: float | None = None  # when requests began to fail, while they do

    async def close(self) -> None:
        await self.client.aclose()

    async def request(
        self,
        method: str,
        url: str,
        body: Any = None,
        *,
        params: dict[str, str] | None = None,
        auth: bool = False,
        patience: float | None = 30.0,
    ) -> httpx.Response:
        """``method url`` until Discord takes it; ``url`` is relative to the API or absolute."""
        headers = {}
        if auth:
            if not self.bot_token:
                raise DiscordError(401, "no bot token (DISCORD_BOT_TOKEN)")
            headers["Authorization"] = f"Bot {self.bot_token}"
        route = f"{method} {url.split('?')[0]}"
        started = self.clock()
        pause = FIRST_PAUSE
        while True:
            await self._wait_for(route)
            status: int | None = None
            try:
                response = await self.client.request(
                    method, url, json=body, params=params, headers=headers
                )
            except httpx.TransportError as error:
                failure = f"{type(error).__name__}: {error}".rstrip(": ")
            else:
                self._note_bucket(route, response)
                if response.status_code == 429:
                    self.rate_limited += 1
                    self._note_limited(route, response)
                    continue
                if response.is_success:
                    self._reached()
                    return response
                if response.status_code < 500:
                    self._reached()
                    raise DiscordError(response.status_code, response.text)
                status, failure = response.status_code, response.text[:200] or "a server error"
            waited = self.clock() - started
            if patience is not None and waited + pause > patience:
                raise DiscordError(status, f"{failure} (gave up after {waited:.0f} s)")
            self._failing(failure if status is None else f"it answered {status}", pause)
            await self.sleep(pause)
            pause = min(pause * 2, LONGEST_PAUSE)

    def _failing(self, why: str, pause: float) -> None:
        """Said once on the console as trouble starts: a request that waits is no secret."""
        if self.down_since is None:
            self.down_since = self.clock()
            log.warning("Discord is not answering (%s): trying again, from every %g s", why, pause)

    def _reached(self) -> None:
        if self.down_since is not None:
            log.warning("Discord answers again, after %.0f s", self.clock() - self.down_since)
            self.down_since = None

    async def _wait_for(self, route: str) -> None:
        until = max(self.global_until, self.bucket_until.get(route, 0.0))
        wait = until - self.clock()
        if wait > 0:
            await self.sleep(wait)

    def _note_bucket(self, route: str, response: httpx.Response) -> None:
        if response.headers.get("X-RateLimit-Remaining") == "0":
            after = _seconds(response.headers.get("X-RateLimit-Reset-After"))
            if after:
                self.bucket_until[route] = self.clock() + after

    def _note_limited(self, route: str, response: httpx.Response) -> None:
        try:
            found = response.json()
            details = found if isinstance(found, dict) else {}
        except ValueError:
            details = {}
        retry_after = _seconds(details.get("retry_after"))
        if retry_after is None:
            headers = response.headers
            retry_after = _seconds(
                headers.get("Retry-After") or headers.get("X-RateLimit-Reset-After")
            )
        until = self.clock() + (retry_after if retry_after is not None else 1.0)
        is_global = details.get("global") is True or response.headers.get(
            "X-RateLimit-Global", ""
        ).lower() in ("true", "1")
        if is_global:
            self.global_until = max(self.global_until, until)
        else:
            self.bucket_until[route] = max(self.bucket_until.get(route, 0.0), until)

    # -- the calls the pool makes ---------------------------------------------

    async def execute_webhook(
        self, webhook_url: str, message: dict[str, Any], patience: float | None = None
    ) -> dict[str, Any]:
        """Post ``message`` through a webhook; ``wait=true`` so Discord says it was created."""
        response = await self.request(
            "POST", webhook_url, message, params={"wait": "true"}, patience=patience
        )
        created: dict[str, Any] = response.json()
        return created

    async def edit_original(self, application_id: str, token: str, message: dict[str, Any]) -> None:
        """Replace a deferred interaction's "thinking..." with its answer."""
        await self.request(
            "PATCH", f"webhooks/{application_id}/{token}/messages/@original", message
        )

    async def follow_up(self, application_id: str, token: str, message: dict[str, Any]) -> None:
        """Another message for an interaction already answered (within its 15 minutes)."""
        await self.request("POST", f"webhooks/{application_id}/{token}", message)

    async def overwrite_commands(
        self, application_id: str, commands: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Bulk overwrite of the application's global commands: the list becomes exactly these."""
        response = await self.request(
            "PUT", f"applications/{application_id}/commands", commands, auth=True
        )
        registered: list[dict[str, Any]] = response.json()
        return registered


def _seconds(value: object) -> float | None:
    try:
        seconds = float(value)  # type: ignore[arg-type]  # text or a number, from Discord
    except (TypeError, ValueError):
        return None
    return seconds if seconds >= 0 else None

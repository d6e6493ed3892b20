"""A local server that speaks the part of Discord's HTTP API the pool uses, and a signer.

Shaped as Discord documents it: webhook execution (``?wait=true`` returns the
message), a deferred interaction's ``@original`` edit and follow-ups, the bulk
overwrite of application commands with a bot token, and rate limits: a 429 with
``retry_after`` in the body and the ``X-RateLimit-*`` headers, every Nth request.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from frontends.web import start_web

BOT_TOKEN = "bot-token-for-tests"


def mentions_valid(allowed: object) -> bool:
    """Discord's rules for ``allowed_mentions``: at most 100 users and 100 roles, and a
    list of users never beside "users" in ``parse`` (the API refuses both at once)."""
    if allowed is None:
        return True
    if not isinstance(allowed, dict):
        return False
    parse = allowed.get("parse", [])
    for kind in ("users", "roles"):
        listed = allowed.get(kind)
        if listed is not None and (len(listed) > 100 or kind in parse):
            return False
    return True


@dataclass
class FakeDiscord:
    base_url: str = ""
    posts: list[dict[str, Any]] = field(default_factory=list)  # webhook messages, as accepted
    edits: dict[str, dict[str, Any]] = field(default_factory=dict)  # by interaction token
    follow_ups: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    commands: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    limit_every: int = 0  # answer 429 to every Nth request (0: never)
    retry_after: float = 0.05
    global_limit: bool = False
    down_with: int | None = None  # answer every request with this status (404: deleted)
    # Every Nth success says its bucket is empty for ``bucket_reset`` seconds; a request
    # inside that window gets a 429, as Discord's would.
    bucket_every: int = 0
    bucket_reset: float = 0.2
    bucket_until: float = 0.0
    hang: int = 0  # this many requests sit unanswered for ``hang_for`` before anything
    hang_for: float = 2.0
    requests: int = 0
    limited: int = 0
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def webhook_url(self, webhook_id: str = "111", token: str = "hook-token") -> str:
        return f"{self.base_url}/webhooks/{webhook_id}/{token}"

    def _refusal(self) -> web.Response | None:
        self.requests += 1
        if time.monotonic() < self.bucket_until:
            self.limited += 1
            wait = self.bucket_until - time.monotonic()
            body = {"message": "You are being rate limited.", "retry_after": wait, "global": False}
            return web.json_response(body, status=429, headers={"X-RateLimit-Remaining": "0"})
        if self.down_with is not None:
            return web.json_response(
                {"message": "Unknown Webhook", "code": 10015}, status=self.down_with
            )
        if self.limit_every and self.requests % self.limit_every == 0:
            self.limited += 1
            body = {
                "message": "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": self.global_limit,
            }
            headers = {
                "Retry-After": str(max(1, round(self.retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": str(self.retry_after),
                "X-RateLimit-Scope": "global" if self.global_limit else "shared",
            }
            if self.global_limit:
                headers["X-RateLimit-Global"] = "true"
            return web.json_response(body, status=429, headers=headers)
        return None

    def _message(self, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(next(self.ids)),
            "type": 0,
            "content": body.get("content", ""),
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S+00:00"),
        }

    async def execute(self, request: web.Request) -> web.Response:
        if self.hang > 0:  # a slow network: the request has not reached Discord yet
            self.hang -= 1
            await asyncio.sleep(self.hang_for)
            return web.json_response({"message": "too late"}, status=504)
        refused = self._refusal()
        if refused is not None:
            return refused
        body = await request.json()
        if len(body.get("content", "")) > 2000 or not mentions_valid(body.get("allowed_mentions")):
            return web.json_response({"message": "Invalid Form Body", "code": 50035}, status=400)
        self.posts.append(body)
        headers = {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "3"}
        if self.bucket_every and len(self.posts) % self.bucket_every == 0:
            self.bucket_until = time.monotonic() + self.bucket_reset
            headers.update(
                {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": str(self.bucket_reset)}
            )
        if request.query.get("wait") == "true":
            return web.json_response(self._message(body), headers=headers)
        return web.Response(status=204, headers=headers)

    async def edit_original(self, request: web.Request) -> web.Response:
        refused = self._refusal()
        if refused is not None:
            return refused
        body = await request.json()
        self.edits[request.match_info["token"]] = body
        return web.json_response(self._message(body))

    async def overwrite(self, request: web.Request) -> web.Response:
        refused = self._refusal()
        if refused is not None:
            return refused
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        body = await request.json()
        registered = [
            {
                "id": str(next(self.ids)),
                "application_id": request.match_info["app"],
                "version": "1",
                **c,
            }
            for c in body
        ]
        self.commands[request.match_info["app"]] = registered
        return web.json_response(registered)


@asynccontextmanager
async def discord_server() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()

    async def execute_or_follow_up(request: web.Request) -> web.Response:
        if request.match_info["id"].startswith("app"):  # interaction follow-ups: the app's id
            refused = fake._refusal()
            if refused is not None:
                return refused
            body = await request.json()
            fake.follow_ups.append((request.match_info["token"], body))
            return web.json_response(fake._message(body))
        return await fake.execute(request)

    app = web.Application()
    app.router.add_post("/api/v10/webhooks/{id}/{token}", execute_or_follow_up)
    app.router.add_patch("/api/v10/webhooks/{id}/{token}/messages/@original", fake.edit_original)
    app.router.add_put("/api/v10/applications/{app}/commands", fake.overwrite)
    server = await start_web(app, "127.0.0.1", 0)
    fake.base_url = f"http://127.0.0.1:{server.port}/api/v10"
    try:
        yield fake
    finally:
        await server.close()


class Signer:
    """The application's key pair, as Discord holds it: signs interactions as Discord does."""

    def __init__(self) -> None:
        self.key = Ed25519PrivateKey.generate()
        self.public_key_hex = (
            self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
        )

    def headers(self, body: bytes, timestamp: int | None = None) -> dict[str, str]:
        stamp = str(int(time.time()) if timestamp is None else timestamp)
        signature = self.key.sign(stamp.encode() + body).hex()
        return {
            "X-Signature-Ed25519": signature,
            "X-Signature-Timestamp": stamp,
            "Content-Type": "application/json",
        }


INTERACTION_IDS = itertools.count(1193049284749283328)


def interaction(
    name: str, user_id: str = "80351110224678912", token: str | None = None, **options: object
) -> bytes:
    """An APPLICATION_COMMAND interaction as Discord sends it from a server channel.

    Each has an id and a token of its own, as Discord's do: no two are the same bytes.
    """
    number = next(INTERACTION_IDS)
    token = token or f"interaction-token-{number}"
    return json.dumps(
        {
            "id": str(number),
            "application_id": "app42",
            "type": 2,
            "token": token,
            "version": 1,
            "guild_id": "290926798626357250",
            "channel_id": "290926798999357250",
            "locale": "en-US",
            "member": {
                "user": {"id": user_id, "username": "someone", "global_name": "Some One"},
                "roles": [],
                "permissions": "2248473465835073",
            },
            "data": {
                "id": "771825006014889984",
                "name": name,
                "type": 1,
                "options": [
                    {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v}
                    for k, v in options.items()
                ],
            },
        }
    ).encode()

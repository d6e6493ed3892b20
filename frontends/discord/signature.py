"""Is this request from Discord? Ed25519 over timestamp + body, checked before anything else.

Discord signs every interaction with the application's key: ``X-Signature-Ed25519``
(hex) over ``X-Signature-Timestamp`` (Unix seconds, as text) followed by the raw
body. A request older than five minutes, or one whose signature was already seen
in that window, is refused too: a captured request cannot be played again. The
signatures seen are kept in the database (``SeenSignatures``) until their five
minutes are up, so a restart, or another process on the same database, does not
forget them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from sqlalchemy import Engine, delete, insert
from sqlalchemy.exc import IntegrityError

from game.db.schema import seen_signatures

MAX_AGE = 300.0  # seconds, either way: a request from the past or from a fast clock
SEEN_MOST = 100_000  # signatures remembered in a process, far past five minutes' worth
# Seconds the database has to take a signature before this process's own memory
# decides alone: a write lock held elsewhere (a backup) must not cost Discord's
# three seconds, within which the command itself still has its own ``PATIENCE``.
SEEN_WAIT = 0.5
log = logging.getLogger("betania.discord")


class SignatureError(ValueError):
    """A request that is not provably Discord's, fresh, and new; the message says why."""


class SeenSignatures:
    """Signatures acted on, in the database until they expire; the first to claim one wins."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def claim(self, signature: bytes, expires_at: datetime, now: datetime) -> bool:
        """True when ``signature`` was new and is now taken; False when it was seen.

        The primary key decides: of two processes or requests claiming one
        signature, one insert succeeds and the other meets the key. Expired
        signatures go in the same transaction: a replay of one is refused as stale.
        """
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    delete(seen_signatures).where(seen_signatures.c.expires_at < now)
                )
                connection.execute(
                    insert(seen_signatures).values(signature=signature.hex(), expires_at=expires_at)
                )
        except IntegrityError:
            return False
        return True


class Verifier:
    def __init__(
        self,
        public_key_hex: str,
        seen: SeenSignatures,
        clock: Callable[[], float] = time.time,
        wait: float = SEEN_WAIT,
    ) -> None:
        try:
            self.key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex.strip()))
        except ValueError:
            raise ValueError(
                "DISCORD_PUBLIC_KEY: not an Ed25519 public key in hex (64 hex digits)"
            ) from None
        self.seen = seen
        self.clock = clock
        self.wait = wait
        # This process's own memory: a replay within a run is refused without the
        # database, and it decides alone while the database is slow to answer.
        self.recent: OrderedDict[bytes, float] = OrderedDict()

    async def check(self, headers: Mapping[str, str], body: bytes) -> None:
        """Raise ``SignatureError`` unless ``body`` is Discord's, signed in the last 5 minutes,
        and never seen before (by this process, or any on the database)."""
        signature, signed_at = self._signed(headers, body)
        now = self.clock()
        if abs(now - signed_at) > MAX_AGE:
            raise SignatureError("stale signature")
        self._forget_before(now - MAX_AGE)
        if signature in self.recent:
            raise SignatureError("replayed request")
        self.recent[signature] = signed_at  # before any wait: a racer in this process loses
        claiming = asyncio.ensure_future(
            asyncio.to_thread(
                self.seen.claim,
                signature,
                datetime.fromtimestamp(signed_at + MAX_AGE, UTC),
                datetime.fromtimestamp(now, UTC),
            )
        )
        try:
            async with asyncio.timeout(self.wait):
                new = await asyncio.shield(claiming)
        except TimeoutError:
            log.warning("the database is slow to take a signature; this process's memory decides")
            claiming.add_done_callback(_claimed_late)
            return
        if not new:
            raise SignatureError("replayed request")

    def _signed(self, headers: Mapping[str, str], body: bytes) -> tuple[bytes, float]:
        """The request's signature and its time, once the signature is checked."""
        signature_hex = headers.get("X-Signature-Ed25519", "")
        timestamp = headers.get("X-Signature-Timestamp", "")
        if not signature_hex or not timestamp:
            raise SignatureError("missing signature")
        try:
            signature = bytes.fromhex(signature_hex)
            signed_at = float(int(timestamp))
        except ValueError:
            raise SignatureError("malformed signature") from None
        try:
            self.key.verify(signature, timestamp.encode() + body)
        except InvalidSignature:
            raise SignatureError("bad signature") from None
        return signature, signed_at

    def _forget_before(self, oldest: float) -> None:
        while self.recent and (
            next(iter(self.recent.values())) < oldest or len(self.recent) > SEEN_MOST
        ):
            self.recent.popitem(last=False)


def _claimed_late(claiming: asyncio.Future[bool]) -> None:
    """A claim the request did not wait for: what the database said, for the log."""
    if claiming.cancelled():
        return
    error = claiming.exception()
    if error is not None:
        log.error("remembering a Discord signature failed: %s", error)
    elif not claiming.result():
        log.warning("a request accepted while the database was busy had been seen elsewhere")

"""Is this request from Discord? Ed25519 over timestamp + body, checked before anything else.

Discord signs every interaction with the application's key: ``X-Signature-Ed25519``
(hex) over ``X-Signature-Timestamp`` (Unix seconds, as text) followed by the raw
body. A request older than five minutes, or one whose signature was already seen
in that window, is refused too: a captured request cannot be played again.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Mapping

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

MAX_AGE = 300.0  # seconds, either way: a request from the past or from a fast clock
SEEN_MOST = 100_000  # signatures remembered against replays, far past five minutes' worth


class SignatureError(ValueError):
    """A request that is not provably Discord's, fresh, and new; the message says why."""


class Verifier:
    def __init__(self, public_key_hex: str, clock: Callable[[], float] = time.time) -> None:
        try:
            self.key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex.strip()))
        except ValueError:
            raise ValueError(
                "DISCORD_PUBLIC_KEY: not an Ed25519 public key in hex (64 hex digits)"
            ) from None
        self.clock = clock
        self.seen: OrderedDict[bytes, float] = OrderedDict()

    def check(self, headers: Mapping[str, str], body: bytes) -> None:
        """Raise ``SignatureError`` unless ``body`` is Discord's, signed in the last 5 minutes."""
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
        now = self.clock()
        if abs(now - signed_at) > MAX_AGE:
            raise SignatureError("stale signature")
        self._forget_before(now - MAX_AGE)
        if signature in self.seen:
            raise SignatureError("replayed request")
        self.seen[signature] = signed_at

    def _forget_before(self, oldest: float) -> None:
        while self.seen and (next(iter(self.seen.values())) < oldest or len(self.seen) > SEEN_MOST):
            self.seen.popitem(last=False)

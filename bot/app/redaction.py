"""What never reaches the log: secrets, found by the shape they travel in and by value.

The log (stderr, at ``--log-level``) is read by more people than the pool's
secrets are meant for: whoever runs the terminal, a log collector, a bug report.
Libraries log what they send: httpx each request's URL (a Discord webhook's or
an interaction's token is a segment of its path), asyncssh an exec request's
command (``register CODE``), the model SDKs their requests at DEBUG. So the
redaction is done on the formatted line, message, arguments and traceback
alike, by the one formatter of the one handler (``Settings.start_logging``).

Two ways, because neither alone is enough:

- by shape: a Discord token in a ``/webhooks/ID/`` or ``/interactions/ID/``
  path, the value of a credential header (``Authorization``, ``x-api-key``,
  ``X-Auth-Token``, cookies) or of a ``key=``/``token=`` query parameter, a
  URL's password, an ``sk-`` API key, and the pool's own invite and link codes,
  which are made at run time, by this process or another, and typed by players;
- by value: the secrets this process was given (``Settings.secrets``) wherever
  they appear, whatever surrounds them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from urllib.parse import quote

from game.pool.members import LINK_ALPHABET

MASK = "***"
# A shorter "secret" would blank every occurrence of a common word or number in the
# log; real keys and tokens are tens of characters.
SHORTEST_SECRET = 8

# The headers that carry credentials, as a log shows them: "Name: value", a dict's
# "'name': 'value'", httpcore's "(b'Name', b'value')".
_HEADER = re.compile(
    r"(?i)\b((?:x-api-key|x-auth-token|api-key|authorization|proxy-authorization|"
    r"cookie|set-cookie)(?:[\"']\s*[:,]|\s*[:=])\s*)"
    r"(b?([\"']))?(?(3)[^\"'\r\n]*|(?:(?:Bearer|Bot|Basic)\s+)?[^\s\"',;)}]+)"
)
# An invite (Members.create_invite: three groups of 4 hex digits) and a link code
# (Members.create_link_code: two groups of 4 from LINK_ALPHABET, typed in any case),
# never as a piece of a longer hyphenated word (a UUID's groups, say).
_INVITE_CODE = re.compile(r"(?i)(?<![\w-])[0-9a-f]{4}(?:-[0-9a-f]{4}){2}(?![\w-])")
_LINK_CODE = re.compile(rf"(?i)(?<![\w-])[{LINK_ALPHABET}]{{4}}-[{LINK_ALPHABET}]{{4}}(?![\w-])")

SHAPES: tuple[tuple[re.Pattern[str], str], ...] = (
    # Discord: whoever has a webhook's token posts as it, an interaction's answers for it.
    (re.compile(r"(/(?:webhooks|interactions)/[^/\s?#]+/)[^/\s?#\"'<>]+"), rf"\1{MASK}"),
    (_HEADER, rf"\1\2{MASK}"),
    (re.compile(r"\b(Bearer|Bot|Basic)(\s+)[\w.~+/=-]{16,}"), rf"\1\2{MASK}"),
    (
        re.compile(
            r"(?i)([?&](?:key|api_key|apikey|token|access_token|auth|password|secret|"
            r"signature|code)=)[^&\s#\"']+"
        ),
        rf"\1{MASK}",
    ),
    (
        re.compile(
            r"(?i)([\"'](?:token|access_token|refresh_token|api_key|apikey|password|"
            r"secret|client_secret)[\"']\s*:\s*[\"'])[^\"']+"
        ),
        rf"\1{MASK}",
    ),
    (re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://[^/\s:@]+:)[^/\s@]+@"), rf"\1{MASK}@"),
    (re.compile(r"\bsk-[\w-]{16,}"), MASK),  # Anthropic's and OpenAI's key format
    (_INVITE_CODE, MASK),
    (_LINK_CODE, MASK),
)


class Redactor:
    """``text`` with every secret it holds replaced by ``***``."""

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        values = {
            form
            for secret in secrets
            if secret and len(secret) >= SHORTEST_SECRET
            for form in (secret, quote(secret, safe=""))  # as given, and inside a URL
        }
        # Longest first: a secret that contains another is masked whole.
        ordered = sorted(values, key=len, reverse=True)
        self._values = re.compile("|".join(map(re.escape, ordered))) if ordered else None

    def __call__(self, text: str) -> str:
        if self._values is not None:
            text = self._values.sub(MASK, text)
        for pattern, replacement in SHAPES:
            text = pattern.sub(replacement, text)
        return text


class RedactingFormatter(logging.Formatter):
    """The log's formatter: the whole line as written, traceback included, redacted."""

    def __init__(self, fmt: str, redact: Redactor) -> None:
        super().__init__(fmt)
        self.redact = redact

    def format(self, record: logging.LogRecord) -> str:
        return self.redact(super().format(record))

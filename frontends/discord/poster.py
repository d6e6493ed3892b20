"""The pool's news in a Discord channel: her remarks, kick-offs, goals, results,
corrections and the daily digest, posted through a webhook in the log's order.

Posting follows a cursor of its own on the log (``log_cursors``), moved after
each message Discord confirms: a restart resumes after the last confirmed post,
so nothing is lost, and nothing confirmed is posted again. A long notice goes
out in parts, and the cursor remembers how many parts went. An outage is waited
out with growing pauses (``DiscordApi``); the pool never waits on it, since
this runs as a task of its own and reads the database in a worker thread. A
webhook that answers 404 (or 401, 403) was deleted: admins read it once in the
log, and the posts wait, cursor kept, for the pool to be restarted with a new
webhook.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert, select, update

from frontends.discord.api import DiscordApi, DiscordError
from frontends.discord.messages import CONTENT_LIMIT, escape, escaped_parts, flags, message
from frontends.notices import Notice, Notices
from game.db.schema import log_cursors
from game.events import GoalScored, MatchKickedOff, PickReminder, RemarkPosted, ResultRecorded
from game.pool import Pool
from game.reminders import Reminder
from game.words import Words

POSTED = {e.kind for e in (RemarkPosted, MatchKickedOff, GoalScored, ResultRecorded, PickReminder)}
MENTIONS_PER_MESSAGE = 100  # Discord's cap on ``allowed_mentions.users``
SERVICE = "discord"
CURSOR = "discord_webhook"
IDLE = 5.0  # seconds between looks at the log when nothing wakes the poster
GONE_PAUSE = 300.0  # seconds between tries of a webhook that answered 404
GONE = (401, 403, 404)  # the webhook was deleted, or its token is no longer good
log = logging.getLogger("betania.discord")


@dataclass(frozen=True)
class Position:
    event_id: int  # every event up to this one is posted
    parts: int = 0  # parts of the next posted event already delivered


class WebhookPoster:
    def __init__(
        self,
        pool: Pool,
        api: DiscordApi,
        webhook_url: str,
        notices: Notices,
        idle: float = IDLE,
        gone_pause: float = GONE_PAUSE,
    ) -> None:
        self.pool = pool
        self.api = api
        self.webhook_url = webhook_url
        self.notices = notices
        self.idle = idle
        self.gone_pause = gone_pause
        self.posted = 0
        self._wake = asyncio.Event()
        self._stopping = False
        self._gone_told = False

    def wake(self) -> None:
        """Something was logged: look now rather than at the next idle tick (loop thread)."""
        self._wake.set()

    async def run(self) -> None:
        """Post until ``stop``: whatever the log holds past the cursor, then wait for more."""
        while not self._stopping:
            try:
                await self.catch_up()
            except DiscordError as error:
                if error.status in GONE:
                    self._tell_gone(error)
                    await self._pause(self.gone_pause)
                    continue
                raise
            except Exception:  # a database that is down, say: the posts wait, the task lives
                log.exception("posting the pool's news to Discord failed; trying again")
                await self._pause(self.gone_pause)
                continue
            await self._pause(self.idle)

    async def stop(self) -> None:
        self._stopping = True
        self._wake.set()

    async def _pause(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._wake.wait()
        self._wake.clear()

    async def catch_up(self) -> int:
        """Post every notice past the cursor, in order; returns how many messages went."""
        position = await asyncio.to_thread(self._position)
        last_id, notices = await asyncio.to_thread(self.notices.after, position.event_id)
        sent = 0
        for notice in notices:
            if notice.kind not in POSTED or notice.admins_only:
                continue
            parts = await self._messages(notice)
            for number in range(position.parts, len(parts)):
                if self._stopping:
                    return sent
                await self._post(parts[number])
                sent += 1
                done = number + 1 == len(parts)
                position = (
                    Position(notice.event_id, 0)
                    if done
                    else Position(position.event_id, number + 1)
                )
                await asyncio.to_thread(self._move, position)
            position = Position(notice.event_id, 0)
        if last_id > position.event_id and position.parts == 0:
            await asyncio.to_thread(self._move, Position(last_id, 0))
        self.posted += sent
        return sent

    async def _messages(self, notice: Notice) -> list[dict[str, Any]]:
        """The message bodies ``notice`` goes out as, in order."""
        words = self.notices.words
        if notice.reminder is None:
            return [message(part) for part in escaped_parts(notice.text_for(None, words))]
        if await asyncio.to_thread(self._kicked_off, notice.reminder.number):
            return []  # the channel was out of reach until the kick-off: a moot reminder
        members = self.pool.members
        still, accounts = await asyncio.to_thread(members.still_forgetful, notice.reminder, SERVICE)
        if not still.players:
            return []  # everyone told has picked since (or turned reminders off)
        return reminder_messages(still, accounts, words)

    def _kicked_off(self, number: int) -> bool:
        return self.pool.match(number, with_goals=False).has_started(self.pool.clock())

    async def _post(self, body: dict[str, Any]) -> None:
        try:
            await self.api.execute_webhook(self.webhook_url, body, patience=None)
        except DiscordError as error:
            if error.status in GONE:
                raise
            # Discord refused this message itself (400): it cannot go, the rest can.
            log.error("Discord refused a post, skipped: %s", error)
        else:
            self._gone_told = False

    def _tell_gone(self, error: DiscordError) -> None:
        if not self._gone_told:
            log.error(
                "the Discord webhook answers %s (deleted?): posts wait, none lost; "
                "set DISCORD_WEBHOOK_URL to a new webhook and restart",
                error.status,
            )
            self._gone_told = True

    # -- the cursor -----------------------------------------------------------

    def _position(self) -> Position:
        with self.pool.engine.begin() as connection:
            row = connection.execute(
                select(log_cursors.c.position, log_cursors.c.part).where(
                    log_cursors.c.name == CURSOR
                )
            ).one_or_none()
            if row is not None:
                return Position(int(row.position), int(row.part))
            # A new companion starts from now: the channel does not get the past replayed.
            start = Position(self.pool.last_event_id())
            _write(connection, start, new=True)
            return start

    def _move(self, position: Position) -> None:
        with self.pool.engine.begin() as connection:
            _write(connection, position, new=False)


def reminder_messages(
    reminder: Reminder, accounts: dict[str, str], words: Words
) -> list[dict[str, Any]]:
    """A match's reminder for the channel: it pings the linked players of ``reminder``
    (``accounts``, by handle) and no one else, at most 100 a message as Discord allows;
    those without a link are only counted."""
    mentions = [f"<@{accounts[h]}>" for h in reminder.players if h in accounts]
    others = len(reminder.players) - len(mentions)
    values = {"match": escape(reminder.label), "minutes": reminder.minutes}
    if not mentions:
        text = words(
            "{match} kicks off in {minutes} minutes; {count} of you still have no pick",
            count=others,
            **values,
        )
        return [message(text)]
    more = words(" and {count} more", count=others) if others else ""
    head = words("{match} kicks off in {minutes} minutes; no pick yet from", **values) + " "
    bodies: list[dict[str, Any]] = []
    batch: list[str] = []
    for number, mention in enumerate(mentions):
        last = number + 1 == len(mentions)
        longer = len(head) + len(", ".join([*batch, mention])) + (len(more) if last else 0)
        if batch and (len(batch) == MENTIONS_PER_MESSAGE or longer > CONTENT_LIMIT):
            bodies.append(_pinging(head + ", ".join(batch), batch))
            batch = []
        batch.append(mention)
    bodies.append(_pinging(head + ", ".join(batch) + more, batch))
    return bodies


def _pinging(content: str, mentions: list[str]) -> dict[str, Any]:
    """A message that may ping exactly the users it mentions: no one else, no role."""
    users = [mention[2:-1] for mention in mentions]
    allowed = {"parse": [], "users": users}
    return {"content": content, "allowed_mentions": allowed, "flags": flags()}


def _write(connection: Connection, position: Position, new: bool) -> None:
    values = {"position": position.event_id, "part": position.parts}
    if new:
        connection.execute(insert(log_cursors).values(name=CURSOR, **values))
    else:
        connection.execute(update(log_cursors).where(log_cursors.c.name == CURSOR).values(**values))

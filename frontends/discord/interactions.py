"""Slash commands from Discord, answered as the linked player, through the one parser.

A Discord user acts only as the pool player who linked them with a one-time
code made over SSH (``link discord``), never by a matching name. Answers a
player alone should read (their picks, their errors, linking) are ephemeral.
Discord waits three seconds at most for an answer: a question to her is answered
at once with "thinking..." and her answer replaces it when she gives it, and so
is any command the pool cannot answer within ``PATIENCE`` (a write waiting on a
lock held elsewhere).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from frontends.commands import Caller, CommandError, Commands, Job, Reply
from frontends.discord.api import DiscordApi, DiscordError
from frontends.discord.messages import code_block, escaped_parts, flags, message, split
from frontends.discord.slash import line_for, options_of, slash_of
from frontends.hub import Hub, Notice, answer_to
from frontends.limits import ConnectionLimits
from game.addressing import Addressee
from game.errors import UserError
from game.model import Player
from game.pool import Pool
from game.text import clean_line
from game.words import Words

PING, APPLICATION_COMMAND = 1, 2  # interaction types
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE = 1, 4, 5  # interaction callback types
SERVICE = "discord"
PATIENCE = 2.0  # seconds before a slow answer is deferred, inside Discord's three
T = TypeVar("T")
log = logging.getLogger("betania.discord")


class Shared(Protocol):
    """What every front end shares (the SSH front end's ``Frontend`` is one)."""

    pool: Pool
    commands: Commands
    words: Words
    hub: Hub

    def limits_for(self, handle: str) -> ConnectionLimits: ...

    async def read(self, work: Callable[[], T]) -> T: ...

    async def write(self, work: Callable[[], T]) -> T: ...

    async def perform(self, prepared: Reply | Job) -> Reply: ...


@dataclass(frozen=True)
class DiscordQuestion:
    """Who asked what: the interaction's token lets us edit its answer for 15 minutes."""

    token: str
    handle: str
    question: str


class Interactions:
    def __init__(
        self,
        shared: Shared,
        api: DiscordApi,
        application_id: str,
        addressee: Addressee | None = None,
        answer_wait: float = 60.0,
        patience: float = PATIENCE,
    ) -> None:
        self.shared = shared
        self.api = api
        self.application_id = application_id
        self.addressee = addressee or Addressee()
        self.answer_wait = answer_wait  # within Discord's 15 minutes for a token
        self.patience = patience
        self.words = shared.words
        self.pending: set[asyncio.Task[None]] = set()  # follow-ups still to send
        self._asks = 0

    async def respond(self, payload: object) -> dict[str, Any]:
        """The answer to one verified interaction, as Discord's callback body."""
        if not isinstance(payload, dict):
            return self._say(self.words("that is not an interaction"))
        kind = payload.get("type")
        if kind == PING:
            return {"type": PONG}
        data = payload.get("data")
        account = _account(payload)
        if kind != APPLICATION_COMMAND or not isinstance(data, dict) or account is None:
            return self._say(self.words("that is not a command this pool knows"))
        name = str(data.get("name", ""))
        try:
            options = options_of(name, data.get("options"))
        except CommandError as error:
            return self._say(self.words.error(error))
        if name == "link":
            return await self._link(account, str(options["code"]), _username(payload))
        player = await self.shared.read(
            lambda: self.shared.pool.members.linked_player(SERVICE, account)
        )
        if player is None:
            return self._say(
                self.words(
                    "this Discord account is not linked to a pool player yet: over SSH, "
                    "type link discord, then here /link code:CODE"
                )
            )
        caller = Caller.of(player)
        line = line_for(name, options, self.addressee)
        prepared = self.shared.commands.prepare(
            caller, line, self.shared.limits_for(player.handle), chat_fallback=False
        )
        if name == "ask":
            return await self._ask(prepared, payload, player, str(options["text"]))
        ephemeral = not slash_of(name).public  # the asker's eyes only, unless said
        working = asyncio.ensure_future(self.shared.perform(prepared))
        try:
            async with asyncio.timeout(self.patience):
                reply = await asyncio.shield(working)
        except TimeoutError:
            token = str(payload.get("token", ""))
            self._later(self._deliver_late(working, token, name, ephemeral))
            return {"type": DEFERRED_CHANNEL_MESSAGE, "data": {"flags": flags(ephemeral)}}
        if reply.error:
            return self._say(reply.text)
        return self._answer(payload, _shown(name, reply.text), ephemeral)

    async def close(self) -> None:
        """The server is stopping: follow-ups still in flight are dropped (their tokens
        expire with the process's answers anyway)."""
        for task in list(self.pending):
            task.cancel()
        await asyncio.gather(*self.pending, return_exceptions=True)

    # -- the pieces -----------------------------------------------------------

    async def _link(self, account: str, code: str, name: str) -> dict[str, Any]:
        # An unlinked account has a budget of its own: codes cannot be guessed by flood.
        refused = self.shared.limits_for(f"{SERVICE}:{account}").check_line(code)
        if refused:
            return self._say(self.words.error(refused))
        members = self.shared.pool.members
        try:
            handle = await self.shared.write(
                lambda: members.link_account(SERVICE, account, code, name)
            )
        except UserError as error:
            return self._say(self.words.error(error))
        return self._say(self.words("linked: here you play as {handle}", handle=handle))

    async def _ask(
        self, prepared: Reply | Job, payload: dict[str, Any], player: Player, question: str
    ) -> dict[str, Any]:
        answers: asyncio.Queue[Notice] = asyncio.Queue()
        self._asks += 1
        key = ("discord ask", self._asks)
        # Listening starts before the line is posted: her answer cannot slip past.
        self.shared.hub.subscribe(key, answers.put_nowait)
        try:
            reply = await self.shared.perform(prepared)
        except BaseException:
            self.shared.hub.unsubscribe(key)
            raise
        if reply.error or reply.awaits is None:
            self.shared.hub.unsubscribe(key)
            return self._say(reply.text or self.words("say what?"))
        asked = DiscordQuestion(str(payload.get("token", "")), player.handle, clean_line(question))
        self._later(self._deliver_answer(key, reply.awaits, answers, asked))
        return {
            "type": DEFERRED_CHANNEL_MESSAGE,
            "data": {"allowed_mentions": {"parse": []}, "flags": flags()},
        }

    async def _deliver_answer(
        self,
        key: tuple[str, int],
        line_id: int,
        answers: asyncio.Queue[Notice],
        asked: DiscordQuestion,
    ) -> None:
        try:
            answer = await answer_to(
                answers, line_id, self.answer_wait, self.words, self.addressee.name
            )
        finally:
            self.shared.hub.unsubscribe(key)
        text = f"{asked.handle}: {asked.question}\n{answer}"
        parts = escaped_parts(text)
        await self.api.edit_original(self.application_id, asked.token, message(parts[0]))
        for part in parts[1:]:
            await self.api.follow_up(self.application_id, asked.token, message(part))

    async def _deliver_late(
        self, working: asyncio.Future[Reply], token: str, name: str, ephemeral: bool
    ) -> None:
        """A deferred answer, in place of "thinking...", once the pool has it."""
        reply = await working
        first, *rest = escaped_parts(reply.text) if reply.error else _shown(name, reply.text)
        # An edit's flags are the message's whole set: the deferral's are kept.
        await self.api.edit_original(self.application_id, token, message(first, ephemeral))
        await self._follow_ups(token, rest, ephemeral)

    def _answer(self, payload: dict[str, Any], shown: list[str], ephemeral: bool) -> dict[str, Any]:
        first, *rest = shown
        if rest:
            token = str(payload.get("token", ""))
            self._later(self._follow_ups(token, rest, ephemeral))
        return {"type": CHANNEL_MESSAGE, "data": message(first, ephemeral)}

    async def _follow_ups(self, token: str, parts: list[str], ephemeral: bool) -> None:
        for part in parts:
            await self.api.follow_up(self.application_id, token, message(part, ephemeral))

    def _later(self, work: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(self._guarded(work))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _guarded(self, work: Any) -> None:
        try:
            await work
        except DiscordError as error:  # the token expired, Discord is down: the pool goes on
            log.warning("a follow-up to an interaction failed: %s", error)

    def _say(self, text: str) -> dict[str, Any]:
        """A line for the asker alone: an error, a refusal, a link made."""
        return {"type": CHANNEL_MESSAGE, "data": message(escaped_parts(text)[0], ephemeral=True)}


def _account(payload: dict[str, Any]) -> str | None:
    """The Discord user behind an interaction: ``member.user`` in a server, ``user`` in a DM."""
    member = payload.get("member")
    user = member.get("user") if isinstance(member, dict) else payload.get("user")
    account = user.get("id") if isinstance(user, dict) else None
    return account if isinstance(account, str) and account.isdigit() else None


def _username(payload: dict[str, Any]) -> str:
    """The Discord user's name, as Discord's signed payload gives it (shown to the player
    over SSH with the link: not trusted for anything else)."""
    member = payload.get("member")
    user = member.get("user") if isinstance(member, dict) else payload.get("user")
    name = user.get("username") if isinstance(user, dict) else None
    return name if isinstance(name, str) else ""


def _shown(name: str, text: str) -> list[str]:
    """A reply as Discord shows it, in messages: tables in monospace, sentences escaped."""
    return split(code_block(text)) if slash_of(name).monospace else escaped_parts(text)

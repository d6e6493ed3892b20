"""A newcomer's key: an invite code (or an open pool) and a free handle, asked on the channel."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit import PromptSession
from sqlalchemy.exc import OperationalError

from frontends.commands import database_trouble
from frontends.ssh.channel import SessionChannel
from frontends.ssh.frontend import Frontend
from frontends.ssh.idle import IdleWatch
from frontends.ssh.incoming import Incoming
from game.rules import RuleViolation
from game.text import clean_line


class Registration:
    """One newcomer's way in, three ways: an open pool's own, an exec command, or questions.

    ``joined`` answers why there is no room for one more player, if there is none;
    ``became`` is told the handle the newcomer plays as from then on.
    """

    def __init__(
        self,
        frontend: Frontend,
        username: str,
        key: str,
        joined: Callable[[str], str | None],
        became: Callable[[str], None],
        channel: SessionChannel,
        incoming: Incoming,
        idle: IdleWatch,
    ) -> None:
        self.frontend = frontend
        self.username = username
        self.key = key
        self.joined = joined
        self.became = became
        self.channel = channel
        self.incoming = incoming
        self.idle = idle

    async def register(self, command: str | None, app_session: Any) -> bool:
        """Whether the newcomer is a player now and the session goes on."""
        pool, open_pool = self.frontend.pool, self.frontend.config.open_registration
        words = self.frontend.words
        key = self.key
        try:
            if open_pool and self.frontend.config.auto_register:
                await self.frontend.write(
                    lambda: pool.members.register(self.username, key, None, via="open")
                )
                return self._become(self.username)
            if command is not None:
                typed = command.split()
                if not typed or typed[0] != "register" or (len(typed) != 2 and not open_pool):
                    self.channel.write(
                        words(
                            "unknown key: register first with: ssh -p PORT {user}@HOST register CODE",
                            user=self.username,
                        ),
                        stderr=True,
                    )
                    self.channel.exit(1)
                    return False
                code = typed[1] if len(typed) > 1 else None
                await self.frontend.write(lambda: pool.members.register(self.username, key, code))
                if self._become(self.username):
                    self.channel.write(
                        words("welcome, {handle}! you are in the pool", handle=self.username)
                    )
                    self.channel.exit(0)
                return False
            invite = None
            if not open_pool:
                invite = await self._ask(words("This key is new here. Invite code: "), app_session)
            asked = words("Handle (Enter for {user}): ", user=self.username)
            handle = (await self._ask(asked, app_session) or self.username).lower()
            await self.frontend.write(
                lambda: pool.members.register(
                    handle, key, invite, via="invite" if invite else "open"
                )
            )
            return self._become(handle)
        except RuleViolation as error:
            self.channel.write(words.error(error), stderr=True)
            self.channel.exit(1)
            return False
        except OperationalError as error:
            self.channel.write(database_trouble(error, words), stderr=True)
            self.channel.exit(1)
            return False

    def _become(self, handle: str) -> bool:
        """Registered as ``handle``: a player from now on, if the pool has room for one more."""
        refused = self.joined(handle)
        if refused is not None:
            self.channel.write(refused, stderr=True)
            self.channel.exit(1)
            return False
        self.became(handle)
        return True

    async def _ask(self, question: str, app_session: Any) -> str:
        """One answer to a question, on a terminal (echoed, editable) or as a plain line."""
        try:
            if app_session is not None:
                answer: str | None = await self.idle.limited(
                    PromptSession[str]().prompt_async(question, handle_sigint=False)
                )
            else:
                self.channel.write(question.rstrip())
                answer = await self.idle.limited(self.incoming.lines.get())
        except TimeoutError:
            raise RuleViolation(self.idle.message()) from None  # already in the pool's words
        except (EOFError, KeyboardInterrupt):
            answer = None
        finally:
            self.incoming.gate.line_read()
        if answer is None:
            raise RuleViolation("no answer: bye")
        return clean_line(answer)

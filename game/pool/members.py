"""Players and invites: who may play, and with which keys."""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Table, delete, insert, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from game import reminders, rules
from game.db import log, views
from game.db.schema import (
    account_links,
    invites,
    link_codes,
    player_keys,
    players,
)
from game.events import (
    AccountLinked,
    AccountUnlinked,
    Event,
    KeyRemoved,
    LoggedEvent,
    PickReminder,
    PlayerJoined,
    PlayerRemoved,
    RemindersSet,
)
from game.model import (
    Match,
    Player,
)
from game.pool.work import (
    NotFound,
    UnitOfWork,
    require_match,
    require_player,
    require_player_id,
)
from game.rules import RuleViolation
from game.text import clean_line

MAX_INVITE_USES = 1000
MAX_INVITE_DAYS = 3650
LINK_CODE_LIFETIME = timedelta(minutes=15)
LINK_SERVICES = ("discord",)
# No 0/O or 1/l/I: a code is read off one screen and typed into another.
LINK_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
ACCOUNT_NAME_LONGEST = 100  # characters of an account's name kept (account_links)


@dataclass(frozen=True)
class AccountLink:
    """A player's account on another service, as linked."""

    service: str
    account: str  # the service's id for it (a Discord user's snowflake)
    name: str  # its name there when it was linked; empty when unknown
    linked_at: datetime

    @property
    def shown(self) -> str:
        return account_shown(self.account, self.name)


def account_shown(account: str, name: str) -> str:
    """An account as a player recognises it: its name, and the id that cannot change."""
    return f"{name} ({account})" if name else account


class Members:
    """Who plays: players, their keys and time zones, and the invites that let them in."""

    def __init__(self, work: UnitOfWork) -> None:
        self._work = work

    def add(
        self,
        handle: str,
        display_name: str | None = None,
        is_admin: bool = False,
        keys: Iterable[str] = (),
        via: str = "console",
    ) -> Player:
        rules.check_handle(handle)
        name = clean_line(display_name or "") or handle

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> Player:
            insert_player(self._work, connection, logged, handle, name, is_admin, via)
            for key in keys:
                self._insert_key(connection, handle, key)
            return require_player(connection, handle)

        return self._work.commit(work)

    def add_key(self, handle: str, public_key: str) -> None:
        def work(connection: Connection, _logged: list[LoggedEvent[Event]]) -> None:
            if views.player(connection, handle) is None:
                raise NotFound("no player {handle!r}", handle=handle)
            self._insert_key(connection, handle, public_key)

        self._work.commit(work)

    def _insert_key(self, connection: Connection, handle: str, public_key: str) -> None:
        key = key_identity(public_key)
        owner = views.key_owner(connection, key)
        if owner is not None:
            if owner == handle:
                return
            raise RuleViolation("that key already belongs to another player")
        player_id = connection.execute(
            select(players.c.id).where(players.c.handle == handle)
        ).scalar_one()
        connection.execute(
            insert(player_keys).values(
                player_id=player_id, public_key=key, added_at=self._work.clock()
            )
        )

    def remove(self, handle: str, by: str = "console") -> Player:
        """Let a player go: their keys, linked accounts and link codes are deleted, so
        nothing opens the pool as them, and ``PlayerRemoved`` tells the servers to end
        their sessions. Their picks, points and words stay, and their handle stays
        taken: no newcomer registers as them. ``players key add`` lets them back."""

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> Player:
            player = require_player(connection, handle)
            player_id = require_player_id(connection, handle)
            for table in (player_keys, account_links, link_codes):
                connection.execute(delete(table).where(table.c.player_id == player_id))
            self._work.append(connection, logged, PlayerRemoved(handle, by))
            return player

        return self._work.commit(work)

    def remove_key(self, handle: str, public_key: str, by: str = "console") -> str:
        """One of ``handle``'s keys no longer opens the pool; the sessions it opened end
        (``KeyRemoved``). Returns its fingerprint."""
        key = key_identity(public_key)

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> str:
            player_id = require_player_id(connection, handle)
            gone = connection.execute(
                delete(player_keys).where(
                    (player_keys.c.player_id == player_id) & (player_keys.c.public_key == key)
                )
            )
            if gone.rowcount != 1:
                raise RuleViolation("{handle} has no such key", handle=handle)
            fingerprint = key_fingerprint(key)
            self._work.append(connection, logged, KeyRemoved(handle, fingerprint, by))
            return fingerprint

        return self._work.commit(work)

    def revoke_invite(self, code: str) -> None:
        """An invite code that no longer lets anyone register, whatever uses it had left."""

        def work(connection: Connection, _logged: list[LoggedEvent[Event]]) -> None:
            revoked = connection.execute(delete(invites).where(invites.c.code == code.strip()))
            if revoked.rowcount != 1:
                raise RuleViolation("no invite code {code!r}", code=code.strip())

        self._work.commit(work)

    def key_owner(self, public_key: str) -> str | None:
        holder = self.key_holder(public_key)
        return holder.handle if holder else None

    def key_holder(self, public_key: str) -> Player | None:
        """The player a public key belongs to, if any: who a login is."""
        with self._work.read() as connection:
            return views.key_holder(connection, key_identity(public_key))

    def set_time_zone(self, handle: str, zone_name: str) -> None:
        def work(connection: Connection, _logged: list[LoggedEvent[Event]]) -> None:
            player_id = require_player_id(connection, handle)
            connection.execute(
                update(players).where(players.c.id == player_id).values(time_zone=zone_name)
            )

        self._work.commit(work)

    # -- reminders ------------------------------------------------------------

    def set_reminders(self, handle: str, on: bool) -> bool:
        """Turn ``handle``'s reminders on or off; False when they already were so
        (nothing is logged then)."""

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> bool:
            player_id = require_player_id(connection, handle)
            changed = connection.execute(
                update(players)
                .where((players.c.id == player_id) & (players.c.reminders != on))
                .values(reminders=on)
            ).rowcount
            if changed:
                self._work.append(connection, logged, RemindersSet(handle, on))
            return bool(changed)

        return self._work.commit(work)

    def reminders_on(self, handle: str) -> bool:
        with self._work.read() as connection:
            require_player_id(connection, handle)
            return bool(
                connection.execute(
                    select(players.c.reminders).where(players.c.handle == handle)
                ).scalar()
            )

    def closing_unpicked(
        self, handle: str, within: timedelta = reminders.LOGIN_WINDOW
    ) -> list[Match]:
        """The matches closing within ``within`` that have no pick of ``handle``'s;
        none when they turned reminders off."""
        with self._work.read() as connection:
            wants = connection.execute(
                select(players.c.reminders).where(players.c.handle == handle)
            ).scalar()
            if not wants:
                return []
            picked = {p.match_number for p in views.predictions_of(connection, handle)}
            matches = views.all_matches(connection)
        return reminders.closing_without_pick(self._work.clock(), matches, picked, within)

    def remind(self, number: int, lead: timedelta) -> PickReminder | None:
        """Log who is reminded that match #N has no pick of theirs, when it is due.

        Once per match: the log is read for an earlier reminder inside the
        transaction that writes one, under the writers' lock, so two schedulers
        (or a restart) cannot both send it. None when it is not due, was sent,
        or everyone who wants reminders has picked.
        """

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> PickReminder | None:
            now = self._work.clock()
            match = require_match(connection, number, with_goals=False)
            if not reminders.is_due(match, now, lead):
                return None
            if next(log.read_of(connection, PickReminder, match_number=number), None):
                return None
            remindable = (
                connection.execute(
                    select(players.c.handle).where(players.c.reminders).order_by(players.c.handle)
                )
                .scalars()
                .all()
            )
            picked = {p.handle for p in views.predictions_on(connection, number)}
            told = reminders.forgetful(remindable, picked)
            if not told:
                return None
            event = PickReminder(number, told, reminders.minutes_left(match, now))
            self._work.append(connection, logged, event)
            return event

        return self._work.commit(work)

    def still_forgetful(
        self, reminder: reminders.Reminder, service: str
    ) -> tuple[reminders.Reminder, dict[str, str]]:
        """``reminder`` as it stands now: only those of its players who still want
        reminders and still have no pick (one may have picked, or turned reminders off,
        since it was logged), and the accounts on ``service`` of those linked there."""
        with self._work.read() as connection:
            remindable = set(
                connection.execute(
                    select(players.c.handle).where(
                        players.c.reminders & players.c.handle.in_(list(reminder.players))
                    )
                ).scalars()
            )
            picked = {p.handle for p in views.predictions_on(connection, reminder.number)}
            wanting = [handle for handle in reminder.players if handle in remindable]
            still = reminders.forgetful(wanting, picked)
            rows = connection.execute(
                select(players.c.handle, account_links.c.account)
                .join(account_links, account_links.c.player_id == players.c.id)
                .where((account_links.c.service == service) & players.c.handle.in_(still))
            )
            accounts = {row.handle: row.account for row in rows}
        return replace(reminder, players=still), accounts

    def create_invite(
        self, created_by: str, uses: int = 1, expires_in_days: int | None = None
    ) -> str:
        if not 1 <= uses <= MAX_INVITE_USES:
            raise RuleViolation("an invite has 1 to {most} uses", most=MAX_INVITE_USES)
        if expires_in_days is not None and not 1 <= expires_in_days <= MAX_INVITE_DAYS:
            raise RuleViolation("an invite lasts 1 to {most} days", most=MAX_INVITE_DAYS)
        code = "-".join(secrets.token_hex(2) for _ in range(3))
        expires_at = (
            None
            if expires_in_days is None
            else self._work.clock() + timedelta(days=expires_in_days)
        )

        def work(connection: Connection, _logged: list[LoggedEvent[Event]]) -> str:
            connection.execute(
                insert(invites).values(
                    code=code,
                    uses_left=uses,
                    expires_at=expires_at,
                    created_by=created_by,
                    created_at=self._work.clock(),
                )
            )
            return code

        return self._work.commit(work)

    def create_link_code(self, handle: str, service: str) -> str:
        """A one-time code that links ``handle``'s account on ``service`` (single use, 15 min).

        Made by the player where they already are who they say (over SSH); a newer
        code replaces theirs, so only the last one shown works.
        """
        _check_service(service)
        code = "-".join("".join(secrets.choice(LINK_ALPHABET) for _ in range(4)) for _ in range(2))

        def work(connection: Connection, _logged: list[LoggedEvent[Event]]) -> str:
            player_id = require_player_id(connection, handle)
            mine = (link_codes.c.player_id == player_id) & (link_codes.c.service == service)
            connection.execute(delete(link_codes).where(mine))
            connection.execute(
                insert(link_codes).values(
                    code=code,
                    service=service,
                    player_id=player_id,
                    expires_at=self._work.clock() + LINK_CODE_LIFETIME,
                )
            )
            return code

        return self._work.commit(work)

    def link_account(self, service: str, account: str, code: str, name: str = "") -> str:
        """``account`` on ``service`` acts from now on as the player who made ``code``.

        The code works once. A player's earlier account on the service, and the
        account's earlier player, are unlinked: one account per player and service.
        ``name`` is the account's name there, kept to show the player who linked.
        """
        code = code.strip().lower()
        name = clean_line(name)[:ACCOUNT_NAME_LONGEST]

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> str:
            # The code is spent by the DELETE that finds it: of two racers for one code,
            # only one gets its row back.
            found = connection.execute(
                delete(link_codes)
                .where((link_codes.c.code == code) & (link_codes.c.service == service))
                .returning(link_codes.c.player_id, link_codes.c.expires_at)
            ).one_or_none()
            if found is None:
                raise RuleViolation("that link code is not valid")
            if found.expires_at <= self._work.clock():  # the rollback keeps it, expired
                raise RuleViolation("that link code has expired; make a new one over SSH")
            handle = connection.execute(
                select(players.c.handle).where(players.c.id == found.player_id)
            ).scalar_one()
            connection.execute(
                delete(account_links).where(
                    (account_links.c.service == service)
                    & (
                        (account_links.c.account == account)
                        | (account_links.c.player_id == found.player_id)
                    )
                )
            )
            connection.execute(
                insert(account_links).values(
                    service=service,
                    account=account,
                    player_id=found.player_id,
                    linked_at=self._work.clock(),
                    account_name=name or None,
                )
            )
            self._work.append(connection, logged, AccountLinked(handle, service, account, name))
            return str(handle)

        return self._work.commit(work)

    def link_of(self, handle: str, service: str) -> AccountLink | None:
        """``handle``'s account on ``service``, if one is linked."""
        with self._work.read() as connection:
            return _link_of(connection, require_player_id(connection, handle), service)

    def unlink(self, handle: str, service: str) -> AccountLink:
        """``handle``'s account on ``service`` acts as them no more; the link it was."""
        _check_service(service, unlinking=True)

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> AccountLink:
            player_id = require_player_id(connection, handle)
            link = _link_of(connection, player_id, service)
            if link is None:
                raise RuleViolation("no {service} account is linked to you", service=service)
            connection.execute(
                delete(account_links).where(
                    (account_links.c.service == service) & (account_links.c.player_id == player_id)
                )
            )
            self._work.append(connection, logged, AccountUnlinked(handle, service, link.account))
            return link

        return self._work.commit(work)

    def linked_player(self, service: str, account: str) -> Player | None:
        """The player ``account`` on ``service`` acts as, if it was linked."""
        with self._work.read() as connection:
            handle = connection.execute(
                select(players.c.handle)
                .join(account_links, account_links.c.player_id == players.c.id)
                .where((account_links.c.service == service) & (account_links.c.account == account))
            ).scalar()
            return None if handle is None else views.player(connection, handle, with_keys=False)

    def register(
        self, handle: str, public_key: str, code: str | None, via: str = "invite"
    ) -> Player:
        """A newcomer's key joins under ``handle``; without ``code`` only in an open pool."""
        rules.check_handle(handle)

        def work(connection: Connection, logged: list[LoggedEvent[Event]]) -> Player:
            if code is not None:
                self._use_invite(connection, code.strip())
            if views.key_owner(connection, key_identity(public_key)) is not None:
                raise RuleViolation("that key already belongs to another player")
            # "betania_" or "ana-" beside betania and ana read as them in every table and
            # chat line: a newcomer takes no handle that differs from one only in marks.
            taken = connection.execute(select(players.c.handle)).scalars()
            alike = next((h for h in taken if _bare(h) == _bare(handle) and h != handle), None)
            if alike is not None:
                raise RuleViolation(
                    "handle {handle!r} reads as {taken!r}, who plays here already",
                    handle=handle, taken=alike,
                )  # fmt: skip
            insert_player(self._work, connection, logged, handle, handle, False, via)
            self._insert_key(connection, handle, public_key)
            return require_player(connection, handle)

        return self._work.commit(work)

    def _use_invite(self, connection: Connection, code: str) -> None:
        """One use of an invite, taken by a conditional UPDATE: its row count decides,
        so N racers for the last use cannot all have it."""
        expires_at = connection.execute(
            select(invites.c.expires_at).where(invites.c.code == code)
        ).scalar()
        if expires_at is not None and expires_at <= self._work.clock():
            raise RuleViolation("that invite code has expired")
        used = connection.execute(
            update(invites)
            .where((invites.c.code == code) & (invites.c.uses_left > 0))
            .values(uses_left=invites.c.uses_left - 1)
        )
        if used.rowcount != 1:
            raise RuleViolation("that invite code is not valid")


def insert_player(
    work: UnitOfWork,
    connection: Connection,
    logged: list[LoggedEvent[Event]],
    handle: str,
    display_name: str,
    is_admin: bool,
    via: str,
) -> int:
    """A new player row and its ``PlayerJoined`` event; returns the row id.

    The handle's uniqueness is the table's: the INSERT does nothing on a handle
    already there and returns no id, and that is the refusal.
    """
    values = {
        "handle": handle,
        "display_name": display_name,
        "is_admin": is_admin,
        "created_at": work.clock(),
        # She picks by herself, after the reminder's hour: never reminded.
        "reminders": via != "bot",
    }
    statement = _upsert_for(connection)(players).values(**values)
    new_id = connection.execute(
        statement.on_conflict_do_nothing(index_elements=[players.c.handle]).returning(players.c.id)
    ).scalar()
    if new_id is None:
        raise RuleViolation("handle {handle!r} is taken", handle=handle)
    work.append(connection, logged, PlayerJoined(handle, display_name, is_admin, via))
    return int(new_id)


def _upsert_for(connection: Connection) -> Callable[[Table], Any]:
    """The dialect's own INSERT, the one with ON CONFLICT (both databases have it)."""
    return postgresql_insert if connection.dialect.name == "postgresql" else sqlite_insert


def key_identity(public_key: str) -> str:
    """A public key as stored: type and base64; the comment is not part of who you are."""
    parts = public_key.split()
    if len(parts) < 2:
        raise RuleViolation("not an OpenSSH public key (expected 'TYPE BASE64 [COMMENT]')")
    return " ".join(parts[:2])


def _bare(handle: str) -> str:
    """A handle's letters and digits alone: what two handles read as alike share."""
    return "".join(c for c in handle if c.isalnum())


def key_fingerprint(identity: str) -> str:
    """A stored key's SHA256 fingerprint, as ``ssh-keygen -l`` shows it."""
    blob = base64.b64decode(identity.split()[1] + "==")
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def _check_service(service: str, unlinking: bool = False) -> None:
    """Refuse a service no account can be linked from, in the words of what was asked."""
    if service not in LINK_SERVICES:
        template = (
            "unlink what? one of: {services}" if unlinking else "link what? one of: {services}"
        )
        raise RuleViolation(template, services=", ".join(LINK_SERVICES))


def _link_of(connection: Connection, player_id: int, service: str) -> AccountLink | None:
    row = connection.execute(
        select(account_links).where(
            (account_links.c.service == service) & (account_links.c.player_id == player_id)
        )
    ).one_or_none()
    if row is None:
        return None
    return AccountLink(service, row.account, row.account_name or "", row.linked_at)

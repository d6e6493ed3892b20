"""Limits that keep one client from crowding out the others, with clear words past them."""

from __future__ import annotations

import ipaddress
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from game.errors import UserError


@dataclass(frozen=True)
class Limits:
    line_length: int = 1000
    commands_per_second: float = 10.0
    command_burst: int = 20
    chat_lines: int = 5  # per connection, within chat_window seconds
    chat_window: float = 10.0
    sessions_per_player: int = 3
    sessions_total: int = 500
    connections_per_player: int = 5  # with or without sessions: exec mode opens one per command
    connections_total: int = 600
    idle_timeout: float = 30 * 60.0
    # Keys the pool does not know yet, between their login and their registration: apart
    # from players' connections, so that outsiders holding "Invite code:" open never keep a
    # player out. Invitations trickle in, but a team is invited together: README's
    # `invite create --uses 20` handed round an office, all typing it within the same
    # minute, so 30. No cap per address: an office registers from one NAT address, and a
    # cap below the total would refuse its own colleagues; an outsider filling the room
    # keeps out only newcomers, for at most invite_deadline, never a player. Open files,
    # one a connection, within the usual limit of 1024: players' 600 + newcomers' 30 +
    # 100 not yet authenticated + the HTTP side's 256 = 986, leaving 38 for the database
    # (with its WAL and SHM), the listening sockets, the log and the event loop's own.
    newcomers_total: int = 30
    # Seconds a newcomer has from login to registered. A code is pasted in seconds and a
    # handle typed in a few more; a minute leaves room to find the code in a message.
    # Later, the connection ends with one line and nothing is lost but the wait; an
    # outsider has to come back every minute to keep a newcomer's place.
    invite_deadline: float = 60.0
    # Seconds to authenticate (asyncssh's login_timeout). A key is checked in well under
    # a second; half a minute is for typing the passphrase OpenSSH asks for a locked key.
    login_timeout: float = 30.0
    # Connections not yet authenticated (no key checked: anyone, for free). Past either cap
    # the oldest such connection gives way, never the newest: a player's login is over in
    # well under a second, so to push it out a flood has to outpace it, and a flood from
    # one address pushes out only its own. 100 such connections are a few MB of memory
    # and leave room, within the usual 1024 open files, for the players' 600. Half of them
    # from one address: an office behind one NAT address logs in together before a
    # kick-off, and exec mode opens a connection a command (50 players betting at once
    # from one address is tests/test_crashes.py's load); the other half stays for the rest.
    unauthenticated_total: int = 100
    unauthenticated_per_address: int = 50
    input_backlog: int = 20  # finished lines waiting to be read; more at once are dropped
    # What one connection's input may cost, before a login and after, over all its
    # channels; past either budget the server stops reading it (the client's SSH window
    # fills and it waits: nothing is lost) until the budget has refilled. Characters are
    # counted as they arrive, after compression is undone: 18 bytes of zlib carried 1,000
    # characters of "a" and Backspace. A key the prompt handles alone costs it about
    # 0.3 ms, so 100 a second (burst 300) is at most 3% of the event loop a connection,
    # and still four times the fastest typist and three times a held key's repeat; a
    # paste is one key. Characters are cheap (a paste past the line limit is cut in one
    # slice): 1 MB a second, the megabyte paste at once.
    input_chars_per_second: float = 1_000_000.0
    input_chars_burst: int = 1_100_000
    input_keys_per_second: float = 100.0
    input_keys_burst: int = 300
    resize_interval: float = 0.1  # the screen is redrawn at most this often on resizes
    # What may wait for a client that does not read (its SSH window full): past this
    # much, what would be written is dropped; a terminal's screen is a few KB, a
    # standings table at 1,000 columns some 100 KB. Still not reading after
    # ``output_stalled`` seconds, the session ends (a laptop lid closed comes back
    # well within it and loses only the notices dropped meanwhile).
    output_buffer: int = 256 * 1024
    output_stalled: float = 120.0
    # The screen size a client may claim is a 32-bit number; prompt_toolkit draws into a
    # buffer as wide as the claim (5 million columns took the server from 158 MB to
    # 876 MB and held every login for seconds). Past these the screen is drawn at them:
    # a 4K monitor at the smallest font holds about 800 columns and 250 rows.
    terminal_columns: int = 1000
    terminal_rows: int = 500


@dataclass
class TokenBucket:
    """``rate`` tokens a second up to ``burst``; each action takes one (``take``), or
    a measure of input as many as it costs (``ssh.metering``)."""

    rate: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    stamp: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.stamp = self.clock()

    def available(self) -> float:
        """The tokens there are now, refilled since the last look."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens

    def take(self) -> bool:
        if self.available() < 1:
            return False
        self.tokens -= 1
        return True

    def seconds_until(self, tokens: float) -> float:
        """How long until ``tokens`` are there (at most a full bucket's worth)."""
        return max(0.0, (min(tokens, self.burst) - self.available()) / self.rate)


class LimitReached(UserError):
    """An action past one of a player's limits; the message says which and what to do.
    ``repeated``: the same limit refused the action before this one, and nothing has
    passed it since: a session that was told once need not be told again."""

    repeated: bool = False


@dataclass
class ConnectionLimits:
    """One player's budgets, shared by all their connections and channels.

    Each ``check_*`` returns the refusal of an action past a limit, or ``None``.
    """

    limits: Limits
    clock: Callable[[], float] = time.monotonic
    commands: TokenBucket = field(init=False)
    chat: TokenBucket = field(init=False)
    _refusing: bool = False  # the last line was refused for the command budget

    def __post_init__(self) -> None:
        self.commands = TokenBucket(
            self.limits.commands_per_second, self.limits.command_burst, self.clock
        )
        self.chat = TokenBucket(
            self.limits.chat_lines / self.limits.chat_window, self.limits.chat_lines, self.clock
        )

    def check_line(self, line: str) -> LimitReached | None:
        if len(line) > self.limits.line_length:
            return LimitReached(
                "line too long: at most {length} characters", length=self.limits.line_length
            )
        if not self.commands.take():
            refused = LimitReached(
                "too many commands: at most {rate:g} a second; wait a moment",
                rate=self.limits.commands_per_second,
            )
            refused.repeated, self._refusing = self._refusing, True
            return refused
        self._refusing = False
        return None

    def check_chat(self) -> LimitReached | None:
        if not self.chat.take():
            return LimitReached(
                "slow down: at most {lines} chat lines every {seconds:g} seconds",
                lines=self.limits.chat_lines,
                seconds=self.limits.chat_window,
            )
        return None


def client_address(host: str) -> str:
    """Who a peer counts as: its IPv4 address, or its IPv6 /64 (what one subscriber gets,
    so a client cannot pass the per-address cap by using the addresses of its own network)."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


@dataclass(frozen=True)
class Peer:
    """Who a peer counts as, at three sizes: its address (``client_address``: an IPv6
    /64), its IPv6 /56 (``prefix``: one subscriber's 256 /64s; None for IPv4), and its
    ``site`` for sharing fairly (an IPv6 /48, which tunnel brokers hand out for free,
    or the IPv4 address): a flood from many of one site's addresses counts as one."""

    address: str
    prefix: str | None
    site: str

    @classmethod
    def of(cls, host: str) -> Peer:
        address = client_address(host)
        try:
            ip = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return cls(address, None, address)
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
            prefix = str(ipaddress.IPv6Network((ip, 56), strict=False))
            return cls(address, prefix, str(ipaddress.IPv6Network((ip, 48), strict=False)))
        return cls(address, None, address)


class Doorway:
    """Connections on their way in (not authenticated yet), oldest first.

    Past ``total`` of them, or ``per_address`` from one address (``client_address``: an
    IPv6 /64 counts as one, as on the HTTP side), one of them (from that address, or
    overall) gives way: its ``drop`` is called and it leaves the doorway. The newest
    arrival always gets its turn. The one to go is the oldest that has not been
    ``vouched`` for, and only when all have, the oldest of all.

    Vouched for: its client offered a registered player's key and heard "this key would
    do". OpenSSH offers the key first and only then asks for a locked key's passphrase, so
    a vouched connection is most likely a player typing one: seconds, while a flood of
    silent connections churns through the doorway many times. Public keys are public, so
    a flood can offer players' keys too; then all are vouched for and it is oldest-first
    again, as without the rule: never worse for anyone.
    """

    def __init__(self, total: int, per_address: int) -> None:
        self.total = total
        self.per_address = per_address
        self.waiting: dict[object, tuple[str, Callable[[], None]]] = {}  # in order of arrival
        self.vouched: set[object] = set()
        # Through the key exchange, asking to log in: a real client is there within tens
        # of milliseconds; a flood of half handshakes (a banner, a key share, gone) never
        # is, and refilled 100 places faster than players could finish theirs.
        self.asking: set[object] = set()

    def arrive(self, who: object, host: str, drop: Callable[[], None]) -> None:
        """``who`` arrived from ``host`` (counted as its ``client_address``)."""
        address = client_address(host)
        self.waiting[who] = (address, drop)
        same = [other for other, (there, _) in self.waiting.items() if there == address]
        if len(same) > self.per_address:
            self._drop(self._to_go(same))
        elif len(self.waiting) > self.total:
            self._drop(self._to_go(list(self.waiting)))

    def vouch(self, who: object) -> None:
        """``who`` offered a registered player's key, and it would do."""
        if who in self.waiting:
            self.vouched.add(who)
            self.asking.add(who)  # a key offered: past the key exchange

    def ask(self, who: object) -> None:
        """``who`` finished its key exchange and asks to log in."""
        if who in self.waiting:
            self.asking.add(who)

    def leave(self, who: object) -> None:
        self.waiting.pop(who, None)
        self.vouched.discard(who)
        self.asking.discard(who)

    def _to_go(self, crowd: list[object]) -> object:
        """Of ``crowd`` (oldest first, the newest arrival last), the one to go: from the
        address waiting with the most (a flood's, not the player's beside it), the oldest
        still in its key exchange, else the oldest not vouched for, else the oldest."""
        older = crowd[:-1] or crowd  # the newest gets its turn, if a cap leaves it room
        counts = Counter(self.waiting[c][0] for c in older)
        most = max(counts.values())
        older = [c for c in older if counts[self.waiting[c][0]] == most]
        return next(
            (c for c in older if c not in self.asking),
            next((c for c in older if c not in self.vouched), older[0]),
        )

    def _drop(self, who: object) -> None:
        _, drop = self.waiting.pop(who)
        self.vouched.discard(who)
        self.asking.discard(who)
        drop()

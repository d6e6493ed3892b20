"""How much of the process the HTTP side may hold: connections overall and per client
address, and how long a connection may sit idle or take over its request.

The HTTP server shares its process, and so its open-file limit, with the SSH
server: every connection it holds is a file descriptor an SSH login may need. The
caps keep the HTTP side to a quarter of that limit at most (and 256 at most: the
SSH side holds up to 600 connections, 600 + 256 leave room for the database, the
log and her model's calls under the usual limit of 1024), and one address to an
eighth of that, so one client's flood leaves the others room too.
"""

from __future__ import annotations

import resource
from collections import Counter
from dataclasses import dataclass, field

MOST_CONNECTIONS = 256
MOST_PER_ADDRESS = 32  # an office's screens behind one NAT, each loading a page or two at once
FILES_SHARE = 4  # the HTTP side's share of the open-file limit: a quarter at most


@dataclass(frozen=True)
class HttpLimits:
    connections: int = MOST_CONNECTIONS
    per_address: int = MOST_PER_ADDRESS
    # Seconds a connection may take over its request's headers, counted from its
    # start (or from its last response): aiohttp's keep-alive timeout, whose timer
    # partial headers do not restart. It also ends idle keep-alive connections.
    # Discord and a browser send theirs at once; a client that trickles them is cut.
    idle: float = 10.0
    body: float = 10.0  # seconds to read a request's body (Discord's are a few KB)
    accept_pause: float = 1.0  # seconds without accepting once the file table is full
    max_line_size: int = 4096  # a request line: the scoreboard's paths are short
    max_field_size: int = 8190  # one header (cookies of other sites on the same host)
    max_headers: int = 32  # a browser sends about 15: held per connection until complete

    @classmethod
    def for_this_process(cls) -> HttpLimits:
        """The default caps, lowered to a quarter of this process's open-file limit."""
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return cls()
        connections = max(1, min(MOST_CONNECTIONS, soft // FILES_SHARE))
        return cls(
            connections=connections, per_address=max(1, min(MOST_PER_ADDRESS, connections // 8))
        )


@dataclass
class Crowd:
    """Who holds how many of a resource, overall and by address, within two caps."""

    most: int
    most_per_address: int
    by_address: Counter[str] = field(default_factory=Counter)

    @property
    def total(self) -> int:
        return self.by_address.total()

    def admit(self, address: str) -> Ticket | None:
        """A ticket for one more, or None when either cap is reached."""
        if self.total >= self.most or self.by_address[address] >= self.most_per_address:
            return None
        self.by_address[address] += 1
        return Ticket(self, address)


@dataclass
class Ticket:
    crowd: Crowd
    address: str
    released: bool = False

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        self.crowd.by_address[self.address] -= 1
        if self.crowd.by_address[self.address] <= 0:
            del self.crowd.by_address[self.address]

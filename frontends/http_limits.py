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
from collections.abc import Callable
from dataclasses import dataclass, field

from frontends.limits import Peer

MOST_CONNECTIONS = 256
MOST_PER_ADDRESS = 32  # an office's screens behind one NAT, each loading a page or two at once
# An IPv6 /56 is one site (a home, an office): its 256 /64s count as one more group, so
# they cannot hold the whole server between them; twice an address's share.
MOST_PER_PREFIX = 64
FILES_SHARE = 4  # the HTTP side's share of the open-file limit: a quarter at most


@dataclass(frozen=True)
class HttpLimits:
    connections: int = MOST_CONNECTIONS
    per_address: int = MOST_PER_ADDRESS
    per_prefix: int = MOST_PER_PREFIX
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
        per_address = max(1, min(MOST_PER_ADDRESS, connections // 8))
        return cls(connections=connections, per_address=per_address, per_prefix=2 * per_address)


@dataclass
class Crowd:
    """Who holds how many of a resource, overall, by address and by IPv6 /56, within
    three caps, shared fairly between sites (``Peer.site``): when the whole is taken, a
    newcomer whose site holds at least two fewer than the largest site gets in, and
    that site's oldest connection gives way. Eight addresses filling the 256 between
    them no longer keep the ninth out, and a /48's many /64s count as one site: the
    flood pays for the room, not the next visitor."""

    most: int
    most_per_address: int
    most_per_prefix: int = 0  # 0: prefixes are not counted
    by_address: Counter[str] = field(default_factory=Counter)
    by_prefix: Counter[str] = field(default_factory=Counter)
    held: dict[str, list[Ticket]] = field(default_factory=dict)  # by site, oldest first
    given_way: int = 0  # connections closed to make room, for whoever watches

    @property
    def total(self) -> int:
        return self.by_address.total()

    def admit(self, peer: Peer) -> Ticket | None:
        """A ticket for one more, or None when a cap is reached and no room can be made."""
        if self.by_address[peer.address] >= self.most_per_address:
            return None
        prefix = peer.prefix
        if prefix is not None and self.by_prefix[prefix] >= self.most_per_prefix > 0:
            return None
        if self.total >= self.most and not self._make_room(peer.site):
            return None
        self.by_address[peer.address] += 1
        if prefix is not None:
            self.by_prefix[prefix] += 1
        ticket = Ticket(self, peer)
        self.held.setdefault(peer.site, []).append(ticket)
        return ticket

    def _make_room(self, site: str) -> bool:
        """The largest site's oldest connection that can be closed, closed; False when
        ``site`` would then hold as many as it, or none can be."""
        size = {s: len(tickets) for s, tickets in self.held.items()}
        biggest = max(size, key=lambda s: (size[s], s), default=None)
        if biggest is None or size[biggest] <= size.get(site, 0) + 1:
            return False
        victim = next((t for t in self.held[biggest] if t.close is not None), None)
        if victim is None:
            return False
        self.given_way += 1
        victim.give_way()
        return True


@dataclass(eq=False)
class Ticket:
    crowd: Crowd
    peer: Peer
    released: bool = False
    # Ends what holds it at once, once it is open (an abort: a close would wait for a
    # client that does not read, and hold its file past the count).
    close: Callable[[], None] | None = None

    def give_way(self) -> None:
        """Closed to make room: its place is free at once."""
        close = self.close
        self.release()
        if close is not None:
            close()

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        self.close = None
        crowd, peer = self.crowd, self.peer
        crowd.by_address[peer.address] -= 1
        if crowd.by_address[peer.address] <= 0:
            del crowd.by_address[peer.address]
        if peer.prefix is not None:
            crowd.by_prefix[peer.prefix] -= 1
            if crowd.by_prefix[peer.prefix] <= 0:
                del crowd.by_prefix[peer.prefix]
        held = crowd.held.get(peer.site, [])
        if self in held:
            held.remove(self)
        if not held:
            crowd.held.pop(peer.site, None)

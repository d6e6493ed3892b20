"""What each event in the log says to a player, as one line: the notices every front end shows.

The SSH sessions print them, the Discord companion posts them: the one place
where an event becomes words, so both say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from game.events import (
    AccountLinked,
    AccountUnlinked,
    ChatPosted,
    Event,
    FeedProblem,
    GoalScored,
    KeyRemoved,
    LoggedEvent,
    MatchKickedOff,
    PickReminder,
    PlayerJoined,
    PlayerRemoved,
    RemarkPosted,
    ResultRecorded,
)
from game.following import Handlers
from game.pool import Pool
from game.pool.members import account_shown
from game.reminders import Reminder
from game.render import TableGlance
from game.words import Words

TABLE_NEWS = (GoalScored.kind, ResultRecorded.kind)  # notices that bring the table along


ALL_SESSIONS = "*"  # ``Notice.ends``: every session of the player
LET_GO = "an admin let you go: your keys no longer open the pool. Bye!"


@dataclass(frozen=True)
class Notice:
    """An event as one line for a terminal; each session adds the time in its own zone."""

    at: datetime
    text: str
    kind: str
    event_id: int = 0  # its place in the log
    admins_only: bool = False
    replies_to: int | None = None  # for her answer: the log id of the line it answers
    table: TableGlance | None = None  # after a goal or a result: the table as it moved
    for_player: str | None = None  # a notice for this player's eyes alone (their links)
    # A reminder: the players it is for (only their sessions show it), and what a
    # channel needs to name them.
    reminder: Reminder | None = None
    # A player let go: the sessions of ``for_player`` it ends, all of them ("*") or
    # those a key opened (its fingerprint).
    ends: str | None = None

    def seen_by(self, handle: str, is_admin: bool) -> bool:
        """Whether a session of ``handle`` shows this notice."""
        if self.for_player is not None:
            return self.for_player == handle
        if self.reminder is not None:
            return handle in self.reminder.players
        return is_admin or not self.admins_only

    def text_for(self, handle: str | None, words: Words) -> str:
        """The notice as ``handle`` reads it: with their place when it brings the table."""
        if self.table is None:
            return self.text
        return f"{self.text}\n{self.table.line_for(handle, words)}"


class Notices:
    """Each event as a notice, in the pool's language."""

    def __init__(self, pool: Pool, words: Words | None = None) -> None:
        self.pool = pool
        self.words = words or Words()
        # The events a player sees, and how: the one place to add a kind of notice.
        self.notices = (
            Handlers[Notice]()
            .on(MatchKickedOff, self._kickoff)
            .on(GoalScored, self._goal)
            .on(ResultRecorded, self._result)
            .on(RemarkPosted, self._remark)
            .on(ChatPosted, self._chat)
            .on(PlayerJoined, self._joined)
            .on(FeedProblem, self._feed_problem)
            .on(AccountLinked, self._linked)
            .on(AccountUnlinked, self._unlinked)
            .on(PickReminder, self._reminder)
            .on(PlayerRemoved, self._removed)
            .on(KeyRemoved, self._key_removed)
        )

    def after(self, after_id: int, up_to_id: int | None = None) -> tuple[int, list[Notice]]:
        """Every notice for the events logged after ``after_id``, and the last id read.

        The last goal or result among them brings the table as it now stands (the
        live one while a match is in play): computed once here for every reader.
        """
        notices = []
        for item in self.pool.events(after_id=after_id, up_to_id=up_to_id):
            after_id = item.id
            notice = self.of(item)
            if notice is not None:
                notices.append(notice)
        moved = [i for i, n in enumerate(notices) if n.kind in TABLE_NEWS]
        if moved:
            rows, in_play = self.pool.live_table()
            glance = TableGlance.of(rows, bool(in_play), self.words)
            notices[moved[-1]] = replace(notices[moved[-1]], table=glance)
        return after_id, notices

    def of(self, item: LoggedEvent[Event]) -> Notice | None:
        """The line a player reads for ``item``; None for events players do not see."""
        return self.notices.dispatch(item)

    def _line(self, item: LoggedEvent[Event], text: str) -> Notice:
        return Notice(item.at, text, item.event.kind, item.id)

    def _kickoff(self, item: LoggedEvent[MatchKickedOff]) -> Notice:
        match = self.pool.match(item.event.match)
        return self._line(
            item,
            self.words(
                "Kick-off! #{number} {match}",
                number=match.number,
                match=f"{match.team1} v {match.team2}",
            ),
        )

    def _goal(self, item: LoggedEvent[GoalScored]) -> Notice:
        event = item.event
        match = self.pool.match(event.match)
        now = match.score_at((event.minute, event.added))
        scorer = f" {event.scorer}" if event.scorer else ""
        # The side is the one that benefited; an own goal says whose player it was.
        if event.own_goal:
            scorer += self.words(" (own goal)")
        elif event.penalty:
            scorer += self.words(" (pen)")
        clock = f"{event.minute}+{event.added}'" if event.added else f"{event.minute}'"
        score = f"{match.team1} {now} {match.team2}"
        return self._line(
            item,
            self.words(
                "GOAL! #{number} {score} ({clock}{scorer})",
                number=match.number,
                score=score,
                clock=clock,
                scorer=scorer,
            ),
        )

    def _result(self, item: LoggedEvent[ResultRecorded]) -> Notice:
        event = item.event
        match = self.pool.match(event.match, with_goals=False)
        # The result this event recorded, not the match's latest: a reader that
        # lags (a post after an outage) must not show a correction in its place.
        result = self.words.result(event.result())
        line = f"#{match.number} {match.team1} {result} {match.team2}"
        if event.previous:
            was = self.words.result(event.previous)
            text = self.words("Correction: {line} (was {was})", line=line, was=was)
        else:
            text = self.words("Full time: {line}", line=line)
        return self._line(item, text)

    def _remark(self, item: LoggedEvent[RemarkPosted]) -> Notice:
        speaker = self.pool.player(item.event.player, with_keys=False)  # signed as she is named
        name = speaker.display_name if speaker else item.event.player
        notice = self._line(item, f"{name}: {item.event.text}")
        return replace(notice, replies_to=item.event.trigger)

    def _chat(self, item: LoggedEvent[ChatPosted]) -> Notice:
        return self._line(item, f"{item.event.player}: {item.event.text}")

    def _joined(self, item: LoggedEvent[PlayerJoined]) -> Notice:
        return self._line(item, self.words("{player} joined the pool", player=item.event.player))

    def _feed_problem(self, item: LoggedEvent[FeedProblem]) -> Notice:
        text = self.words(
            "[admins] results feed {source}: {problem}",
            source=item.event.source,
            problem=item.event.text,
        )
        return Notice(item.at, text, item.event.kind, item.id, admins_only=True)

    def _linked(self, item: LoggedEvent[AccountLinked]) -> Notice:
        # Told where the player already is who they say: a code taken by someone else
        # shows here, with the stranger's name, and one command undoes it.
        event = item.event
        text = self.words(
            "your {service} account is now {account}: it plays as you there. "
            "Not you? Type unlink {service}",
            service=event.service,
            account=account_shown(event.account, event.name),
        )
        return replace(self._line(item, text), for_player=event.player)

    def _unlinked(self, item: LoggedEvent[AccountUnlinked]) -> Notice:
        event = item.event
        text = self.words(
            "{service} account {account} no longer plays as you",
            service=event.service,
            account=event.account,
        )
        return replace(self._line(item, text), for_player=event.player)

    def _removed(self, item: LoggedEvent[PlayerRemoved]) -> Notice:
        text = self.words(LET_GO)
        return replace(self._line(item, text), for_player=item.event.player, ends=ALL_SESSIONS)

    def _key_removed(self, item: LoggedEvent[KeyRemoved]) -> Notice:
        event = item.event
        text = self.words(
            "an admin removed your key {key}: it no longer opens the pool", key=event.key
        )
        return replace(self._line(item, text), for_player=event.player, ends=event.key)

    def _reminder(self, item: LoggedEvent[PickReminder]) -> Notice:
        event = item.event
        match = self.pool.match(event.match, with_goals=False)
        text = self.words(
            "{match} kicks off in {minutes} minutes and you have no pick: bet {number} 2-1 "
            "(remind off stops these)",
            match=match.label,
            minutes=event.minutes,
            number=match.number,
        )
        reminder = Reminder(match.number, match.label, event.minutes, event.players)
        return replace(self._line(item, text), reminder=reminder)

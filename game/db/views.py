"""The read side: questions answered with plain SQL, straight into domain records.

The standings are the showcase: one aggregate over predictions joined to
finished matches, scored by a CASE expression built from the pool's preset,
ranked by a window function. Nothing derived is ever written back.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from datetime import date, datetime
from functools import cache
from typing import Any, NamedTuple

from sqlalchemy import (
    ColumnElement,
    Connection,
    FromClause,
    Integer,
    Row,
    Select,
    String,
    Subquery,
    and_,
    bindparam,
    case,
    cast,
    func,
    literal,
    or_,
    select,
    true,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement

from game import squads
from game.bonus import CHAMPION, SCORER, settle
from game.bonus import points as bonus_points
from game.db.schema import (
    bonus_picks,
    goals,
    jokers,
    matches,
    player_keys,
    players,
    predictions,
    settings,
    squad_players,
)
from game.history import SCORE_BASIS_KEY, SCORING_KEY
from game.matchdays import DAYS_FIRST, EXACT_FIRST, TIEBREAK_KEY, day_of
from game.model import Goal, Match, MatchStatus, Player, Prediction, Result, Score
from game.scoring import DEFAULT_PRESET, ScoreBasis, ScoringRule, preset
from game.standings import StandingRow, add_up


def setting(connection: Connection, key: str, default: str) -> str:
    value = connection.execute(select(settings.c.value).where(settings.c.key == key)).scalar()
    return default if value is None else value


def scoring(connection: Connection) -> tuple[ScoringRule, ScoreBasis]:
    rule = preset(setting(connection, SCORING_KEY, DEFAULT_PRESET))
    basis = ScoreBasis(setting(connection, SCORE_BASIS_KEY, ScoreBasis.END_OF_PLAY.value))
    return rule, basis


def _score(home: int | None, away: int | None) -> Score | None:
    return None if home is None or away is None else Score(home, away)


# A second leg's row carries its first leg's score (``FIRST_LEG``), so that its
# result can be read against the aggregate: one join, the first leg's own row.
_LEG1 = matches.alias("leg1")
FIRST_LEG = (
    func.coalesce(_LEG1.c.et_home, _LEG1.c.ft_home).label("leg1_home"),
    func.coalesce(_LEG1.c.et_away, _LEG1.c.ft_away).label("leg1_away"),
)


def with_first_leg(joined: FromClause) -> FromClause:
    """``joined`` (which holds ``matches``) with each second leg's first leg beside it."""
    return joined.outerjoin(_LEG1, _LEG1.c.number == matches.c.first_leg)


MATCH_ROWS = select(matches, *FIRST_LEG).select_from(with_first_leg(matches))


def match_from_row(row: Row[Any], match_goals: tuple[Goal, ...] = ()) -> Match:
    """A match from a row of ``MATCH_ROWS`` (or any query that adds ``FIRST_LEG``)."""
    full_time = _score(row.ft_home, row.ft_away)
    result = None
    if full_time is not None:
        result = Result(
            full_time,
            _score(row.et_home, row.et_away),
            _score(row.pen_home, row.pen_away),
            # The first leg from this match's home side, who played away then.
            _score(row.leg1_away, row.leg1_home) if row.first_leg is not None else None,
            row.away_goals,
        )
    return Match(
        number=row.number,
        stage=row.stage,
        kickoff=row.kickoff,
        team1=row.team1,
        team2=row.team2,
        group=row.group_name,
        venue=row.venue,
        status=MatchStatus(row.status),
        result=result,
        goals=match_goals,
        first_leg=row.first_leg,
        away_goals=row.away_goals,
    )


def _goals_by_match(
    connection: Connection, numbers: Collection[int] | None = None
) -> dict[int, list[Goal]]:
    """The goals of every match, or of the matches ``numbers``, in the order scored."""
    query = select(goals).order_by(goals.c.match_number, goals.c.minute, goals.c.added, goals.c.id)
    if numbers is not None:
        query = query.where(goals.c.match_number.in_(numbers))
    found: dict[int, list[Goal]] = defaultdict(list)
    for row in connection.execute(query):
        found[row.match_number].append(
            Goal(row.side, row.minute, row.added, row.scorer, row.penalty, row.own_goal)
        )
    return found


def all_matches(connection: Connection) -> list[Match]:
    by_match = _goals_by_match(connection)
    rows = connection.execute(MATCH_ROWS.order_by(matches.c.number))
    return [match_from_row(row, tuple(by_match.get(row.number, ()))) for row in rows]


def in_play(connection: Connection) -> list[Match]:
    """The matches being played now, with their goals so far."""
    live = MATCH_ROWS.where(matches.c.status == MatchStatus.LIVE.value)
    rows = connection.execute(live.order_by(matches.c.number)).all()
    if not rows:
        return []
    by_match = _goals_by_match(connection, [row.number for row in rows])
    return [match_from_row(row, tuple(by_match.get(row.number, ()))) for row in rows]


def match(connection: Connection, number: int, with_goals: bool = True) -> Match | None:
    if not 0 < number < ALL_MATCHES:
        return None  # no such match, and no number too large for the database to compare
    row = connection.execute(MATCH_ROWS.where(matches.c.number == number)).one_or_none()
    if row is None:
        return None
    if not with_goals:
        return match_from_row(row)
    return match_from_row(row, tuple(_goals_by_match(connection, [number]).get(number, ())))


def player(connection: Connection, handle: str, with_keys: bool = True) -> Player | None:
    row = connection.execute(_PLAYER, {"handle": handle}).one_or_none()
    if row is None:
        return None
    if not with_keys:
        return Player(row.handle, row.display_name, row.is_admin, (), row.time_zone)
    keys = connection.execute(
        select(player_keys.c.public_key).where(player_keys.c.player_id == row.id)
    ).scalars()
    return Player(row.handle, row.display_name, row.is_admin, tuple(keys), row.time_zone)


# Built once: every SSH session after a connection's first reads its player, and
# building the statement cost as much as running it.
_PLAYER = select(players).where(players.c.handle == bindparam("handle"))


def all_players(connection: Connection) -> list[Player]:
    rows = connection.execute(select(players).order_by(players.c.handle))
    return [Player(row.handle, row.display_name, row.is_admin, (), row.time_zone) for row in rows]


def key_holder(connection: Connection, public_key: str) -> Player | None:
    """The player a public key (``type base64``) belongs to, if any (without their keys)."""
    row = connection.execute(_KEY_HOLDER, {"key": public_key}).one_or_none()
    if row is None:
        return None
    return Player(row.handle, row.display_name, row.is_admin, (), row.time_zone)


def key_owner(connection: Connection, public_key: str) -> str | None:
    """The handle a public key (``type base64``) belongs to, if any."""
    holder = key_holder(connection, public_key)
    return holder.handle if holder else None


_KEY_HOLDER = (  # built once: asked at every login
    select(players)
    .join(player_keys, player_keys.c.player_id == players.c.id)
    .where(player_keys.c.public_key == bindparam("key"))
)


def predictions_of(connection: Connection, handle: str) -> list[Prediction]:
    query = (
        select(predictions.c.match_number, predictions.c.home, predictions.c.away)
        .join(players, players.c.id == predictions.c.player_id)
        .where(players.c.handle == handle)
        .order_by(predictions.c.match_number)
    )
    return [
        Prediction(handle, row.match_number, Score(row.home, row.away))
        for row in connection.execute(query)
    ]


def predictions_on(connection: Connection, number: int) -> list[Prediction]:
    query = (
        select(players.c.handle, predictions.c.home, predictions.c.away)
        .join(players, players.c.id == predictions.c.player_id)
        .where(predictions.c.match_number == number)
        .order_by(players.c.handle)
    )
    return [
        Prediction(row.handle, number, Score(row.home, row.away))
        for row in connection.execute(query)
    ]


# A pick's hits are packed into one integer so a single SUM counts the three
# tallies at once: hits of the outcome, of the goal difference, of the exact score
# (each tier includes the ones below it). One aggregate instead of three is what
# keeps the table within a small factor of a bare scan of the picks. A player's
# sum fits 32 bits: cast back to an integer after each SUM, as PostgreSQL widens
# an integer's sum to a bigint and a bigint's to a numeric (slow, and not an int).
PACK = 1 << 10  # ten bits a tally: a World Cup has 104 matches, a league season 380
MOST_MATCHES = PACK - 1  # what a pool may hold (the fixtures import refuses more)
ALL_MATCHES = 1 << 30


def standings(
    connection: Connection,
    counted: Collection[int] | None = None,
    live: bool = False,
    with_bonus: bool = True,
    few: bool = False,
) -> list[StandingRow]:
    """The table computed now from predictions and results; ``counted`` limits the matches.

    ``live``: the provisional table, which also counts the matches in play at
    their running score, as if the whistle had just gone. The bonus picks count
    once the tournament has ended, in the table of every match (not in a day's or
    a round's: ``with_bonus=False``). ``few``: ``counted`` is a few matches, whose
    picks are read through the match index rather than all picks scanned.
    """
    known = dict(connection.execute(select(settings.c.key, settings.c.value)).all())
    rule = preset(known.get(SCORING_KEY, DEFAULT_PRESET))
    basis = ScoreBasis(known.get(SCORE_BASIS_KEY, ScoreBasis.END_OF_PLAY.value))
    days_first = known.get(TIEBREAK_KEY, EXACT_FIRST) == DAYS_FIRST
    champion_points, scorer_points = bonus_points(known)
    values: dict[str, Any] = {
        "champion": None,
        "scorers": [],
        "champion_points": champion_points,
        "scorer_points": scorer_points,
    }
    if with_bonus and not live and _ended(connection, counted):
        settled = settle(all_matches(connection))
        picked = select(bonus_picks.c.key).where(bonus_picks.c.kind == SCORER).distinct()
        won = squads.earned(
            connection.execute(picked).scalars(), listed_squads(connection), settled
        )
        values["champion"], values["scorers"] = settled.champion, sorted(won)
    if counted is not None:
        values["counted"] = sorted(counted)
    query = _standings_query(rule, basis, counted is not None, live, days_first, few)
    return [StandingRow(*row) for row in connection.execute(query, values)]


class SettledTable(NamedTuple):
    """What the live table holds that no goal moves: the table of the finished matches
    on the days with no match in play (their days won are final), and what the rest
    of the live table is read and ranked with (``live_standings``)."""

    rows: tuple[StandingRow, ...]
    on_live_days: tuple[int, ...]  # every match on a day with a match in play
    names: tuple[str, ...]  # every player, in the database's name order
    days_first: bool


def settled_table(connection: Connection) -> SettledTable:
    """The live table's part that a goal leaves as it was: a full read of the picks,
    done once per result, pick, setting or player rather than at every goal."""
    days = match_days(connection)
    status = dict(connection.execute(select(matches.c.number, matches.c.status)).all())
    playing = {days[n] for n, now in status.items() if now == MatchStatus.LIVE.value}
    settled = [
        n
        for n, now in status.items()
        if now == MatchStatus.FINISHED.value and days[n] not in playing
    ]
    rows = standings(connection, settled, with_bonus=False)
    names = connection.execute(select(players.c.handle).order_by(players.c.handle)).scalars()
    days_first = setting(connection, TIEBREAK_KEY, EXACT_FIRST) == DAYS_FIRST
    on_live_days = sorted(n for n, day in days.items() if day in playing)
    return SettledTable(tuple(rows), tuple(on_live_days), tuple(names), days_first)


def live_standings(connection: Connection, settled: SettledTable) -> list[StandingRow]:
    """``standings(live=True)`` from its ``settled`` part: only the picks of the days
    with a match in play are read (each such day whole, so its days won are found
    among them), and the two tables add up. No bonus counts while a match is in play,
    in either part."""
    in_play = standings(connection, settled.on_live_days, live=True, with_bonus=False, few=True)
    return add_up(settled.rows, in_play, settled.names, settled.days_first)


def _ended(connection: Connection, counted: Collection[int] | None) -> bool:
    """Whether the table counts a tournament that has ended: every match finished and,
    for a table after a match, counted. A cheap count first, as the table is read at
    every goal and the tournament ends once."""
    open_or_left = select(func.count()).select_from(matches)
    open_or_left = open_or_left.where(matches.c.status != MatchStatus.FINISHED.value)
    if connection.execute(open_or_left).scalar_one():
        return False
    if counted is None:
        return True
    every = connection.execute(select(func.count()).select_from(matches)).scalar_one()
    return len(set(counted)) >= every


def match_days(connection: Connection) -> dict[int, date]:
    """Each match's day (``game.matchdays.day_of``)."""
    rows = connection.execute(select(matches.c.number, matches.c.local_date, matches.c.kickoff))
    return {row.number: day_of(row.local_date, row.kickoff) for row in rows}


class match_day(FunctionElement[Any]):
    """The day a match counts for, in SQL (``game.matchdays.day_of``): what the
    days won are grouped by, in the form each database groups fastest."""

    inherit_cache = True


@compiles(match_day, "sqlite")
def _match_day_sqlite(element: match_day, compiler: Any, **kw: Any) -> str:
    # The local date's text; SQLite holds the UTC wall time as text that starts with the date.
    local, kickoff = compiler.process(matches.c.local_date), compiler.process(matches.c.kickoff)
    return f"coalesce({local}, substr({kickoff}, 1, 10))"


@compiles(match_day, "postgresql")
def _match_day_postgresql(element: match_day, compiler: Any, **kw: Any) -> str:
    # A date, not its text: hashed and compared as a number where text would be
    # collated (the grouping of the days won took a tenth less of the query).
    local, kickoff = compiler.process(matches.c.local_date), compiler.process(matches.c.kickoff)
    return f"coalesce(CAST({local} AS date), CAST({kickoff} AT TIME ZONE 'UTC' AS date))"


def listed_squads(connection: Connection) -> dict[str, tuple[str, ...]]:
    """{team: its players} of every squad listed (``game.squads``), in the pool's order."""
    listed: dict[str, list[str]] = {}
    for team, name in connection.execute(select(squad_players.c.team, squad_players.c.name)):
        listed.setdefault(team, []).append(name)
    return {team: squads.ordered(names) for team, names in sorted(listed.items())}


def timetable(connection: Connection) -> tuple[dict[int, datetime], frozenset[int]]:
    """Each match's kick-off, and the matches finished."""
    rows = connection.execute(select(matches.c.number, matches.c.kickoff, matches.c.status)).all()
    finished = MatchStatus.FINISHED.value
    return {n: kickoff for n, kickoff, _ in rows}, frozenset(n for n, _, s in rows if s == finished)


def _signed(home: Any, away: Any) -> tuple[Any, Any, Any]:
    """A score as the standings compare it: home goals, difference, outcome (1, 0, -1)."""
    diff = home - away
    return home, diff, case((diff > 0, 1), (diff < 0, -1), else_=0)


def _running_scores(basis: ScoreBasis) -> Subquery:
    """Each match in play as the standings would score it if it ended now.

    Goals after the 90th minute are extra time (stoppage is minute 90 plus added):
    counted at the end of play, and only after a level 90 minutes, as a result is.
    """
    in_ninety = goals.c.minute <= 90
    tally = (
        select(
            goals.c.match_number,
            func.sum(case((and_(goals.c.side == "home", in_ninety), 1), else_=0)).label("ft_home"),
            func.sum(case((and_(goals.c.side == "away", in_ninety), 1), else_=0)).label("ft_away"),
            func.sum(case((goals.c.side == "home", 1), else_=0)).label("all_home"),
            func.sum(case((goals.c.side == "away", 1), else_=0)).label("all_away"),
        )
        .group_by(goals.c.match_number)
        .subquery()
    )
    ft_home, ft_away = func.coalesce(tally.c.ft_home, 0), func.coalesce(tally.c.ft_away, 0)
    home: ColumnElement[Any] = ft_home
    away: ColumnElement[Any] = ft_away
    if basis is not ScoreBasis.NINETY:
        level = ft_home == ft_away
        home = case((level, func.coalesce(tally.c.all_home, 0)), else_=ft_home)
        away = case((level, func.coalesce(tally.c.all_away, 0)), else_=ft_away)
    home, diff, sign = _signed(home, away)
    return (
        select(
            matches.c.number,
            home.label("home"),
            diff.label("diff"),
            sign.label("sign"),
            match_day().label("day"),
        )
        .select_from(matches.outerjoin(tally, tally.c.match_number == matches.c.number))
        .where(matches.c.status == MatchStatus.LIVE.value)
        .subquery()
    )


@cache
def _standings_query(
    rule: ScoringRule,
    basis: ScoreBasis,
    bounded: bool,
    live: bool = False,
    days_first: bool = False,
    few: bool = False,
) -> Select[Any]:
    """Built once per preset, basis and shape; the matches counted and the bonus picks'
    answers are parameters (the matches left out when all are: it would be one more
    comparison for every pick).

    The picks read twice: counted per player, and the picks that earned points
    summed per player and day, their hits and points at once (a window over each
    day finds its top, for the days won; the days summed per player give the hits).
    Jokers and bonus picks are read from their own small tables and joined to those
    sums.
    """
    number: ColumnElement[Any] = matches.c.number
    home: ColumnElement[Any]
    diff: ColumnElement[Any]
    sign: ColumnElement[Any]
    day: ColumnElement[Any] = match_day()
    if basis is ScoreBasis.NINETY:
        home, diff, sign = matches.c.ft_home, matches.c.ft_diff, matches.c.ft_sign
    else:
        home, diff, sign = matches.c.final_home, matches.c.final_diff, matches.c.final_sign
    source: FromClause = matches
    counted: ColumnElement[bool] = matches.c.status == MatchStatus.FINISHED.value
    if live:
        # Finished matches by their result, matches in play by their running score.
        scored = (
            select(
                number, home.label("home"), diff.label("diff"), sign.label("sign"), day.label("day")
            )
            .where(counted)
            .union_all(select(_running_scores(basis)))
            .subquery()
        )
        number, home, diff, sign = scored.c.number, scored.c.home, scored.c.diff, scored.c.sign
        day, source, counted = scored.c.day, scored, true()
    # A pick's tallies packed into one integer (``PACK``): its hit of the outcome, of
    # the goal difference, of the exact score; a miss has none.
    packed_hit = case(
        (predictions.c.diff != diff, literal(1)),
        (predictions.c.home != home, literal(1 + PACK)),
        else_=literal(1 + PACK + PACK * PACK),
    )
    pick_points = case(
        (predictions.c.sign != sign, literal(0)),
        (predictions.c.diff != diff, literal(rule.outcome)),
        (predictions.c.home != home, literal(rule.difference)),
        else_=literal(rule.exact),
    )
    if bounded:
        counted = and_(counted, number.in_(bindparam("counted", expanding=True)))
    picked = counted  # what the picks' joins ask of their match
    if bounded and few:
        # Said of the picks themselves, so their match index finds them: a live day's
        # few matches are a small part of the picks, which a scan would read all of.
        # Not of the jokers' picks: each is looked up by its key, as ever.
        mine = predictions.c.match_number.in_(bindparam("counted", expanding=True))
        picked = and_(counted, mine)
    # Every pick counted, per player: a plain count, as a miss adds nothing else (its
    # player's hits and points come with the days won, below).
    per_player = (
        select(predictions.c.player_id, func.count().label("picks"))
        .join(source, and_(number == predictions.c.match_number, picked))
        .group_by(predictions.c.player_id)
        .subquery()
    )
    # The hits and the days won: only the picks that earned points are summed per
    # player and day (a miss adds nothing to a day), so what SQLite sorts to group
    # them is a third of the picks, not all; their hits come along in the same pass,
    # not from a second full sum. ``+ 0`` keeps the picks read in their own (player,
    # match) order, each match looked up; through the match index instead they
    # would cost a random read each.
    earning = (
        select(
            predictions.c.player_id,
            day.label("day"),
            cast(func.sum(packed_hit), Integer).label("packed"),
        )
        .join(
            source,
            and_(number == predictions.c.match_number + 0, picked, predictions.c.sign == sign),
        )
        .group_by(predictions.c.player_id, day)
        .subquery()
    )
    # A joker's pick counts once more: its points summed again, from the jokers' rows
    # (a joker on a pick that earned nothing adds nothing, so every day it adds to is
    # one of ``earning``'s).
    jokered = (
        select(jokers.c.player_id, day.label("day"), func.sum(pick_points).label("joker"))
        .select_from(
            jokers.join(
                predictions,
                and_(
                    predictions.c.player_id == jokers.c.player_id,
                    # ``+ 0``: each joker's pick looked up by its key, never every pick
                    # read through the match index to find the few with a joker.
                    predictions.c.match_number == jokers.c.match_number + 0,
                ),
            ).join(source, and_(number == jokers.c.match_number, counted))
        )
        .group_by(jokers.c.player_id, day)
        .subquery()
    )
    joker_day = func.coalesce(jokered.c.joker, 0)
    # A day's points follow from its hits, as a player's do: no second sum per pick.
    day_points = _points(rule, earning.c.packed) + joker_day
    daily = (
        select(
            earning.c.player_id,
            earning.c.day,
            earning.c.packed,
            joker_day.label("joker"),
            day_points.label("points"),
            func.max(day_points).over(partition_by=earning.c.day).label("top"),
        )
        .select_from(
            earning.outerjoin(
                jokered,
                and_(jokered.c.player_id == earning.c.player_id, jokered.c.day == earning.c.day),
            )
        )
        .subquery()
    )
    # A day is won once it is over: none of its matches unfinished or left uncounted
    # (a live match's day is open, and the day of a table after match N that goes on
    # past N). One small read of the matches, the same for every row.
    unfinished: ColumnElement[bool] = matches.c.status != MatchStatus.FINISHED.value
    if bounded:
        left_out = matches.c.number.not_in(bindparam("counted", expanding=True))
        unfinished = or_(unfinished, left_out)
    open_days = select(match_day()).where(unfinished)
    won = case(
        (and_(daily.c.points == daily.c.top, daily.c.top > 0, daily.c.day.not_in(open_days)), 1),
        else_=0,
    )
    per_player_days = (
        select(
            daily.c.player_id,
            cast(func.sum(daily.c.packed), Integer).label("packed"),
            cast(func.sum(daily.c.joker), Integer).label("joker"),
            cast(func.sum(won), Integer).label("days"),
        )
        .group_by(daily.c.player_id)
        .subquery()
    )
    champion = and_(
        bonus_picks.c.kind == CHAMPION, bonus_picks.c.key == bindparam("champion", type_=String)
    )
    scorer = and_(
        bonus_picks.c.kind == SCORER,
        bonus_picks.c.key.in_(bindparam("scorers", expanding=True, type_=String)),
    )
    earned = case(
        (champion, bindparam("champion_points", type_=Integer)),
        (scorer, bindparam("scorer_points", type_=Integer)),
        else_=literal(0),
    )
    bonus_of = (
        select(bonus_picks.c.player_id, cast(func.sum(earned), Integer).label("bonus"))
        .group_by(bonus_picks.c.player_id)
        .subquery()
    )
    packed = func.coalesce(per_player_days.c.packed, 0)
    outcome = packed % PACK
    exact = (packed // (PACK * PACK)) % PACK
    picks = func.coalesce(per_player.c.picks, 0)
    joker = func.coalesce(per_player_days.c.joker, 0)
    bonus = func.coalesce(bonus_of.c.bonus, 0)
    days = func.coalesce(per_player_days.c.days, 0)
    points = _points(rule, packed) + joker + bonus
    order = (points.desc(), days.desc()) if days_first else (points.desc(),)
    rank = func.rank().over(order_by=(*order, exact.desc(), outcome.desc())).label("rank")
    query = (
        select(
            rank,
            players.c.handle,
            points.label("points"),
            exact.label("exact"),
            outcome.label("outcome"),
            picks.label("predictions"),
            joker.label("joker"),
            bonus.label("bonus"),
            days.label("days"),
        )
        .select_from(
            players.outerjoin(per_player, per_player.c.player_id == players.c.id)
            .outerjoin(per_player_days, per_player_days.c.player_id == players.c.id)
            .outerjoin(bonus_of, bonus_of.c.player_id == players.c.id)
        )
        .order_by(rank, players.c.handle)
    )
    return query


def _points(rule: ScoringRule, packed: ColumnElement[Any]) -> ColumnElement[Any]:
    """The points of a packed sum of picks (``PACK``): each tier's hits at their worth."""
    outcome = packed % PACK
    difference = (packed // PACK) % PACK
    exact = (packed // (PACK * PACK)) % PACK
    return (
        outcome * rule.outcome
        + difference * (rule.difference - rule.outcome)
        + exact * (rule.exact - rule.difference)
    )

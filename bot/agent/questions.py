"""What a line to her asks, in English or Portuguese, and the pool's records that answer it.

Worked out by rules, so that the offline voice answers as well as a model, and
a model is handed the records (``Answer.notes``) instead of guessing them. A
question about a player no fact answers is "I don't know" (``NotKnown``); a line
no rule reads gets "I did not get that" with one example (``NotRead``); the list
of what she can answer is for "help" alone.

Rules read the line without accents ("posicao", "voce") and with players'
shorthand ("vc", "q", "tô").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, tzinfo

from bot.agent import forecast, predictor
from bot.agent.requests import (
    Answer,
    BestWorst,
    Fallback,
    Forecast,
    Forgotten,
    HeldThen,
    KnownFacts,
    Leading,
    MatchTold,
    MostExact,
    NoSuchMatch,
    NotAFact,
    NotKnown,
    NotRead,
    NotYours,
    PickOf,
    PointsOver,
    Remembered,
    ScoreAt,
    Standing,
    TeamPlace,
    UnknownName,
    WhoCalled,
)
from game import jokers, league
from game.addressing import Addressee
from game.model import Match, MatchStatus
from game.scoring import Tier, classify, points_for, scored_score
from game.teams import TeamBook
from game.text import unaccented
from game.words import Words
from memory import facts
from memory.guard import named_in
from memory.person import second_person
from memory.store import MemoryStore
from memory.stories import match_story

CASELESS = re.IGNORECASE
HOW_AM_I = re.compile(
    r"how am i|how'?s it going|how do i stand|my (?:rank|position)"
    r"|como (?:eu )?(?:estou|est[aá]|to|tô|vou)|minha posi",
    CASELESS,
)
LEADING = re.compile(
    r"\bwho(?:'s| is)? (?:leading|on top|first|ahead|winning)|\bwho leads"
    r"|quem (?:est[aá] |t[aá] )?(?:na frente|liderando|ganhando|em primeiro|no topo)|quem lidera",
    CASELESS,
)
# "who led after match 40?", "quem liderava depois do jogo 40?": the table as it stood then
LED_AFTER = re.compile(
    r"\bwho (?:led|was (?:leading|on top|first|ahead))\b.*\bafter\b"
    r"|\bquem (?:liderava|estava (?:na frente|em primeiro|no topo))\b.*\bdepois\b",
    CASELESS,
)
FORECAST = re.compile(
    r"\bwho(?:'ll| will|'s going to| is going to| gonna)? wins?\b(?P<rest>.*)"
    r"|quem (?:vai |ir[aá] )?gan(?:ha|har)\b(?P<resto>.*)",
    CASELESS,
)
# "who's gonna be champion?", "quem vai ser campeao?": the tournament's forecast
CHAMPION = re.compile(
    r"\bwho(?:'s| is)?(?: gonna| going to| will)? (?:be )?(?:the )?champions?\b"
    r"|\bquem (?:vai ser|sera|e) (?:o )?campeao\b"
)
CONTENDERS = 5  # the likeliest champions an answer about the cup names
FACTS_ANSWERED = 5  # "what do you remember about me?": the newest few, and how many more
# Characters of facts an answer lists: her answer's limit (memory.contract's 280) less its
# opening and the "N more besides" that follows them.
FACTS_FIT = 170
CUP = re.compile(
    r"\b(?:cup|tournament|world cup|copa|mundial|t[ií]tulo|title|league|liga|campeonato"
    r"|brasileir[aã]o|champions?(?:hip)?|campe[aã]o)\b",
    CASELESS,
)
MATCH_NUMBER = re.compile(r"(?:\b(?:match|game|jogo|partida)\s*#?|#)(?P<n>\d{1,3})\b", CASELESS)
LAST_MATCH = re.compile(r"\blast (?:match|game)|[uú]ltimo jogo|jogo anterior", CASELESS)
WHO_CALLED = re.compile(r"(?:who called|quem cravou)\s+(?P<team>[\w .'-]+?)\s*\??$", CASELESS)
KNOW_ABOUT = re.compile(
    r"(?:know|remember)\s+about\s+@?(?P<who>[\w.-]+)"
    r"|(?:sabe|lembra|lembre|conhece)\s+(?:sobre|de|do|da)\s+@?(?P<quem>[\w.-]+)",
    CASELESS,
)
SELF = ("me", "mim", "myself", "eu", "i")
# "everything you know about me", "tudo q vc sabe de mim": the facts the handful left out
EVERYTHING = re.compile(
    r"\b(?:everything|all)\b.*?\babout\s+@?(?P<who>[\w.-]+)"
    r"|\btudo\b.*?\b(?:sobre|de|do|da)\s+@?(?P<quem>[\w.-]+)"
)
# "which team does carla support?", "pra quem a ana torce agora?", "qual o time do coracao
# da bia?": the team facts that hold today (read on the line without accents)
SUPPORTS = re.compile(
    r"\b(?:who|whom|which|what)\b(?: team| club)? (?:does|do) @?(?P<who>[\w.-]+)"
    r" (?:support|root for|cheer for)\b"
    r"|\b(?:pra|para|por) quem (?:o |a )?@?(?P<quem>[\w.-]+) torce\b"
    r"|\btime (?:do coracao )?(?:d[oa]|de) @?(?P<de>[\w.-]+)"
)
# "who called the most exact scores?", "quem cravou mais placares?"
MOST_EXACT = re.compile(
    r"\b(?:most|more) (?:exact|exacts|scores? (?:called|right))"
    r"|\b(?:cravou|cravaram|acertou) mais\b|\bmais (?:placares )?exatos\b"
)
# "matches 1 to 4", "jogos 1 a 4", "games 3-7": a run of matches
MATCH_RANGE = re.compile(
    r"\b(?:matches|games|jogos|partidas)\s+(?:from\s+|de\s+|do\s+)?(?P<first>\d{1,3})"
    r"\s*(?:to|through|thru|-|a|ao|ate)\s*(?P<last>\d{1,3})\b"
)
# "before the 80th minute", "antes dos 80 minutos", "at 60'": the score then
BEFORE_MINUTE = re.compile(
    r"\bbefore (?:the )?(?:minute )?(?P<n>\d{1,3})(?:st|nd|rd|th)?(?: minute|')?"
    r"|\bantes d[oa]s? (?:minuto )?(?P<pt>\d{1,3})(?:o|º)?(?: minutos?|')?"
)
# The rules below read the line lowercased and without accents (``_plain``).
HELP = re.compile(
    r"^\W*(?:help|ajuda|socorro|commands|comandos)\W*$"
    r"|\bwhat can (?:you|u) (?:do|answer)|\bo (?:q|que) (?:vc|voce) (?:sabe fazer|faz|responde)"
)
# The asker speaking of themselves: "my", "I'm", "meu", "eu", "tô"
ME = re.compile(r"\b(?:i|i'?m|im|my|me|mine|eu|meu|minha|meus|minhas|mim|tenho|fiz)\b")
YOU = re.compile(r"\b(?:you|your|u|ur|voce|vc|tu|teu|tua|seu|sua)\b")  # her, asked
PICKED = re.compile(r"\b(?:pick(?:ed|s)?|bet|guess(?:ed)?|predict\w*|palp\w*|apost\w*|chut\w*)\b")
BEST_WORST = re.compile(
    r"\b(?P<side>best|worst|melhor|pior)\b.*\b(?:match|game|jogo|partida|pick|palpite)"
)
OWN_SCORE = re.compile(
    r"\b(?:exact|exatos?|cravei|cravadas?|points?|pts|pontos?|rank\w*|position|place"
    r"|posicao|lugar|colocacao)\b"
)
# "who is top of the league?", "quem lidera o campeonato?": the clubs' table, not the pool's
TABLE_TOP = re.compile(
    r"\btop of the (?:league|table)|\b(?:leads?|leading) the (?:league|table)|\bleague leaders?"
    r"|\bquem (?:lidera|esta liderando|ta liderando|e o lider|esta em primeiro|ta em primeiro)"
    r" (?:o |a |do |da |no |na )?(?:campeonato|tabela|brasileirao|liga)"
    r"|\blider (?:do|da) (?:campeonato|tabela|brasileirao|liga)"
)
WHERE_IS = re.compile(
    r"\b(?:where|position|place|rank\w*|standing|table|posicao|lugar|colocacao|tabela|onde"
    r"|como (?:esta|ta))\b"
)
TEAMS = TeamBook.standard()
# "whom did ana support on 12 Jun?", "pra quem a ana torcia em 12 de junho?"
SUPPORTED_THEN = re.compile(
    r"\b(?:who|whom|which team)\s+did\s+@?(?P<who>[\w.-]+)\s+(?:support|root for|cheer for)\b"
    r"|\b(?:pra|para|por)\s+quem\s+(?:o\s+|a\s+)?@?(?P<quem>[\w.-]+)\s+torcia\b",
    CASELESS,
)


class Questions:
    """Reads a question to her and gathers what answers it."""

    def __init__(
        self,
        store: MemoryStore,
        addressee: Addressee,
        zone: tzinfo = UTC,
        words: Words | None = None,
        earlier_season: Sequence[Match] = (),
    ) -> None:
        self.store = store  # the facts players told her
        self.earlier_season = earlier_season  # where her club ratings start
        self.pool = store.pool
        self.words = words or Words()  # the pool's: the days and months her answers name
        self.addressee = addressee
        self.zone = zone

    def read(self, asker: str, question: str, text: str, line_id: int) -> Answer:
        """What ``asker`` asked in ``question`` (the line ``text``, logged as ``line_id``)."""
        players = {p.handle: p.display_name for p in self.pool.players()}
        today = self.pool.clock().astimezone(self.zone).date()
        told = facts.read_remember(text, asker, players, today, self.addressee)
        if told is not None:  # judged as memory judged it when the line was logged
            if told.others:  # not stored: she says so, and does not repeat the claim
                return NotYours(asker, ", ".join(told.others))
            if told.kept is None:
                return NotAFact(asker, standing=told.standing, empty=told.empty)
            return Remembered(asker, told.words)
        forget = facts.told_to_forget(text, self.addressee)
        if forget is not None:
            with self.store.read() as connection:
                gone = facts.withdrawn_by(connection, f"log:{line_id}")
                which = [] if gone else facts.named(connection, asker, forget)
            if len(which) > 1:  # it named several: nothing withdrawn, she asks which
                return Forgotten(asker, tuple(self._told_back(f) for f in which), ambiguous=True)
            return Forgotten(asker, tuple(self._told_back(fact) for fact in gone))
        plain = _plain(question)
        if HELP.search(plain):
            return Fallback(asker, self.addressee.mention)
        mine = self._own_game(asker, plain, players)
        if mine is not None:
            return mine
        table_answer = self._table(asker, question, plain)
        if table_answer is not None:
            return table_answer
        if HOW_AM_I.search(question):
            table = self.pool.standings()
            row = next((r for r in table if r.player == asker), None)
            played = any(r.predictions for r in table)
            return Standing(asker, row if played else None, len(table))
        numbered = MATCH_NUMBER.search(question)
        if numbered and LED_AFTER.search(question):
            return self._leading(asker, after=int(numbered["n"]))
        if LEADING.search(question):
            return self._leading(asker)
        if CHAMPION.search(plain):
            return self._forecast(asker, question, "")
        wins = FORECAST.search(question)
        if wins:
            return self._forecast(asker, question, wins["rest"] or wins["resto"] or "")
        minute = BEFORE_MINUTE.search(plain)
        if numbered and minute:
            return self._score_at(asker, int(numbered["n"]), int(minute["n"] or minute["pt"]))
        if numbered or LAST_MATCH.search(question):
            return self._match(asker, int(numbered["n"]) if numbered else None)
        called = WHO_CALLED.search(question)
        if called:
            return self._who_called(asker, called["team"].strip())
        then = SUPPORTED_THEN.search(question)
        day = facts.day_in(question, today)
        if then and day is not None:
            named = (then["who"] or then["quem"]).lower()
            who = asker if named in SELF else players_by_name(named, players) or named
            with self.store.read() as connection:
                held = facts.held(connection, who, "team", day)
            return HeldThen(who, self.words.day(day), tuple(f.text for f in held))
        everything = EVERYTHING.search(plain)
        if everything:
            named = (everything["who"] or everything["quem"]).rstrip("?.!")
            return self._known(asker, named, players, everything=True)
        supports = SUPPORTS.search(plain)
        if supports:
            named = (supports["who"] or supports["quem"] or supports["de"]).lower()
            fan = asker if named in SELF else players_by_name(named, players)
            if fan is not None:
                with self.store.read() as connection:
                    teams = tuple(
                        self._dated(f) for f in facts.held(connection, fan, "team", today)
                    )
                return KnownFacts(fan, teams, self.addressee.mention) if teams else NotKnown(fan)
        about = KNOW_ABOUT.search(question)
        if about:
            return self._known(
                asker, (about["who"] or about["quem"]).lower().rstrip("?.!"), players
            )
        return self._from_facts(asker, question, players) or self._not_known(
            asker, question, plain, players
        )

    # -- the records ----------------------------------------------------------

    def _own_game(self, asker: str, plain: str, players: dict[str, str]) -> Answer | None:
        """A player's own game: a pick for a match (theirs, or another's once it kicked
        off), their best and worst match, their exact scores, points and rank."""
        named = [h for h in named_in(plain, players) if h != self.addressee.handle]
        if PICKED.search(plain):
            hers = YOU.search(plain) and not ME.search(plain)
            who = named[0] if named else self.addressee.handle if hers else asker
            picked = self._pick(asker, who, plain)
            if picked is not None:
                return picked
        if MOST_EXACT.search(plain):
            table = self.pool.standings()
            most = max((r.exact for r in table), default=0)
            return MostExact(asker, tuple(r.player for r in table if r.exact == most), most)
        if named or not ME.search(plain):
            return None
        run = MATCH_RANGE.search(plain)
        if run and OWN_SCORE.search(plain):
            return self._points_over(asker, int(run["first"]), int(run["last"]))
        side = BEST_WORST.search(plain)
        if side:
            return self._best_worst(asker)
        if OWN_SCORE.search(plain) and not MATCH_NUMBER.search(plain):
            table = self.pool.standings()
            row = next((r for r in table if r.player == asker), None)
            played = any(r.predictions for r in table)
            return Standing(asker, row if played else None, len(table))
        return None

    def _pick(self, asker: str, who: str, plain: str) -> PickOf | None:
        """``who``'s pick for the match ``plain`` names by number or by its teams."""
        matches = self.pool.matches()
        numbered = MATCH_NUMBER.search(plain)
        if numbered:
            match = next((m for m in matches if m.number == int(numbered["n"])), None)
        else:
            teams = TEAMS.named_in(plain, {t for m in matches for t in (m.team1, m.team2)})
            both = [m for m in matches if {m.team1, m.team2} <= teams]
            either = [m for m in matches if teams & {m.team1, m.team2}]
            now = self.pool.clock()
            started = [m for m in both or either if m.has_started(now)]
            ahead = [m for m in both or either if not m.has_started(now)]
            match = (
                max(started, key=Match.time_order)
                if started
                else min(ahead, key=Match.time_order)
                if ahead
                else None
            )
        if match is None:
            return None
        label = f"#{match.number} {match.team1} v {match.team2}"
        public = (asker, self.addressee.handle)  # her own picks she tells before kick-off
        if who not in public and not match.has_started(self.pool.clock()):
            return PickOf(who, label, None, hidden=True)  # as the pool's own "match" command
        pick = next(
            (p.score for p in self.pool.predictions_on(match.number) if p.handle == who), None
        )
        if pick is None:
            return PickOf(who, label, None)
        points = None
        if match.status is MatchStatus.FINISHED and match.result is not None:
            rule, basis = self.pool.scoring()
            jokered = match.number in self.pool.extras.jokers_of(who)
            points = jokers.earned(points_for(pick, match.result, rule, basis), jokered)
        return PickOf(who, label, str(pick), points=points)

    def _points_over(self, asker: str, first: int, last: int) -> PointsOver:
        """The asker's points over matches ``first`` to ``last``, the finished ones."""
        rule, basis = self.pool.scoring()
        results = {m.number: m.result for m in self.pool.matches() if m.result is not None}
        held = self.pool.extras.jokers_of(asker)
        points = sum(
            jokers.earned(points_for(p.score, result, rule, basis), p.match_number in held)
            for p in self.pool.predictions_of(asker)
            if first <= p.match_number <= last and (result := results.get(p.match_number))
        )
        return PointsOver(asker, first, last, points)

    def _best_worst(self, asker: str) -> BestWorst:
        """The asker's finished matches with a pick, by the points each earned."""
        rule, basis = self.pool.scoring()
        finished = {
            m.number: m
            for m in self.pool.matches()
            if m.status is MatchStatus.FINISHED and m.result is not None
        }
        held = self.pool.extras.jokers_of(asker)
        earned = []
        for p in self.pool.predictions_of(asker):
            match = finished.get(p.match_number)
            if match is not None and match.result is not None:
                label = f"#{match.number} {match.team1} {match.result} {match.team2}"
                points = points_for(p.score, match.result, rule, basis)
                earned.append((jokers.earned(points, match.number in held), label, str(p.score)))
        if not earned:
            return BestWorst(asker, None, None)
        best = max(earned, key=lambda e: e[0])  # the first of the best, the first of the worst
        worst = min(earned, key=lambda e: e[0])
        return BestWorst(asker, (best[1], best[2], best[0]), (worst[1], worst[2], worst[0]))

    def _table(self, asker: str, question: str, plain: str) -> TeamPlace | None:
        """A league's table: its leader, or the row of a club the question names."""
        matches = self.pool.matches()
        if not league.is_league(matches):
            return None
        rows = league.league_table(matches)
        if not rows:
            return None
        if TABLE_TOP.search(plain):
            row = rows[0]
        else:
            named = TEAMS.named_in(question, [r.team for r in rows])
            if not named or not WHERE_IS.search(plain) or FORECAST.search(question):
                return None
            row = next(r for r in rows if r.team in named)
        top = rows[0].team
        return TeamPlace(
            row.team, row.rank, len(rows), row.played, row.won, row.drawn, row.lost, top
        )

    def _not_known(
        self, asker: str, question: str, plain: str, players: dict[str, str]
    ) -> NotKnown | NotRead:
        """No rule and no fact answer it: "I don't know" when it asks after a player (the
        asker or one it names, a withdrawn fact no longer theirs); else not read at all."""
        named = [h for h in named_in(question, players) if h != self.addressee.handle]
        if named:
            return NotKnown(named[0])
        if ME.search(plain) and "?" in question:
            return NotKnown(asker)
        return NotRead(asker, self.addressee.mention)

    def _told_back(self, fact: facts.Fact) -> str:
        """A fact as its player told it, in the second person; as stored if it was merged."""
        if fact.source.startswith("log:"):
            line_id = int(fact.source.removeprefix("log:"))
            said = self.pool.events(after_id=line_id - 1, up_to_id=line_id)
            told = (
                facts.told_to_remember(getattr(said[0].event, "text", ""), self.addressee)
                if said
                else None
            )
            if told is not None:
                return second_person(told.rstrip("."))
        return fact.text

    def _leading(self, asker: str, after: int | None = None) -> Leading:
        """Who leads now, or who led once match ``after`` was over (as the log has it)."""
        finished = [m for m in self.pool.matches() if m.result is not None]
        then = next((m for m in finished if m.number == after), None)
        if then is None:
            table = self.pool.standings()
            played = len(finished)
        else:
            table = self.pool.standings(up_to_match=then.number)
            played = sum(1 for m in finished if m.time_order() <= then.time_order())
        if not table:
            return Leading(asker, (), 0, (), played)
        top = table[0].points
        leaders = tuple(r.player for r in table if r.points == top)
        chasers = tuple((r.player, r.points) for r in table if r.points < top)[:2]
        return Leading(asker, leaders, top, chasers, played)

    def _forecast(self, asker: str, question: str, rest: str) -> Forecast:
        matches = self.pool.matches()
        seen = predictor.outlook(matches, before=self.earlier_season)
        if CUP.search(rest) or CUP.search(question):
            champions = forecast.Cup(matches, seen).chances()
            return Forecast(
                asker,
                None,
                None,
                None,
                forecast.percentages(champions, CONTENDERS),
                league=league.is_league(matches),
            )
        numbered = MATCH_NUMBER.search(rest)
        ahead = [m for m in matches if m.status is not MatchStatus.FINISHED]
        if numbered:
            chosen = next((m for m in matches if m.number == int(numbered["n"])), None)
        else:
            named = [m for m in ahead if _names_team(rest, m)]
            upcoming = named or sorted(ahead, key=Match.time_order)
            chosen = upcoming[0] if upcoming else None
        if chosen is None:
            return Forecast(asker, None, None, None)
        pick = next(
            (
                p.score
                for p in self.pool.predictions_on(chosen.number)
                if p.handle == self.addressee.handle
            ),
            None,
        )
        _, basis = self.pool.scoring()
        odds = predictor.odds(chosen, predictor.chances(chosen, seen, basis))
        side = max(  # "" for a draw
            ((odds.win1, chosen.team1), (odds.draw, ""), (odds.win2, chosen.team2)),
            key=lambda chance: chance[0],
        )[1]
        label = f"#{chosen.number} {chosen.team1} v {chosen.team2}"
        return Forecast(asker, label, str(pick) if pick else None, side, odds=odds)

    def _score_at(self, asker: str, number: int, minute: int) -> Answer:
        """Match ``number``'s score before ``minute``, from its goals' minutes."""
        found = next((m for m in self.pool.matches() if m.number == number), None)
        if found is None:
            return NoSuchMatch(asker, number, len(self.pool.matches()))
        match = self.pool.match(number)  # with its goals
        before = [g for g in match.goals if g.minute < minute]
        home = sum(1 for g in before if g.side == "home")
        label = f"#{match.number} {match.team1} v {match.team2}"
        return ScoreAt(asker, label, minute, f"{home}-{len(before) - home}")

    def _match(self, asker: str, number: int | None) -> MatchTold | NoSuchMatch:
        matches = self.pool.matches()
        if number is None:
            done = [m for m in matches if m.result is not None]
            if not done:
                return MatchTold(asker, "no match", False, kickoff="-")
            match = max(done, key=Match.time_order)
        else:
            found = next((m for m in matches if m.number == number), None)
            if found is None:
                return NoSuchMatch(asker, number, len(matches))
            match = found
        if match.result is None:
            label = f"#{match.number} {match.team1} v {match.team2}"
            when = self.words.when(match.kickoff, self.zone)
            return MatchTold(asker, label, False, kickoff=when)
        story = match_story(self.pool, match, self.zone)
        return MatchTold(asker, story.label, True, tuple(story.exact()), story.scorer_summary())

    def _who_called(self, asker: str, team: str) -> WhoCalled:
        wanted = team.lower()
        finished = [
            m
            for m in self.pool.matches()
            if m.status is MatchStatus.FINISHED and wanted in (m.team1.lower(), m.team2.lower())
        ]
        match = finished[-1] if finished else None
        if match is None or match.result is None:
            return WhoCalled(asker, team, None)
        _, basis = self.pool.scoring()
        actual = scored_score(match.result, basis)
        exact = [
            p.handle
            for p in self.pool.predictions_on(match.number)
            if classify(p.score, actual) is Tier.EXACT
        ]
        label = f"#{match.number} {match.team1} {match.result} {match.team2}"
        return WhoCalled(asker, team, label, tuple(exact))

    def _from_facts(self, asker: str, question: str, players: dict[str, str]) -> KnownFacts | None:
        """A question about what a player told her ("what is my cat called?", "where does
        bruno live?"), answered from their current facts; None when no fact answers it."""
        named = [h for h in named_in(question, players) if h != self.addressee.handle]
        who = named[0] if named else asker
        today = self.pool.clock().astimezone(self.zone).date()
        with self.store.read() as connection:
            current = facts.for_prompt(connection, who, today)
        names = (who, players.get(who) or "", self.addressee.handle, self.addressee.name)
        found = facts.asked_about(current, question, names)[:FACTS_ANSWERED]
        if not found:
            return None
        told = tuple(self._dated(f) for f in found)
        return KnownFacts(who, told, self.addressee.mention)

    def _known(
        self, asker: str, name: str, players: dict[str, str], everything: bool = False
    ) -> Answer:
        """What she remembers of a player: the newest handful, dated, as many as fit her
        answer, and how many more; ``everything``: the older ones the handful left out
        (every fact, when the handful is all), undated so that more of them fit."""
        found = asker if name in SELF else players_by_name(name, players)
        if found is None:
            return UnknownName(asker, name, tuple(facts.suggest(name, players)))
        who = found
        today = self.pool.clock().astimezone(self.zone).date()
        with self.store.read() as connection:
            current = sorted(
                facts.for_prompt(connection, who, today), key=lambda f: (f.last_told, f.id)
            )
            if everything:
                older = current[:-FACTS_ANSWERED] or current
                told = _fit([f.text for f in older])
                return KnownFacts(who, told, self.addressee.mention, len(older) - len(told))
            newest = list(reversed(current[-FACTS_ANSWERED:]))
            fitting = len(_fit([self._dated(f) for f in newest]))
            newest = sorted(newest[:fitting], key=lambda f: f.id)
            before = {f.id: facts.replaced(connection, f) for f in newest}
        changed = tuple(
            (self.words.day(fact.learned_on), was.text)
            for fact in newest
            if (was := before[fact.id]) is not None
        )
        return KnownFacts(
            who,
            tuple(self._dated(f) for f in newest),
            self.addressee.mention,
            len(current) - len(newest),
            changed,
        )

    def _dated(self, fact: facts.Fact) -> str:
        """A fact as an answer lists it: "[14 Jun] ana supports Argentina now"."""
        return f"[{self.words.day(fact.learned_on)}] {fact.text}"


def players_by_name(name: str, players: dict[str, str]) -> str | None:
    """The handle of the player ``name`` is (a handle or a display name, any case)."""
    lowered = name.lower()
    return next(
        (h for h, shown in players.items() if lowered in (h.lower(), (shown or "").lower())), None
    )


def _names_team(text: str, match: Match) -> bool:
    lowered = text.lower()
    return match.team1.lower() in lowered or match.team2.lower() in lowered


def _plain(text: str) -> str:
    """The line as the rules read it: no case, no accents ("posição" as "posicao")."""
    return unaccented(text).lower()


def _fit(told: list[str]) -> tuple[str, ...]:
    """The first of ``told`` that fit in her answer together (at least one)."""
    fitting: list[str] = []
    for text in told:
        if fitting and len("; ".join([*fitting, text])) > FACTS_FIT:
            break
        fitting.append(text)
    return tuple(fitting)

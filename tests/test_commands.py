"""The command parser both SSH modes share, driven without SSH."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frontends.commands import BY_NAME, SPECS, Caller, Commands
from frontends.limits import ConnectionLimits, Limits, TokenBucket
from game.events import GoalScored, MatchKickedOff
from game.openfootball import parse_tournament
from game.pool import Pool
from game.words import Words
from tests.conftest import FakeClock, play, the_2022_cup_to_come

ANA = Caller("ana")
ADMIN = Caller("caio", is_admin=True)


def test_a_line_that_is_not_a_command_is_chat(tournament_pool: Pool) -> None:
    commands = Commands(tournament_pool)
    assert commands.run(ANA, "vai Brasil!").text == ""
    assert commands.run(ANA, "@betania how am I doing?").text == ""
    exec_mode = commands.run(ANA, "vai Brasil!", chat_fallback=False)
    assert exec_mode.error and exec_mode.text == "unknown command 'vai'; try help"
    said = [e.event.text for e in tournament_pool.events(kinds=("chat",))]
    assert said == ["vai Brasil!", "@betania how am I doing?"]


def test_forgiving_aliases_and_score_spellings(tournament_pool: Pool) -> None:
    commands = Commands(tournament_pool)
    assert commands.run(ANA, "palpite #2 2x1").text == "#2 Argentina v Mexico: your pick is 2-1"
    assert commands.run(ANA, "B 2 3 1").text == "#2 Argentina v Mexico: your pick is 3-1 (was 2-1)"
    assert commands.run(ANA, "bet 2 3:1").text == "#2 Argentina v Mexico: you already have 3-1"


def test_scores_as_people_write_them(tournament_pool: Pool) -> None:
    """The hyphen, spaced or not; a Brazilian's x; the en dash autocorrect makes."""
    commands = Commands(tournament_pool)
    typed = ["2-1", "2 - 1", "2 x 1", "2x1", "2\u20131", "2:1", "2 1", "2 \u2014 1"]
    replies = [commands.run(ANA, f"bet 2 {score}") for score in typed]
    assert [reply.error for reply in replies] == [False] * len(typed)
    assert [str(p.score) for p in tournament_pool.predictions_of("ana")] == ["2-1"]
    for wrong in ["2 - - 1", "2-", "two-one", "2-1-0"]:
        reply = commands.run(ANA, f"bet 2 {wrong}")
        assert reply.error and "2-1" in reply.text, wrong


def test_a_mistyped_command_is_told_to_its_author_alone(tournament_pool: Pool) -> None:
    commands = Commands(tournament_pool)
    asked = {
        line: commands.run(ANA, line)
        for line in ["bett 2 1-0", "matchs", "standigns", "palpiet 2 2x1", "remid off"]
    }
    assert asked["bett 2 1-0"].text == (
        "unknown command 'bett': did you mean bet? (to chat: say bett 2 1-0)"
    )
    assert "did you mean palpite?" in asked["palpiet 2 2x1"].text  # in the language typed
    assert all(reply.error and "did you mean" in reply.text for reply in asked.values())
    # Chat that merely starts like a command still goes to everyone.
    for chat in ["best game ever", "bet on brazil tonight?", "oi gente", "matchs are boring lol"]:
        commands.run(ANA, chat)
    said = [e.event.text for e in tournament_pool.events(kinds=("chat",))]
    assert said == ["best game ever", "oi gente", "matchs are boring lol"]
    assert tournament_pool.predictions_of("ana") == []


def test_commands_in_portuguese_with_or_without_accents(tournament_pool: Pool) -> None:
    commands = Commands(tournament_pool)
    assert commands.run(ANA, "bônus campeão Brasil").text == "your champion pick: Brazil"
    assert commands.run(ANA, "BONUS campeao brasil").text == "your champion pick is already Brazil"
    assert not commands.run(ANA, "Classificação").error
    assert not commands.run(ANA, "CLASSIFICACAO").error
    assert tournament_pool.events(kinds=("chat",)) == []


def test_admin_commands_are_for_admins(tournament_pool: Pool, clock: FakeClock) -> None:
    commands = Commands(tournament_pool)
    clock.now = tournament_pool.match(1).kickoff
    assert commands.run(ANA, "kickoff 1").text == ""  # to a player it's just chat
    assert commands.run(ADMIN, "kickoff 1").text == "#1 Brazil v Serbia is live"
    assert (
        commands.run(ADMIN, "goal 1 away 90+3 Mitrović").text
        == "goal recorded in #1 Brazil v Serbia, 90+3'"
    )
    reply = commands.run(ADMIN, "result 1 1-1 aet 2-2 pens 4-3 force")  # one goal of four
    assert reply.text == "#1 Brazil v Serbia: 1-1 (aet 2-2) (pens 4-3)"
    assert commands.run(ADMIN, "result 1 1-1 pens").error
    assert (
        "kickoff N" in commands.run(ADMIN, "help").text
        and "kickoff N" not in commands.run(ANA, "help").text
    )


def test_a_result_that_disagrees_with_its_goals_asks_first(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """goal 1 home 12, goal 1 away 30, result 1 2x1 was taken silently, and match 1
    then showed 2-1 with two goals listed."""
    commands = Commands(tournament_pool)
    clock.now = tournament_pool.match(1).kickoff
    commands.run(ADMIN, "goal 1 home 12")
    commands.run(ADMIN, "goal 1 away 30")
    asked = commands.run(ADMIN, "result 1 2x1")
    assert asked.error and asked.text == (
        "the goals recorded make it 1-1, not 2-1: record the missing goal first"
        " (goal 1 home|away MINUTE), or type result 1 2x1 force"
    )
    assert tournament_pool.match(1).result is None
    assert commands.run(ADMIN, "goal 1 home 80").text.startswith("goal recorded")
    assert commands.run(ADMIN, "result 1 2-1").text == "#1 Brazil v Serbia: 2-1"
    # said to stand as typed, it stands; and a result with no goals recorded asks nothing
    clock.now = tournament_pool.match(2).kickoff
    commands.run(ADMIN, "goal 2 away 5")
    assert commands.run(ADMIN, "result 2 0-0 force").text == "#2 Argentina v Mexico: 0-0"
    clock.now = tournament_pool.match(3).kickoff
    assert commands.run(ADMIN, "result 3 1-1").text == "#3 Japan v Spain: 1-1"


def test_a_goal_entered_before_the_kickoff_time_starts_the_match_and_closes_its_bets(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    commands = Commands(tournament_pool)
    clock.now = tournament_pool.match(1).kickoff - timedelta(minutes=4)  # the schedule was late
    assert commands.run(ANA, "bet 1 2-1").text == "#1 Brazil v Serbia: your pick is 2-1"
    assert (
        commands.run(ADMIN, "goal 1 home 3 Vini").text == "goal recorded in #1 Brazil v Serbia, 3'"
    )
    refused = commands.run(ANA, "bet 1 1-0")
    assert refused.error and "has kicked off; predictions are closed" in refused.text
    kinds = [type(e.event) for e in tournament_pool.events(match_number=1)][-2:]
    assert kinds == [MatchKickedOff, GoalScored]
    ana = next(row for row in tournament_pool.live_table().rows if row.player == "ana")
    assert ana.outcome == 1  # 2-1 against a running 1-0: the outcome, provisionally


def test_a_portuguese_pool_answers_in_portuguese(tournament_pool: Pool, clock: FakeClock) -> None:
    commands = Commands(tournament_pool, words=Words("pt"))
    assert commands.run(ANA, "jogos").text.splitlines()[0].split()[:4] == [
        "#",
        "início",
        "(UTC)",
        "jogo",
    ]
    assert "qui 11 jun 18:00" in commands.run(ANA, "jogo 1").text
    assert commands.run(ANA, "ranking depois 1").text == (
        "#1 Brazil v Serbia ainda não terminou: ainda não há classificação depois dele"
    )
    assert commands.run(ANA, "jogo dois").text == ("não é um número de jogo: 'dois' (uso: jogo N)")
    assert commands.run(ANA, "palpite 1 2x0").text == "#1 Brazil v Serbia: seu palpite é 2-0"
    clock.now = tournament_pool.match(1).kickoff
    assert commands.run(ADMIN, "inicio 1").text == "#1 Brazil v Serbia está ao vivo"
    assert commands.run(ADMIN, "inicio 1").text == "#1 Brazil v Serbia já está ao vivo"
    assert commands.run(ADMIN, "gol 1 casa 12 Vini Jr").text.startswith("gol registrado")
    assert commands.run(Caller("bia"), "palpites").text == "Nenhum palpite ainda: palpite N 2-1"
    headers = commands.run(ANA, "palpites").text.splitlines()[0].split()
    assert headers == ["#", "jogo", "palpite", "resultado", "pts"]
    reply = commands.run(ADMIN, "resultado 1 1-1 aet 2-2 pens 4-3 forçar")
    assert reply.text == "#1 Brazil v Serbia: 1-1 (prorrogação 2-2) (pênaltis 4-3)"


def test_other_picks_show_only_from_kickoff(tournament_pool: Pool, clock: FakeClock) -> None:
    commands = Commands(tournament_pool)
    commands.run(ANA, "bet 1 2-0")
    commands.run(Caller("bia"), "bet 1 0-1")
    before = commands.run(Caller("bia"), "match 1").text
    assert "2 picks, hidden until kick-off; yours: 0-1" in before and "ana 2-0" not in before
    clock.now = tournament_pool.match(1).kickoff + timedelta(minutes=1)
    assert "picks: ana 2-0, bia 0-1" in commands.run(Caller("bia"), "match 1").text


def test_mybets_standings_and_the_race(tournament_pool: Pool, clock: FakeClock) -> None:
    commands = Commands(tournament_pool)
    for number, pick in ((1, "2-0"), (2, "1-1")):
        commands.run(ANA, f"bet {number} {pick}")
    play(tournament_pool, clock, 1, "2-0")
    play(tournament_pool, clock, 2, "0-0")
    mine = commands.run(ANA, "mybets").text.splitlines()
    assert mine[2].split()[-1] == "10" and mine[3].split()[-1] == "7"
    assert commands.run(ANA, "standings after 1").text.splitlines()[2].split()[:3] == [
        "1",
        "ana",
        "10",
    ]
    race = commands.run(ANA, "race").text.splitlines()
    assert race[0].startswith("ana") and race[0].endswith("17")


def test_time_zones_are_per_player(tournament_pool: Pool) -> None:
    commands = Commands(tournament_pool)
    assert commands.run(ANA, "tz America/Sao_Paulo").text == "times now shown in America/Sao_Paulo"
    assert tournament_pool.player("ana").time_zone == "America/Sao_Paulo"
    assert commands.run(ANA, "tz Mars/Olympus").error
    # a folder of the zone database, a path: one line each, no traceback, nothing changed
    for folder in ["America", "Etc", "../../etc/passwd", "/etc/localtime"]:
        reply = commands.run(ANA, f"tz {folder}")
        assert reply.error and reply.text.startswith(f"unknown time zone {folder!r}"), folder
    assert tournament_pool.player("ana").time_zone == "America/Sao_Paulo"


def test_token_buckets_refill_with_time() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=1, burst=2, clock=lambda: now[0])
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    now[0] += 1.0
    assert bucket.take() and not bucket.take()


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(line=st.text(max_size=200) | st.lists(st.sampled_from(
    ["bet", "match", "result", "goal", "kickoff", "invite", "standings", "after", "tz", "say", "1", "-1",
     "99999999999999999999", "2-1", "aet", "pens", "home", "away", "90+", "--json", "#", "\x1b[2J", "@betania"]
), max_size=6).map(" ".join))  # fmt: skip
def test_nothing_typed_breaks_the_parser(tournament_pool: Pool, line: str) -> None:
    commands = Commands(tournament_pool)
    limits = ConnectionLimits(
        Limits(commands_per_second=1e9, command_burst=10**9, chat_lines=10**9)
    )
    for caller in (ANA, ADMIN):
        reply = commands.run(caller, line, limits)
        assert "\x1b" not in reply.text
        assert not reply.error or "\n" not in reply.text


def test_tab_completes_commands_and_match_numbers() -> None:
    from prompt_toolkit.document import Document

    from frontends.ssh.prompt import CommandCompleter

    completer = CommandCompleter(lambda: ["matches", "match", "mybets", "bet"], lambda: [7, 12, 13])

    def complete(text: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(text), None)]

    assert complete("ma") == ["matches", "match"]
    assert complete("bet 1") == ["12", "13"]
    assert complete("match ") == ["7", "12", "13"]
    assert complete("standings ") == []


def test_a_cup_has_a_table_per_group_in_both_languages(pool: Pool, clock: FakeClock) -> None:
    """`league` in the 16-team cup was one 16-row table of every team."""
    the_2022_cup_to_come(pool, clock, timedelta(hours=1))
    play(pool, clock, 1, "0-2")  # Qatar v Ecuador, Group A
    play(pool, clock, 2, "6-2")  # England v Iran, Group B
    commands = Commands(pool)
    tables = commands.run(ANA, "league").text.split("\n\n")
    assert len(tables) == 8
    group_a = tables[0].splitlines()
    assert group_a[0] == "Group A" and len(group_a) == 3 + 4  # title, header, rule, four
    assert group_a[3].split()[:3] == ["1", "Ecuador", "1"] and group_a[-1].split()[1] == "Qatar"
    assert {row.split()[1] for row in group_a[3:]} == {"Ecuador", "Netherlands", "Senegal", "Qatar"}
    assert commands.run(ANA, "league B").text.splitlines()[0] == "Group B"
    assert commands.run(ANA, "groups b").text == commands.run(ANA, "league B").text
    assert commands.run(ANA, "league Z").error
    portuguese = Commands(pool, words=Words("pt"))
    assert portuguese.run(ANA, "grupos grupo A").text.splitlines()[0] == "Grupo A"


def test_a_league_table_and_the_standings_after_a_round(pool: Pool, clock: FakeClock) -> None:
    """A league season: the teams' table from the results, and the pool's table as it
    stood when a round ("Matchday 1", "rodada 1") was over."""
    season = parse_tournament(
        {
            "name": "Mini League",
            "matches": [
                {"round": f"Matchday {r}", "date": day, "time": "16:00", "team1": a, "team2": b}
                for r, day, a, b in (
                    (1, "2025-03-29", "Palmeiras", "Flamengo"),
                    (1, "2025-03-29", "Santos", "Bahia"),
                    (2, "2025-04-05", "Flamengo", "Santos"),
                    (2, "2025-04-05", "Bahia", "Palmeiras"),
                )
            ],
        },
        ZoneInfo("America/Sao_Paulo"),
    )
    pool.fixtures.import_tournament(season)
    pool.members.add("ana")
    commands = Commands(pool)
    clock.now = datetime(2025, 3, 1, tzinfo=UTC)
    for number in (1, 2, 3, 4):
        assert not commands.run(ANA, f"bet {number} 1-0").error
    for number, score in ((1, "2-0"), (2, "1-1"), (3, "0-3"), (4, "1-1")):
        play(pool, clock, number, score)
    table = commands.run(ANA, "league").text.splitlines()
    # Santos and Palmeiras both have 4 points: goal difference (+3, +2) splits them.
    assert table[2].split() == ["1", "Santos", "2", "1", "1", "0", "4:1", "4"]
    assert table[3].split() == ["2", "Palmeiras", "2", "1", "1", "0", "3:1", "4"]
    assert table[-1].split() == ["4", "Flamengo", "2", "0", "0", "2", "0:5", "0"]
    after_one = commands.run(ANA, "league after round 1").text.splitlines()
    assert [line.split()[1] for line in after_one[2:]] == [
        "Palmeiras",
        "Bahia",
        "Santos",
        "Flamengo",
    ]
    # The round's last match is #2 (the same hour as #1, numbered after it).
    ranking = Commands(pool, words=Words("pt")).run(ANA, "ranking após rodada 1").text
    after_two = commands.run(ANA, "standings after 2").text
    assert [r.split() for r in ranking.splitlines()[2:]] == [
        r.split() for r in after_two.splitlines()[2:]
    ]
    assert after_two != commands.run(ANA, "standings").text  # round 2 moved it since
    refused = commands.run(ANA, "standings after round 9")
    assert refused.error and "round 9" in refused.text
    # A round's matches, in either language; a round the pool does not have is said so.
    round_two = commands.run(ANA, "matches round 2").text
    assert "Flamengo" in round_two and "Bahia" in round_two and "Santos" in round_two
    assert "#1 " not in round_two and "#2 " not in round_two
    jogos = Commands(pool, words=Words("pt")).run(ANA, "jogos rodada 1").text
    assert "Palmeiras" in jogos and "Flamengo" in jogos and "Bahia" in jogos
    missing = commands.run(ANA, "matches round 7")
    assert missing.error and "no round 7" in missing.text


def test_one_table_gives_the_help_the_names_in_both_languages_and_the_parser(
    tournament_pool: Pool,
) -> None:
    """Every command of ``SPECS`` is in the help, in English and Portuguese, each usage
    starts with one of the command's own names, and every name runs that command."""
    assert len(BY_NAME) == sum(len(spec.names) for spec in SPECS)  # no name taken twice
    for language in ("en", "pt"):
        words = Words(language)
        shown = Commands(tournament_pool, words=words).run(ADMIN, "help").text
        for spec in SPECS:
            usage = words(spec.usage)
            assert usage in shown and words(spec.summary) in shown, usage
            assert usage.split()[0] in spec.names, (language, usage)
    for spec in SPECS:
        assert all(BY_NAME[name] is spec for name in spec.names)

"""Every line to her gets an answer, in the pool's language, whichever language asked."""

import re
from datetime import UTC, date, datetime, timedelta

import pytest

from bot.agent.commentator import Commentator
from bot.agent.gateway import remembering
from bot.agent.providers.offline import OfflineModel
from game.model import Goal, Result, Score
from game.openfootball import Tournament
from game.pool import Pool
from memory import facts
from memory.keeper import MemoryConfig
from tests.conftest import FakeClock, fixture, play


def pool_voice(pool: Pool, language: str = "en") -> Commentator:
    keeper, gateway = remembering(
        pool, OfflineModel(language=language), MemoryConfig(language=language)
    )
    keeper.enable()
    her = Commentator(keeper, gateway)
    her.start()
    return her


def ask(commentator: Commentator, player: str, line: str) -> str:
    """The line as a player types it, and the remark that answers it."""
    pool = commentator.pool
    pool.talk.chat(player, line)
    asked = pool.events(kinds=("chat",))[-1].id
    commentator.catch_up()
    answers = [e.event for e in pool.events(kinds=("remark",)) if e.event.trigger == asked]
    assert len(answers) == 1, f"no answer to {line!r}"
    return answers[0].text


@pytest.fixture
def played(tournament_pool: Pool, clock: FakeClock) -> Pool:
    return two_played(tournament_pool, clock)


def two_played(pool: Pool, clock: FakeClock) -> Pool:
    """Two matches played: ana called the first exactly (10), bia the second (15 in all)."""
    pool.predictions.place("ana", 1, Score(2, 0))
    pool.predictions.place("bia", 1, Score(1, 0))
    pool.predictions.place("bia", 2, Score(1, 1))
    play(pool, clock, 1, "2-0", [Goal("home", 10, scorer="Vini"), Goal("home", 80, scorer="Vini")])
    play(pool, clock, 2, "1-1")
    return pool


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("@betania how am I doing?", "2nd of 4"),
        ("@betania como estou indo?", "10 points"),
        ("@betania who is leading?", "bia"),
        ("@betania quem está na frente?", "15 points"),
        ("@betania quem tá ganhando?", "15 points"),  # missed when tried over the stock ssh client
        ("@betania who's winning?", "bia"),
        # The table as it stood after #1, not as it stands now (bia leads with 15).
        ("@betania who led after match 1?", "1 match it's ana on top, 10 points"),
        ("@betania quem liderava depois do jogo 1?", "1 match it's ana on top, 10 points"),
        (
            "@betania what was the score of match 1?",
            "#1 Brazil 2-0 Serbia. Goals: Vini 2 (Brazil).",
        ),
        ("@betania e o último jogo?", "#2 Argentina 1-1 Mexico"),
        ("@betania who will win match 3?", "#3 Japan v Spain: Japan "),
        ("@betania quem vai ganhar a copa?", "simulation of the rest of the cup: "),
        ("@betania o que você lembra de mim?", "I know nothing about ana yet"),
        ("@betania what's the weather?", "Sorry, I did not get that. Try, for example: "),
        ("@betania help", "I can tell you how you're doing, who's leading"),
    ],
)
def test_questions_in_either_language_get_an_english_pool_answer(
    played: Pool, line: str, says: str
) -> None:
    commentator = pool_voice(played)
    assert says in ask(commentator, "ana", line)


def test_who_will_win_is_answered_with_chances_that_sum_to_100(played: Pool) -> None:
    commentator = pool_voice(played)
    match = ask(commentator, "ana", "@betania who will win match 3?")
    shares = [int(n) for n in re.findall(r"(\d+)%", match)]
    assert len(shares) == 3 and sum(shares) == 100, match
    cup = ask(commentator, "bia", "@betania who will win the cup?")
    contenders = re.findall(r"(\w+) (\d+)%", cup)
    assert 2 <= len(contenders) <= 5, cup
    assert {team for team, _ in contenders} <= {"Japan", "Spain", "France", "Morocco", "Brazil",
                                                 "Serbia", "Argentina", "Mexico"}  # fmt: skip
    assert sum(int(n) for _, n in contenders) <= 100


def test_a_portuguese_pool_answers_in_portuguese_whatever_the_question(played: Pool) -> None:
    commentator = pool_voice(played, "pt")
    leading = ask(commentator, "ana", "@betania who is leading?")
    assert "bia" in leading and "15 pontos" in leading
    assert "não entendi" in ask(commentator, "bia", "@betania qual a previsão do tempo?")
    assert "lembra que" in ask(commentator, "bia", "@betania ajuda")
    told = ask(commentator, "ana", "@betania lembra que eu torço pelo Vasco")
    assert told.startswith("Anotado, ana: você torce pelo Vasco.") or told.startswith(
        "Guardei, ana: você torce pelo Vasco."
    )


def test_a_question_asked_twice_is_answered_twice(played: Pool) -> None:
    commentator = pool_voice(played)
    first = ask(commentator, "ana", "@betania how am I doing?")
    second = ask(commentator, "ana", "@betania how am I doing?")  # owed: never refused
    assert "10 points" in first and "10 points" in second and second != first  # reworded


def test_a_fact_is_stored_in_the_third_person_and_told_back_in_the_second(
    played: Pool,
) -> None:
    commentator = pool_voice(played)
    ack = ask(commentator, "ana", "@betania remember that I speak fluent Japanese")
    assert "you speak fluent Japanese" in ack and "I speak" not in ack
    with played.engine.connect() as connection:
        (fact,) = facts.current(connection, "ana")
    assert fact.text == "ana speaks fluent Japanese"
    assert fact.source == f"log:{played.events(kinds=('chat',))[-1].id}"  # her own words


def test_a_player_withdraws_a_fact_and_it_leaves_her_answers_at_once(played: Pool) -> None:
    commentator = pool_voice(played)
    ask(commentator, "ana", "@betania remember that I run Gentoo")
    ask(commentator, "ana", "@betania lembra que meu gato se chama Pelé")
    gone = ask(commentator, "ana", "@betania forget that I run Gentoo")
    assert "ana:" in gone and "my notes" in gone and "Gentoo" not in gone  # never said again
    assert "Gentoo" not in ask(commentator, "ana", "@betania what do you know about me?")
    assert "Pelé" in ask(commentator, "ana", "@betania what do you know about me?")
    assert "my notes" in ask(commentator, "ana", "@betania esquece o gato")
    assert "nothing like that" in ask(commentator, "ana", "@betania forget my dog")
    with played.engine.connect() as connection:
        assert facts.current(connection, "ana") == []
        withdrawn = facts.stored(connection)  # still stored, with the line that withdrew them
    assert len(withdrawn) == 2
    said = {e.id: e.event.text for e in played.events(kinds=("chat",))}
    assert [said[int(f.source[4:])] for f in withdrawn] == [
        "@betania remember that I run Gentoo",
        "@betania lembra que meu gato se chama Pelé",
    ]


def test_portuguese_agrees_in_number() -> None:
    voice = OfflineModel(language="pt")
    two = voice.say("answer.called", many=True, match="#1", who="joao e otavio")
    one = voice.say("answer.called", many=False, match="#1", who="joao")
    assert (two, one) == ("#1: joao e otavio cravaram o placar.", "#1: joao cravou o placar.")
    assert voice.say("fusion.best", many=False, who="ana", n=1) == "ana (1 exato)"
    assert voice.say("fusion.best", many=True, who="ana", n=2) == "ana (2 exatos)"


def test_when_she_wins_her_own_pool_she_says_so_in_the_first_person() -> None:
    from bot.agent.providers.base import ModelCall
    from bot.agent.requests import WrapUp

    won = WrapUp(
        "Spain", "Argentina", "Spain 1-0 Argentina", ("betania",), 364,
        (("betania", 364), ("elis", 319), ("ana", 269)), 1, 16, ("elis", "betania"), True,
        None, None,
    )  # fmt: skip
    text = OfflineModel().complete(ModelCall("remark", "", "", won, (1, 0)))
    assert "In our pool, I win with 364 points" in text and "betania wins" not in text
    pt = OfflineModel(language="pt").complete(ModelCall("remark", "", "", won, (1, 0)))
    assert "quem vence sou eu, com 364 pontos" in pt


def test_what_she_remembers_is_a_handful_and_how_many_more(played: Pool) -> None:
    commentator = pool_voice(played)
    hobbies = ["chess", "surfing", "fado", "origami", "judo", "baking", "karaoke", "rowing"]
    for hobby in hobbies:
        ask(commentator, "ana", f"@betania remember that I practise {hobby}")
    told = ask(commentator, "ana", "@betania what do you remember about me?")
    assert sum(hobby in told for hobby in hobbies) == 5, told
    assert "3 more besides" in told and "rowing" in told  # the newest first
    assert "or for everything about ana" in told
    rest = ask(commentator, "ana", "@betania tell me everything u know about me")
    assert all(hobby in rest for hobby in ("chess", "surfing", "fado")), rest
    assert "rowing" not in rest  # the handful told already
    pt = ask(pool_voice(played, "pt"), "bia", "@betania me fala tudo q vc sabe da ana")
    assert all(hobby in pt for hobby in ("chess", "surfing", "fado")), pt


@pytest.mark.parametrize("language", ["en", "pt"])
def test_everything_she_remembers_of_a_few_facts_is_all_of_them(
    played: Pool, language: str
) -> None:
    commentator = pool_voice(played, language)
    ask(commentator, "bia", "@betania remember that I keep bees")
    ask(commentator, "bia", "@betania lembra que eu moro em Olinda")
    line = "@betania tudo sobre mim" if language == "pt" else "@betania all you remember about me?"
    told = ask(commentator, "bia", line)
    assert "bees" in told and "Olinda" in told, told
    assert "more besides" not in told and "Tem mais" not in told


@pytest.mark.parametrize("language", ["en", "pt"])
def test_what_players_told_her_is_answered_from_their_facts(played: Pool, language: str) -> None:
    played.members.add("bruno")
    commentator = pool_voice(played, language)
    ask(commentator, "ana", "@betania remember that my cat is called Tom")
    ask(commentator, "bia", "@betania lembra que meu gato se chama Pelé")
    ask(commentator, "bruno", "@betania remember that I live in Recife")
    ask(commentator, "ana", "@betania remember that I keep bees")
    cat = ask(commentator, "ana", "@betania what is my cat called?")
    assert "Tom" in cat and "bees" not in cat
    assert "Pelé" in ask(commentator, "bia", "@betania qual é o nome do meu gato?")
    assert "Recife" in ask(commentator, "ana", "@betania where does bruno live?")
    weather = ask(commentator, "ana", "@betania what's the weather?")  # no fact answers it
    assert "Tom" not in weather and "Recife" not in weather


def test_a_player_who_changes_team_twice_is_remembered_with_time(
    played: Pool, clock: FakeClock
) -> None:
    commentator = pool_voice(played)
    clock.now = datetime(2026, 6, 11, 9, tzinfo=UTC)
    ask(commentator, "ana", "@betania remember that I support Brazil")
    ask(commentator, "ana", "@betania remember that I support Corinthians")  # a club: apart
    clock.now = datetime(2026, 6, 14, 9, tzinfo=UTC)
    ask(commentator, "ana", "@betania remember that I support Argentina now")
    clock.now = datetime(2026, 6, 18, 9, tzinfo=UTC)
    ask(commentator, "ana", "@betania lembra que eu torço pela Espanha")
    clock.now = datetime(2026, 6, 20, 9, tzinfo=UTC)
    now = ask(commentator, "ana", "@betania what do you remember about me?")
    assert "Espanha" in now and "Corinthians" in now
    assert "supports Brazil" not in now.split("before that")[0]
    assert "since 18 Jun; before that: ana supports Argentina now" in now
    assert "ana supports Brazil" in ask(
        commentator, "bia", "@betania whom did ana support on 12 Jun?"
    )
    then = ask(commentator, "bia", "@betania who did ana support on 15 Jun?")
    assert "Argentina" in then and "Brazil" not in then and "Corinthians" in then
    assert "Espanha" in ask(commentator, "ana", "@betania pra quem eu torcia em 19 de junho?")
    assert "hadn't told me" in ask(commentator, "bia", "@betania whom did ana support on 2 Jun?")
    with played.engine.connect() as connection:
        brazil = next(f for f in facts.stored(connection) if f.text == "ana supports Brazil")
    assert (brazil.subject, brazil.replaced_on) == ("team:national", date(2026, 6, 14))


def test_a_forget_that_names_two_facts_asks_which_and_takes_neither(played: Pool) -> None:
    commentator = pool_voice(played)
    ask(commentator, "ana", "@betania remember that I run Gentoo")
    ask(commentator, "ana", "@betania remember that I run Gentoo on my laptop too")
    which = ask(commentator, "ana", "@betania forget that I run Gentoo")
    assert which.startswith("Which one, ana?") and "2 things" in which and "laptop" not in which
    assert "laptop" in ask(commentator, "ana", "@betania what do you know about me?")
    gone = ask(commentator, "ana", "@betania forget that I run Gentoo on my laptop")
    assert "my notes" in gone and not gone.startswith("Which one")
    left = ask(commentator, "ana", "@betania what do you know about me?")
    assert "Gentoo" in left and "laptop" not in left


# -- what she does not know, and what she cannot read ---------------------------------
# The phrasings below are players' (no accents, "q", "vc", typos), not the rules' own.


@pytest.mark.parametrize(
    ("language", "line", "says"),
    [
        ("en", "@betania whats bia's cat called?", "bia"),
        ("en", "@betania does caio have any allergies??", "caio"),
        ("pt", "@betania qual eh o time do coracao da bia?", "bia"),
        ("pt", "@betania o caio tem alergia a algo?", "caio"),
        ("en", "@betania wheres my dog from?", "ana"),
    ],
)
def test_a_question_nobody_answered_is_i_dont_know_not_the_help(
    played: Pool, language: str, line: str, says: str
) -> None:
    told = ask(pool_voice(played, language), "ana", line)
    dont_know = "não sei" if language == "pt" else "i don't know"
    assert dont_know in told.lower() and says in told, told
    assert "remember that" not in told and "lembra que" not in told


def test_a_withdrawn_fact_is_not_known_any_more(played: Pool) -> None:
    commentator = pool_voice(played, "pt")
    ask(commentator, "caio", "@betania lembra que eu torço pro Bahia")
    assert "Bahia" in ask(commentator, "bia", "@betania qual o time do caio?")
    ask(commentator, "caio", "@betania esquece que torço pro Bahia")
    now = ask(commentator, "bia", "@betania qual o time do caio?")
    assert "não sei" in now.lower() and "caio" in now and "Bahia" not in now, now


def test_an_allergy_is_told_back_to_its_owner_alone(played: Pool) -> None:
    commentator = pool_voice(played, "pt")
    ask(commentator, "caio", "@betania lembra que eu sou alérgico a amendoim")
    assert "amendoim" in ask(commentator, "caio", "@betania o que sabes sobre mim?")
    assert "amendoim" not in ask(commentator, "bia", "@betania o caio tem alergia a q?")


@pytest.mark.parametrize(
    ("language", "line", "says"),
    [
        ("en", "@betania lol", "Sorry, I did not get that. Try, for example: @betania how am I"),
        ("en", "@betania is it gonna rain 2morrow", "Sorry, I did not get that."),
        ("pt", "@betania kkkkk", "Desculpe, não entendi. Tente, por exemplo: @betania como estou"),
        ("pt", "@betania vai chover amanha?", "Desculpe, não entendi."),
    ],
)
def test_a_line_she_cannot_read_gets_one_example_and_help_gets_the_list(
    played: Pool, language: str, line: str, says: str
) -> None:
    commentator = pool_voice(played, language)
    told = ask(commentator, "ana", line)
    assert told.startswith(says) and told.count("?") == 1, told
    helped = ask(commentator, "ana", "@betania ajuda" if language == "pt" else "@betania help!")
    assert "remember that" in helped or "lembra que" in helped


# -- the asker's own game ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "line", "says"),
    [
        ("en", "@betania wat did i pick for game 1?", ("#1 Brazil v Serbia", "ana", "2-0")),
        ("en", "@betania my pick for brazil v serbia?", ("2-0", "It earned 10 points.")),
        ("pt", "@betania qual foi meu palpite no jogo 1?", ("#1 Brazil v Serbia", "2-0")),
        ("pt", "@betania q eu apostei em Brasil x Servia", ("2-0", "Valeu 10 pontos.")),
        (
            "en",
            "@betania what did I bet on match 2",
            ("ana made no pick for #2 Argentina v Mexico",),
        ),
        ("en", "@betania what did bia pick for match 2?", ("bia", "#2 Argentina v Mexico", "1-1")),
        ("en", "@betania what did bia and caio pick for match 2?", ("1-1", "caio made no pick")),
    ],
)
def test_a_player_asks_for_their_pick(
    played: Pool, language: str, line: str, says: tuple[str, ...]
) -> None:
    told = ask(pool_voice(played, language), "ana", line)
    assert all(part in told for part in says), told


def test_a_pick_is_hidden_from_others_until_kick_off_but_not_from_its_player(
    played: Pool,
) -> None:
    played.predictions.place("bia", 3, Score(0, 2))
    commentator = pool_voice(played)
    theirs = ask(commentator, "ana", "@betania whats bia's pick for japan vs spain?")
    assert theirs == "bia's pick for #3 Japan v Spain is hidden until kick-off.", theirs
    mine = ask(commentator, "bia", "@betania what did i predict for match 3")
    assert "0-2" in mine
    pt = ask(pool_voice(played, "pt"), "caio", "@betania qual o palpite da bia no jogo 3?")
    assert "0-2" not in pt and "escondido até o início do jogo" in pt


@pytest.mark.parametrize(
    ("language", "line", "says"),
    [
        ("en", "@betania how many exact scores do I have?", ("10 points", "1 exact")),
        ("en", "@betania hw many points i got", ("2nd of 4", "10 points")),
        ("pt", "@betania quantos placares exatos eu cravei?", ("10 pontos", "1 ", "exat")),
        ("pt", "@betania qual minha posicao?", ("2º de 4",)),
        ("pt", "@betania quantos pontos eu tenho", ("10 pontos",)),
    ],
)
def test_a_player_asks_for_their_exact_scores_points_and_rank(
    played: Pool, language: str, line: str, says: tuple[str, ...]
) -> None:
    told = ask(pool_voice(played, language), "ana", line)
    assert all(part in told for part in says), told


def test_a_player_asks_for_their_best_and_worst_match(played: Pool) -> None:
    commentator = pool_voice(played)
    told = ask(commentator, "bia", "@betania whats my best and worst game?")
    assert told.startswith("bia's best match: #2 Argentina 1-1 Mexico (picked 1-1, 10 points)")
    assert "Worst: #1 Brazil 2-0 Serbia (picked 1-0, 5)" in told, told
    pt = ask(pool_voice(played, "pt"), "bia", "@betania qual foi meu pior jogo?")
    assert "Pior: #1 Brazil 2-0 Serbia (palpite 1-0, 5)" in pt, pt


def test_her_answers_count_a_jokered_pick_twice_as_the_table_does(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    pool = tournament_pool
    pool.predictions.place("bia", 1, Score(1, 0))
    pool.predictions.place("bia", 2, Score(1, 1))
    pool.extras.joker("bia", 2)
    play(pool, clock, 1, "2-0")
    play(pool, clock, 2, "1-1")  # bia: 5 on #1, 10 doubled on #2
    (bia,) = [row for row in pool.standings() if row.player == "bia"]
    assert bia.points == 25
    told = ask(pool_voice(pool), "bia", "@betania whats my best and worst game?")
    assert told.startswith("bia's best match: #2 Argentina 1-1 Mexico (picked 1-1, 20 points)")


# -- a league's questions -----------------------------------------------------------------


@pytest.fixture
def league_pool(pool: Pool, clock: FakeClock) -> Pool:
    """Two matchdays of four clubs played, a third to come: Palmeiras top (two wins),
    Flamengo second (a win, a draw), Santos third (a draw), Corinthians last."""
    start = datetime(2026, 4, 4, 19, tzinfo=UTC)
    rounds = [
        [("Palmeiras", "Santos"), ("Flamengo", "Corinthians")],
        [("Corinthians", "Palmeiras"), ("Santos", "Flamengo")],
        [("Palmeiras", "Flamengo"), ("Santos", "Corinthians")],
    ]
    pool.fixtures.import_tournament(
        Tournament(
            "Brasileirão",
            tuple(
                fixture(f"r{r}m{i}", home, away, start + timedelta(days=7 * r, hours=i),
                        stage=f"Matchday {r + 1}")
                for r, pairs in enumerate(rounds)
                for i, (home, away) in enumerate(pairs)
            ),
        )
    )  # fmt: skip
    for handle in ("ana", "bia"):
        pool.members.add(handle)
    for number, score in ((1, "2-0"), (2, "1-0"), (3, "0-1"), (4, "1-1")):
        play(pool, clock, number, score)
    return pool


@pytest.mark.parametrize(
    ("language", "line", "says"),
    [
        ("en", "@betania who's top of the league?", ("Palmeiras is top", "won 2, drew 0")),
        ("pt", "@betania quem lidera o brasileirao?", ("Palmeiras lidera", "venceu 2, empatou 0")),
        ("en", "@betania where is flamengo?", ("Flamengo is 2 of 4", "won 1, drew 1", "Palmeiras")),
        (
            "pt",
            "@betania em q posicao ta o Santos?",
            ("Santos está em 3º de 4", "empatou 1, perdeu 1"),
        ),
        ("pt", "@betania como ta o corinthians na tabela", ("Corinthians está em 4º de 4",)),
    ],
)
def test_a_league_is_asked_its_leader_and_a_clubs_place(
    league_pool: Pool, language: str, line: str, says: tuple[str, ...]
) -> None:
    told = ask(pool_voice(league_pool, language), "ana", line)
    assert all(part in told for part in says), told


@pytest.mark.parametrize(
    ("language", "line", "says"),
    [
        ("en", "@betania who wins the league?", "My simulation of the rest of the league: "),
        ("en", "@betania who's gonna be champion?", "My simulation of the rest of the league: "),
        ("pt", "@betania quem vai ganhar o campeonato?", "Minha simulação do resto do campeonato"),
        ("pt", "@betania quem ganha o brasileirao", "Minha simulação do resto do campeonato"),
    ],
)
def test_a_league_is_asked_its_champion_and_answers_with_the_forecast(
    league_pool: Pool, language: str, line: str, says: str
) -> None:
    told = ask(pool_voice(league_pool, language), "ana", line)
    assert told.startswith(says) and "#" not in told, told  # no match's odds
    chances = re.findall(r"(\w+) (\d+)%", told)
    assert {team for team, _ in chances} <= {"Palmeiras", "Flamengo", "Santos", "Corinthians"}
    assert chances and sum(int(n) for _, n in chances) <= 100


@pytest.mark.parametrize(
    ("language", "line", "says"),
    [
        (
            "en",
            "@betania whats the score of game 99?",
            "There's no match 99 in this pool: it has 4.",
        ),
        ("pt", "@betania qto ficou o jogo 99", "Não existe jogo 99 neste bolão: são 4."),
    ],
)
def test_a_match_the_pool_does_not_have_is_said_not_to_exist(
    played: Pool, language: str, line: str, says: str
) -> None:
    assert ask(pool_voice(played, language), "ana", line) == says


@pytest.mark.parametrize("language", ["en", "pt"])
def test_whom_a_player_supports_now_is_their_team_fact_or_not_known(
    played: Pool, language: str
) -> None:
    commentator = pool_voice(played, language)
    ask(commentator, "bia", "@betania lembra que eu torço pro Bahia")
    ask(commentator, "bia", "@betania remember that I keep bees")
    team = ask(commentator, "ana", "@betania pra quem a bia torce agora?")
    assert "Bahia" in team and "bees" not in team, team
    again = ask(commentator, "ana", "@betania which team does bia support")
    assert "Bahia" in again, again
    unknown = ask(commentator, "bia", "@betania qual o time do coracao do caio?")
    assert "caio" in unknown and ("não sei" in unknown.lower() or "don't know" in unknown.lower())


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("pt", "@betania quem cravou o Brasil?"),  # "no finished match with o Brasil in it"
        ("pt", "@betania quem cravou a Sérvia?"),
        ("en", "@betania who called Brasil?"),
    ],
)
def test_who_called_a_team_named_in_portuguese_or_with_its_article(
    played: Pool, language: str, line: str
) -> None:
    told = ask(pool_voice(played, language), "bia", line)
    assert "#1 Brazil 2-0 Serbia" in told and "ana" in told, told


@pytest.mark.parametrize(
    ("language", "line", "says"),
    [
        ("en", "@betania who has the most exact scores??", "bia and ana, with 1."),
        ("pt", "@betania quem cravou mais placar?", "bia e ana, com 1."),
        (
            "en",
            "@betania how many pts did i get in games 1 to 2",
            "bia, matches 1 to 2 earned you 15",
        ),
        (
            "pt",
            "@betania qtos pontos eu fiz nos jogos 1 a 2",
            "bia, do jogo 1 até o jogo 2 você fez 15 pontos",
        ),
    ],
)
def test_counts_over_several_matches(played: Pool, language: str, line: str, says: str) -> None:
    told = ask(pool_voice(played, language), "bia", line)
    assert says in told, told


@pytest.mark.parametrize(
    ("language", "line", "says"),
    [
        ("en", "@betania score of match 1 before the 50th min?", "#1 Brazil v Serbia stood at 1-0"),
        ("pt", "@betania qual era o placar do jogo 1 antes dos 5 minutos", "estava 0-0"),
    ],
)
def test_a_score_before_a_minute_is_read_from_the_goals(
    played: Pool, language: str, line: str, says: str
) -> None:
    told = ask(pool_voice(played, language), "ana", line)
    assert says in told and "2-0" not in told, told


@pytest.mark.parametrize(
    ("language", "asker", "line", "says"),
    [
        # her name opening a later sentence: the line is to her
        ("en", "ana", "ugh. betania how far behind bia am I?", ("bia", "15", "10", "5 point")),
        ("pt", "ana", "betania quanto eu to atras da bia?", ("bia", "15", "você 10")),
        ("en", "ana", "@betania who's got more points, me or bia?", ("bia", "15", "10")),
        ("en", "bia", "@betania am I ahead of ana?", ("You", "15", "10", "ana")),
    ],
)
def test_two_totals_side_by_side(
    played: Pool, language: str, asker: str, line: str, says: tuple[str, ...]
) -> None:
    told = ask(pool_voice(played, language), asker, line)
    assert all(word in told for word in says), told


@pytest.mark.parametrize(
    ("language", "line", "says"),
    [
        ("en", "betania did anyone get points on Brazil Serbia?", "ana 10 (2-0) and bia 5 (1-0)"),
        (
            "pt",
            "1-1 fácil. betania quem pontuou nesse jogo?",
            "#2 Argentina 1-1 Mexico: pontuaram bia",
        ),
        # a pick said in the same line does not make it a question about that pick
        ("pt", "eu apostei 2-0. betania quem se deu bem?", "pontuaram bia 10 (1-1)"),
    ],
)
def test_who_scored_on_a_match(played: Pool, language: str, line: str, says: str) -> None:
    told = ask(pool_voice(played, language), "bia", line)
    assert says in told, told


@pytest.mark.parametrize(
    ("language", "line", "says"),
    [
        ("en", "betania who backed Brazil?", "ana (2-0) and bia (1-0) went for Brazil"),
        ("pt", "betania quem é que apostou no México a ganhar?", "ninguém apostou em Mexico"),
        # #3 has not kicked off: who picked what stays hidden, as the pool's own command
        ("en", "betania anyone picked Spain?", "#3 Japan v Spain hasn't kicked off"),
    ],
)
def test_who_picked_a_team_to_win(played: Pool, language: str, line: str, says: str) -> None:
    played.predictions.place("bia", 3, Score(0, 2))
    told = ask(pool_voice(played, language), "ana", line)
    assert says in told and "0-2" not in told, told


@pytest.mark.parametrize(
    ("language", "line"),
    [("en", "betania who won the day?"), ("pt", "betania quem é que fez mais pontos hoje?")],
)
def test_the_day_s_best_is_read_from_that_day_s_matches(
    played: Pool, language: str, line: str
) -> None:
    """#2 on its own day: bia called it (10 on the day, 15 in all); ana had no pick."""
    told = ask(pool_voice(played, language), "ana", line)
    assert "bia" in told and "10" in told and "ana" not in told.replace("Argentina", ""), told


@pytest.mark.parametrize(
    ("language", "line", "says"),
    [
        ("pt", "betania quanto vale um placar exato mesmo?", "Placar exato vale 10 pontos"),
        ("en", "betania do penalties count in the pool?", "penalties don't"),
        ("pt", "1x1 e ganhei 7?? betania explica", "saldo de gols certo 7"),
    ],
)
def test_the_pool_s_scoring_asked_in_everyday_words(
    played: Pool, language: str, line: str, says: str
) -> None:
    told = ask(pool_voice(played, language), "bia", line)
    assert says in told, told


def test_a_gap_to_the_last_place_is_read_from_the_table(played: Pool) -> None:
    told = ask(pool_voice(played, "pt"), "bia", "betania qual a diferença entre mim e o último?")
    assert "caio" in told and "15" in told, told  # caio is last, on 0


def test_her_pick_asked_before_she_made_it_is_made_then(played: Pool) -> None:
    """#3 has not kicked off and she picks 50 minutes before: asked the day before, she
    picks when asked, as a player would, and says it."""
    her = pool_voice(played, "pt")
    told = ask(her, "bia", "Betânia, e o teu palpite pro jogo 3?")
    mine = [p for p in played.predictions_on(3) if p.handle == "betania"]
    assert len(mine) == 1 and str(mine[0].score) in told, told


@pytest.mark.parametrize(
    "line",
    [
        "pergunta séria betania: quem lidera?",  # called mid-line, a colon after her name
        "Eu meti 2-1, caio 😏 Betânia, quem lidera?",  # what follows her name is asked
    ],
)
def test_called_mid_line_what_follows_her_name_is_asked(played: Pool, line: str) -> None:
    told = ask(pool_voice(played, "pt"), "ana", line)
    assert "bia" in told and "15" in told, told


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("betania, minha vantagem pro 2º tá em quanto?", ("ana", "15", "10")),
        ("betania quanto eu tenho de vantagem pro último?", ("caio", "0")),
        ("betania top 3 with points pls, I'm making a meme", ("bia 15", "ana 10")),
    ],
)
def test_places_in_the_table_named_by_rank(played: Pool, line: str, says: tuple[str, ...]) -> None:
    told = ask(pool_voice(played), "bia", line)
    assert all(word in told for word in says), told


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("Betinha, am I first now?", "1st of 4"),  # her pet name; their own row
        ("betania, you and ana are level now?", "the gap is 10"),
        ("betania quantos placares exatos já houve?", "with 1"),
        ("betania e se eu acertar só quem ganha, levo quantos pontos?", "winner or draw 5"),
    ],
)
def test_everyday_questions_of_the_pool(played: Pool, line: str, says: str) -> None:
    told = ask(pool_voice(played), "bia", line)
    assert says in told, told


@pytest.mark.parametrize(
    ("language", "questions", "live_words"),
    [
        (
            "en",
            ("how many points do I have?", "who is leading?", "show me the table"),
            "Brazil v Serbia",
        ),
        ("pt", ("quantos pontos eu tenho?", "quem lidera?", "mostra a tabela"), "Brazil v Serbia"),
    ],
)
def test_with_a_match_in_play_her_totals_are_the_live_tables_on_the_screen(
    tournament_pool: Pool,
    clock: FakeClock,
    language: str,
    questions: tuple[str, ...],
    live_words: str,
) -> None:
    # ana has the running score exactly: every screen shows her 10 points at once
    pool = tournament_pool
    pool.predictions.place("ana", 1, Score(1, 0))
    pool.predictions.place("bia", 1, Score(0, 0))
    her = pool_voice(pool, language)
    clock.now = pool.match(1).kickoff
    pool.fixtures.kick_off(1)
    pool.fixtures.record_goal(1, Goal("home", 10, scorer="Vini"))
    her.catch_up()
    on_screen = {row.player: row.points for row in pool.live_table().rows}
    assert on_screen["ana"] == 10 and all(r.points == 0 for r in pool.standings())
    for question in questions:
        said = ask(her, "ana", f"@betania {question}")
        assert "10" in said and live_words in said, (
            said
        )  # and it says the match counts as it stands
    # the final whistle: the same total, and no word of a match in play
    pool.fixtures.record_result(1, Result(Score(1, 0)))
    said = ask(her, "ana", f"@betania {questions[0]}")
    assert "10" in said and live_words not in said, said


def test_a_fact_naming_someone_who_joins_later_leaves_her_use(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """caio's "fact" about dave was taken while dave was nobody in the pool; once dave
    joins, it would be refused, and it is no longer told to anyone (kept, marked)."""
    her = pool_voice(tournament_pool)
    told = "@betania remember that I saw dave stealing lunches from the office fridge"
    assert "Noted" in ask(her, "caio", told)
    tournament_pool.members.add("dave")
    clock.advance(days=1)
    assert "dave can tell me that" in ask(her, "caio", told)
    for asker in ("bia", "dave", "caio"):
        assert "fridge" not in ask(her, asker, "@betania what do you know about caio?")
    with her.keeper.store.read() as connection:
        (kept,) = [f for f in facts.stored(connection) if "fridge" in f.text]
    assert kept.withdrawn_on is not None and kept.withdrawn_by is not None  # kept, marked


def test_a_replaced_fact_is_withdrawn_by_the_words_of_its_older_version(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    her = pool_voice(tournament_pool)
    ask(her, "caio", "@betania remember that I live in Recife")
    clock.advance(days=2)
    assert "replaced" in ask(her, "caio", "@betania remember that I moved to Lisbon")
    known = ask(her, "bia", "@betania what do you know about caio?")
    assert "Lisbon" in known and "Recife" in known  # "before that: caio lives in Recife"
    clock.advance(days=2)
    assert "nothing like that" not in ask(her, "caio", "@betania forget that I lived in Recife")
    known = ask(her, "bia", "@betania what do you know about caio?")
    assert "Lisbon" in known and "Recife" not in known


@pytest.mark.parametrize(
    "told",
    [
        "@betania remember that my bank PIN is 4711",
        "@betania remember that my password is hunter2",
        "@betania remember that I have diabetes",
        "@betania lembra que minha senha do banco é 4711",
    ],
)
def test_what_opens_an_account_or_tells_of_health_is_never_told_to_others(
    tournament_pool: Pool, told: str
) -> None:
    """The attack: carla's PIN, password and diabetes were acknowledged word for word,
    told to mallory on asking, and shown on the public scoreboard among her lines."""
    her = pool_voice(tournament_pool)
    secret = {"4711", "hunter2", "diabetes"}
    acknowledged = ask(her, "caio", told)
    assert not any(word in acknowledged for word in secret), acknowledged
    for asked in ("@betania what do you know about caio?", "@betania what is caio's PIN?"):
        said = ask(her, "bia", asked)
        assert not any(word in said for word in secret), said


@pytest.mark.parametrize(
    "line",
    [
        "@betania what's the next match?",
        "betania who's playing tomorrow and what time? i've got a matinee",
        "bet me lembra qual é o próximo jogo?",
        "betania quick one: when's the next match and who's playing?",
    ],
)
def test_the_next_match_is_asked_in_everyday_words(played: Pool, line: str) -> None:
    """After #1 and #2, the next to kick off is #3 Japan v Spain, the day after."""
    told = ask(pool_voice(played), "ana", line)
    assert "Japan" in told and "Spain" in told, told


@pytest.mark.parametrize(
    ("line", "language"),
    [
        ("@betania match 2 picks pls, everyone's", "en"),
        ("@betania what did everyone pick for match 2?", "en"),
        ("@betania mostra os palpites do jogo 2 aí", "pt"),
        # the picks of a match, in the plural and nobody's
        ("betania que palpites há pro jogo 2?", "pt"),
        ("bet picks for match 2?", "en"),
    ],
)
def test_everyone_s_picks_are_told_in_one_line(played: Pool, line: str, language: str) -> None:
    """#2 is over: bia's 1-1 called it; ana, caio and she made no pick."""
    told = ask(pool_voice(played, language), "caio", line)
    assert "bia 1-1 (10)" in told and "ana" in told and "caio" in told, told
    assert told.count("#2") == 1


def test_how_far_from_the_leader_is_asked_as_people_ask_it(played: Pool) -> None:
    """bia leads on 15; ana has 10."""
    told = ask(
        pool_voice(played, "pt"),
        "ana",
        "finalmente saí do zero kkk betania quanto falta pro líder?",
    )
    assert "15" in told and "10" in told and "5" in told, told

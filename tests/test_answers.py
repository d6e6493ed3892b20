"""Every line to her gets an answer, in the pool's language, whichever language asked."""

import re
from datetime import UTC, date, datetime

import pytest

from bot.agent.commentator import Commentator
from bot.agent.gateway import remembering
from bot.agent.providers.offline import OfflineModel
from game.model import Goal, Score
from game.pool import Pool
from memory import facts
from memory.keeper import MemoryConfig
from tests.conftest import FakeClock, play


def pool_voice(pool: Pool, language: str = "en") -> Commentator:
    keeper, gateway = remembering(
        pool, OfflineModel(language=language), MemoryConfig(language=language)
    )
    keeper.enable()
    return Commentator(keeper, gateway)


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
    """Two matches played: ana called the first exactly (10), bia the second (15 in all)."""
    pool = tournament_pool
    pool.predictions.place("ana", 1, Score(2, 0))
    pool.predictions.place("bia", 1, Score(1, 0))
    pool.predictions.place("bia", 2, Score(1, 1))
    play(pool, clock, 1, "2-0", [Goal("home", 10, scorer="Vini"), Goal("home", 80, scorer="Vini")])
    play(pool, clock, 2, "1-1")
    return pool


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("@betania how am I doing?", "2 of 4"),
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
        ("@betania what's the weather?", "I can tell you how you're doing, who's leading"),
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
    assert "lembra que" in ask(commentator, "bia", "@betania qual a previsão do tempo?")
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
    assert "you run Gentoo" in gone
    assert "Gentoo" not in ask(commentator, "ana", "@betania what do you know about me?")
    assert "Pelé" in ask(commentator, "ana", "@betania what do you know about me?")
    assert "gato" in ask(commentator, "ana", "@betania esquece o gato")
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
    from memory.requests import WrapUp

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
    assert which.startswith("Which one, ana?") and "laptop" in which
    assert "laptop" in ask(commentator, "ana", "@betania what do you know about me?")
    gone = ask(commentator, "ana", "@betania forget that I run Gentoo on my laptop")
    assert "laptop" in gone and not gone.startswith("Which one")
    left = ask(commentator, "ana", "@betania what do you know about me?")
    assert "Gentoo" in left and "laptop" not in left

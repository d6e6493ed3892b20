"""She hears what players mean: facts told without "remember", changes of mind and
take-backs in everyday words, secrets kept, and a reply that says what memory did.

The lines below are written as players type them (no accents, "vc", typos, two things
in one line); the hearing bench (bench/hearing.py) grades a whole chat written by
someone who never read the rules."""

from datetime import date
from pathlib import Path

import pytest

from bench import hearing
from bot.app.config import ModelConfig
from game.addressing import Addressee
from game.pool import Pool
from memory import facts
from memory.utterance import Chat, Forget, Question, Remember, read_line
from tests.test_answers import ask, played, pool_voice  # noqa: F401  # the fixture too

PLAYERS = {"ana": "Ana", "bia": "Bia Souza", "caio": "Caio", "betania": "BETanIA"}
HER = Addressee()


def read(line: str, speaker: str = "ana") -> object:
    return read_line(line, speaker, PLAYERS, HER, date(2026, 6, 14), date(2026, 7, 19))


def stored(line: str) -> str | None:
    said = read(line)
    assert isinstance(said, Remember), said
    return None if said.told.kept is None else said.told.kept.text


@pytest.mark.parametrize(
    ("line", "fact"),
    [
        ("@betania fyi my all time fav player is Modric", "ana's all time fav player is Modric"),
        ("betania btw I'm vegetarian", "ana is vegetarian"),
        ("betania moro em Campinas", "ana mora em Campinas"),
        ("@betania pra constar: sou palmeirense roxa", "ana é palmeirense roxa"),
        (
            "betania not that you care but i signed up for the paris marathon",
            "ana signed up for the paris marathon",
        ),
        (
            "oi betania! sou da contabilidade. tenho um gato, o Tom",
            "ana é da contabilidade. ana tem um gato, o Tom",
        ),
        # what is said to another player in the same line is theirs, not a fact of ana's
        ("betania btw sou vegana. bia, traz pão de alho pra mim pfv", "ana é vegana"),
        # "remember" about a pool of years ago is her own history, not a claim on this one
        (
            "@betania remember that I lost my first bolão in 2014 by one point",
            "ana lost their first bolão in 2014 by one point",
        ),
    ],
)
def test_a_fact_told_as_people_tell_it_is_kept(line: str, fact: str) -> None:
    assert stored(line) == fact


@pytest.mark.parametrize(
    "line",
    [
        "betania is so smug today",  # about her, not to her
        "nice goal betania",
        "bia you're a terrible tipster lol",
    ],
)
def test_chat_not_to_her_is_chat(line: str) -> None:
    assert isinstance(read(line), Chat)


@pytest.mark.parametrize(
    "line",
    [
        "betania I think Brazil wins today",  # an opinion, no fact of hers to keep
        "@betania I'm the boss of this pool",  # a standing: the records say who is who
        "@betania quem ta ganhando?",
    ],
)
def test_banter_and_questions_are_no_fact(line: str) -> None:
    assert isinstance(read(line), Question)


def test_for_the_record_about_another_player_is_refused_whole() -> None:
    said = read("betania for the record bia is a worse tipster than me. write that down")
    assert isinstance(said, Remember) and said.told.kept is None
    assert said.told.others == ("bia",)


@pytest.mark.parametrize(
    ("line", "what", "everything"),
    [
        ("@betania forget that I keep bees", "I keep bees", False),
        ("betania esquece isso", "", False),  # the last thing she was told
        ("betania esquece tudo", "", True),
        ("betania actually please delete the pregnancy thing from your memory", "pregnancy", False),
        ("betania aquele lance da entrevista esquece, nao rolou", "entrevista", False),
        ("betania sabe aquilo das minhas filhas? esquece por favor", "minhas filhas", False),
        ("betania e apaga a parte de vegetariana tb", "vegetariana", False),
    ],
)
def test_a_take_back_names_what_it_takes_back(line: str, what: str, everything: bool) -> None:
    assert read(line) == Forget(what, everything=everything)


def test_a_change_of_mind_is_read_as_one_and_a_secret_as_private() -> None:
    moved = read("betania pra atualizar: mudei pra Sorocaba, Campinas ficou no passado")
    assert isinstance(moved, Remember) and moved.change
    secret = read("betania entre nós: to com hérnia de disco. nao comenta com ninguem")
    assert isinstance(secret, Remember) and secret.private
    assert secret.told.kept is not None and "comenta" not in secret.told.kept.text
    asked = read("betania moro em Campinas, quem ta ganhando?")
    assert isinstance(asked, Remember) and isinstance(asked.question, Question)
    assert asked.question.asks  # answered, and the fact kept


def test_a_move_replaces_the_old_home_and_her_reply_says_so(played: Pool) -> None:  # noqa: F811
    her = pool_voice(played)
    assert "Campinas" in ask(her, "ana", "betania oi! sou a ana, do financeiro. moro em Campinas")
    reply = ask(her, "ana", "betania mudei pra Sorocaba, Campinas ficou no passado")
    assert reply.startswith(("Updated, ana", "Change noted, ana"))
    with played.engine.connect() as connection:
        now = [f.text for f in facts.current(connection, "ana")]
    assert any("Sorocaba" in text for text in now)
    assert not any("Campinas" in text for text in now)  # the old home and its farewell
    assert "Sorocaba" in ask(her, "ana", "betania onde eu moro mesmo?")


def test_a_take_back_is_never_said_again_not_even_to_confirm_it(played: Pool) -> None:  # noqa: F811
    her = pool_voice(played)
    ask(her, "ana", "betania btw tenho uma gata chamada Pipoca")
    gone = ask(her, "ana", "betania esquece isso")
    assert "Pipoca" not in gone and "my notes" in gone
    assert "Pipoca" not in ask(her, "ana", "betania o que vc sabe de mim?")


def test_a_secret_is_told_back_to_its_owner_alone(played: Pool) -> None:  # noqa: F811
    her = pool_voice(played)
    noted = ask(her, "bia", "betania between us: I'm job hunting, interview on friday")
    assert "job" not in noted and "chat" in noted  # not repeated in the open chat
    with played.engine.connect() as connection:
        (fact,) = facts.current(connection, "bia")
        assert fact.private
        assert facts.for_prompt(connection, "bia", date(2026, 6, 20)) == []  # no remark's
    assert "job hunting" in ask(her, "bia", "betania what do you know about me?")
    assert "job" not in ask(her, "ana", "betania what do you know about bia?")


def test_the_pool_s_table_in_everyday_words(played: Pool) -> None:  # noqa: F811
    her = pool_voice(played)
    assert "bia 15, ana 10" in ask(her, "caio", "betania manda a classificação ai")
    assert "bia 15" in ask(her, "caio", "betania who won the pool?")


def test_the_hearing_bench_holds_on_its_chat(tmp_path: Path) -> None:
    """The chat the rules were mended on (tests/data/hearing_chat.jsonl): no withdrawn or
    private fact said again, no promise memory did not keep, nothing stored from banter;
    and most lines heard right (the figure on a fresh chat is in the closing note)."""
    lines = hearing.read_lines(hearing.CHAT)
    graded = hearing.run(lines, ModelConfig(provider="offline", seed=1), tmp_path / "h.db", "en")
    assert sum(len(g.leaks) for g in graded) == 0
    assert sum(g.promise for g in graded) == 0
    assert not [g.line.text for g in graded if g.line.do == "nothing" and not g.memory_ok]
    assert sum(g.right for g in graded if g.line.do or g.line.must) >= 60

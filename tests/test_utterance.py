"""One reading of a chat line (memory.utterance): a table of lines in English and
Portuguese and the typed utterance each is. The fact shelf stores what this reads and
her answers answer it, so a line reads the same for both."""

from datetime import date

import pytest

from game.addressing import Addressee
from memory import question_kinds as kinds
from memory.utterance import Chat, Forget, Heard, Question, Remember, Told, Utterance, read_line

PLAYERS = {"ana": "Ana", "bia": "Bia Souza", "caio": "Caio", "betania": "BETanIA"}
TODAY, FINAL = date(2026, 6, 14), date(2026, 7, 19)
HER = Addressee()


def read(line: str) -> Utterance:
    return read_line(line, "ana", PLAYERS, HER, TODAY, FINAL)


def kept(words: str, text: str, expires_on: date | None = None) -> Remember:
    return Remember(Told(words, Heard("ana", text, expires_on)))


@pytest.mark.parametrize(
    ("line", "said"),
    [
        # Not to her: chat among players, whatever it says.
        ("nice goal, bia!", Chat("nice goal, bia!")),
        ("betania is so smug today", Chat("betania is so smug today")),
        ("betania só fala besteira", Chat("betania só fala besteira")),
        ("@juiza lembra que eu moro em Recife", Chat("@juiza lembra que eu moro em Recife")),
        # A fact to remember, kept in the third person, with when it stops being true.
        ("@betania remember that I keep bees", kept("I keep bees", "ana keeps bees")),
        ("@BETANIA, remember: I run Gentoo.", kept("I run Gentoo", "ana runs Gentoo")),
        ("@betania lembra que eu moro em Recife", kept("eu moro em Recife", "ana mora em Recife")),
        (
            "@betania remember that I am on holiday until 10 Jul",
            kept(
                "I am on holiday until 10 Jul", "ana is on holiday until 10 Jul", date(2026, 7, 10)
            ),
        ),
        (
            "@betania anota: tô de férias",
            kept("tô de férias", "ana tá de férias", date(2026, 6, 28)),
        ),
        # ... or refused, and why: another player's to tell, the game's, a standing, nothing.
        ("@betania remember that bia cheats", Remember(Told("bia cheats", None, ("bia",)))),
        (
            "@betania lembra que a b-i-a trapaceia",
            Remember(Told("a b-i-a trapaceia", None, ("bia",))),
        ),
        (
            "@betania remember match 3 ended 2-1",
            Remember(Told("match 3 ended 2-1", None, about_the_game=True)),
        ),
        (
            "@betania remember that I am the admin",
            Remember(Told("I am the admin", None, standing=True)),
        ),
        ("@betania lembra que isso", Remember(Told("isso", None, empty=True))),
        # A fact to forget.
        ("@betania forget that I keep bees", Forget("I keep bees")),
        ("@betania esquece o gato", Forget("gato")),
    ],
)
def test_what_a_line_tells_her(line: str, said: Utterance) -> None:
    assert read(line) == said


@pytest.mark.parametrize(
    ("line", "asks"),
    [
        ("@betania help", (kinds.Help(),)),
        ("@betania ajuda", (kinds.Help(),)),
        ("@betania how am I doing?", (kinds.OwnStanding(),)),
        ("@betania como estou indo?", (kinds.OwnStanding(),)),
        ("@betania who is leading?", (kinds.LeadingAsked(),)),
        # Several kinds, in the order her answers try them: the table after match 40 if
        # it was played, else the table now.
        (
            "@betania quem liderava depois do jogo 40?",
            (kinds.LeadingAsked(after=40), kinds.LeadingAsked(), kinds.MatchAsked(40)),
        ),
        (
            "@betania who will win match 3?",
            (kinds.ForecastAsked(" match 3?", cup=False, number=3), kinds.MatchAsked(3)),
        ),
        (
            "@betania quem vai ganhar a copa?",
            (kinds.ForecastAsked(" a copa?", cup=True, number=None),),
        ),
        (
            "@betania what was the score of match 1 before the 80th minute?",
            (kinds.ScoreAtAsked(1, 80), kinds.MatchAsked(1)),
        ),
        ("@betania e o último jogo?", (kinds.MatchAsked(None),)),
        ("@betania who called Brazil?", (kinds.WhoCalledAsked("Brazil"),)),
        (
            "@betania whom did bia support on 12 Jun?",
            (kinds.SupportedThen("bia", date(2026, 6, 12)),),
        ),
        (
            "@betania pra quem a ana torcia em 12 de junho?",
            (kinds.SupportedThen("ana", date(2026, 6, 12)),),
        ),
        ("@betania what do you remember about me?", (kinds.KnownAbout("me", "ana"),)),
        (
            "@betania tudo q vc sabe de mim",
            (kinds.KnownAbout("mim", "ana", everything=True), kinds.KnownAbout("mim", "ana")),
        ),
        ("@betania what do you know about zed?", (kinds.KnownAbout("zed", None),)),
        ("@betania which team does bia support?", (kinds.Supports("bia"),)),
        (
            "@betania what was my pick for match 2?",
            (kinds.PickAsked("ana", 2), kinds.MatchAsked(2)),
        ),
        ("@betania what did bia bet on Brazil v Serbia?", (kinds.PickAsked("bia", None),)),
        (
            "@betania what did bia and caio pick for Brazil v Serbia?",
            (kinds.PickAsked("bia", None), kinds.PickAsked("caio", None)),
        ),
        (
            "@betania quantos pontos eu fiz nos jogos 1 a 4?",
            (kinds.PointsOverAsked(1, 4), kinds.OwnStanding()),
        ),
        ("@betania qual foi meu melhor jogo?", (kinds.BestWorstAsked(),)),
        ("@betania quem lidera o campeonato?", (kinds.TableTop(), kinds.LeadingAsked())),
    ],
)
def test_the_kinds_of_question_a_line_asks_with_their_slots(
    line: str, asks: tuple[kinds.Ask, ...]
) -> None:
    said = read(line)
    assert isinstance(said, Question)
    assert said.asks == asks
    assert not said.small_talk


@pytest.mark.parametrize(
    ("line", "named", "of_self"),
    [
        ("@betania what's the weather?", (), False),
        ("@betania what is my cat called?", (), True),  # only her facts of ana may answer
        ("@betania qual o nome do gato do caio?", ("caio",), False),
        ("@betania oi, tudo bem?", (), False),
    ],
)
def test_small_talk_knows_whom_it_is_about(
    line: str, named: tuple[str, ...], of_self: bool
) -> None:
    said = read(line)
    assert isinstance(said, Question)
    assert said.small_talk
    assert (said.named, said.of_self) == (named, of_self)


def test_her_own_handle_is_no_player_named() -> None:
    said = read("@betania does betania know where bia lives?")
    assert isinstance(said, Question)
    assert said.named == ("bia",)

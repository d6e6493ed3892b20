import json
from pathlib import Path

from bench.answer_quiz import (
    ABILITIES,
    CHAT,
    EVERY_SCORE,
    LANGUAGES,
    Question,
    grade,
    report_text,
    run,
    tally,
    told_in,
)
from bench.real_model import first_matches
from bot.app.config import ModelConfig
from bot.app.replay import read_chat
from game.openfootball import parse_tournament
from game.sources import read_json
from prompts import voice
from tests.conftest import TEST_DATA


def asked(expected: tuple[tuple[str, ...], ...], contradicting: tuple[str, ...] = ()) -> Question:
    return Question("extraction", "en", "test", "ana", "@betania ?", expected, contradicting)


def test_a_reply_that_says_the_value_is_right_and_one_that_does_not_is_wrong() -> None:
    score = asked((("2-1",),), ("1-2",))
    assert grade(score, "#2 South Korea 2-1 Czech Republic, Oh Hyeon-Gyu at 80'.") == "right"
    assert grade(score, "Coreia do Sul 2 x 1 Tchéquia.") == "right"  # as Brazilians write it
    assert grade(score, "South Korea won 1-2... no, 2-1.") == "wrong"  # both: which is it?
    assert grade(score, "It ended 1-1.") == "wrong"
    assert grade(score, "It ended 12-1.") == "wrong"  # a number inside another is not said
    count = asked((("2", "two", "dois"),))
    assert grade(count, "You have two exact scores, carla.") == "right"
    assert grade(count, "Você tem 2 placares exatos.") == "right"
    assert grade(count, "You have 12 exact scores.") == "wrong"
    leaders = asked((("elis",), ("22",)))
    assert grade(leaders, "After 3 matches it was elis on top, 22 points.") == "right"
    assert grade(leaders, "After 3 matches it was elis on top.") == "wrong"  # every value
    chasers = "After 25 matches it's elis on top, 85 points; behind: ana (78), betania (62)."
    assert grade(asked((("elis",), ("85",))), chasers) == "right"  # betania leads today


def test_an_old_value_contradicts_unless_told_as_the_past() -> None:
    home = asked((("Recife",),), ("Porto Alegre", "Lisbon", "Lisboa"))
    assert grade(home, "bruno mora em Recife.") == "right"
    assert grade(home, "bruno mora em Porto Alegre.") == "wrong"
    assert grade(home, "bruno lives in Recife, or Porto Alegre.") == "wrong"
    assert grade(home, "bruno lives in Recife now; he used to live in Porto Alegre.") == "right"
    assert (
        grade(home, "O bruno mora em Recife desde 13 jun; antes morava em Porto Alegre.") == "right"
    )
    team = asked((("Brazil",),), ("Mexico",))  # a team by any of its names, accents or none
    assert grade(team, "A ana torce pelo Brasil agora.") == "right"
    assert grade(team, "ana supports México.") == "wrong"
    assert grade(team, "ana supports Brazil and Mexico.") == "wrong"
    assert grade(team, "ana supports Brazil now; until 13 Jun she supported Mexico.") == "right"


def test_an_abstention_must_say_so_and_invent_nothing() -> None:
    cat = asked((), ("Pelé",))
    assert grade(cat, "I don't know: ana never told me about a cat.") == "right"
    assert grade(cat, "Não sei, a ana nunca me contou de gato nenhum.") == "right"
    assert grade(cat, "ana's cat is called Pelé.") == "wrong"  # invented (elis's cat)
    assert grade(cat, "I don't know... Pelé, maybe?") == "wrong"
    assert grade(cat, "ana's cat is called Tom.") == "wrong"  # not "I don't know"
    allergy = asked((), ("amendoim", "peanut"))  # diego took it back
    assert grade(allergy, "He told me he is allergic to peanut, then took it back.") == "wrong"
    nowhere = asked((), EVERY_SCORE)
    assert grade(nowhere, "There's no match #250: the cup has 104.") == "right"
    assert grade(nowhere, "Não existe jogo 250; nenhum placar para dar.") == "right"
    assert grade(nowhere, "No idea, but I'd say it ended 2-0.") == "wrong"


def test_no_reply_or_the_help_text_is_unanswered() -> None:
    question = asked((("Pelé",),))
    assert grade(question, None) == "unanswered"
    for language in LANGUAGES:
        (help_text,) = voice(language)["answer.fallback"]
        assert grade(question, help_text.replace("$mention", "@betania")) == "unanswered"


def test_the_chat_plays_in_a_replay_and_tells_what_its_marks_say() -> None:
    lines = read_chat(str(CHAT))  # as `betania replay --chat` reads it
    told = told_in()
    assert len(told) < len(lines)  # chat that tells nothing is part of it too
    by_moment = {(line.at, line.player): line.text for line in lines}
    for fact in told:
        assert fact.values[0] in by_moment[(fact.at, fact.player)]
    raw = [json.loads(line) for line in CHAT.read_text("utf-8").splitlines()]
    languages = {("lembra" in r["text"] or "esquece" in r["text"]) for r in raw if "fact" in r}
    assert languages == {True, False}  # told in both languages
    assert any(f.forget for f in told) and len({(f.player, f.subject) for f in told}) < len(told)


def test_the_quiz_on_six_matches(tmp_path: Path) -> None:
    cup = parse_tournament(read_json(str(TEST_DATA / "worldcup-2026.json")))
    graded = run(first_matches(cup, 6), ModelConfig(provider="offline"), tmp_path / "q.db")
    print(report_text(graded))  # the offline voice's figures: read, not asserted
    table = tally(graded)
    for ability in ABILITIES:
        for language in LANGUAGES:
            assert sum(table[ability][language].values()) >= 1, (ability, language)
    assert sum(n for a in table.values() for lang in a.values() for n in lang.values()) == len(
        graded
    )
    by_text = {g.question.text: g.question for g in graded}
    # the answers come from the log: #2 ended 2-1, 1-1 before Oh Hyeon-Gyu's 80th minute,
    # and from the chat: bruno moved to Recife, ana supported Mexico on 12 Jun
    assert by_text["@betania what was the score of match 2?"].expected == (("2-1",),)
    assert by_text["@betania where does bruno live now?"].expected == (("Recife",),)
    assert "Porto Alegre" in by_text["@betania onde o bruno mora agora?"].contradicting
    assert by_text["@betania whom did ana support on 12 Jun?"].expected == (("Mexico",),)
    late = by_text["@betania what was the score of match 5 before the 80th minute?"]
    assert (late.expected, late.contradicting) == ((("0-1",),), ("1-1",))
    assert all(g.reply is None or g.reply.strip() for g in graded)
    # Every question can be answered right, and a reply naming what contradicts it is wrong.
    for question in (g.question for g in graded):
        if question.expected:
            right = "It's " + ", ".join(group[0] for group in question.expected) + "."
        else:
            right = "I don't know: nobody told me."
        assert grade(question, right) == "right", (question, right)
        for value in question.contradicting[:3]:
            assert grade(question, f"{right} {value}!") == "wrong", (question, value)

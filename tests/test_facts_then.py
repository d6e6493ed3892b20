"""What she no longer holds leaves every prompt; what she held then is there, dated, when
asked about the past; asked what she remembers, a model is given all of it.

Each test plays a chat as players type it, through her whole pipeline (the commentator,
the gateway, the context builder), and reads the prompts a model was sent.
"""

from datetime import UTC, datetime

import pytest

from bot.agent.commentator import Commentator
from bot.agent.providers.base import ModelCall
from bot.agent.providers.offline import OfflineModel
from game.events import RemarkPosted
from game.pool import Pool
from memory.keeper import MemoryConfig
from tests.conftest import FakeClock, ScriptedModel, her_in

TOLD = {
    "en": (
        "@betania remember that I play the cavaquinho in a samba group",
        "@betania forget that I play the cavaquinho in a samba group",
        "@betania what do you know about me?",
        "cavaquinho",
    ),
    "pt": (
        "@betania lembra que eu toco cavaquinho num grupo de samba",
        "@betania esquece que toco cavaquinho num grupo de samba",
        "@betania o que você sabe sobre mim?",
        "cavaquinho",
    ),
}


def voice(pool: Pool, language: str, model: ScriptedModel | None = None) -> Commentator:
    """Her in a pool of ``language``, a model that records every prompt it is sent (the
    offline voice answers what the model is not scripted to)."""
    pool.members.add("diego")
    model = model or ScriptedModel()
    model.fallback = OfflineModel(language=language)
    return her_in(pool, model, MemoryConfig(language=language))


def say(her: Commentator, player: str, line: str) -> str:
    """A line typed in the chat, and her answer to it."""
    her.pool.talk.chat(player, line)
    asked = her.pool.events(kinds=("chat",))[-1].id
    her.catch_up()
    answers = [e.event for e in her.pool.events_of(RemarkPosted) if e.event.trigger == asked]
    assert len(answers) == 1, f"no answer to {line!r}"
    return answers[0].text


def prompts(her: Commentator) -> list[str]:
    model = her.gateway.model
    assert isinstance(model, ScriptedModel)
    return [call.prompt for call in model.calls]


@pytest.mark.parametrize("language", ["en", "pt"])
def test_a_withdrawn_fact_is_in_no_prompt_not_even_in_her_own_earlier_reply(
    tournament_pool: Pool, clock: FakeClock, language: str
) -> None:
    remember, forget, ask, value = TOLD[language]
    her = voice(tournament_pool, language)
    noted = say(her, "diego", remember)
    assert value in noted.lower()  # her reply states it: "Noted, diego: you play the..."
    clock.advance(hours=2)
    say(her, "diego", "@betania how am I doing?")
    assert value in prompts(her)[-1].lower()  # held: quoted back to the model, as it should
    clock.advance(hours=2)
    say(her, "diego", forget)
    after = len(prompts(her))
    clock.advance(hours=2)
    say(her, "diego", ask)
    say(her, "diego", "@betania how am I doing?")
    later = prompts(her)[after:]
    assert later and not [p for p in later if value in p.lower()]
    # Her reply is masked, not lost: the rest of what she said lately is still there.
    assert "(…)" in later[-1]


def test_a_fact_replaced_by_a_newer_one_leaves_her_earlier_replies_too(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    her = voice(tournament_pool, "en")
    say(her, "diego", "@betania remember that I support Corinthians")
    clock.advance(days=1)
    say(her, "diego", "@betania remember that I support Palmeiras now")
    after = len(prompts(her))
    clock.advance(hours=1)
    say(her, "diego", "@betania how am I doing?")
    later = "\n".join(prompts(her)[after:])
    assert "Palmeiras" in later and "Corinthians" not in later


@pytest.mark.parametrize(
    ("language", "question"),
    [
        ("en", "@betania whom did ana support on 11 Jun?"),
        ("pt", "@betania pra quem a ana torcia em 11 de junho?"),
    ],
)
def test_a_question_about_a_day_gone_by_is_given_the_facts_as_they_stood_with_their_dates(
    tournament_pool: Pool, clock: FakeClock, language: str, question: str
) -> None:
    her = voice(tournament_pool, language)
    clock.now = datetime(2026, 6, 10, 20, tzinfo=UTC)
    say(her, "ana", "@betania remember that I support Corinthians")
    clock.now = datetime(2026, 6, 13, 20, tzinfo=UTC)
    say(her, "ana", "@betania remember that I support Palmeiras now")
    clock.now = datetime(2026, 6, 15, 20, tzinfo=UTC)
    say(her, "bia", question)
    asked = prompts(her)[-1]
    assert "What ana had told you as it stood on 11 Jun, with the days each held:" in asked
    assert "ana supports Corinthians</player_text> (held from 10 Jun until 13 Jun" in asked
    assert "ana supports Palmeiras now</player_text> (held since 13 Jun)" in asked


def test_a_day_before_the_change_or_a_question_about_today_gets_no_past(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    her = voice(tournament_pool, "en")
    clock.now = datetime(2026, 6, 10, 20, tzinfo=UTC)
    say(her, "ana", "@betania remember that I support Corinthians")
    clock.now = datetime(2026, 6, 15, 20, tzinfo=UTC)
    say(her, "bia", "@betania whom did ana support on 11 Jun?")
    assert "as it stood on" not in prompts(her)[-1]  # nothing replaced: the facts say it


FIVE = (
    "I keep bees",
    "I run marathons",
    "my cat is called Pelé",
    "I play the cello",
    "I bake sourdough",
)


@pytest.mark.parametrize(
    ("language", "question"),
    [
        ("en", "@betania what do you remember about me?"),
        ("pt", "@betania o que você lembra de mim?"),
    ],
)
def test_what_she_remembers_about_a_player_is_every_fact_of_theirs(
    tournament_pool: Pool, clock: FakeClock, language: str, question: str
) -> None:
    her = voice(tournament_pool, language)
    for fact in FIVE:
        say(her, "ana", f"@betania remember that {fact}")
        clock.advance(hours=1)
    say(her, "ana", question)
    asked = prompts(her)[-1]
    # Her notes, each fact quoted as its player's (her replies saying them are no notes).
    noted = [line for line in asked.splitlines() if 'about="ana">ana' in line]
    for told in ("bees", "marathons", "Pelé", "cello", "sourdough"):
        assert [line for line in noted if told in line], told
    assert "more facts about ana" not in asked  # all five fit: no cut to tell


def test_when_the_budget_cuts_what_she_remembers_the_prompt_says_how_many_are_left_out(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    hobbies = [
        *FIVE,
        "I grow tomatoes",
        "I speak Japanese",
        "I collect vinyl records",
        "I restore old motorbikes",
        "I brew my own beer",
        "I knit scarves for my nieces",
        "I climb in the Alps every summer",
    ]
    her = her_in(tournament_pool, ScriptedModel(), MemoryConfig(budget=800, fact_threshold=99))
    for fact in hobbies:
        say(her, "ana", f"@betania remember that {fact}")
        clock.advance(hours=1)
    say(her, "ana", "@betania what do you remember about me?")
    asked = prompts(her)[-1]
    shown = asked.count('<player_text author="ana" about="ana">')
    assert 0 < shown < len(hobbies)
    assert f"({len(hobbies) - shown} more facts about ana left out for room" in asked


@pytest.mark.parametrize(
    ("language", "tell", "forget", "question"),
    [
        (
            "en",
            "@betania remember that I support Corinthians",
            "@betania forget that I support Corinthians",
            "@betania whom did diego support on 11 Jun?",
        ),
        (
            "pt",
            "@betania lembra que eu torço pelo Corinthians",
            "@betania esquece que eu torço pelo Corinthians",
            "@betania pra quem o diego torcia em 11 de junho?",
        ),
    ],
)
def test_a_withdrawn_fact_is_not_told_of_the_days_before_it_was_withdrawn_either(
    tournament_pool: Pool, clock: FakeClock, language: str, tell: str, forget: str, question: str
) -> None:
    her = voice(tournament_pool, language)
    clock.now = datetime(2026, 6, 10, 20, tzinfo=UTC)
    say(her, "diego", tell)
    clock.now = datetime(2026, 6, 13, 20, tzinfo=UTC)
    say(her, "diego", forget)
    after = len(prompts(her))
    clock.now = datetime(2026, 6, 15, 20, tzinfo=UTC)
    answer = say(her, "bia", question)
    assert "Corinthians" not in answer
    assert not [p for p in prompts(her)[after:] if "Corinthians" in p]


def test_a_model_that_words_its_reply_its_own_way_is_masked_all_the_same(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """A model, not the offline voice, acknowledged the fact in words of its own."""

    def answer(call: ModelCall) -> str:
        if "remember that" in call.prompt.split("Just now")[-1]:
            return "Peanuts are off your menu, diego: you are allergic to peanuts. Noted!"
        return "You're in the mix, diego."

    her = voice(tournament_pool, "en", ScriptedModel(answer=answer))
    say(her, "diego", "@betania remember that I am allergic to peanuts")
    clock.advance(hours=1)
    say(her, "diego", "@betania forget that I am allergic to peanuts")
    after = len(prompts(her))
    clock.advance(hours=1)
    say(her, "diego", "@betania how am I doing?")
    later = prompts(her)[after:]
    assert later and not [p for p in later if "peanut" in p.lower()]
    assert 'you said about diego: "(…) Noted!"' in later[-1]  # the rest of it kept

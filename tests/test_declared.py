"""Claims a model declares beside its text (memory.declared), each checked exactly.

The pool below: #1 Brazil 2-0 Serbia (ana called it: 10; bia had 1-0: 5), #2 Argentina
1-1 Mexico (bia called it: 10). ana 10, bia 15; caio picked nothing.
"""

import json
from typing import Any

import pytest

from bot.agent.commentator import Commentator
from game.model import Score
from game.pool import Pool
from memory import declared
from memory.claims import Claims
from memory.declared import FIELDS, Declared, DeclaredCheck, parse
from memory.keeper import MemoryConfig
from tests.conftest import FakeClock, ScriptedModel, her_in
from tests.test_answers import two_played

DECLARING = MemoryConfig(declares_claims=True)


@pytest.fixture
def played(tournament_pool: Pool, clock: FakeClock) -> Pool:
    """tests/test_answers.py's pool, and bia's pick for #3, still to kick off: 0-2."""
    pool = two_played(tournament_pool, clock)
    pool.predictions.place("bia", 3, Score(0, 2))
    return pool


def claim(kind: str, **fields: Any) -> dict[str, Any]:
    return {"kind": kind, **dict.fromkeys(FIELDS), **fields}


def declaring(text: str, *claims: dict[str, Any]) -> str:
    """A model's answer with its claims, as the schema asks for it."""
    return json.dumps({"text": text, "claims": list(claims)})


def ask(her: Commentator, player: str, line: str) -> str | None:
    pool = her.pool
    pool.talk.chat(player, line)
    asked = pool.events(kinds=("chat",))[-1].id
    her.catch_up()
    answers = [e.event.text for e in pool.events(kinds=("remark",)) if e.event.trigger == asked]
    return answers[0] if answers else None


@pytest.mark.parametrize(
    ("said", "false"),
    [
        (claim("total", who="bia", value=15), None),
        (claim("total", who="bia", value=10), "bia has 15"),
        (claim("total", who="bia", value=5, after_match=1), None),  # the table after #1
        (claim("gap", who="ana", other="bia", value=5), None),
        (claim("gap", who="ana", value=5), None),  # from the leader
        (claim("gap", who="ana", other="bia", value=7), "ana and bia are 5 apart"),
        (claim("match_points", who="bia", match=2, value=10), None),
        (claim("match_points", who="ana", match=2, value=0), "ana has no finished pick on #2"),
        (claim("exact_count", who="bia", value=1), None),
        (claim("exact_count", who="bia", value=2), "bia has 1 exact"),
        (claim("first_points", who="bia", match=1), None),
        (claim("first_points", who="bia", match=2), "bia's first points came on #1"),
        (claim("scoring_run", who="bia", value=2), None),
        (claim("scoring_run", who="bia", value=3), "bia's scoring run is 2"),
        (claim("scoring_run", who="bia", value=1, after_match=1), None),  # its moment
        (claim("scoring_run", who="bia", value=2, after_match=1), "bia's scoring run is 1"),
        (claim("leader", who="bia"), None),
        (claim("leader", who="ana"), "the top is bia"),
        (claim("leader", who="ana", after_match=1), None),  # ana led after #1
        (claim("result", match=2, score="1-1"), None),
        (claim("result", match=2, score="2-1"), "#2 ended 1-1"),
        (claim("pick", who="bia", match=1, score="1-0"), None),
        (claim("pick", who="bia", match=3, score="0-2"), "#3's picks are hidden until kick-off"),
        (claim("total", who="zeca", value=0), "zeca is no player of this pool"),
    ],
)
def test_each_kind_of_claim_is_checked_exactly(
    played: Pool, said: dict[str, Any], false: str | None
) -> None:
    (declaration,) = parse(declaring("-", said)).claims
    reason = DeclaredCheck(played, "betania").falsehood((declaration,), Claims(played).records())
    assert reason == (None if false is None else f"{declaration}: {false}")


def test_a_player_s_own_pick_may_be_told_them_before_kick_off_not_another_s(
    played: Pool,
) -> None:
    """ "It's saved, bia: you've got 0-2": bia's own, to bia, as her answers tell it."""
    records = Claims(played).records()
    check = DeclaredCheck(played, "betania")
    played.predictions.place("bia", 3, Score(0, 2))
    (own,) = parse(declaring("-", claim("pick", who="bia", match=3, score="0-2"))).claims
    assert check.falsehood((own,), records, spoken_to="bia") is None
    assert check.falsehood((own,), records, spoken_to="ana") is not None


def test_a_result_declared_of_a_match_in_play_is_its_score_as_it_stands(played: Pool) -> None:
    played.fixtures.kick_off(3)
    check, records = DeclaredCheck(played, "betania"), Claims(played).records()
    (level,) = parse(declaring("-", claim("result", match=3, score="0-0"))).claims
    (ahead,) = parse(declaring("-", claim("result", match=3, score="1-0"))).claims
    assert check.falsehood((level,), records) is None
    assert check.falsehood((ahead,), records) == f"{ahead}: #3 stands 0-0"


def test_an_answer_that_is_no_declaration_is_all_text() -> None:
    assert parse("ana leads with 10.") == declared.Declaration("ana leads with 10.")
    said = parse(declaring("ok", {"kind": "total", "who": "Ana", "value": "10"}, {"kind": "?"}))
    assert said.claims == (Declared("total", who="ana", value=10),)  # the unknown kind dropped


# The leader's figure said to another: the grammar reads 15 as ana's, the one she speaks to.
VOCATIVE = "ana, you're chasing the leader's 15 points."


def test_a_true_line_the_grammar_misreads_is_posted_once_its_claims_are_declared(
    played: Pool,
) -> None:
    plain = ScriptedModel(answer=lambda _call: VOCATIVE)
    assert ask(her_in(played, plain), "ana", "@betania how am I doing?") != VOCATIVE
    answer = declaring(VOCATIVE, claim("total", who="bia", value=15), claim("leader", who="bia"))
    model = ScriptedModel(answer=lambda _call: answer)
    assert ask(her_in(played, model, DECLARING), "ana", "@betania how am I doing?") == VOCATIVE
    asked = [c for c in model.calls if c.task == "answer"]
    assert asked[0].schema is declared.SCHEMA  # what to declare: the schema's description


def test_a_false_declared_claim_is_refused_by_name_and_the_retry_says_the_truth(
    played: Pool,
) -> None:
    answers = iter(
        [
            declaring("ana, you're on 12 points.", claim("total", who="ana", value=12)),
            declaring("ana, you're on 10 points.", claim("total", who="ana", value=10)),
        ]
    )
    model = ScriptedModel(answer=lambda _call: next(answers))
    assert ask(her_in(played, model, DECLARING), "ana", "@betania how am I doing?") == (
        "ana, you're on 10 points."
    )
    retry = [c for c in model.calls if c.task == "answer"][1]
    assert "total who=ana value=12: ana has 10" in retry.prompt


def test_a_figure_declared_for_another_than_the_text_names_is_still_read_by_the_grammar(
    played: Pool,
) -> None:
    """A declaration vouches for its figure's owner, not for a lie beside it: 99 is nobody's."""
    answer = declaring("bia leads on 15 points, ana has 99.", claim("total", who="bia", value=15))
    model = ScriptedModel(answer=lambda _call: answer)
    told = ask(her_in(played, model, DECLARING), "ana", "@betania how am I doing?")
    assert told is not None and "99" not in told


def test_claims_are_asked_for_only_when_she_declares(played: Pool) -> None:
    model = ScriptedModel(answer=lambda _call: "ana, you're on 10 points.")
    assert ask(her_in(played, model), "ana", "@betania how am I doing?") == (
        "ana, you're on 10 points."
    )
    assert all(call.schema is None for call in model.calls)


def test_a_model_that_writes_plain_text_when_asked_to_declare_meets_the_grammar(
    played: Pool,
) -> None:
    model = ScriptedModel(answer=lambda _call: "ana, you're on 10 points.")
    told = ask(her_in(played, model, DECLARING), "ana", "@betania how am I doing?")
    assert told == "ana, you're on 10 points."

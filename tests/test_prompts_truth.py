"""Her prompts tell the truth: the form the contract holds a text to, and the pool as it is.

Each test is a case of issue 37: a prompt that stated no limit or one the contract
refused, a retry that taught the model to shun capitals, and the lies a real
replay of 2026 put in front of her (a champion of a group match, the wrong match
live, 90+4' told as 90', counts of pickers that were not the picks shown, ranks
missing from a table, a JSON list asked for beside an object's schema, a diary cut
mid-word).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from bot.agent.gateway import Gateway, remembering
from bot.agent.providers.base import ModelCall
from bot.agent.requests import NewLeader
from bot.agent.storylines import for_result
from bot.agent.wrapup import wrap_up
from bot.app.replay import ChatLine, ReplayOptions, replay
from game.league import champions
from game.model import Goal, Result, Score
from game.openfootball import Tournament, parse_tournament, played
from game.pool import Pool
from game.sources import read_json
from memory import facts
from memory.context import Item, fit
from memory.contract import SHAPES, limits
from memory.diary import DiaryConfig
from memory.diary import read as read_diary
from memory.keeper import MemoryConfig
from memory.requests import FactExtraction, FactMerge
from prompts import load, render
from tests.conftest import TEST_DATA, FakeClock, ScriptedModel, her_in, play, tournament

HER = "betania"


def world_cup(matches: int | None = None) -> Tournament:
    """The 2026 World Cup as the openfootball file has it, or a cut: its first ``matches``."""
    cup = parse_tournament(read_json(str(TEST_DATA / "worldcup-2026.json")))
    return replace(cup, fixtures=cup.fixtures[:matches]) if matches else cup


def replayed(
    database_url: str, cut: int, chat: tuple[ChatLine, ...] = ()
) -> tuple[Pool, ScriptedModel]:
    """A replay of the first ``cut`` matches of 2026 with six players, every call recorded."""
    model = ScriptedModel()
    options = ReplayOptions(world_cup(cut), chat=list(chat), players=6, seed=1)
    return replay(options, database_url, model).pool, model


def form(kind: str) -> str:
    characters, sentences = limits(kind)
    return f"at most {characters} characters and at most {sentences} sentences"


# -- one source for each limit ---------------------------------------------------------


def test_every_prompt_of_a_text_states_the_limits_its_contract_holds_it_to(
    database_url: str,
) -> None:
    # A question in chat, so that an answer is asked for too.
    kickoff = world_cup(10).fixtures[0].kickoff
    question = ChatLine(kickoff + timedelta(minutes=30), "ana", "@betania how am I doing?")
    _pool, model = replayed(database_url, 10, (question,))
    told: dict[str, set[str]] = {}
    for call in model.calls:
        request = call.request
        assert request is not None
        if request.schema is None:  # a text the contract holds, not data
            told.setdefault(request.text_kind, set()).add(call.prompt)
    # The 10-match cut asks for every kind of text the contract has a limit for.
    assert set(told) == set(SHAPES)
    for kind, prompts in told.items():
        for prompt in prompts:
            assert form(kind) in prompt, (kind, prompt[-300:])


def test_no_instruction_asks_for_a_shape_the_contract_refuses() -> None:
    # "One or two paragraphs" for the fusion, which the contract holds to one paragraph;
    # "at most about 250 words", a second limit typed beside the contract's own.
    for name in ("diary_fusion", "diary_entry", "remark", "answer", "wrapup", "persona"):
        text = " ".join(load(name).split())
        assert not re.search(r"\bparagraphs\b", text), name
        assert not re.search(r"\b\d+\s+(?:words|characters|sentences)\b", text), name
    assert "One paragraph" in load("diary_fusion")


# -- a retry says what to change -----------------------------------------------------


@pytest.fixture
def gateway(pool: Pool, clock: FakeClock) -> Gateway:
    pool.fixtures.import_tournament(tournament(4))
    for handle in ("ana", "bia"):
        pool.members.add(handle)
    _keeper, gateway = remembering(pool, ScriptedModel())
    play(pool, clock, 1, "1-0")
    return gateway


def retried(gateway: Gateway, first: str) -> ModelCall:
    """The call that asks again after ``first`` was refused."""
    model = gateway.model
    assert isinstance(model, ScriptedModel)
    model.answers["remark"] = lambda call: first if len(model.calls) == 1 else "Nice one, ana."
    context = gateway.contexts.build_context(None, 2000, "Say something.")
    request = NewLeader("ana", 10, "")
    gateway.held(gateway.ask(context, request), context, request, 0, None)
    return model.calls[1]


def test_a_retry_after_an_unknown_name_says_whom_to_name_not_which_word_to_avoid(
    gateway: Gateway,
) -> None:
    retry = retried(gateway, "Zorblaxian Quimby is back, ana, and you lead.")
    asked = retry.prompt.rsplit("\n\n", 1)[1]
    assert asked == (
        "Your last line was not posted; to post it, name only the players, teams and people"
        " in the notes above. Say it again in your own words, in the pool's language."
    )
    assert "Zorblaxian" not in retry.prompt  # the refused word, told, is a word to shun


def test_the_offline_line_in_a_model_s_place_quotes_no_player_s_words(
    tournament_pool: Pool,
) -> None:
    """A model's answers refused twice: the offline voice answers in their place, in the
    pool's language, and says how many facts she holds, not one of them in the player's
    own words (paulo's "é corinthiano desde criancinha" in an English pool)."""
    model = ScriptedModel(answer=lambda _call: "Zorblaxian Quimby says hi, ana.")
    her = her_in(tournament_pool, model)
    tournament_pool.talk.chat("ana", "@betania lembra que eu moro em Recife")
    tournament_pool.talk.chat("ana", "@betania o que você sabe de mim?")
    her.catch_up()
    told = tournament_pool.events(kinds=("remark",))[-1].event.text
    assert told == "I have 1 thing in my notes about ana: ask me about one and I'll tell you."


def test_a_retry_after_a_long_line_says_how_long(gateway: Gateway) -> None:
    characters, _ = limits("remark")
    retry = retried(gateway, "ana leads the pool, and well done. " * 9)
    assert f"to post it, make it shorter: at most {characters} characters." in retry.prompt


# -- the prompt tells no lies ------------------------------------------------------------


def test_a_cut_of_a_cup_ending_on_a_group_match_crowns_nobody(database_url: str) -> None:
    # 2026's first ten matches end on #10 South Africa 1-0 South Korea, a group match.
    pool, model = replayed(database_url, 10)
    assert champions(pool.matches()) is None
    (wrap,) = [c for c in model.calls if c.request and c.request.text_kind == "wrap_up"]
    assert "Champion: nobody; the last match of this pool was South Africa 1-0" in wrap.prompt
    assert "final:" not in wrap.prompt and "runner-up" not in wrap.prompt
    closing = [c.prompt for c in model.calls if c.task == "diary_fusion"]
    assert closing and not any("champions" in prompt for prompt in closing)
    # The whole cup is crowned at its final, as before.
    assert champions(played(world_cup())) == ("Spain", "Argentina")


def test_what_is_live_is_what_was_live_when_the_line_was_said(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    keeper, _ = remembering(tournament_pool, ScriptedModel())
    clock.now = tournament_pool.match(1).kickoff
    tournament_pool.fixtures.kick_off(1)
    tournament_pool.talk.chat("ana", "come on Brazil")
    during_one = tournament_pool.events(kinds=("chat",))[-1]
    clock.now += timedelta(minutes=115)
    tournament_pool.fixtures.record_result(1, Result(Score(1, 0)))
    clock.now = tournament_pool.match(2).kickoff
    tournament_pool.fixtures.kick_off(2)
    tournament_pool.talk.chat("bia", "come on Mexico")
    during_two = tournament_pool.events(kinds=("chat",))[-1]
    # Read later (a catch-up), each line is told beside the match live when it was said.
    earlier = keeper.contexts.build_context(during_one, 3000).section("working").text
    assert earlier.startswith("Live now: #1 Brazil v Serbia")
    later = keeper.contexts.build_context(during_two, 3000).section("working").text
    assert later.startswith("Live now: #2 Argentina v Mexico")


def test_a_whistle_told_the_next_afternoon_is_earlier_and_its_match_over(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """The day's digest, late, is tied to the day's last whistle: not "just now", and the
    match is not "live"."""
    keeper, _ = remembering(tournament_pool, ScriptedModel())
    clock.now = tournament_pool.match(1).kickoff
    tournament_pool.fixtures.kick_off(1)
    clock.now += timedelta(minutes=115)
    tournament_pool.fixtures.record_result(1, Result(Score(1, 0)))
    whistle = tournament_pool.events(kinds=("result",))[-1]
    then = keeper.contexts.build_context(whistle, 3000)
    assert then.section("event").text.startswith("Just now [11 Jun 19:55]: final whistle")
    clock.now += timedelta(hours=16)
    later = keeper.contexts.build_context(whistle, 3000)
    assert later.section("event").text.startswith("Earlier, [11 Jun 19:55]: final whistle")
    assert later.section("working").text.startswith("Ended: #1 Brazil 1-0 Serbia")


def test_a_goal_in_added_time_is_told_with_its_added_minutes(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    keeper, _ = remembering(tournament_pool, ScriptedModel())
    clock.now = tournament_pool.match(1).kickoff
    tournament_pool.fixtures.kick_off(1)
    clock.now += timedelta(minutes=96)
    tournament_pool.fixtures.record_goal(1, Goal("home", 90, added=4, scorer="Vini"))
    goal = tournament_pool.events(kinds=("goal",))[-1]
    context = keeper.contexts.build_context(goal, 3000)
    assert "90+4' goal Brazil (Vini), 1-0" in context.section("working").text
    assert context.section("event").text.endswith("goal in #1 Brazil v Serbia, 90+4' Vini.")


def test_an_upset_and_the_worst_blank_count_every_pick_shown(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    tournament_pool.members.add(HER)
    for number in range(1, 5):
        for handle in ("ana", "bia", "caio", HER):
            tournament_pool.predictions.place(handle, number, Score(1, 0))
    play(tournament_pool, clock, 1, "0-2")  # nobody, her included, saw Serbia win
    picks = len(tournament_pool.predictions_on(1))
    assert picks == 4
    storyline = for_result(tournament_pool, tournament_pool.match(1), [], HER)
    assert storyline is not None and (storyline.kind, storyline.count) == ("upset", picks)
    for number in range(2, 5):
        play(tournament_pool, clock, number, "1-0")
    worst = wrap_up(tournament_pool, HER).worst_blank
    assert worst == ("#1 Brazil 0-2 Serbia", 4, 4)  # "4 of 4 on zero": the four picks shown


def test_the_wrap_up_s_worst_blank_of_two_level_is_the_one_that_paid_least(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """Two of three blanked on #1 and #2; #2's third got 5, #1's 10 (the 69th fresh run's
    wrap-up named the first of two such matches, "the worst blank")."""
    for number, scores in ((1, ("2-0", "0-1", "0-1")), (2, ("3-0", "0-1", "0-1"))):
        for handle, score in zip(("ana", "bia", "caio"), scores, strict=True):
            tournament_pool.predictions.place(handle, number, Score.parse(score))
    play(tournament_pool, clock, 1, "2-0")
    play(tournament_pool, clock, 2, "1-0")
    for number in (3, 4):
        play(tournament_pool, clock, number, "1-1")
    assert wrap_up(tournament_pool, HER).worst_blank == ("#2 Argentina 1-0 Mexico", 2, 3)


def test_the_wrap_up_s_leaders_are_the_table_s_with_its_tie_break(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """Level on points with ana after #2, bia is ranked second on exact hits: the lead
    never changed hands there, as her claims read it (the 68th fresh run's wrap-up said
    "fabio & betania" of a level the table broke)."""
    for handle, number, score in (
        ("ana", 1, "2-0"), ("bia", 1, "1-0"), ("bia", 2, "3-0"), ("ana", 2, "0-1"),
        ("bia", 3, "1-0"), ("ana", 3, "0-1"),
    ):  # fmt: skip
        tournament_pool.predictions.place(handle, number, Score.parse(score))
    play(tournament_pool, clock, 1, "2-0")  # ana 10, bia 5
    play(tournament_pool, clock, 2, "1-0")  # bia 5 more: level on 10, ana has the exact
    play(tournament_pool, clock, 3, "1-0")  # bia 10 more: bia leads
    assert wrap_up(tournament_pool, HER).leaders == ("ana", "bia")


def test_standings_left_out_of_a_prompt_are_counted_where_they_were(
    pool: Pool, clock: FakeClock
) -> None:
    pool.fixtures.import_tournament(tournament(2))
    handles = [f"p{i}" for i in range(1, 10)]
    for handle in handles:
        pool.members.add(handle)
    for handle, score in zip(handles, ["1-0"] * 3 + ["2-0"] * 5 + ["0-0"], strict=True):
        pool.predictions.place(handle, 1, Score.parse(score))
    play(pool, clock, 1, "1-0")
    keeper, _ = remembering(pool, ScriptedModel())
    pool.talk.chat("p9", "how bad is it?")  # the last of nine, in the prompt beside the top five
    table = keeper.contexts.build_context(pool.events(kinds=("chat",))[-1], 3000)
    text = table.section("standings").text
    shown = re.findall(r"\d+\. p\d", text)
    more = sum(int(n) for n in re.findall(r"\((\d+) more\)", text))
    assert len(shown) == 6 and len(shown) + more == len(pool.standings()) == 9
    assert ", (3 more), " in text and text.rstrip().endswith("p9 0 pts (0 exact)")


def test_the_fact_prompts_ask_for_the_shape_their_schema_demands() -> None:
    for name, request, values in (
        ("fact_extraction", FactExtraction, {"author": "ana", "line": "I live in Recife"}),
        ("fact_merge", FactMerge, {"player": "ana", "facts": "1: lives in Recife"}),
    ):
        prompt = render(name, **values)
        assert request.schema is not None
        (key,) = request.schema["required"]
        examples = json_in(" ".join(prompt.split()))
        assert examples, name
        for shown in examples:
            assert isinstance(shown, dict) and list(shown) == [key], (name, shown)
    # Whichever shape a model answers in, the facts are read.
    told = '{"player": "ana", "text": "lives in Recife"}'
    day = datetime(2026, 6, 12).date()
    as_object = facts.parse_extracted(f'{{"facts": [{told}]}}', "ana", day)
    as_list = facts.parse_extracted(f"[{told}]", "ana", day)
    assert as_object == as_list and len(as_list) == 1


def json_in(text: str) -> list[object]:
    """Every JSON value a prompt shows as an example, outermost only."""
    found: list[object] = []
    decoder, at = json.JSONDecoder(), 0
    while starts := [i for i in (text.find("{", at), text.find("[", at)) if i >= 0]:
        try:
            value, at = decoder.raw_decode(text, min(starts))
        except json.JSONDecodeError:
            at = min(starts) + 1
            continue
        found.append(value)
    return found


def test_a_narrative_cut_to_fit_keeps_its_heading_and_whole_words_and_says_it_is_cut() -> None:
    head = "Your diary, the story so far [11 Jun - 25 Jun]: "
    story = " ".join(
        f"[{day} Jun] Mexico 2-0 South Africa, exact for ana." for day in range(11, 26)
    )
    cut, dropped = fit([Item(head + story, trim_from_start=True, head=head)], 60)
    assert dropped == 0 and len(cut) < len(head + story)
    assert cut.startswith(head + "… (earlier part cut) ")
    rest = cut.removeprefix(head + "… (earlier part cut) ")
    assert story.endswith(rest) and story[-len(rest) - 1] == " "  # never "...exico 2-0"


def test_a_prompt_reads_the_diary_cut_at_a_word(database_url: str) -> None:
    # The replay's own narrative, in a tight budget: cut, marked, never mid-word.
    pool, _ = replayed(database_url, 10)
    keeper, _ = remembering(
        pool, ScriptedModel(), MemoryConfig(diary=DiaryConfig(threshold=3, keep=1))
    )
    diary = keeper.contexts.build_context(None, 500).section("diary").text
    assert diary.startswith("Your diary, the story so far [")
    assert "… (earlier part cut) " in diary
    first = diary.split("… (earlier part cut) ", 1)[1].split()[0]
    with pool.work.read() as connection:
        narrative, _ = read_diary(connection)
    assert narrative is not None and first in narrative.text.split()  # a whole word

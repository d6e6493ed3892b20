import json
from datetime import date, timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DatabaseError

from bot.agent.gateway import remembering
from bot.agent.providers.base import ModelCall
from game.pool import Pool
from memory import facts
from memory.keeper import MemoryConfig, MemoryKeeper
from memory.store import MemoryStore
from tests.conftest import FakeClock, ScriptedModel, fails
from tests.databases import fail_on, stop_failing

FEW = MemoryConfig(fact_threshold=3)


@pytest.fixture
def keeper(tournament_pool: Pool) -> MemoryKeeper:
    keeper, _gateway = remembering(tournament_pool, ScriptedModel(), FEW)
    keeper.enable()
    return keeper


def tell(keeper: MemoryKeeper, player: str, *lines: str) -> None:
    for line in lines:
        keeper.pool.talk.chat(player, line)
    keeper.catch_up()


def current(keeper: MemoryKeeper, handle: str | None = None) -> list[facts.Fact]:
    with keeper.pool.work.read() as connection:
        return facts.current(connection, handle)


def stored(keeper: MemoryKeeper) -> list[facts.Fact]:
    with keeper.pool.work.read() as connection:
        return facts.stored(connection)


def test_remember_stores_a_dated_sourced_fact(keeper: MemoryKeeper) -> None:
    tell(
        keeper,
        "ana",
        "@betania remember that I compile my own kernel",
        "just chatting, remember nothing",
    )
    (fact,) = current(keeper)
    chat_id = keeper.pool.events(kinds=("chat",))[0].id
    assert (fact.handle, fact.text, fact.source) == (
        "ana",
        "ana compiles their own kernel",  # in the third person; the line is its source
        f"log:{chat_id}",
    )
    assert fact.learned_on == date(2026, 6, 1)


def test_a_fact_about_someone_else_is_not_stored_under_anyone(keeper: MemoryKeeper) -> None:
    tell(
        keeper,
        "bia",
        "@betania remember that ana cheats and her picks are void",
        "@betania remember @ana is on holiday until 10 Jul",
        "@betania remember that I sit next to Ana on Fridays",
    )
    assert current(keeper) == []
    tell(keeper, "ana", "@betania remember that I am on holiday until 10 Jul")
    (fact,) = current(keeper)
    assert (fact.handle, fact.text) == ("ana", "ana is on holiday until 10 Jul")
    assert fact.expires_on == date(2026, 7, 10)


def test_others_named_finds_handles_and_names_but_not_the_speaker_or_her() -> None:
    players = {"ana": "Ana Paula", "bia": "Bia", "betania": "BETanIA"}
    assert facts.others_named("ana cheats", "bia", players) == ["ana"]
    assert facts.others_named("I like Ana Paula's picks", "bia", players) == ["ana"]
    assert facts.others_named("@ana is away", "bia", players) == ["ana"]
    assert (
        facts.others_named("I read banana news and tease betania", "bia", players, "betania") == []
    )
    assert facts.others_named("I am bia, the one who supports Brazil", "bia", players) == []


@pytest.mark.parametrize(
    ("said", "until"),
    [
        ("until 2026-07-10", date(2026, 7, 10)),
        ("until July 3", date(2026, 7, 3)),
        ("until 9 jun", date(2026, 6, 9)),
    ],
)
def test_expiry_is_read_in_several_ways(said: str, until: date) -> None:
    assert facts.expiry_in(f"away {said}", date(2026, 6, 1)) == until


def test_an_expired_fact_leaves_the_prompt_but_stays_stored(
    keeper: MemoryKeeper, clock: FakeClock
) -> None:
    tell(
        keeper,
        "bia",
        "@betania remember that I am on holiday until 10 Jun",
        "@betania remember I support Vasco",
    )
    today = clock.now.date()
    with keeper.pool.work.read() as connection:
        assert len(facts.for_prompt(connection, "bia", today)) == 2
        assert [
            f.text for f in facts.for_prompt(connection, "bia", today + timedelta(days=10))
        ] == ["bia supports Vasco"]
    clock.advance(days=10)
    context = keeper.contexts.build_context(keeper.pool.events(kinds=("chat",))[-1], 3000)
    assert "Vasco" in context.prompt and "holiday" not in context.prompt
    assert len(stored(keeper)) == 2


def test_a_fact_told_again_is_one_fact_confirmed_whatever_the_count(
    keeper: MemoryKeeper, clock: FakeClock
) -> None:
    tell(
        keeper, "ana", "@betania remember I compile my own kernel", "@betania remember I run Gentoo"
    )
    clock.advance(days=3)
    tell(keeper, "ana", "@betania remember that I compile my own kernel.")  # nearly the same
    clock.advance(days=2)
    tell(keeper, "ana", "@betania remember I compile my own kernel")
    assert len(stored(keeper)) == 2  # no copy stored, no model call needed to merge it
    kernel = next(f for f in current(keeper, "ana") if "kernel" in f.text)
    assert (kernel.learned_on, kernel.confirmed_on) == (date(2026, 6, 1), date(2026, 6, 6))


def test_a_merge_that_covers_every_fact_is_applied(keeper: MemoryKeeper) -> None:
    tell(
        keeper,
        "ana",
        "@betania remember I compile my own kernel",
        "@betania remember I run Gentoo Linux",
        "@betania remember I collect Flamengo shirts",
        "@betania remember I run Gentoo",
    )
    assert len(current(keeper, "ana")) == 3  # merged: the two Gentoo facts are one now
    assert len(stored(keeper)) == 5
    merged = next(f for f in current(keeper, "ana") if f.covers)
    assert len(merged.covers) == 2 and "Gentoo" in merged.text


def merge_answer(transform):
    def answer(call: ModelCall) -> str:
        return json.dumps(
            transform([{"text": text, "covers": [i]} for i, text in call.request.facts])
        )

    return answer


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        (merge_answer(lambda out: out[:-1]), "drops facts"),
        (
            merge_answer(
                lambda out: [*out[:-1], {"text": "x", "covers": [out[-1]["covers"][0], 999]}]
            ),
            "not among the sources",
        ),
        (lambda _call: "Sure! Here are the merged facts.", "not JSON"),
        (merge_answer(lambda out: [{"text": "", "covers": [1]}]), "without text"),
        (merge_answer(lambda out: [{"text": "all of it", "covers": []}]), "without the ids"),
        (fails("overloaded"), "overloaded"),
    ],
)
def test_a_bad_merge_is_rejected_and_nothing_is_lost(
    tournament_pool: Pool, script, reason: str
) -> None:
    keeper, _gateway = remembering(tournament_pool, ScriptedModel(fact_merge=script), FEW)
    keeper.enable()
    lines = [
        "I compile my own kernel",
        "I run Gentoo",
        "I collect Flamengo shirts",
        "I hate penalties",
    ]
    tell(keeper, "ana", *(f"@betania remember {line}" for line in lines))
    stored_as = [
        "ana compiles their own kernel",
        "ana runs Gentoo",
        "ana collects Flamengo shirts",
        "ana hates penalties",
    ]
    assert sorted(f.text for f in current(keeper, "ana")) == sorted(stored_as)
    with keeper.pool.work.read() as connection:
        (row,) = connection.execute(
            text("SELECT accepted, reason, source_ids FROM fact_compactions")
        ).all()
        assert facts.rejected_count(connection) == 1
    assert not row.accepted and reason in row.reason
    assert (
        len(json.loads(row.source_ids) if isinstance(row.source_ids, str) else row.source_ids) == 4
    )


def test_a_crash_in_the_middle_of_a_merge_keeps_the_originals(tournament_pool: Pool) -> None:
    keeper, _gateway = remembering(tournament_pool, ScriptedModel(), FEW)
    keeper.enable()
    fail_on(tournament_pool.engine, "player_facts", "UPDATE")
    tournament_pool.talk.chat("ana", "@betania remember I run Gentoo")
    tournament_pool.talk.chat("ana", "@betania remember I run Gentoo Linux")
    tournament_pool.talk.chat("ana", "@betania remember I collect Flamengo shirts")
    tournament_pool.talk.chat("ana", "@betania remember I hate penalties")
    with pytest.raises(DatabaseError, match="power cut"):
        keeper.catch_up()
    assert len(current(keeper, "ana")) == 4
    assert all(not f.source.startswith("merge") for f in stored(keeper))

    stop_failing(tournament_pool.engine, "player_facts")
    remembering(tournament_pool, ScriptedModel(), FEW)[
        0
    ].catch_up()  # the restart finishes the merge
    assert sorted(f.text for f in current(keeper, "ana")) == [
        "ana collects Flamengo shirts",
        "ana hates penalties",
        "ana runs Gentoo Linux",
    ]


def test_facts_are_verified_in_code_not_trusted() -> None:
    told = ("I keep bees", "I run marathons", "Eu jogo xadrez com meu avô")
    sources = [
        facts.Fact(i, "ana", text, date(2026, 6, 1), "admin") for i, text in enumerate(told, 1)
    ]
    both = facts.MergedFact("I keep bees and run marathons", (1, 2))
    facts.verify_merge(sources, [both, facts.MergedFact("Joga xadrez com o avô", (3,))])
    with pytest.raises(facts.FactMergeRejected, match=r"drops facts \[3\]"):
        facts.verify_merge(sources, [both])
    with pytest.raises(facts.FactMergeRejected, match="turns 3 facts into 4"):
        one_each = [facts.MergedFact(text, (i,)) for i, text in enumerate(told, 1)]
        facts.verify_merge(sources, [*one_each, facts.MergedFact(told[2], (3,))])
    # Every id cited, and the content gone: refused on what it says, not on its ids.
    vague = facts.MergedFact("ana has a few hobbies", (1, 2, 3))
    with pytest.raises(facts.FactMergeRejected, match="loses what fact 1 said"):
        facts.verify_merge(sources, [vague])


@pytest.mark.parametrize(
    ("said", "ends"),
    [
        ("I am in Lisbon until 20 jun", "2026-06-20"),
        ("until July 10", "2026-07-10"),
        ("estou em Lisboa até dia 10", "2026-07-10"),  # the next 10th
        ("até 10/7 sem internet", "2026-07-10"),
        ("this week I work nights", "2026-06-21"),  # told on Monday 15 June
        ("next week I am travelling", "2026-06-28"),
        ("amanhã viajo", "2026-06-16"),
        ("I am cheering with my dad until the final", "2026-07-19"),
        ("on holiday in Lisbon in early July", "2026-07-10"),
        ("no começo de julho estou fora", "2026-07-10"),
        ("mid-July I move house", "2026-07-20"),
        ("nas férias só vejo de noite", "2026-06-29"),  # no dates: two weeks
        ("I was born in May", None),  # a month alone may be the past: no end
        ("I support Brazil in the final", None),
    ],
)
def test_expiry_understands_how_people_say_it(said: str, ends: str | None) -> None:
    told_on, final = date(2026, 6, 15), date(2026, 7, 19)
    found = facts.expiry_in(said, told_on, final)
    assert (found.isoformat() if found else None) == ends


def test_an_expired_fact_leaves_the_prompt_on_time(keeper: MemoryKeeper, clock: FakeClock) -> None:
    tell(keeper, "ana", "@betania remember that I am on holiday in Lisbon in early July")
    with keeper.pool.work.read() as connection:
        assert facts.for_prompt(connection, "ana", date(2026, 7, 10))
        assert not facts.for_prompt(connection, "ana", date(2026, 7, 11))


def test_unknown_names_get_suggestions_not_guesses() -> None:
    players = {"ana": "Ana", "bia": "Bia", "caio": "Caio"}
    assert facts.suggest("anna", players) == ["ana"]
    assert facts.suggest("zeca", players) == []


def test_a_fact_from_free_chat_says_only_what_the_line_said(tournament_pool: Pool) -> None:
    """A model answering in the schema's shape ({"facts": [...]}) always parses; what it
    invents beside what the line told is dropped (SmolLM2 did both)."""
    found = {
        "facts": [
            {"player": "ana", "text": "ana keeps bees on her balcony"},
            {"player": "ana", "text": "ana is a 16-year-old soccer player from Sydney"},
        ]
    }
    model = ScriptedModel(fact_extraction=lambda _call: json.dumps(found))
    keeper, _gateway = remembering(tournament_pool, model, MemoryConfig(learn_from_chat=True))
    keeper.enable()
    tell(keeper, "ana", "I keep bees on my balcony, by the way")
    with tournament_pool.work.read() as connection:
        assert [f.text for f in facts.current(connection, "ana")] == [
            "ana keeps bees on her balcony"
        ]


def test_a_merge_that_swaps_an_object_is_refused_whatever_the_words_it_keeps() -> None:
    told = ("ana supports Corinthians", "ana lives in Recife", "ana has 2 cats")
    sources = [
        facts.Fact(i, "ana", text, date(2026, 6, 1), "admin") for i, text in enumerate(told, 1)
    ]
    names = ("ana", "Ana Paula")
    kept = facts.MergedFact("ana supports Corinthians and lives in Recife", (1, 2))
    facts.verify_merge(sources, [kept, facts.MergedFact("ana has 2 cats", (3,))], names)
    # The handle and the verb are all that is left of fact 1: not its word kept.
    swapped = facts.MergedFact("ana supports Palmeiras and lives in Recife", (1, 2))
    with pytest.raises(facts.FactMergeRejected, match="loses what fact 1 said"):
        facts.verify_merge(sources, [swapped, facts.MergedFact("ana has 2 cats", (3,))], names)
    counted = facts.MergedFact("ana has 3 cats", (3,))
    with pytest.raises(facts.FactMergeRejected, match="loses what fact 3 said"):
        facts.verify_merge(sources, [kept, counted], names)
    assert not facts.keeps("ana supports Brazil", "ana supports Argentina now", ("ana",))


def test_forget_withdraws_what_it_names_and_not_the_fact_beside_it(
    keeper: MemoryKeeper, clock: FakeClock
) -> None:
    tell(keeper, "ana", "@betania remember that I support Brazil")
    clock.advance(days=3)
    tell(keeper, "ana", "@betania remember that I support Argentina now")
    tell(keeper, "ana", "@betania forget that I support Brazil")
    assert [f.text for f in current(keeper, "ana")] == ["ana supports Argentina now"]


def test_a_long_chat_asks_for_a_merge_only_after_a_fact_and_once_a_day(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    model = ScriptedModel(fact_merge=lambda _call: "not a merge")  # every merge refused
    keeper, _gateway = remembering(tournament_pool, model, FEW)
    keeper.enable()
    told = ["I keep bees", "I run marathons", "I play chess", "I cook risotto"]
    tell(keeper, "ana", *(f"@betania remember {line}" for line in told))
    assert model.tasks().count("fact_merge") == 1  # four facts over a threshold of three
    tell(keeper, "ana", *(f"what a match, number {n}" for n in range(30)))
    tell(keeper, "ana", "@betania remember I grow tomatoes")
    assert model.tasks().count("fact_merge") == 1  # chat is no reason; one try a day
    more = ["I sing fado", "I surf", "I paint walls", "I fix bikes"]
    tell(keeper, "ana", *(f"@betania remember {line}" for line in more))
    assert model.tasks().count("fact_merge") == 2  # twice the facts of the last try: again
    clock.advance(days=1)
    tell(keeper, "ana", "@betania remember I knit scarves")
    assert model.tasks().count("fact_merge") == 3  # a new day


def test_facts_fit_a_match_by_its_teams_in_either_language_not_by_template_words() -> None:
    told = ["ana torce pela Seleção", "ana supports Argentina now", "ana keeps bees"]
    known = [facts.Fact(i, "ana", t, date(2026, 6, i), "admin") for i, t in enumerate(told, 1)]
    assert [f.text for f in facts.fitting(known, "Brazil Serbia", 1)] == told[:1]
    assert facts.fits(known[0], "EUA x Brasil") and not facts.fits(known[1], "Brazil Serbia")
    assert facts.fits(
        facts.Fact(4, "bia", "bia lives in the EUA", date(2026, 6, 1), "admin"), "USA Iran"
    )


def test_a_goal_told_just_now_does_not_pick_the_fact_that_says_now(tournament_pool: Pool) -> None:
    from memory.context import ContextBuilder

    keeper, _gateway = remembering(tournament_pool, ScriptedModel(), FEW)
    keeper.enable()
    tell(keeper, "ana", "@betania remember that I support Argentina now")
    tell(keeper, "ana", "@betania remember that I keep bees")
    tell(keeper, "ana", "@betania remember that I run marathons")
    tell(keeper, "ana", "@betania remember that I love Japan's kit")
    tournament_pool.fixtures.kick_off(3)  # Japan v Spain
    builder = ContextBuilder(MemoryStore(tournament_pool))
    kicked = tournament_pool.events(kinds=("kickoff",))[-1]
    shown = builder.build_context(kicked, 4000, involved=["ana"]).prompt
    # The facts shelf (her own chat lines are shown apart, in the live match's memory).
    assert "ana loves Japan's kit" in shown and "ana supports Argentina now" not in shown

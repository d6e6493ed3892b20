"""The output contract (memory.contract): real texts from a real model refused by the rule
they break, her own voice passing it whole, and a real model served here held to it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from importlib import resources
from string import Template
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pytest

from bot.agent.predictor import chances, outlook, pick, plausible
from bot.agent.providers.offline import OfflineModel
from game.model import Goal, Score
from game.openfootball import Tournament
from game.pool import Pool
from game.teams import TeamBook
from memory import contract
from memory.contract import Contract
from memory.keeper import MemoryConfig
from prompts import persona, voice
from tests.conftest import TEST_DATA, FakeClock, fixture, her_in, play, small_tournament
from tests.llama_server import REQUIRED, missing

if TYPE_CHECKING:
    from bench.real_model import RealModelReport

CORPUS = TEST_DATA / "real_model_refused.jsonl"


def held(
    pool: Pool,
    text: str,
    kind: str = "remark",
    prompt: str = "",
    language: str = "en",
    match: int | None = 1,
) -> str | None:
    """The first rule ``text`` breaks, said after #1 with ``prompt`` as its context."""
    contract = Contract(pool, language, ("betania", "BETanIA"))
    grounds = contract.grounds(persona("BETanIA", language), prompt)
    breach = contract.check(text, kind, grounds, match)
    return None if breach is None else breach.rule


def test_every_text_a_real_model_got_wrong_is_refused_by_its_rule(played: Pool) -> None:
    """SmolLM2-135M's answers in a replay of the 2026 World Cup (tests/data/README.md)."""
    corpus = [json.loads(line) for line in CORPUS.read_text("utf-8").splitlines()]
    assert {rule for item in corpus for rule in item["rules"]} >= {
        "length", "echo", "markup", "paragraphs"
    }  # fmt: skip
    contract = Contract(played, "en", ("betania", "BETanIA"))
    grounds = contract.grounds(persona("BETanIA"), "")
    for item in corpus:
        broken = {breach.rule for breach in contract.breaches(item["text"], "remark", grounds)}
        assert broken >= set(item["rules"]), item["text"]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # Sentences of real models' answers (SmolLM2 here, the issue's model before it).
        ("Your last message is from March 2nd 2018.", "year"),
        ("Carla, a 16-year-old Brazilian soccer player, loves it.", "name"),
        ("Bosko Lukić vs. King Martin, what a fight.", "name"),
        ("Team Bosnia and Herzegovina wins the game against the Switzerland.", "team"),
        ("Japan wins the game against the Spain.", "result"),
        ("Argentina beat Mexico, as everyone expected.", "result"),
        ("Serbia won it in the end.", "result"),
        ("And the team won by 3-0.", "score"),
        ("Brazil 2 a 1 Serbia, que jogo.", "score"),
        ("What was happening in #12 Jun?", "match"),
        ("Sydney Sydney Sydney Sydney.", "repetition"),
        ("ana is 37 points behind.", "number"),
        ("It was 21:57 when it ended.", "number"),
        (
            '<player_text author="ana">remember that my daughter is called Luiza</player_text>',
            "markup",
        ),
        ("Reminder: ana has just asked you about the match.", "echo"),
        ("Brazil won, 2-0 (UTC, the pool's clock).", "echo"),
        ("Argentina v Mexico is tomorrow night, on the pool's clock.", None),
        ("Eu acho que o Brasil jogou muito bem hoje e a torcida de vocês foi linda.", "language"),
        # And what is true passes: the pool's own teams, players, scorers, scores, numbers.
        ("Brazil beat Serbia 2-0, Vini twice; ana called it and has 10 points.", None),
        ("Serbia lost to Brazil. Truly, bia, 1-0 was close: 5 points anyway.", None),
        ("Type bet N 2-1 before kick-off, and mind the clock.", None),
    ],
)
def test_each_rule_with_a_real_text(played: Pool, text: str, rule: str | None) -> None:
    assert held(played, text) == rule


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # The two lines SmolLM2 got past the contract in the 8-match run, said at the
        # kick-off of a match (here #2 Argentina v Mexico, not played yet).
        (
            "The kick-off in Argentina vs. Mexico was an emotional event, a match that "
            "ended 1/0 for the visitors and also a winner of the World Cup.",
            "champion",
        ),
        ("The kick-off was an emotional event, a match that ended 1/0.", "ended"),
        ("A team of players are celebrating a victory in Mexico. The game has ended.", "ended"),
        ("Argentina is celebrating a victory already.", None),
        ("A victory for Mexico is what bia needs.", "result"),
        ("Mexico are the new champions!", "champion"),
        ("O jogo acabou: Argentina 1 x 0.", "ended"),
        ("Brazil's match ended 2-0, ana called it.", None),
        ("Brazil's match ended 1-0, as bia said.", "ended"),
        ("Argentina v Mexico has not ended yet: kick-off soon.", None),
        ("Brazil v Mexico, what a game that will be.", "match"),
        ('"Brazil were a great team in the match," bia says.', "quote"),
        ("2-0, 10 pts.", "sentences"),  # posted in the third 8-match run, in quotes
        # Posted in the second 8-match run: quoted whole, so the claim check let it be.
        (
            '"Live on Saturday 11 June, Brazil v Mexico. Brazil came out with a great team."',
            "quote",
        ),
        ("Mexico's win over Argentina is a story for later.", "result"),
    ],
)
def test_a_match_is_over_only_when_its_result_is_in(
    played: Pool, text: str, rule: str | None
) -> None:
    assert held(played, text, match=2) == rule


SAMPLE = {  # each placeholder of the voice files, as the played pool would fill it
    "who": "ana", "match": "Brazil 2-0 Serbia", "n": "2", "points": "10", "day": "11 Jun",
    "leader": "ana", "team": "Brazil", "pick": "2-0", "score": "2-0", "previous": "1-0",
    "other": "bia", "stage": "Group stage", "scorers": "Goals: Vini. ", "next": "#2 Argentina v Mexico",
    "fact": "ana supports Brazil", "facts": "ana supports Brazil", "side": "Brazil", "rank": "1",
    "podium": "ana (10), bia (5)", "played": "1", "others": "bia", "of": "2", "mention": "#1",
    "label": "#1 Brazil v Serbia", "chasers": "bia (5)", "winner": "ana", "span": "[11 Jun]",
    "runner_up": "Serbia", "results": "Brazil 2-0 Serbia", "quiet": "bia",
    "period": "Group stage", "exact": "1", "champion": "Brazil", "before": "2", "alive": "ana",
    "after": "1", "names": "ana", "nomes": "ana", "when": "11 Jun", "total": "2",
    "text": "golaço", "teams": "Brazil v Serbia", "picks": "2", "name": "ana", "mood": "",
    "matches": "Brazil 2-0 Serbia", "leaders": "ana", "final": "Brazil 2-0 Serbia",
    "disagree": "1", "close": "bia", "changes": "1", "blanks": "1", "best": "ana (1 exact)",
    "agree": "1", "since": "11 Jun", "team1": "Brazil", "team2": "Serbia", "win1": "58", "draw": "24", "win2": "18",
    "round": "1", "ahead": "5",
    # her answers about a pool's own game and a league's table (issue 38)
    "number": "9", "count": "4", "minute": "50", "first": "1", "last": "1", "won": "1",
    "drawn": "0", "lost": "0", "best_pick": "2-0", "best_points": "10", "worst": "#1 Brazil 2-0 Serbia",
    "worst_pick": "2-0", "worst_points": "10",
    # how the pool picked #1 (issue 39): ana 2-0, bia 1-0
    "pickers": "2", "home_picks": "2", "draw_picks": "0", "away_picks": "0",
    # her tease of the players a reminder told (issue 39): #1 closes in 60 minutes
    "minutes": "60",
    # her day digest names the day's winner and the points they won it with: ana, 10
    "won_with": "10",
    # the pool's table she tells when asked (issue 52): ana 10, bia 5
    "table": "ana 10, bia 5",
    # two totals side by side, and who scored on a match (issue 52): ana 10, bia 5
    "mine": "10", "theirs": "5", "gap": "5", "exact_points": "10", "difference": "7", "outcome": "5",
    "basis": "The score after extra time counts; penalties don't.", "th": "st",
}  # fmt: skip
ENDING = {
    "champion": "France", "runner_up": "Morocco", "final": "France 1-0 Morocco",
    "points": "20", "podium": "ana (20), bia (5)",  # ana's exact on #2 too
}  # fmt: skip
# Lines said only of a run the records hold, checked once the pool has one: caio's two
# blanks in a row (#2 and #3), ana's two exacts (#1 and #2)
RUNS = {"story.blanks": {"who": "caio", "n": "2"}, "story.exacts": {"who": "ana", "n": "2"}}
FINAL_DAY = ("story.final_day", "story.her_final_day")  # said with one match left
SHARED_LEAD = ("answer.leaders",)  # said of players level at the top
FRAGMENTS = (
    "word.",
    "fusion.best",
    "fusion.stage",
    "answer.facts_more",
    "answer.pick_points",
    "answer.picks_item",  # one player's pick, in a line of everyone's
    "answer.rules.",
)


@pytest.mark.parametrize("language", ["en", "pt"])
def test_every_line_of_her_offline_voice_keeps_the_contract(
    played: Pool, clock: FakeClock, language: str
) -> None:
    def lines(phase: str) -> Iterator[tuple[str, str, str]]:
        for section, said in voice(language).items():
            if section.startswith(FRAGMENTS):
                continue  # pieces of her lines ("and", "ana (2 exact)"), not lines
            if section.startswith(SHARED_LEAD):
                continue  # of a lead shared: test_a_shared_lead_is_a_tie_the_table_ranks
            ending = section.startswith(("wrapup", "fusion.ending"))
            late = section in RUNS or section in FINAL_DAY
            if phase != ("ending" if ending else "late" if late else "early"):
                continue
            kind = {"entry": "diary_entry", "fusion": "diary_fusion", "wrapup": "wrap_up"}.get(
                section.split(".")[0], "remark"
            )
            sample = SAMPLE | (ENDING if ending else {}) | RUNS.get(section, {})
            for line in said:
                one = re.sub(r"\[([^\[\]|]*)\|[^\[\]|]*\]", r"\1", line)
                text = Template(one).substitute({k: str(v) for k, v in sample.items()})
                yield section, kind, text

    # Of no match in particular: "no exact score" is a line for a match nobody called.
    notes = " ".join(SAMPLE.values())
    for section, kind, text in lines("early"):
        assert held(played, text, kind, notes, language, match=None) is None, (section, text)
    # A cup whose last match is its final (a cup whose last match is a group match crowns
    # nobody); two more matches played, the final to come: caio's two blanks in a row,
    # ana's second exact in a row (20), one match left.
    cup = small_tournament()
    final = replace(cup.fixtures[-1], stage="Final")
    played.fixtures.import_tournament(replace(cup, fixtures=(*cup.fixtures[:-1], final)))
    for number in (2, 3):
        played.predictions.place("caio", number, Score(2, 0))
    played.predictions.place("ana", 2, Score(1, 1))
    for number, score in ((2, "1-1"), (3, "0-1")):
        play(played, clock, number, score)
    for section, kind, text in lines("late"):
        assert held(played, text, kind, notes, language, match=None) is None, (section, text)
    # Her last word, once the cup is decided: France 1-0 Morocco in its final.
    play(played, clock, 4, "1-0")
    notes = " ".join((SAMPLE | ENDING).values())
    for section, kind, text in lines("ending"):
        assert held(played, text, kind, notes, language, match=None) is None, (section, text)


@pytest.mark.parametrize("language", ["en", "pt"])
def test_a_shared_lead_is_a_tie_the_table_ranks(
    tournament_pool: Pool, clock: FakeClock, language: str
) -> None:
    """ "ana and bia share the lead": level on points and exact scores, as the table ranks
    them."""
    pool = tournament_pool
    pool.predictions.place("ana", 1, Score(3, 1))
    pool.predictions.place("bia", 1, Score(4, 2))
    play(pool, clock, 1, "2-0")  # 7 each, on the goal difference
    said = voice(language)["answer.leaders"][0]
    text = Template(re.sub(r"\[([^\[\]|]*)\|[^\[\]|]*\]", r"\1", said)).substitute(
        leader="ana & bia", points="7", played="1", chasers="caio (0)"
    )
    assert held(pool, text, "answer", language=language, match=None) is None


def test_level_on_points_the_one_with_an_exact_leads_alone(played: Pool, clock: FakeClock) -> None:
    """ana 10 with an exact, bia 10 without one: ana tops the table, nobody shares it."""
    played.predictions.place("bia", 3, Score(2, 0))
    play(played, clock, 3, "1-0")  # bia's 5 more: 10
    assert held(played, "ana and bia share the lead on 10.", "answer", match=None) == "shared"
    assert held(played, "ana and bia share the top on 10.", "answer", match=None) == "shared"
    assert held(played, "ana leads on 10, level on points with bia.", "answer", match=None) is None
    assert held(played, "bia leads on 10.", "answer", match=None) == "leader"


@pytest.mark.parametrize("language", ["en", "pt"])
def test_her_welcome_reaches_a_newcomer(tournament_pool: Pool, language: str) -> None:
    commentator = her_in(
        tournament_pool, OfflineModel(language=language), config=MemoryConfig(language=language)
    )
    tournament_pool.members.add("nina", "Nina", via="open")
    commentator.catch_up()
    (welcome,) = [e.event for e in tournament_pool.events(kinds=("remark",))]
    assert "nina" in welcome.text and "#1 Brazil v Serbia" in welcome.text


@pytest.mark.skipif(missing() is not None and not REQUIRED, reason=str(missing()))
@pytest.mark.real_model(matches=2, players=3)
@pytest.mark.first_pass_only(
    reason="bench.real_model.run writes a SQLite file of its own whatever the pass: "
    "on PostgreSQL it would repeat the SQLite pass's run, minutes of it, and prove nothing more"
)
def test_a_real_model_served_here_never_reaches_the_pool_with_a_broken_line(
    real_model: RealModelReport,
) -> None:
    """SmolLM2-135M over llama-cpp-python's server, two matches of the 2026 World Cup with
    chat: whatever it writes, what is posted keeps the contract and her picks are plausible.
    The run goes on in the background from the session's start (tests/conftest.py)."""
    report = real_model
    pool = report.pool
    asked = [c for c in report.calls if c.provider == "openai-compatible"]
    assert len(asked) >= 10 and all(c.error is None for c in asked)
    assert report.posted and sum(report.refused.values()) > 0
    contract = Contract(pool, "en", ("betania", "BETanIA"))
    # Each posted line against the context of the call that wrote it; the standings have
    # moved since, so points and leaders are not judged again.
    call_of = {c.response: c for c in report.calls}
    for line in report.posted:
        call = call_of[line]
        grounds = contract.grounds(call.system, call.prompt)
        kind = "wrap_up" if len(line) > 280 else call.task
        broken = {b.rule for b in contract.breaches(line, kind, grounds)} - {"points", "leader"}
        assert not broken, (line, broken)
    for number, _answer, outcome in report.picks:
        match = pool.match(number)
        seen = outlook(pool.matches(), at=match.kickoff)  # the ratings as she picked
        chance = chances(match, seen)
        her = next(p for p in pool.predictions_of("betania") if p.match_number == number)
        if outcome.startswith("picked"):
            assert her.score in plausible(chance), outcome
        else:
            assert outcome.startswith(("refused: not a score", "refused: implausible"))
            assert her.score == pick(match, seen)  # the rating pick stood


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # Her wrap-up at the end of a whole replay: who led, in turn, is a list.
        (
            "The lead changed hands 11 times: betania, ana & bia, ana, ana & bia, bia, ana, "
            "bia, ana, bia, ana & bia, bia & caio, caio.",
            None,
        ),
        ("A liderança trocou de mãos 5 vezes: ana, bia, ana, bia, ana, bia.", None),
        ("The lead changed hands 3 times: ana & bia, bia, bia & caio.", None),
        # A model stuck is still stuck, with commas or without.
        ("Sydney Sydney Sydney Sydney.", "repetition"),
        ("Sydney Opera Sydney Opera Sydney Opera.", "repetition"),
        ("Sydney, Sydney, Sydney, what a city.", "repetition"),
        ("Brazil and Serbia, Brazil and Serbia, Brazil and Serbia.", "repetition"),
    ],
)
def test_a_list_is_a_list_and_a_loop_is_a_loop(played: Pool, text: str, rule: str | None) -> None:
    assert held(played, text, "wrap_up", "11 lead changes, 5 shown", match=None) == rule


# A strong model's good lines (issue 37): a capitalised word that is a common word of the
# pool's language opens a sentence, a clause after a colon or a dash, a quote, an aside.
OPENINGS = [
    ("Nine minutes in and ana is already nervous.", "en"),
    # a verb told to do, with its object: no name ("Savour" is rare, "Christen" rarer)
    ("Top of the pool, ana. Savour it while it lasts.", "en"),
    # an emoji ends a sentence as its stop would
    ("Keep it out of the group chat 😉 Besides, you're top, ana.", "en"),
    ("Guilty, bia 😅 Boring works though.", "en"),
    ("What a final, ana 🇦🇷 Give your dog a pat from me.", "en"),  # a flag ends it too
    ("New flat, bia? Christen it with a few more points.", "en"),
    ("Surprise in the opening minutes: Serbia look sharp.", "en"),
    ("Hop in the Beetle, bia, the ride is bumpy.", "en"),  # bia's car: her notes say so
    ("Later, ana, we will talk about that pick.", "en"),
    ("Going by what I told you, Brazil are the pick.", "en"),
    ("ana is top: Five points clear of bia.", "en"),
    ("Heartbreak in stoppage time for bia.", "en"),
    ("Then Vini scored again.", "en"),
    ("Cruel. Very cruel for bia.", "en"),
    ('bia said it best: "Cruel" is the word.', "en"),
    ("Serbia (Cruel, but fair) lost.", "en"),
    ("Surpresa logo no começo: a Sérvia veio forte.", "pt"),
    ("Desilusão nos acréscimos para a bia.", "pt"),
    ("Depois, ana, a gente conversa sobre esse palpite.", "pt"),
    # a model's openers and a word of the notes, plural, held long or in a compound
    ("Psst, bia: Plus, you're on 5.", "en"),
    ("Beyond that, ana leads.", "en"),
    ("Two Beetles for bia, then.", "en"),
    ("GOOOOL do Brasil!", "pt"),
    ("A Beetle-style comeback for bia.", "en"),
    ("Brasil 2-0 Sérvia, 9 Dez: a bia viu.", "pt"),  # a month, abbreviated
    ("YOU DID, bia! Brazil 2-0 Serbia, exactly.", "en"),  # shouted: capitals anyway
    ("Here's your Christmas-dinner material, bia.", "en"),  # a common word in a compound
    # a cheer in the other language the pool's people chat in
    ("Two of you share my pick. Força Brasil!", "en"),
    ("GOLOOO! Vini scores for Brazil.", "en"),
]


@pytest.mark.parametrize(
    "text",
    [
        "The pool is split 2-2-2 again, so bragging rights are wide open.",  # no loop
        "Same pool in 2030, and I expect a comeback.",  # a year to come tells no record
        "Parabéns, bia, huge news! Now let's see your picks.",  # an interjection of the pool's
        "The pool is split two-two-two, so this one's anyone's.",  # a split in words
        "BULLSEYE, bia! Brazil 2-0 Serbia exactly as you called it.",  # a shout
        "ana, that pub full of Brits just got a lot louder.",  # a people, not a name
        "Fittest in the pool, bia. Fittest isn't top though.",  # a superlative opening
        "Ask bia for her address for the Christmas card.",  # a holiday
        "bia, better start pricing rockets to the Moon.",  # a common thing capitalised
        "The office TV is finally paying off, bia.",  # an acronym everyone uses
        "Taming jaguars is one thing, bia; taming this pool is another.",  # an -ing opening
        "Opposite picks, same ending: bia and ana both blanked.",  # no act: a noun after it
        "Ha, bia, I'll take that as a compliment.",  # an interjection
        "A very mediocre result, bia, fit for a B-side.",  # a letter beside a common word
        "Secret Santa tip for ana: bia loves Brazil.",  # a custom, as Christmas is
        "Saved, bia: New Year's Eve with the family, then Brazil again.",  # a holiday
        "You've scored more than something, bia.",  # a pronoun bound to its verb
        "Honest answer, bia: I'm an AI, so no thrill to report.",  # what she is
        "bia, all those years teaching PE and now a Brazil win.",  # a school subject
        "Serbia 0-2, and Europe let caio down.",  # a continent (the 69th fresh run's Africa)
        "Brazil 2-0 Serbia 🏴󠁧󠁢󠁥󠁮󠁧󠁿 Our captain is back among the scorers, bia.",  # after a flag
        "Best to ask her in a DM, bia.",  # what everyone calls a direct message
        "Consider this your reminder: easy on the drinks tonight, bia.",  # no prompt's label
        "Either Argentina wins tonight or your points do, bia.",  # a win supposed
        "Your 'África unida' spirit, bia, paid nothing.",  # ... in Portuguese
    ],
)
def test_a_true_line_of_a_capable_model_keeps_the_contract(played: Pool, text: str) -> None:
    assert held(played, text) is None


def test_the_people_of_a_team_a_player_spoke_of_are_no_made_up_name(played: Pool) -> None:
    """ "a certain Welsh fan" of a player who told her of Wales; of none, still a name."""
    line = "Vini again! Somewhere a certain Welsh fan is very quiet, bia."
    for told, rule in ((["wales already out so im neutral today"], None), ([], "name")):
        contract = Contract(played, "en", ("betania", "BETanIA"), told=lambda told=told: told)
        breach = contract.check(line, "remark", contract.grounds(persona("BETanIA", "en"), ""), 1)
        assert (breach and breach.rule) == rule


@pytest.mark.parametrize(
    "text",
    [
        "Honest answer, bia: you never told me which club you support.",
        "A bia nunca me disse onde mora.",
        # nor that her notes hold all there is: a line her hearing missed was told too
        "You sing in the church choir, bia. That's all in my notes.",
        "All I have on bia is the church choir; I don't know her birthday.",
    ],
)
def test_what_a_player_never_told_her_is_not_hers_to_say(played: Pool, text: str) -> None:
    """Her notes hold what her hearing kept; a line it missed was told all the same."""
    assert held(played, text, kind="answer", language="pt" if "bia nunca" in text else "en") == (
        "untold"
    )
    assert held(played, "Nothing of bia's club is in my notes, bia.", kind="answer") is None
    # her own words, or another's, are no telling of hers
    assert held(played, "I never said it would be easy, bia.", kind="answer") is None


def test_a_round_figure_stands_for_a_number_the_call_gave(played: Pool) -> None:
    """ "50-odd minutes" of 90 less 38; "nearly 70%" of 69: a figure said as a round one."""
    notes = "Goal at minute 38. Your model gives Brazil 69%."
    assert held(played, "Serbia have 50-odd minutes to answer.", prompt=notes) is None
    assert held(played, "Serbia have 50+ minutes to answer.", prompt=notes) is None
    assert held(played, "My numbers give Brazil nearly 70%.", prompt=notes) is None
    assert held(played, "Serbia have 200-odd minutes to answer.", prompt=notes) == "number"
    assert held(played, "My numbers give Brazil 70%.", prompt=notes) == "number"
    # in words too, and the minutes left said plainly (90 less 38)
    assert held(played, "My numbers give Brazil nearly seventy percent.", prompt=notes) is None
    assert held(played, "My numbers give Brazil nearly sixty percent.", prompt=notes) == "number"
    assert held(played, "Serbia have the next 52 minutes to answer.", prompt=notes) is None
    assert held(played, "Serbia backers have 52 minutes to get it going.", prompt=notes) is None
    assert held(played, "Faltam 52 minutos para a Sérvia.", prompt=notes, language="pt") is None
    assert held(played, "My 1-0 is on the money; 52 minutes of nerves to go.", prompt=notes) is None
    assert held(played, "My 1-0 is on the money; 53 minutes of nerves to go.", prompt=notes) == (
        "number"
    )
    assert held(played, "Serbia have the next 53 minutes to answer.", prompt=notes) == "number"
    # ... with a word between (the 68th fresh run's "85 long minutes to hold it")
    assert held(played, "Brazil lead; 52 long minutes to hold it.", prompt=notes) is None
    assert held(played, "Brazil lead; 53 long minutes to hold it.", prompt=notes) == "number"
    assert held(played, "Brazil scored after 52 minutes.", prompt=notes) == "number"


def test_a_goal_in_added_time_is_said_by_its_minute_too(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """90+11 is "the 101st minute"; no goal was scored in the 102nd."""
    play(tournament_pool, clock, 1, "1-0", [Goal("home", 90, added=11, scorer="Vini")])
    assert held(tournament_pool, "Vini in the 101st minute, Brazil 1-0!") is None
    assert held(tournament_pool, "Vini in the 102nd minute, Brazil 1-0!") == "number"


def test_a_match_ends_two_hours_after_its_kick_off(played: Pool) -> None:
    notes = "Next: Brazil v Serbia, kick-off 15:00."
    assert held(played, "Brazil v Serbia starts at 15:00, done by 17:00.", prompt=notes) is None
    assert held(played, "Brazil v Serbia is done by 18:30.", prompt=notes) == "number"


def test_a_player_s_words_quoted_are_not_her_sentences(played: Pool) -> None:
    """Six sentences of hers, a quote with three of its own: six."""
    chat = "bia: Vini again, wow. this is unreal stuff. what a day today"
    entry = (
        "Brazil 2-0 Serbia, Vini twice. ana called it. bia got five points. caio had no pick. "
        'The table moved. Best line: bia, "Vini again, wow. this is unreal stuff. what a day'
        ' today".'
    )
    assert held(played, entry, "diary_entry", chat, match=1) is None
    seven = entry.replace("no pick.", "no pick. He was away.")
    assert held(played, seven, "diary_entry", chat, match=1) == "sentences"


def test_a_date_tag_of_a_diary_opens_a_sentence(played: Pool) -> None:
    told = "[11 Jun] Both openers went to the favourites."
    assert held(played, told, kind="diary fusion", prompt="[11 Jun] Brazil 2-0 Serbia") is None


@pytest.mark.parametrize(("text", "language"), OPENINGS)
def test_a_common_word_opening_a_sentence_is_no_name(
    played: Pool, text: str, language: str
) -> None:
    notes = "bia drives a Beetle. 9' Serbia's first corner."
    assert held(played, text, prompt=notes, language=language) is None


@pytest.mark.parametrize(
    "text",
    [
        "Carla, a 16-year-old Brazilian soccer player, loves it.",  # a name: no word
        "Bosko Lukić vs. King Martin, what a fight.",
        "Martin scored twice: what a match.",  # at the start, and not a common word
        "What a match for Martin.",  # inside a sentence, any capitalised word is a name
        "It was cruel for Surprise FC.",
        "Bosko leva a melhor, como sempre.",
        "A Zorblaxian-style comeback for bia.",  # a compound of a name nobody gave
        "WELL DONE, MARTIN! What a match.",  # shouted, and still nobody's name
        "Zorblax it is, then: what a match.",  # "it" as the subject after a name
        "Well played. Martin's it now.",
    ],
)
def test_a_name_nobody_gave_is_still_refused(played: Pool, text: str) -> None:
    assert held(played, text, language="pt" if "leva" in text else "en") == "name"


def test_every_2026_team_has_its_people_in_both_languages() -> None:
    """What "the Koreans", "os mexicanos" ground: the team book's, for each team of 2026."""
    cup = json.loads((TEST_DATA / "worldcup-2026.json").read_text("utf-8"))
    book = TeamBook.standard()
    teams = {book.name_of(m[side]) for m in cup["matches"] for side in ("team1", "team2")}
    teams.discard(None)  # knock-out slots ("1A", "W74")
    assert len(teams) == 48
    entries = json.loads(resources.files("game").joinpath("teams.json").read_text("utf-8"))
    people = {t["name"]: t.get("people", {}) for t in entries["teams"]}
    for team in teams:
        assert team is not None and book.people_of([team]), team
        # English: a plural and an adjective, or one word for both ("Swiss"); Portuguese: two
        assert people[team].get("en") and len(people[team].get("pt", ())) >= 2, team


@pytest.fixture
def cup_pool(pool: Pool) -> Pool:
    """South Korea v Czech Republic, Switzerland v Mexico, Haiti v Scotland: no Brazil."""
    start = datetime(2026, 6, 12, 18, 0, tzinfo=UTC)
    pairs = [("South Korea", "Czech Republic"), ("Switzerland", "Mexico"), ("Haiti", "Scotland")]
    pool.fixtures.import_tournament(
        Tournament(
            "Test Cup",
            tuple(
                fixture(f"m{i}", home, away, start + timedelta(days=i))
                for i, (home, away) in enumerate(pairs)
            ),
        )
    )
    for handle in ("ana", "bia"):
        pool.members.add(handle)
    return pool


@pytest.mark.parametrize(
    ("text", "language", "rule"),
    [
        ("Can the Koreans hold off the Czechs, ana?", "en", None),
        ("The Swiss look tidy; a Mexican upset is on, bia.", "en", None),
        ("The Scots travel well; the Haitians too, ana.", "en", None),
        ("Os suíços e os sul-coreanos jogam bem, ana.", "pt", None),
        # A team's people outside this tournament are named as the team would be.
        ("ana thinks the Germans would win it, and the Dutch.", "en", "name"),
        ("bia, the Argentines are out of this one.", "en", "name"),
    ],
)
def test_a_team_is_spoken_of_by_its_people(
    cup_pool: Pool, text: str, language: str, rule: str | None
) -> None:
    assert held(cup_pool, text, language=language, match=None) == rule


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # a team's star before he scores: he scored for it in a World Cup the package ships
        ("Shaqiri and co. will want this one, ana.", None),
        ("Xhaka runs that midfield, bia.", None),
        ("ana backed McGinn's Scotland.", None),
        # a star of a team outside this tournament, and a first name, are nobody's here
        ("Messi and co. will want this one, ana.", "name"),
        ("Xherdan and co. will want this one, ana.", "name"),
    ],
)
def test_a_team_is_spoken_of_by_its_scorers_of_past_cups(
    cup_pool: Pool, text: str, rule: str | None
) -> None:
    assert held(cup_pool, text, match=None) == rule


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Hard to bet against the Seleção tonight, ana.", "en"),
        ("bia, a Canarinho joga hoje e os mexicanos amanhã.", "pt"),
        ("The Brazilians were too good for the Serbians, bia.", "en"),
        ("Les Bleus against the Atlas Lions: ana, pick carefully.", "en"),
    ],
)
def test_a_team_is_spoken_of_by_its_nickname(played: Pool, text: str, language: str) -> None:
    assert held(played, text, language=language, match=None) is None


def test_a_club_named_as_its_city_is_the_city(played: Pool) -> None:
    """ "The São Paulo bar crowd", the city a player named in the chat, not São Paulo FC;
    a club no city names is still a team outside this tournament."""
    heard = frozenset({"bar", "em", "são", "paulo", "palmeiras"})
    contract = Contract(played, "en", ("betania", "BETanIA"), heard=lambda: heard)
    grounds = contract.grounds(persona("BETanIA", "en"), "")
    city = "Vini again! The São Paulo bar crowd is on the tables, bia."
    club = "Vini again! The Palmeiras crowd is on the tables, bia."
    assert contract.check(city, "remark", grounds, 1) is None
    assert getattr(contract.check(club, "remark", grounds, 1), "rule", None) == "team"


@pytest.mark.parametrize(
    ("asked", "text"),
    [
        ("@betania how is Brasil doing?", "Sorry, bruno, I have no records on Brazil yet."),
        ("@betania how is Brazil doing?", "Sorry, bruno, I have no records on Brazil yet."),
        ("@betania e a Alemanha?", "A Alemanha não joga este bolão, bruno; os alemães, nada."),
        ("@betania what about Japan?", "Japan? Not in this pool, bruno."),
    ],
)
def test_what_the_player_asked_about_may_be_named_back(
    cup_pool: Pool, asked: str, text: str
) -> None:
    """Issue 37: bruno asked about Brazil, in a pool where Brazil does not play."""
    cup_pool.members.add("bruno")
    language = "pt" if " e a " in asked else "en"
    assert held(cup_pool, text, "answer", asked, language, None) is None
    assert held(cup_pool, text, "answer", "@betania how is it going?", language, None) == "team"


@pytest.mark.parametrize(
    "text",
    [
        "İRAN will never make it.",  # the Turkish capital I: a pattern's folding, not lower()'s
        "İtaly is out.",
        "Ru\u017f\u017fia again.",  # Russia with the long s
        "Côte d'Ivoire would have loved this.",
        "A Costa do Marfim ficou de fora, e a Itália também.",
        "United States? Not this time.",
        "Nobody here picked a draw.",
    ],
)
def test_the_team_check_finds_what_searching_every_spelling_finds(text: str) -> None:
    """The team check searches a spelling only when the line has its first word: the
    same breaches as searching all of them, odd letters included."""
    grounds = SimpleNamespace(playing=frozenset(), text="")

    def every_spelling(said: str) -> str | None:
        for spelling, lowered, _team, _first, pattern in contract._written():
            found = pattern.search(said)
            if found is not None and found[0][0].isupper() and lowered not in grounds.text:
                return spelling
        return None

    breach = contract._teams(text, grounds)
    assert (breach.detail.split(":")[0] if breach else None) == every_spelling(text)


@pytest.mark.parametrize(
    ("text", "language", "rule"),
    [
        # Issue 37: a false count in words passed; a number in words is a number.
        ("All nine of us are still waiting for a goal.", "en", "number"),
        ("Todos os nove ainda esperam um gol.", "pt", "number"),
        ("ana is twelve points clear, bia.", "en", "number"),
        ("A ana está doze pontos à frente, bia.", "pt", "number"),
        # ... and grounded like a figure: ana has 10, bia 5; 10 - 5 is five clear.
        ("ana is five clear of bia, and ten points is a fine start.", "en", None),
        ("A ana tem dez pontos, cinco à frente da bia.", "pt", None),
        ("All three of you had a pick on it.", "en", None),
        ("Os dois palpites, ana e bia, foram de vitória do Brasil.", "pt", None),
        # "one" is a pronoun as often as a number, "um"/"uma" an article.
        ("No one saw it coming, and the one before was a draw: one of you knew.", "en", None),
        ("Ninguém viu essa vindo, bia: uma vitória de um time inteiro.", "pt", None),
    ],
)
def test_a_number_in_words_is_a_number(
    played: Pool, text: str, language: str, rule: str | None
) -> None:
    assert held(played, text, language=language) == rule


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # Issue 37: a natural phrase that an instruction template also holds.
        ("I've gone 2-0 Brazil, the pick worth the most points by my numbers.", None),
        # An instruction speaking to the model, carried back: SmolLM2's.
        ("The kick-off, and then: say it again in your own words, ana.", "echo"),
        ("Fuse your diary into one narrative of the tournament so far.", "echo"),
        # her prompt's "Today is Friday 12 June 2026, 19:55": its echo, not a phrase with it
        ("Today is Friday 12 June 2026, and ana leads.", "echo"),
        ("bia, the match today is your chance.", None),
    ],
)
def test_an_echo_is_a_copy_of_the_instructions_not_a_natural_phrase(
    played: Pool, text: str, rule: str | None
) -> None:
    assert held(played, text) == rule


def test_her_own_words_quoted_back_may_end_where_she_cuts_them(played: Pool) -> None:
    said = 'you already said: "Serbia look solid, so one goal might be all it takes."'
    line = '"One goal might be all it takes," I said, and Brazil scored twice.'
    assert held(played, line, prompt=said) is None
    assert held(played, '"One goal is all it takes," I said.', prompt=said) == "quote"
    # a player's line cut short inside, each part as said
    chat = "elis: Messi just turned Gvardiol inside out. best defender and he looked like a cone"
    cut = 'elis, "Messi just turned Gvardiol inside out... he looked like a cone".'
    assert held(played, cut, prompt=chat) is None
    assert held(played, 'elis, "Messi turned Gvardiol... he looked lost".', prompt=chat) == "quote"


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # A strong model's line (tests/data/strong_model_pending.jsonl): her own labels.
        ('My 1-0 pick just went from "tight" to "in trouble."', None),
        ('bia, your pick is "brave", ana calls it "a bit mad".', None),
        # Words put in somebody's mouth are still refused, and a claim in quotes too.
        ('"Brazil were a great team in the match," bia says.', "quote"),
        ('ana said "we won it 3-0" after the game.', "quote"),
    ],
)
def test_a_label_of_her_own_in_quotes_is_no_quote(
    played: Pool, text: str, rule: str | None
) -> None:
    assert held(played, text) == rule


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # An outside attack on the loosened contract: a common word opening a sentence as
        # the subject of what a player or a scorer does is somebody the pool does not know.
        ("Mark leads the pool after one match.", "name"),
        ("Rose scored twice for Brazil tonight.", "name"),
        ("What a night. Hope called the 2-0 exactly.", "name"),
        ("Rosa marcou duas vezes pelo Brasil.", "name"),
        ("Marcos lidera o bolão depois do primeiro jogo.", "name"),
        ("Manning scored twice for Brazil tonight.", "name"),  # "man" is common; he acts
        # The same words doing nothing a person does, and her own "nobody", still pass.
        ("Mark my words, ana: Vini is not done yet.", None),
        ("Hope is all caio has left after Brazil 2-0 Serbia.", None),
        ("Nobody picked Serbia, and bia went 1-0.", None),
        ("Everyone picked Brazil, and Vini scored twice.", None),
        # ... nor does a pronoun bound to its verb; a name with an apostrophe still acts
        ("You've scored more than something, ana.", None),
        ("They've called it, ana and bia.", None),
        ("O'Neill scored twice for Brazil tonight.", "name"),
        # Her own label in quotes is her claim: the claim check reads inside it.
        ('Serbia "won it" in the end, ana.', "result"),
        ('A Sérvia "ganhou o jogo" no fim.', "result"),
        ('caio "leads the pool" after one match.', "leader"),
        ('Brazil won 2-0: from "tight" to "comfortable" in 80 minutes.', None),
    ],
)
def test_common_words_and_her_own_quotes_carry_no_lie_past_the_contract(
    played: Pool, text: str, rule: str | None
) -> None:
    language = "pt" if any(w in text for w in ("pelo", "bolão", "ganhou")) else "en"
    assert held(played, text, language=language) == rule


def test_a_moments_grounds_are_shared_and_never_outlive_it(played: Pool, clock: FakeClock) -> None:
    """Built once per moment: every text of it and its retries share the grounds; the next
    event that is not talk builds them again, and a check never reads the ones before."""
    contract = Contract(played, "en", ("betania", "BETanIA"))
    system, prompt = persona("BETanIA"), "Argentina v Mexico is over."
    line = "Argentina and Mexico drew 1-1, and nobody saw it coming."
    first = contract.grounds(system, prompt)
    assert contract.grounds(system, prompt) is first
    played.talk.chat("ana", "what a match")  # talk moves nothing she checks
    assert contract.grounds(system, prompt) is first
    breach = contract.check(line, "remark", first, 2)
    assert breach is not None and breach.rule == "score", breach
    play(played, clock, 2, "1-1")
    again = contract.grounds(system, prompt)
    assert again.records is not first.records
    assert contract.check(line, "remark", again, 2) is None


def test_a_kick_off_the_clock_reaches_builds_the_records_again(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """How the pool picked is told from the kick-off on, which no event marks: the records
    kept before it are not the records after it."""
    pool = tournament_pool
    for handle, score in (("ana", Score(1, 1)), ("bia", Score(0, 0)), ("caio", Score(2, 0))):
        pool.predictions.place(handle, 2, score)
    contract = Contract(pool, "en", ("betania", "BETanIA"))
    line = "Only 2 of 3 saw a draw."
    clock.now = pool.match(2).kickoff - timedelta(minutes=5)
    hidden = contract.check(line, "remark", contract.grounds(persona("BETanIA"), "3 players"), 2)
    assert hidden is not None and hidden.rule == "share", hidden
    clock.now += timedelta(minutes=5)
    assert (
        contract.check(line, "remark", contract.grounds(persona("BETanIA"), "3 players"), 2) is None
    )


def test_a_player_s_words_quoted_are_no_loop_of_hers(played: Pool) -> None:
    """ "2-1 2-1 2-1 segura" was ana's line: quoted, it is hers; said bare, a loop."""
    chat = "ana: 2-1 2-1 2-1 segura"
    quoted = 'Best line: ana after the goal, "2-1 2-1 2-1 segura".'
    assert held(played, quoted, prompt=chat) is None
    assert held(played, "Segura segura segura segura, ana.", prompt=chat) == "repetition"


def test_a_match_s_length_is_a_number_anyone_may_say(played: Pool) -> None:
    """ "In 120 minutes" needs no context to give it; another number still does."""
    assert held(played, "Serbia didn't score in 90 minutes, bia.") is None
    assert held(played, "Serbia didn't score in 97 minutes, bia.") == "number"


def test_a_city_a_player_said_may_be_named_in_her_language(played: Pool) -> None:
    """ "o holanda-eua é a que horas em lisboa?": "Lisbon" in her answer is that city;
    one nobody said is still a name she made up."""
    asked = "fabio asked: o holanda-eua é a que horas em lisboa?"
    assert held(played, "Lisbon is on UTC in December.", "answer", asked) is None
    assert held(played, "Madrid is on UTC in December.", "answer", asked) == "name"
    told = "carla asked: vou passar o natal em Joanesburgo, e tu?"
    assert held(played, "Enjoy Johannesburg, carla!", "answer", told) is None


def test_a_question_she_suggests_asking_is_her_own_words(played: Pool) -> None:
    """'like "what did bia pick for Japan v Spain?"': a suggestion, read as hers (what it
    says is checked as hers too); a quote of a line nobody said is still refused."""
    told = 'I can\'t name them, ana. Try asking me one pick, like "what did bia pick for #2?"'
    assert held(played, told, "answer") is None
    assert held(played, 'Ana asked me "what did bia pick for #2?" twice.', "answer") == "quote"
    # "like" that is speech, not a suggestion, is a quote still
    assert held(played, 'bia was like "how is that a penalty?" all night.', "answer") == "quote"
    tried = "Ask me something like \u201cwho's leading the pool?\u201d, ana."
    assert held(played, tried, "answer") is None
    # ... and what it says is hers, checked as her claims are
    false = 'Try asking me "why did bia get 25 points on #1?", ana.'
    assert held(played, false, "answer") is not None
    # "say," of a question to ask, in a sentence asking to ask; speech still a quote
    say = 'Ask me one pick instead, ana: say, "what did bia pick for #2?"'
    assert held(played, say, "answer") is None
    assert (
        held(played, 'bia would say, "how on earth is that a penalty?" all night.', "answer")
        == "quote"
    )


def test_a_scorer_spelled_as_the_world_spells_him_is_known(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """The data file's "Wout Werghost" is the world's Weghorst: a letter or two apart, a
    scorer's surname still; a name further off is still a name she made up."""
    play(tournament_pool, clock, 1, "1-1", [Goal("home", 83, scorer="Wout Werghost")])
    assert held(tournament_pool, "Weghorst on 83 minutes, unbelievable!") is None
    assert held(tournament_pool, "Werghost on 83 minutes, unbelievable!") is None
    assert held(tournament_pool, "Wegmann on 83 minutes, unbelievable!") == "name"


def test_a_district_a_player_lives_in_names_its_city(played: Pool) -> None:
    """ "Brixton pub went mental ... love living here": "the London contingent" is him."""
    told = "fabio said: Brixton pub went mental for Brazil btw, love living here"
    assert held(played, "The London contingent has gone quiet.", "answer", told) is None


def test_a_title_of_common_words_is_no_name(played: Pool) -> None:
    """ "You'll Never Walk Alone indeed": a song's title; two names nobody gave are not."""
    assert held(played, "From zero to a run, bia: You'll Never Walk Alone indeed.") is None
    assert held(played, "From zero to a run, bia: Marek Walk would be proud.") == "name"
    # ... nor three common words doing what a scorer does
    assert held(played, "Big Mark Stone scored twice for Brazil, bia.") == "name"

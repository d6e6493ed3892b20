from bot.commentator import Commentator, Policy
from game.model import Score
from game.service import Pool
from memory.keeper import MemoryKeeper
from tests.conftest import FakeClock, ScriptedModel, play


def result_event(pool: Pool, number: int):
    return pool.events(kinds=("result",), match_number=number)[-1]


def test_she_remarks_on_the_final_whistle_once_per_result(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    keeper = MemoryKeeper(tournament_pool, ScriptedModel())
    keeper.enable()
    commentator = Commentator(keeper)
    tournament_pool.place_prediction("ana", 1, Score(2, 0))
    tournament_pool.place_prediction("bia", 1, Score(0, 3))
    play(tournament_pool, clock, 1, "2-0")
    keeper.catch_up()
    first = commentator.after_result(result_event(tournament_pool, 1))
    again = commentator.after_result(result_event(tournament_pool, 1))  # a restart reacting again
    assert first is not None and first.about == ("ana",) and first.match == 1
    assert again is None
    remarks = tournament_pool.events(kinds=("remark",))
    assert len(remarks) == 1 and remarks[0].event.player == "betania"
    assert tournament_pool.player("betania").display_name == "BETanIA"


def test_she_stays_silent_rather_than_repeat_herself(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    model = ScriptedModel(remark=lambda call: "ana, what a pick. Truly, what a pick.")
    keeper = MemoryKeeper(tournament_pool, model)
    keeper.enable()
    commentator = Commentator(keeper, Policy(attempts=3))
    for number in (1, 2):
        tournament_pool.place_prediction("ana", number, Score(1, 0))
    for number in (1, 2):
        play(tournament_pool, clock, number, "1-0")
        keeper.catch_up()
        commentator.after_result(result_event(tournament_pool, number))
    assert commentator.stats.count == 1
    assert commentator.stats.refused_repeats == 3 and commentator.stats.silent == 1
    # the earlier remark was in the context of every retry, for the model to avoid
    assert 'you said about ana: "ana, what a pick.' in model.calls[-1].prompt

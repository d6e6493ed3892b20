"""The grammar of claims (memory.claims) on lines a capable model writes, true and false.

For a model that declares nothing (a small local one) and her offline voice, the grammar
still guesses whose each figure is. These are the classes it guessed wrong on a held-out
strong-model run (issue 53), each with a false twin it must still refuse.

The pool: #1 Brazil 2-0 Serbia on 11 Jun (ana called it: 10; bia had 1-0: 5; dani 3-1: 7),
#2 Argentina 1-1 Mexico on 12 Jun (bia called it: 10; caio had 2-0: nothing). ana 10, bia
15, caio 0, dani 7.
"""

from datetime import UTC, datetime, timedelta

import pytest

from game.model import Goal, Score
from game.openfootball import Tournament
from game.pool import Pool
from memory.claims import Claims, answered
from tests.conftest import FakeClock, fixture, play


@pytest.fixture
def played(tournament_pool: Pool, clock: FakeClock) -> Pool:
    pool = tournament_pool
    pool.members.add("dani")
    for handle, number, score in (
        ("ana", 1, Score(2, 0)), ("bia", 1, Score(1, 0)), ("dani", 1, Score(3, 1)),
        ("bia", 2, Score(1, 1)), ("caio", 2, Score(2, 0)),
    ):  # fmt: skip
        pool.predictions.place(handle, number, score)
    play(pool, clock, 1, "2-0", [Goal("home", 10, scorer="Vini"), Goal("home", 80, scorer="Vini")])
    play(pool, clock, 2, "1-1")
    return pool


@pytest.mark.parametrize(
    ("line", "match", "false"),
    [
        # the player she speaks to, named mid-sentence, owns no figure said of another
        ("You're second, ana, on 10 points, right behind bia with 15 points.", None, False),
        ("You're second, ana, on 12 points, right behind bia with 15 points.", None, True),
        ("You're second, ana, on 10 points, right behind bia with 16 points.", None, True),
        # ... nor one called before a colon, after another is named
        ("Top scorer was bia again, caio: 10 points from Argentina 1-1 Mexico.", 2, False),
        ("Top scorer was bia again, caio: 12 points from Argentina 1-1 Mexico.", 2, True),
        # ... but names listed with their figures are a table, and one named first owns it
        ("Standings, bia: 10 points, ana: 15 points.", None, True),
        ("Mexico hold on, bia: 7 points for the exact 1-1.", 2, True),
        # a total, then a gap
        ("bia leads the pool on 15 points, 5 points clear of ana.", None, False),
        ("bia leads the pool on 15 points, 6 points clear of ana.", None, True),
        # a gap said before the two totals it is the difference of
        ("Just 3 points, dani: you're on 7 and ana is on 10.", None, False),
        ("Just 4 points, dani: you're on 7 and ana is on 10.", None, True),
        ("São 3 pontos, dani: a ana tem 10 e você 7.", None, False),
        # a day said of what someone told her does not date the table after it
        (
            "What bia told me on 11 Jun is that she lives in Leeds. She leads on 15 points.",
            None,
            False,
        ),
        (
            "What bia told me on 11 Jun is that she lives in Leeds. She leads on 25 points.",
            None,
            True,
        ),
        # a moment said in a later clause scopes that clause, not the one before it
        ("bia has 15 points, the one who had 5 after match 1.", None, False),
        ("bia has 25 points, the one who had 5 after match 1.", None, True),
        ("bia had 5 points after one match.", None, False),
        ("bia had 15 points after one match.", None, True),  # a match, said singular
        # ... but a moment said after a comma scopes what came before it
        ("bia had 5 points, after one match.", None, False),
        # a review of this stop's rules: true lines kept, false ones still refused
        ("Brazil v Serbia ended 1-0, and bia will be happy.", 1, True),
        ("bia, two 0-1 blanks in a row.", None, True),
        ("Good shout on the draw, bia, and ana will want Japan next up.", 2, False),
        ("bia got her 1-1 in just ahead of caio, minutes before kick-off.", 2, False),
        ("bia nicked the exact call right under dani's nose.", 2, False),
        ("Another 10 points took bia even further off the bottom.", 2, False),
        ("No draw here: Brazil won, and bia gets 5 for her 1-0.", 1, False),
        ("The two Brazil backers who kept Serbia scoreless banked points.", 1, False),
        ("Two penalties in 10 minutes would have finished Serbia off.", 1, False),
        ("ana is worried: three matches to go and bia leads.", None, True),
        ("All five of you in this pool are chasing bia.", None, True),
        # a moment said in one clause, "now" in the next
        ("ana led after match 1 with 10 points, but bia has 15 points now.", None, False),
        ("ana led after match 1 with 10 points, but bia has 25 points now.", None, True),
        # "everyone else" leaves out the one named
        ("bia was the only one to call it. Everyone else got nothing.", 2, False),
        ("ana was the only one to call it. Everyone else got nothing.", 1, True),
        # what the rule gives, said to a player, is the rule's
        ("You do, dani: getting just the winner right is worth 5 points.", None, False),
        ("You do, dani: getting just the winner right is worth 6 points.", None, True),
        ("dani, acertar só o vencedor vale 5 pontos.", None, False),
        # ... or named right before its figure, whoever is spoken to
        ("The rules, bia: exact score 10 pts, the right difference 7 pts.", None, False),
        ("The rules, bia: exact score 12 pts.", None, True),
        ("Placar exato: 10 pontos, bia.", None, False),
        # a first, checked over the player's history
        ("Brazil 2-0 Serbia gave dani his first points of the tournament.", 1, False),
        ("Argentina 1-1 Mexico gave bia her first points of the tournament.", 2, True),
        ("bia is finally off zero.", 2, True),
        ("O 1-1 deu à bia os primeiros pontos.", 2, True),
        # "again" said of the blank or the exact it is near (caio picked nothing before)
        ("Zero again for caio: Argentina 1-1 Mexico gave him nothing.", 2, True),
        ("bia called it exactly again.", 2, True),
        # ... not of a scorer's goal, or of a split, with an exact far before it
        (
            "Vini again in stoppage time, and bia sits on her lovely exact score on Mexico.",
            2,
            False,
        ),
        (
            "One of you matched bia's exact score, and the rest of the pool split evenly again.",
            2,
            False,
        ),
        # a run, of the player's last finished picks (bia: 5, then 10 exactly; caio: 0 once)
        ("bia has two scoring games in a row.", None, False),
        ("bia, that's two blanks in a row.", None, True),
        ("caio has two blanks in a row.", None, True),
        # ... of one called by what they are, not named: not the one named before it
        ("bia is flying, and that's two blanks in a row for our captain.", None, False),
        ("A bia tem duas cravadas seguidas.", None, True),
        # matches still to play (2 of 4 played: 2 left, 1 while the next is in play)
        ("Two games left, so caio can still dream.", None, False),
        ("One game left, so caio can still dream.", None, True),  # none is in play
        # a run of days (bia scored on both her days; caio blanked his one)
        ("After two blank days, bia is sticking with the favourite.", None, True),
        ("After two 0-point days in a row from bia, she sticks with the favourite.", None, True),
        ("bia, two scoring days in a row.", None, False),
        ("A bia tem dois dias seguidos em branco.", None, True),
        ("After two days of zeros, bia sticks with the favourite.", None, True),
        ("caio, one day of zeros so far.", None, False),
        ("Faltam 2 jogos e a bia lidera.", None, False),
        ("Three matches to go and bia leads.", None, True),
        ("bia took the lead with three matches to go.", None, False),  # then, not now
        # a draw pick on a draw has the goal difference: 7, or 10 exact, never 5 alone
        ("If it ends level, bia, your draw pick earns 5 points.", None, True),
        ("If it ends level, bia, your draw pick earns 7.", None, False),
        ("bia's 1-1 gets 5 points for the draw.", None, True),
        ("A 0-0 is a draw pick: if it ends level, that's 5 for you, bia.", None, True),
        # a run in other words: "flops"
        ("bia, that's two flops in a row.", None, True),
        # ... or before its things ("two straight blanks")
        ("caio, that's two straight blanks.", None, True),
        ("bia has two straight scoring games.", None, False),
        # the count of a run is the one right before it: "on 15 after two ..." is two
        ("bia ends on 15 after two scoring games in a row.", None, False),
        # a score said as picks is no result ("matching 0-0 picks")
        ("Full time, and the 3-1 picks of dani and nobody else got 7.", 1, False),
        # ... and a score naming its pickers is a pick, not a result
        ("Full time, and the 3-1 club of dani got 7.", 1, False),
        ("Full time, and the 4-4 club of dani got 7.", 1, True),
        # ... and so does one in brackets after its picker, or "the pick of"
        ("Brazil 2-0 Serbia is over: dani (3-1) took 7, and bia and I (1-0) 5.", 1, False),
        ("Brazil 2-0 Serbia is over: dani's pick of 3-1 took 7.", 1, False),
        ("Brazil 2-0 Serbia is over, and so is Argentina (3-1).", 1, True),
        # a player's first pick, of the first match they picked (bia: 1-0, then 1-1)
        ("You're top, bia: not bad for someone who started with a 1-0.", None, False),
        ("You're top, bia: not bad for someone who started with a 1-1.", None, True),
        ("caio opened with 2-0 and is still waiting.", None, False),
        ("A bia começou com um 1-1.", None, True),
        # the foot of the table, now (caio last on 0)
        ("caio is still dead last, waiting for a point.", None, False),
        ("dani climbed off the bottom with that 3-1.", None, False),
        ("caio finally climbed off the bottom.", None, True),
        # the one spoken to is the one at the bottom, not the leader named after
        ("Brace yourself, caio: bottom of the table, 15 behind bia at the top.", None, False),
        ("Brace yourself, bia: bottom of the table, 15 behind caio.", None, True),
        ("Bottom of the pile, bia: caio, still on 0.", None, False),
        # spoken of, not done ("about climbing off"), and a climb from it told as one
        ("Now, caio, about climbing off the bottom of the table: you're on 0.", None, False),
        ("You're top, bia, on 15: a proper climb from the bottom of the table.", None, False),
        ("caio, that's a proper climb from the bottom of the table.", None, True),
        ("From the bottom of the table to the top in one afternoon, bia.", None, False),
        ("From the bottom of the table to the top in one afternoon, caio.", None, True),
        ("Bottom of the pile, caio: bia, on 15.", None, True),
        ("bia is dead last.", None, True),
        ("A dani saiu da lanterna.", None, False),
        ("O caio saiu da lanterna.", None, True),
        ("You're not last, bia.", None, False),
        ("caio still hasn't climbed off the bottom.", None, False),
        ("bia still hasn't climbed off the bottom.", None, True),
        ("bia was dead last after the opener; now she leads.", None, False),
        # what is spoken of, with its object ("about getting you off the bottom")
        (
            "Now, about getting you off the bottom, caio: Argentina v Mexico is your shot.",
            None,
            False,
        ),
        # the one its verb follows ("for dani, and caio is"), not a list of both
        ("Nothing for dani, and caio is still bottom on 0.", None, False),
        ("Nothing for caio, and dani is still bottom on 7.", None, True),
        # "you" before it, not a player named after it
        ("Your 3-1 got 7, and you're 3rd now, off the floor and ahead of caio.", None, False),
        # "off the floor" is off the bottom
        ("dani is finally off the floor.", None, False),
        ("caio is finally off the floor.", None, True),
        # a place kept, now and before the match (before #2: ana 10, dani 7, bia 5, caio 0)
        ("Argentina 1-1 Mexico, and caio stays fourth on 0.", 2, False),
        ("Argentina 1-1 Mexico, and caio stays stuck at the foot of the table.", 2, False),
        ("Argentina 1-1 Mexico, and dani stays stuck at the foot of the table.", 2, True),
        # the podium kept, now and before (dani 3rd now, 2nd before #2; caio 4th)
        ("Argentina 1-1 Mexico, and dani stays on the podium.", 2, False),
        ("caio, your 2-0 kept you on the podium.", None, True),
        ("Argentina 1-1 Mexico, and dani stays 3rd on 7.", 2, True),
        ("Argentina 1-1 Mexico, so ana stays 2nd, on 10.", 2, True),
        ("You stay 4th, caio.", None, False),
        ("You stay 2nd, caio.", None, True),
        # ... no place beyond the table's: a day (the 68th fresh run's "still the 15th")
        ("Updated, caio: the school trip is still the 15th with the 8º ano.", None, False),
        ("caio, you stay 15th.", None, True),
        # ... called with an emoji after the name (the 66th fresh run's [148])
        ("Zero for you, caio 😂 Argentina 1-1 Mexico was a shock. You stay 2nd on 0.", 2, True),
        ("Zero for you, caio 😂 Argentina 1-1 Mexico was a shock. You stay 4th on 0.", 2, False),
        # a span of days is no pick, and a month that is also a word keeps its score
        ("Noted, bia: your 10-11 Dec trip.", None, False),
        ("O Brasil virou 4-2 dez minutos depois.", 1, True),
        # a goal takes off the goal difference the picks that had it just before (#1: Vini
        # at 10' and 80'; the 70th fresh run's "Mbappé's 90+1' knocked my 1-0 off it")
        ("Vini's 80' knocks bia's 1-0 off the goal difference, Brazil 2-0.", 1, False),
        ("Vini's 80' knocks dani's 3-1 off the goal difference, Brazil 2-0.", 1, True),
        ("Vini at 10' took bia's 1-0 off the goal difference.", 1, True),
        ("And bia's 1-0 is off the goal difference now.", 1, False),
        # "again" of a team, an emoji before her exact (the 70th fresh run's call 146)
        ("Argentina 1-1 Mexico, they've done it AGAIN 😱 There goes my exact 2-0, caio.", 2, False),
        ("caio 😅 you stay 2nd.", None, True),
        # ... an answer's of the last match played
        ("dani, you stay 3rd on 7.", None, True),
        ("caio, you stay 4th on 0.", None, False),
        ("The 1-1 still hurts, dani, but you stay first to have scored on a draw.", None, False),
        # an answer's "still" is now's (since they asked); a remark's, the match's too
        ("Still first, bia: 15 points.", None, False),
        ("Argentina 1-1 Mexico, and bia is still first.", 2, True),
        # ... of whom is named before it, not of one named after in another clause
        ("Zero tonight, still fourth on 0 😅 bia, your 1-1 was gold.", 2, False),
        # the points to the podium, third place's total (dani's 7)
        ("caio, you're 7 points off the podium.", None, False),
        ("caio, you're 5 points off the podium.", None, True),
        ("dani is 3 off the podium.", None, True),
        ("O caio está a 7 pontos do pódio.", None, False),
        # "the only one in the pool" of an exact: nobody else ever called one (ana did too)
        ("Best call: bia's exact 1-1 on Argentina v Mexico, the only one in the pool.", None, True),
        ("bia's exact 1-1: the only one in the pool to call it.", None, False),
        ("bia, you backed Serbia and they finished dead last.", None, False),
        # ... but a team named earlier in the sentence is not its subject
        (
            "Your 2-0 on Argentina v Mexico got nothing, caio, and it lifts you off the bottom.",
            None,
            True,
        ),
        ("Your 1-0 on Brazil v Serbia got 5, dani, and it keeps you off the bottom.", None, False),
        # a draw pick on a draw earns the difference's points, said any way
        ("Your 1-1 earns 5 for calling the draw, bia.", None, True),
        ("Your 1-1 earned 10 for calling the draw, bia.", None, False),
        # "she", the player named last before
        ("caio got nothing again. Still, he's off the bottom.", None, True),
        ("dani got 7. Still, she's off the bottom.", None, False),
        # a run is of the player named last before it
        ("caio's 2-0 gave him nothing, and bia has two scoring games in a row.", None, False),
        ("bia has 15, and caio's 2-0 makes it two blanks in a row.", None, True),
        # ... not the one it speaks to, named after ("..., dani: ..."): caio blanked twice
        ("bia's top of the table now, dani: two scoring games in a row.", None, False),
        # a run by the last matches it covers (bia scored on #1 and #2; dani only played #1)
        ("bia, points in your last two games too.", None, False),
        ("dani, points in your last two games too.", None, True),
        ("caio, nothing in your last two games.", None, True),
        ("dani's on 7 now, bia: two scoring games in a row.", None, True),
        ("bia, two scoring games in a row now, and dani just slipped past caio.", None, False),
        # ... of the pronoun said last before it: "her pick sheet" after "I" is hers
        (
            "Ask bia herself, caio; what I can tell you is her pick sheet: two scoring games in a row.",
            None,
            False,
        ),
        (
            "Ask caio himself, bia; what I can tell you is his pick sheet: two scoring games in a row.",
            None,
            True,
        ),
        # ... and "she" is never the one spoken to, named at the end of the sentence before
        (
            "bia has 15 now, caio. In the pool she's top after two scoring games in a row.",
            None,
            False,
        ),
        ("caio has 0 now, bia. In the pool he's got two scoring games in a row.", None, True),
        # "exactly like" is a likeness, not an exact score said again
        ("Penalties again for Mexico, exactly like against Brazil, and bia sits on 15.", 2, False),
        # "between the two of us": her and the one she speaks to
        ("Safe with me, bia: that stays between the two of us.", None, False),
        # "the two of you": the players the text names, counted
        ("caio and dani, the two of you have the next matches to turn it around.", None, False),
        ("caio and dani, the six of you have the next matches to turn it around.", None, True),
        # a team's goals in words: what it scored in one of its matches
        ("A two-goal Brazil saw off Serbia, Vini twice.", 1, False),
        ("A five-goal Brazil ran riot.", None, True),
        ("Os 2 gols do Brasil foram do Vini.", None, False),
        ("Brazil scored three against Serbia.", None, True),
        ("Brazil scored 1 in each half.", None, False),  # a part, not the match's total
        ("Argentina two goals down would have been a disaster.", None, False),
        ("A three-goal Brazil cushion by the hour.", None, False),  # a margin
        # the pool's picks of a margin, not the team's goals
        ("Those bold four-goal Brazil picks look silly now.", 1, False),
        # a pick by its owner, a word between: "dani's wild 3-1"
        ("Full time, Brazil 2-0 Serbia: dani's wild 3-1 nails the goal difference.", 1, False),
        # the holders named by their title, before the cup is decided; a champion said
        ("diego, a Mexico rout of the world champions? Brave.", None, False),
        # a pick with its team between: "you went Brazil 2-0 against Serbia"
        ("You went Brazil 1-0 against Serbia, bia: it ended 2-0, 5 points.", 1, False),
        ("You went Brazil 3-0 against Serbia, bia: it ended 2-0.", 1, True),
        ("Brazil are world champions!", None, True),
        # a goal said to be a penalty, by its minute (#1: Vini at 10 and 80, neither one)
        ("A penalty at 80 and another at 81 for Brazil!", 1, True),
        # goals said close together: the match's, that far apart at most (10' and 80')
        ("Vini, two goals in 70 minutes for Brazil!", 1, False),
        ("Vini, two goals in eight minutes for Brazil!", 1, True),
        ("Vini: 2 golos em 8 minutos!", 1, True),
        ("Vini at 10, then a penalty at 80 for Brazil!", 1, True),
        ("Vini at 10 and at 80, and a penalty at 85 missed.", 1, False),
        # a pick exact until a goal was the score just before it
        ("bia, your 1-0 was exact until Vini's 80th minute.", 1, False),
        ("bia, your 1-0 was exact until Vini's 10th minute.", 1, True),
        ("bia, your 1-0 was exact until the 80th minute.", None, False),
        ("ana 2-0 and dani 3-1, and bia's 1-0, which was exact until the 80th.", 1, False),
        # a side's backers counted (#1: ana, bia and dani backed Brazil; #2: caio Argentina)
        ("All three Brazil backers scored, ana exactly.", 1, False),
        ("Both Brazil backers scored.", 1, True),
        ("Both Argentina backers blanked.", 2, True),
        ("Neither Argentina pick survived it.", 2, True),
        ("Neither Brazil pick survived it.", 1, True),  # three of them
        ("Os três apostadores do Brasil pontuaram.", 1, False),
        ("Os dois que apostaram no Brasil pontuaram.", 1, True),
        # ... or said to be most of them: more than half
        ("Most of you were on Brazil, and it paid.", 1, False),
        ("Most of you are on Serbia, so this one matters.", 1, True),
        ("A maioria de vocês estava com a Sérvia.", 1, True),
        # two players next to each other in the table (bia 15, ana 10, dani 7, caio 0)
        ("Keep going, dani: with ana on 10 the next one up the ladder.", None, False),
        ("Keep going, dani: with bia on 15 the next one up the ladder.", None, True),
        ("ana sits right behind bia.", None, False),
        ("caio sits right behind ana.", None, True),
        ("A dani está logo atrás da ana.", None, False),
        ("You're just ahead of dani, ana.", None, False),
        ("You're just ahead of caio, ana.", None, True),
        # lifted off the foot of the table by the match a line is about: last before it
        ("That 3-1 pulled dani up from the bottom.", 1, False),
        ("Its 5 points pulled bia up from the bottom.", 2, True),
        # "the two of you on 1-1" is some of them, not a count of all
        ("The three of you on 2-0 or better got Brazil right.", 1, False),
        # "she", when two are named, may be either: false only when false of both (dani's
        # first points came on #1; bia had them on #1 too)
        (
            "Best line: dani, when caio asked, said 'no peeking' - and she got her first points.",
            1,
            False,
        ),
        (
            "Best line: bia, when caio asked, said 'no peeking' - and she got her first points.",
            2,
            True,
        ),
        # ... but a "he" after the claim is no subject of it
        ("caio got his first points tonight, and he was louder about it than dani.", 1, True),
        # a score said as someone's with a possessive is a pick, not a result
        ("Brazil v Serbia ends 2-0: bia, your 1-0 Serbia sank with mine.", 1, False),
        ("Brazil v Serbia ends 2-0: bia, your 4-4 Serbia sank with mine.", 1, True),
        ("Brazil v Serbia ends 2-0, and dani is 2 clear of my own empty 3-1.", 1, False),
        # the points still to win: an exact on each match left (two: 20)
        ("Two games left, caio: up to 20 points still on the table.", None, False),
        ("Two games left, caio: up to 30 points still on the table.", None, True),
        ("Ainda há 20 pontos em jogo, caio.", None, False),
        ("With 20 points max left across the last two, caio can dream.", None, False),
        ("With 30 points max left across the last two, caio can dream.", None, True),
        ("Two matches and 20 points max each left to play, caio.", None, False),
        ("Two matches and 30 points max each left to play, caio.", None, True),
        # some of the last matches, counted (bia: 5, then 10 exactly)
        ("bia, one exact in your last two.", None, False),
        ("bia, two blanks in your last two games.", None, True),
        ("bia, two exacts in your last two.", None, True),
        ("A bia tem uma cravada nos últimos dois jogos.", None, False),
    ],
)
def test_a_capable_model_s_lines_are_read_as_meant(
    played: Pool, line: str, match: int | None, false: bool
) -> None:
    reason = Claims(played, "betania").check(line, match)
    assert (reason is not None) == false, reason


def test_a_team_s_score_is_a_result_not_a_pick(played: Pool, clock: FakeClock) -> None:
    """ "Japan's 4-1 over Spain": the team's, a result nobody picked; "bia's 4-1" a pick."""
    play(played, clock, 3, "4-1")
    claims = Claims(played, "betania")
    assert claims.check("Japan's 4-1 over Spain was the shock of the week.") is None
    assert claims.check("bia's 4-1 for Japan v Spain was bold.") == "pick 4-1: nobody picked it"


def test_a_dream_over_is_no_match_over(played: Pool) -> None:
    """ "elis's goalless dream is over" while Japan lead: the dream's, not the match's."""
    played.fixtures.kick_off(3)
    claims = Claims(played, "betania")
    assert claims.check("Japan score! bia's goalless dream is over, and caio sweats.", 3) is None
    assert claims.check("Japan v Spain is over, and caio sweats.", 3) == (
        "ended #3: it has not ended"
    )


@pytest.mark.parametrize(
    "line",
    [
        "ana and bia both have two scoring games in a row.",  # ana has one pick
        "caio and bia both have two scoring games in a row.",
    ],
)
def test_a_run_said_of_two_is_checked_for_both(played: Pool, line: str) -> None:
    assert Claims(played, "betania").check(line) is not None


def test_a_match_said_over_in_another_clause_is_still_read(played: Pool) -> None:
    played.fixtures.kick_off(3)
    assert Claims(played, "betania").check("Japan v Spain, full time!", 3) == (
        "ended #3: it has not ended"
    )
    # ... but not one said over to come ("somebody is going to look clever at full time")
    told = "Japan v Spain is under way: somebody is going to look very clever at full time."
    assert Claims(played, "betania").check(told, 3) is None


def test_a_run_said_from_you_is_the_one_spoken_to_s(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """ "Two blanks in a row from you, and a steady 5 from my 1-0": the run is the one she
    speaks to's, though "my" is said beside it (she plays: bia blanked twice, she did not)."""
    pool = tournament_pool
    pool.members.add("betania")
    for handle, number, score in (
        ("betania", 1, Score(1, 0)), ("betania", 2, Score(2, 1)), ("betania", 3, Score(2, 0)),
        ("bia", 1, Score(0, 1)), ("bia", 2, Score(0, 2)),
    ):  # fmt: skip
        pool.predictions.place(handle, number, score)
    play(pool, clock, 1, "2-0")
    play(pool, clock, 2, "1-1")
    claims = Claims(pool, "betania")
    told = "Level, bia. Two blanks in a row from you, and a steady 5 from my 1-0."
    assert claims.check(told) is None
    assert claims.check(told.replace("from you", "from me")) is not None
    # a first over a run said after it: since the matches before it, not ever
    play(pool, clock, 3, "1-0", [Goal("home", 30, scorer="Doan", penalty=True)])
    assert claims.check("Japan v Spain gave me my first points in two matches.", 3) is None
    assert claims.check("Doan's penalty at 30 won it for Japan.", 3) is None
    assert claims.check("Japan v Spain gave me my first points in three matches.", 3) is not None
    # ... or since a moment: the match before it a blank at least (mine on #2 was)
    assert claims.check("Japan v Spain gave me my first points since Saturday.", 3) is None
    assert claims.check("Argentina v Mexico gave me my first points since June.", 2) is not None


@pytest.mark.parametrize(
    ("text", "to"),
    [
        ("Pessimistic is putting it kindly, ana: you've got 1-2 for Japan v Spain.", "ana"),
        ("You went 1-1 for Japan v Spain, bia — a draw, and a brave one.", "bia"),
        ("Everyone else's pick stays sealed until kick-off, bia, so no peeking.", "bia"),
        ("ana and caio blanked, like bia.", ""),  # named, not called
        ("Japan v Spain, one pick in so far: ana, 2-1.", ""),  # a list item, with its pick
        ("The leader is on 15 points.", ""),
    ],
)
def test_the_one_an_answer_speaks_to_is_called_anywhere_in_its_first_sentence(
    played: Pool, text: str, to: str
) -> None:
    """Whom an answer may tell their own pick before kick-off: the one it calls by name."""
    assert answered(text, Claims(played).records()) == to


def test_a_run_of_one_score_is_the_player_s_last_picks(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """ "two 1-1s in a row that didn't land": each of their last picks was that score."""
    pool = tournament_pool
    for handle, number, score in (
        ("ana", 1, Score(1, 1)), ("ana", 2, Score(1, 1)), ("bia", 1, Score(2, 1)),
        ("bia", 2, Score(1, 1)),
    ):  # fmt: skip
        pool.predictions.place(handle, number, score)
    play(pool, clock, 1, "2-0")
    play(pool, clock, 2, "0-0")
    claims = Claims(pool, "betania")
    assert claims.check("ana, two 1-1s in a row that didn't land.") is None
    assert claims.check("bia, two 1-1s in a row that didn't land.") is not None
    assert claims.check("A bia tem dois 1-1 seguidos.") is not None


def test_a_gap_is_one_to_make_up_and_as_the_live_table_counts_it(played: Pool) -> None:
    """bia 15, ana 10, dani 7, caio 0; with #3 live at 1-0 and bia's 1-0 on it, bia leads
    as it stands on 25, 15 clear of ana."""
    claims = Claims(played, "betania")
    assert claims.check("bia has 15, you have 10: 5 points to make up, ana.") is None
    assert claims.check("bia has 15, you have 10: 6 points to make up, ana.") is not None
    played.predictions.place("bia", 3, Score(1, 0))
    played.fixtures.kick_off(3)
    played.fixtures.record_goal(3, Goal("home", 20, scorer="Kubo"))
    assert claims.check("bia 25 as it stands, ana 10: 15 points behind, ana.") is None
    assert claims.check("bia 25 as it stands, ana 10: 14 points behind, ana.") is not None


def test_next_to_in_the_table_is_of_whom_the_pronoun_names(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """ "Your commentator did, ana: I finished top on 10, just ahead of bia": "I" sits next
    to bia, not the one spoken to (she plays: betania 10, bia 5, ana 0)."""
    pool = tournament_pool
    pool.members.add("betania")
    for handle, score in (("betania", Score(2, 0)), ("bia", Score(1, 0)), ("ana", Score(0, 1))):
        pool.predictions.place(handle, 1, score)
    play(pool, clock, 1, "2-0")
    claims = Claims(pool, "betania")
    assert claims.check("Your commentator did, ana: I'm top on 10, just ahead of bia on 5.") is None
    assert claims.check("Your commentator did, bia: I'm top on 10, just ahead of ana.") is not None
    assert claims.check("Well, ana: you're on 0, just ahead of bia.") is not None


def test_a_run_said_to_end_is_the_one_before_the_last_match(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """ "that ends two straight blanks": ana blanked #1 and #2, then scored on #3."""
    pool = tournament_pool
    for number, score in ((1, Score(0, 1)), (2, Score(2, 0)), (3, Score(1, 0))):
        pool.predictions.place("ana", number, score)
    play(pool, clock, 1, "2-0")
    play(pool, clock, 2, "1-1")
    play(pool, clock, 3, "1-0")
    claims = Claims(pool, "betania")
    assert claims.check("Japan 1-0 Spain, ana: that ends two straight blanks.", 3) is None
    assert claims.check("ana, snapping a run of two blanks in a row!", 3) is None
    assert claims.check("A ana acaba com dois zeros seguidos.", 3) is None
    assert claims.check("Japan 1-0 Spain: ana's first points after two straight blanks.", 3) is None
    assert claims.check("Japan 1-0 Spain, ana: that ends three straight blanks.", 3) is not None
    assert claims.check("ana, that's two straight blanks.", 3) is not None


def test_a_run_said_from_is_one_they_once_had(tournament_pool: Pool, clock: FakeClock) -> None:
    """ "from two straight blanks to 5 in a day": ana blanked #1 and #2, then scored."""
    pool = tournament_pool
    for number, score in ((1, Score(0, 1)), (2, Score(2, 0)), (3, Score(1, 0))):
        pool.predictions.place("ana", number, score)
    play(pool, clock, 1, "2-0")
    play(pool, clock, 2, "1-1")
    play(pool, clock, 3, "2-0")
    claims = Claims(pool, "betania")
    assert claims.check("ana went from two straight blanks to 5 points in a day.") is None
    assert claims.check("ana went from three straight blanks to 5 points in a day.") is not None


def test_staying_bottom_is_last_before_the_match_too(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    """ "caio stays bottom on 5": he is last now, but ana was last before #2."""
    pool = tournament_pool
    for handle, number, score in (
        ("ana", 1, Score(0, 1)), ("bia", 1, Score(2, 0)), ("caio", 1, Score(1, 0)),
        ("ana", 2, Score(1, 1)), ("bia", 2, Score(0, 2)), ("caio", 2, Score(0, 3)),
    ):  # fmt: skip
        pool.predictions.place(handle, number, score)
    play(pool, clock, 1, "2-0")
    play(pool, clock, 2, "1-1")
    claims = Claims(pool, "betania")
    assert claims.check("Argentina 1-1 Mexico; caio is bottom on 5.", 2) is None
    assert claims.check("Argentina 1-1 Mexico; caio stays bottom on 5.", 2) is not None


@pytest.fixture
def she_plays(tournament_pool: Pool, clock: FakeClock) -> Pool:
    """She plays too. #1 Brazil 2-0 Serbia: betania 1-0 (5), dani 3-1 (7), ana 0-0 (0).
    #2 Argentina 1-1 Mexico: ana 1-1 (10, her first points), betania 0-0 (7), dani 2-2
    (7), caio 3-0 (0)."""
    pool = tournament_pool
    pool.members.add("betania")
    pool.members.add("dani")
    for handle, number, score in (
        ("ana", 1, Score(0, 0)), ("betania", 1, Score(1, 0)), ("dani", 1, Score(3, 1)),
        ("ana", 2, Score(1, 1)), ("betania", 2, Score(0, 0)), ("dani", 2, Score(2, 2)),
        ("caio", 2, Score(3, 0)),
    ):  # fmt: skip
        pool.predictions.place(handle, number, score)
    play(pool, clock, 1, "2-0")
    play(pool, clock, 2, "1-1")
    return pool


@pytest.mark.parametrize(
    ("line", "false"),
    [
        # one owning a thing opens a clause of their own, not a list with "me"
        (
            "Argentina 1-1 Mexico: dani leads on 14, 2 clear of ana and me, and ana's first points came in style.",
            False,
        ),
        (
            "Argentina 1-1 Mexico: dani leads on 14, 2 clear of ana and me, and dani's first points came in style.",
            True,
        ),
        # "her first points" beside "I" is hers, the player named before
        ("Argentina 1-1 Mexico. ana 1-1 and I with 0-0 took points, her first points.", False),
        ("Argentina 1-1 Mexico. dani 2-2 and I with 0-0 took 7 each, her first points.", True),
        ("Argentina 1-1 Mexico. ana 1-1 and I with 0-0 took points, my first points.", True),
        # a pick said "with" after its picker is no result
        (
            "Argentina 1-1 Mexico is over: ana with 1-1 took 10, dani with 2-2 and I with 0-0 took 7.",
            False,
        ),
        ("Argentina 1-1 Mexico is over, and Brazil with 3-0 too.", True),
        # "the two of you": those its own sentence names, not one named after it
        (
            "Argentina 1-1 Mexico: caio's 3-0 blanked, so caio and ana, the two of you share the bottom. And I sneak past dani.",
            False,
        ),
        (
            "Argentina 1-1 Mexico: caio and ana, the six of you share the bottom. And I sneak past dani.",
            True,
        ),
        # a score between two teams is a result, however brought in (nobody picked 2-0)
        ("The opener went Brazil 2-0 Serbia, and dani took 7.", False),
        ("The opener went Brazil 2-0, and dani took 7.", True),
        # what may yet be is no claim of the table: "could still get you off the bottom"
        ("You're last on 0, caio: an exact or two could still get you off the bottom.", False),
        ("You're last on 0, caio, but off the bottom at last.", True),
    ],
)
def test_lines_of_a_pool_she_plays_in_are_read_as_meant(
    she_plays: Pool, line: str, false: bool
) -> None:
    reason = Claims(she_plays, "betania").check(line, 2)
    assert (reason is not None) == false, reason


def test_a_line_quoted_as_said_before_kick_off_was(tournament_pool: Pool, clock: FakeClock) -> None:
    """bia wrote hers an hour before Argentina v Mexico, caio his ten minutes in."""
    pool = tournament_pool
    kickoff = pool.match(2).kickoff
    clock.now = kickoff - timedelta(hours=1)
    pool.talk.chat("bia", "ouvi dizer 2-0 argentina lol")
    clock.now = kickoff + timedelta(minutes=10)
    pool.talk.chat("caio", "vai dar empate, confia")
    play(pool, clock, 2, "1-1")
    claims = Claims(pool, "betania")
    early = 'Argentina 1-1 Mexico: bia\'s "ouvi dizer 2-0 argentina" before kick-off went nowhere.'
    late = 'Argentina 1-1 Mexico: caio\'s "vai dar empate, confia" before kick-off was spot on.'
    # ... of the quote nearest to it, its own marks no end of a sentence of hers
    both = (
        'Argentina 1-1 Mexico. Best lines: caio\'s "vai dar empate, confia!!" and bia before'
        ' kick-off, "ouvi dizer 2-0 argentina"'
    )
    assert claims.check(both, 2) is None
    flipped = (
        'Argentina 1-1 Mexico. Best lines: bia\'s "ouvi dizer 2-0 argentina!!" and caio before'
        ' kick-off, "vai dar empate, confia"'
    )
    assert claims.check(flipped, 2) is not None
    assert claims.check(early, 2) is None
    assert claims.check(late, 2) is not None
    assert claims.check(late.replace("before kick-off", "ten minutes in"), 2) is None


@pytest.mark.parametrize(
    ("line", "false"),
    [
        # a best day is more than every earlier day's points (bia: 5, 10, then 7; caio: 0
        # then 10; ana: 10 then 5); a day tied with an earlier one is no best (the 63rd
        # fresh run's [148], 7 after 7)
        ("caio, that's your best day in the pool so far!", False),
        ("bia, that's your best day in the pool so far!", True),
        ("Japan 1-0 Spain: ana's best day yet.", True),
        ("O caio teve o seu melhor dia no bolão.", False),
        ("Foi o melhor dia da bia.", True),
        # ... unless denied, hoped for or of another day
        ("Not your best day, bia.", False),
        ("That wasn't your best day, bia.", False),
        ("Não foi o seu melhor dia, bia.", False),
        ("Win the next one and it's your best day yet, bia.", False),
        ("bia, your best day in the pool was 12 Jun.", False),
        ("Japan 1-0 Spain: ana\u2019s best day yet.", True),
    ],
)
def test_a_best_day_is_better_than_every_earlier_one(
    played: Pool, clock: FakeClock, line: str, false: bool
) -> None:
    for handle, score in (("ana", Score(3, 0)), ("bia", Score(2, 1)), ("caio", Score(1, 0))):
        played.predictions.place(handle, 3, score)
    play(played, clock, 3, "1-0")
    reason = Claims(played, "betania").check(line, 3)
    assert (reason is not None) == false, reason


def test_a_best_day_tied_with_an_earlier_one_is_no_best(played: Pool, clock: FakeClock) -> None:
    played.predictions.place("bia", 3, Score(1, 0))  # exact: 10, as on Argentina v Mexico
    play(played, clock, 3, "1-0")
    assert Claims(played, "betania").check("bia, your best day so far!", 3) is not None


@pytest.mark.parametrize(
    ("line", "false"),
    [
        # #1: ana 2-0 and betania 3-1 on Brazil, bia 1-1, caio 0-1: without her 1-1-1
        ("You're split evenly three ways on Brazil v Serbia.", False),
        ("A three-way split among you lot.", False),
        # ... with her, 2-1-1; "the pool" may be the others, as her lines say it (the
        # 68th fresh run's "The pool is split right down the middle, 2 for France, 2 for a
        # draw, 2 for Poland", beside her own pick)
        ("We're split evenly three ways.", True),
        ("The pool is split evenly three ways.", False),
        ("The pool is split right down the middle: 1 Brazil, 1 draw, 1 Serbia.", False),
        ("You're split evenly two ways.", True),
        ("Vocês estão divididos em três, certinho.", False),
        # "split" with no count is only a disagreement; split by scores, or denied
        ("The pool is split on this one.", False),
        ("You're split three ways on the score: 2-0, 3-1 and 1-1.", False),
        ("Not split evenly: two of us on Brazil.", False),
        # the ways listed: "between Brazil, a draw and Serbia" is three
        ("You're split evenly between Brazil, a draw and Serbia.", False),
        ("You're split evenly between Brazil and Serbia.", True),
        # "the rest": but her and those named before (the 69th fresh run's [84]), else
        # those on her own pick
        ("bia is on the draw. The rest of the pool is split evenly, Brazil and Serbia.", False),
        ("bia is on the draw; the rest split evenly between Brazil, a draw and Serbia.", True),
        ("The rest of you are split evenly, one each for Brazil, a draw and Serbia.", False),
    ],
)
def test_a_pool_split_so_many_ways_is_its_picks_outcomes(
    tournament_pool: Pool, clock: FakeClock, line: str, false: bool
) -> None:
    pool = tournament_pool
    pool.members.add("betania")
    for handle, score in (("ana", "2-0"), ("betania", "3-1"), ("bia", "1-1"), ("caio", "0-1")):
        pool.predictions.place(handle, 1, Score.parse(score))
    clock.now = pool.match(1).kickoff
    pool.fixtures.kick_off(1)
    reason = Claims(pool, "betania").check(line, 1)
    assert (reason is not None) == false, reason


@pytest.mark.parametrize(
    ("line", "false"),
    [
        # bia: 5 on 11 Jun, 10 on 12 Jun, nothing on 13 Jun, 7 on 14 Jun (the 69th fresh
        # run's diary: "his first points since 04 Dec", of points five days later)
        ("France 2-1 Morocco: bia's 7 are her first points since 12 Jun.", False),
        ("France 2-1 Morocco: bia's 7 are her first points since 11 Jun.", True),
        ("bia's 2-1 took 7 (her first points since June 11).", True),
        ("Os 7 da bia são os primeiros pontos dela desde 12 de junho.", False),
    ],
)
def test_first_points_since_a_day_are_the_first_of_every_match_after_it(
    played: Pool, clock: FakeClock, line: str, false: bool
) -> None:
    played.predictions.place("bia", 3, Score(0, 1))
    played.predictions.place("bia", 4, Score(2, 1))
    play(played, clock, 3, "1-0")
    play(played, clock, 4, "2-1")
    reason = Claims(played, "betania").check(line, 4)
    assert (reason is not None) == false, reason


@pytest.mark.parametrize(
    ("line", "false"),
    [
        # the 68th fresh run's [24]: the 15th was two days before the third-place match
        (
            "Noted, bia: the trip is on the 15th. At least it's the day before the third-place match.",
            True,
        ),
        ("Noted, bia: the trip is on the 16th, the day before the third-place match.", False),
        ("Noted, bia: 18 Jun, the day after the final.", False),
        ("Noted, bia: 17 Jun, the day after the final.", True),
        ("A viagem é dia 16, véspera da disputa do terceiro lugar.", False),
        # no day said: not judged; nor an ordinal of something else, nor "2 out of 3"
        ("Tomorrow is the day before the final.", False),
        ("bia was the 2nd to pick. The day before the final, picks close.", False),
        ("bia got 2 out of 3 right; the day before the final is a rest day.", False),
        # a day of the sentence before only when this one says it is that day
        ("Noted, bia: the trip is 10 Jun. See you the day after the final!", False),
        ("Noted, bia: on the 15th! At least it's The Day Before the third-place match.", True),
    ],
)
def test_a_day_said_next_to_a_stage_s_match_is_one_day_off_it(
    pool: Pool, line: str, false: bool
) -> None:
    start = datetime(2026, 6, 14, 18, 0, tzinfo=UTC)
    pool.fixtures.import_tournament(
        Tournament(
            "Short Cup",
            (
                fixture("s1", "Brazil", "Serbia", start, stage="Semi-finals"),
                fixture(
                    "t1", "Japan", "Spain", start + timedelta(days=3), stage="Match for third place"
                ),
                fixture(
                    "f1", "France", "Morocco", start + timedelta(days=3, hours=4), stage="Final"
                ),
            ),
        )
    )
    pool.members.add("bia")
    reason = Claims(pool, "betania").check(line, None)
    assert (reason is not None) == false, reason


def test_a_name_with_an_emoji_before_a_figure_is_a_table_s_row_not_a_call(played: Pool) -> None:
    records = Claims(played, "betania").records()
    assert answered("Zero, caio 😂 you stay 4th.", records) == "caio"
    assert answered("bia 🥇 15 pts tonight, the most of anyone.", records) == ""


@pytest.mark.parametrize(
    ("line", "false"),
    [
        # caio blanked twice, she scored twice: a run that let her in is the one spoken
        # to's (the 70th fresh run's call 120, the 66th's "... let me catch you")
        (
            "Sorry, caio, I can't say. Your one exact keeps you above mine, and two blanks in"
            " a row let me in.",
            False,
        ),
        ("Sorry, caio, I can't say. Two scoring games in a row let me in.", False),  # hers
        ("Sorry, caio, I can't say. Two blanks in a row for me, alas.", True),
    ],
)
def test_a_run_that_let_her_in_is_the_one_spoken_to_s(
    tournament_pool: Pool, clock: FakeClock, line: str, false: bool
) -> None:
    pool = tournament_pool
    pool.members.add("betania")
    for handle, number, score in (
        ("caio", 1, "0-1"), ("caio", 2, "0-3"), ("betania", 1, "2-0"), ("betania", 2, "1-1"),
    ):  # fmt: skip
        pool.predictions.place(handle, number, Score.parse(score))
    play(pool, clock, 1, "2-0")
    play(pool, clock, 2, "1-1")
    reason = Claims(pool, "betania").check(line, None)
    assert (reason is not None) == false, reason

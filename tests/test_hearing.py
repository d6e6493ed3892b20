"""She hears what players mean: facts told without "remember", changes of mind and
take-backs in everyday words, secrets kept, and a reply that says what memory did.

The lines below are written as players type them (no accents, "vc", typos, two things
in one line); the hearing bench (bench/hearing.py) grades a whole chat written by
someone who never read the rules."""

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from bench import hearing
from bot.agent.commentator import Commentator
from bot.app.config import ModelConfig
from game.addressing import Addressee
from game.pool import Pool
from memory import facts
from memory.hearing import HearingRejected, check, said_in
from memory.hearing import parse as parse_reading
from memory.keeper import MemoryConfig
from memory.question_kinds import (
    LEADER,
    DayBestAsked,
    GapAsked,
    KnownAbout,
    MostExactAsked,
    OwnStanding,
    PickAsked,
    PoolTable,
    RulesAsked,
    ScoredOnAsked,
    WhoCalledAsked,
    WhoPickedAsked,
)
from memory.retired import retired
from memory.usage import recorded
from memory.utterance import Chat, Forget, Question, Remember, may_tell, read_line
from tests.conftest import TEST_DATA, FakeClock, ScriptedModel, her_in
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
        # what follows "then" is kept when it tells a fact of its own
        (
            "@betania remember: I lived in Leeds for ten years, then moved to Bristol in May",
            "ana lived in Leeds for ten years, then moved to Bristol in May",
        ),
    ],
)
def test_a_fact_told_as_people_tell_it_is_kept(line: str, fact: str) -> None:
    assert stored(line) == fact


@pytest.mark.parametrize(
    ("line", "fact"),
    [
        # her name opening a later sentence, an opener before her name, a "we"
        ("kkk. betania btw adotamos um cachorro, o Bolinha", "adotamos um cachorro, o Bolinha"),
        ("betania meu time é o Bahia, ta?", "o time de ana é o Bahia, ta?"),  # a tag asks nothing
        ("betania new hobby: pottery on saturdays", "pottery on saturdays"),
        # what follows "so" is said to bia: hers, not ana's
        (
            "betania I'm allergic to shrimp, so don't let bia order the paella",
            "ana is allergic to shrimp",
        ),
        ("betania to tendo aula de violão toda terça", "ana tá tendo aula de violão toda terça"),
        # what follows from a fact is no part of it; "fica a saber" opens a telling
        (
            "bet for the record I'm coeliac, so when you lot do the pastéis de nata run count"
            " me out 😢",
            "ana is coeliac",
        ),
        (
            "fica a saber bet: sou do Sporting desde pequenina, por isso não contes comigo",
            "ana é do Sporting desde pequenina",
        ),
        # the room hailed before it ("povo", "Pessoal, mudança:"); seeing a therapist lasts
        (
            "povo mudei de escala, a partir de segunda to no turno da noite 🦉 bet atualiza ai",
            "ana mudou de escala, a partir de segunda to no turno da noite 🦉",
        ),
        (
            "Pessoal, mudança: já não moro em Talatona, fomos pro Kilamba. bet anota aí",
            "ana já não mora em Talatona, fomos pro Kilamba",
        ),
        ("bet, quick one: I see a therapist for anxiety", "ana sees a therapist for anxiety"),
    ],
)
def test_a_fact_told_in_passing_is_kept(line: str, fact: str) -> None:
    assert stored(line) == fact


@pytest.mark.parametrize(
    "line",
    [
        "betania I'm not ok",  # what is left once "ok" closes it says nothing that lasts
        "betania plans for today: watch the game",
        "betania sou o pior do bolão ne?",  # a question, "ne?" and all
        "betania penáltis outra vez, já não tenho unhas",  # what one has today is no fact
        "betania oh my god my heart is gone",
    ],
)
def test_a_mood_or_a_question_is_no_fact(line: str) -> None:
    said = read(line)
    assert not isinstance(said, Remember) or said.told.kept is None, said


@pytest.mark.parametrize(
    "line",
    [
        "betania is so smug today",  # about her, not to her
        "nice goal betania",
        "bia you're a terrible tipster lol",
        "kkk. betania is on fire",
        "MESSI CAMPEÃO 😭😭 que jogo foi esse meu deus",  # "jogo", a game; "meu deus", no god
        "o meu primo é a cara do Richarlison juro 😂",  # a likeness: banter, nothing of hers
        "prolongamento. os meus nervos e nem é a minha seleção",  # "e", and: no "é" told
        "I'm gonna need therapy after this match lol",  # foreseen, not told
        "voltei pra obra hj, bora hexa 🇧🇷🇧🇷",  # the day's news, to the room
        "Messi x Modric hj, meu coração é argentino só por hj",
        "primeira aula de natação às 7h, alguém me explica porque é que faço isto",
        "acabou. não quero falar com ninguém hoje. a partir de agora sou croata de raiva",
        "tô pensando em fazer um churrasco de final aqui em casa, quem tiver perto aparece",
        "voltei a dormir e acordei com 47 mensagens",  # back to sleep once, no habit
        "fun fact: bruno cries at every Portugal anthem. I have video",  # his, not hers
        "prolongamento ugh, tenho uma mesa de 12 a chegar às 17h",  # an appointment
        "folga?? eu tenho 80 reservas ao almoço 🥲 domingo ninguém cozinha em casa",  # a meal's
        "fui, amanhã tenho trabalho de grupo às 9 da manhã num domingo",
        "fiz 7 hoje, já não sou a última 😌",  # the table's to say
        "amanhã corro 10k cedinho, se eu sumir é isso",  # tomorrow's, once
        "Inglaterra x Senegal, torço Senegal por pura birra",  # a side for the match
        "torcendo pro Marrocos no coração e pra França no bolão, sou um homem dividido",
        "o fabio é o meu herói depois dessa",  # a player, and no one of one's own
        "sou a pior do bolão, é oficial, nem o Brasil me safa",  # the table's to say
        "Pipoca de camisa da Argentina hoje, sou traidor",  # a side switched for the match
        "I'm off on friday 🙌",  # one day off, not a habit ("on fridays" is one)
        "eu trabalho sexta mas vou marcar reunião fake às 16h kkk",
        "deixa-me, tive um feeling",  # a hunch, not something had
        "amanhã há greve do STOP, eu faço. mais alguém?",  # "eu faço" alone says nothing done
        "eu faço, fico em Tróia a ver os jogos do sofá 😎",
        "1x4 Croácia sim, e então? sou do contra",  # a contrarian's pick, no club
        "6-1. is this what a Minho Christmas feels like? I'm scared of you all now",  # the room
        "o avô Zé quer ver o jogo cá na quinta, vou fazer um cozido",  # a plan for a match
        "Golaço, o meu filho até saltou do sofá",  # kin in the moment, no one named
        "o Pedro e a minha irmã vêm cá ver o jogo",
        "meu namorado tá gritando com a TV kkkk",  # a partner, in the moment
        "pessoal, não precisa guardar cerveja pra mim, tô de dieta",  # no take-back
        "fala por ti, eu sou é lenta a arrancar 😤",  # a comeback
        "aulas de guitarra: já toco o wonderwall. mentira, só 3 acordes e mal",  # unsaid
        "I'm fluent in Gaelic now. jk, 3 words",
        "fabio!!! 🥹 congrats, my lips are sealed 🤐",  # a body of the moment
        "Messi is 35 and moves like he's 20. I fell off a bike once and my knee is still"
        " filing complaints",
        "tô com uma enxaqueca hoje que nem te conto, e 5 aulas seguidas 😵",  # today's
        "eu saí do zero pelo menos, 5 pontinhos",  # the table's to say
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
        # "é só curiosidade" is no opener of a telling: "juro" tells nothing
        "betania o que é que o bia meteu no jogo de ontem? é só curiosidade juro",
        "@betania quem é que está em último? diz-me que não sou só eu",  # asks, no "?"
        # "remind me" asks what she was told; "i love this" is the moment's, not a taste
        "betania remind me what my dog's called, making her a christmas stocking",
        "bet, me lembra o nome do meu gato",
        "betania i love this for u 😂",
        "@betania confirm for the record: what did bruno pick?",  # asks, tells nothing
        # a show on the day is no fact: "i've got a matinee"
        "betania who's playing tomorrow and what time? i've got a matinee",
        # of someone else ("he's been ..."), and where one is this minute ("voltei")
        "@betania btw is bia ok? he's been kinda off all week",
        "voltei. @betania como eu tô agora?",
    ],
)
def test_banter_and_questions_are_no_fact(line: str) -> None:
    assert isinstance(read(line), Question)


@pytest.mark.parametrize(
    ("line", "asked"),
    [
        # her name closing a question asked without its "?", or after "peraí,"
        ("who's top rn betania", True),
        ("outcome right! where am I now betania", True),
        ("peraí, bet quem tá liderando agora e com quantos pontos??", True),
        # ... after a laugh, after a comma, or with an emoji after it
        ("finalmente saí do zero kkk betania quanto falta pro líder?", True),
        ("eu meti 1-1, foi empate, bet isso dá pontos ou não?", True),
        ("final table pls betania 🙏", True),
        ("eu tb cravei!!!! 🥳 quantos pontos eu tenho betania", True),
        ("kkk betania is on fire", False),
        ("nota: betania is on fire", False),
        # ... not a question of her, to the room
        ("quem liga pra betania", False),
        ("who's better than betania", False),
    ],
)
def test_her_name_closing_a_question_asks_her(line: str, asked: bool) -> None:
    assert isinstance(read(line), Question) is asked


@pytest.mark.parametrize(
    ("line", "someone"),
    [
        ("betania vc ainda lembra do lance do camarão? kkk", None),  # a thing of hers
        ("betania o bruno ta com uma cara hj, sabe de alguma coisa?", None),
        ("betania what do you know about zeca?", "zeca"),  # nobody of the pool: she says so
    ],
)
def test_a_thing_asked_about_is_no_one_she_does_not_know(line: str, someone: str | None) -> None:
    said = read(line)
    assert isinstance(said, Question)
    asked = [a.name for a in said.asks if isinstance(a, KnownAbout) and a.who is None]
    assert asked == ([someone] if someone else []), said


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("betania placar exato vale qto?", RulesAsked),
        ("betania qtos pontos eu tenho?", OwnStanding),
        ("betania qto tu tem e qto eu tenho?", GapAsked),  # hers beside theirs
        ("betania quem fez mais pontos hj?", DayBestAsked),
        # a total "now", not one match's; "é que" and "continuo" as people ask
        ("@betania how many points have I got now?", OwnStanding),
        ("Bet, quem é que cravou o 2-1?", WhoCalledAsked),
        ("Bet, continuo em último? diz-me a verdade, aguento", OwnStanding),
        ("@betania exact scores so far, whole pool?", MostExactAsked),
        ("Croatia third. hold on... @betania did you just overtake me??", GapAsked),
    ],
)
def test_a_question_typed_in_a_hurry(line: str, kind: type) -> None:
    said = read(line)
    assert isinstance(said, Question) and said.asks and isinstance(said.asks[0], kind), said


@pytest.mark.parametrize(
    ("line", "asked"),
    [
        # whose pick, read in the sentence that asks it ("pra eu saber" is the asker's why)
        (
            "bet, qual foi o teu palpite na final? pra eu saber se tu é gênia",
            PickAsked("betania", None),
        ),
        # hers asked, in the second person of Portugal or in English
        ("@betania espera, tu empataste comigo?? quantos pontos tens?", GapAsked("betania", "ana")),
        ("@betania how many points do you have?", GapAsked("betania", "ana")),
        # two places of the table, in the order said
        (
            "bet, quantos pontos separam o primeiro do terceiro?",
            GapAsked(LEADER, "@rank:3"),
        ),
        ("bet, quantos pontos separam o primeiro do quinto?", GapAsked(LEADER, "@rank:5")),
        ("@betania quantos placares exatos tem cada um agora?", MostExactAsked()),
        # who scored, though the line speaks of penalties
        (
            "marrocos nos pênaltis, 0-0... alguém pontuou nessa? bet confirma",
            ScoredOnAsked(" nessa? confirma"),
        ),
        ("bet, o meu 0-0 vale alguma coisa?", PickAsked("ana", None)),
        ("did anyone actually pick Morocco to win, bet?", WhoPickedAsked()),
        ("betania passou na frente?? quanto tem cada um?", PoolTable()),
    ],
)
def test_a_question_is_read_as_a_player_means_it(line: str, asked: object) -> None:
    said = read(line)
    assert isinstance(said, Question) and said.asks[:1] == (asked,), said


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
        # what it takes back is named before it, and "it ever happened" names nothing
        (
            "betania about that interview thing I told you... pls just forget it ever happened",
            "interview",
            False,
        ),
        (
            "betania, aquilo dos comprimidos para a tensão... deixa cair isso",
            "comprimidos para a tensão..",
            False,
        ),
        # "everything" about one thing is that thing, not every fact
        ("betania apaga tudo que falei sobre o Brasil hj, não aconteceu, ok?", "Brasil hj", False),
        # "melhor vc esquecer": what it takes back is what the clause before it named
        ("betania, aquilo q te contei segunda... melhor vc esquecer, tá?", "segunda..", False),
        # closing its line, with why it goes before it
        (
            "betania aquela história da banda de carimbó era zoeira kkk tira isso daí",
            "banda de carimbó era zoeira",
            False,
        ),
    ],
)
def test_a_take_back_names_what_it_takes_back(line: str, what: str, everything: bool) -> None:
    said = read(line)
    assert isinstance(said, Forget) and (said.what, said.everything) == (what, everything), said


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


# -- with a model that hears: it reads the line, the code disposes -------------------


def heard_by(pool: Pool, *readings: dict[str, object]) -> tuple[Commentator, ScriptedModel]:
    """Her with a model whose readings of the lines to her are ``readings``, in order."""
    queue = list(readings)
    model = ScriptedModel(hearing=lambda _call: json.dumps(queue.pop(0)))
    her = her_in(pool, model, MemoryConfig(model_hears=True))
    return her, model


def current_of(pool: Pool, handle: str) -> list[facts.Fact]:
    with pool.engine.connect() as connection:
        return facts.current(connection, handle)


def test_a_model_reads_the_line_and_the_code_applies_what_keeps_the_rules(
    tournament_pool: Pool,
) -> None:
    pool = tournament_pool
    her, model = heard_by(
        pool,
        {"memory": [{"op": "add", "id": None, "text": "ana lives in Campinas", "private": False}],
         "question": None},
        # the model invents beside what was said, and tells on bia: both refused
        {"memory": [
            {"op": "add", "id": None, "text": "ana is vegan", "private": False},
            {"op": "add", "id": None, "text": "ana runs a marathon in Paris", "private": False},
            {"op": "add", "id": None, "text": "bia cheats at cards", "private": False}],
         "question": None},
    )  # fmt: skip
    pool.talk.chat("ana", "betania not that you care but I moved to Campinas")
    her.catch_up()
    pool.talk.chat("ana", "betania going full vegan, and bia cheats at cards lol")
    her.catch_up()
    assert [f.text for f in current_of(pool, "ana")] == ["ana lives in Campinas", "ana is vegan"]
    assert current_of(pool, "bia") == []
    reading = next(c for c in model.calls if c.task == "hearing")
    assert "betania not that you care" in reading.prompt  # the line, quoted as player text
    with pool.engine.connect() as connection:
        outcomes = [c.outcome for c in recorded(connection) if c.task == "hearing"]
    assert "refused: add 'ana runs a marathon in Paris': says what the line did not" in outcomes[1]
    assert "names bia" in outcomes[1]


def test_a_line_memory_did_nothing_with_is_answered_as_such_not_from_facts(
    tournament_pool: Pool,
) -> None:
    """The model read no question, and its add was refused: her answer is told nothing was
    stored, not handed the kizomba fact because both lines say "semana"."""
    pool = tournament_pool
    her, model = heard_by(
        pool,
        {"memory": [{"op": "add", "id": None, "text": "ana takes kizomba classes 3x por semana",
                     "private": False}], "question": None},
        {"memory": [{"op": "add", "id": None, "text": "ana broke up with Nelson in November 2026",
                     "private": True}], "question": None},
    )  # fmt: skip
    pool.talk.chat("ana", "@betania faço kizomba 3x por semana")
    her.catch_up()
    pool.talk.chat("ana", "@betania entre nós duas: terminei com o Nelson semana passada")
    her.catch_up()
    answer = [c for c in model.calls if c.task == "answer"][-1]
    assert "Nothing was stored or forgotten" in answer.prompt
    assert [f.text for f in current_of(pool, "ana")] == ["ana takes kizomba classes 3x por semana"]


def test_a_model_s_replace_and_withdraw_act_on_the_author_s_own_facts_only(
    tournament_pool: Pool,
) -> None:
    pool = tournament_pool
    her, _ = heard_by(
        pool,
        {"memory": [{"op": "add", "id": None, "text": "ana works night shifts", "private": False}],
         "question": None},
        {"memory": [{"op": "add", "id": None, "text": "bia lives in Recife", "private": False}],
         "question": None},
        {"memory": [{"op": "replace", "id": 1, "text": "ana works day shifts", "private": False}],
         "question": None},
        # an id of bia's fact from ana's line: refused; ana's own withdrawn
        {"memory": [{"op": "withdraw", "id": 2, "text": None, "private": False},
                    {"op": "withdraw", "id": 3, "text": None, "private": False}],
         "question": None},
    )  # fmt: skip
    for who, line in (
        ("ana", "betania I work night shifts at the port"),
        ("bia", "betania I live in Recife"),
        ("ana", "betania update: I moved to day shifts this week"),
        ("ana", "betania actually forget all that about my shifts"),
    ):
        pool.talk.chat(who, line)
        her.catch_up()
    assert current_of(pool, "ana") == []
    assert [f.text for f in current_of(pool, "bia")] == ["bia lives in Recife"]
    with pool.engine.connect() as connection:
        day = next(f for f in facts.stored(connection) if f.text == "ana works day shifts")
        night = next(f for f in facts.stored(connection) if f.text == "ana works night shifts")
    assert night.superseded_by == day.id and night.replaced_on is not None  # its history kept
    said = [e.event.text for e in pool.events(kinds=("remark",))]
    assert not any("shift" in text for text in said[-1:])  # the withdrawal not repeated


def test_a_model_s_question_is_answered_from_the_records(played: Pool) -> None:  # noqa: F811
    her, _ = heard_by(
        played,
        {"memory": [], "question": {"kind": "table", "who": None, "match": None, "team": None,
                                    "score": None}},
    )  # fmt: skip
    reply = ask(her, "caio", "betania quem ta na lanterna? fala q nao sou eu")
    assert "bia 15, ana 10" in reply


def test_a_model_asked_her_own_pick_gets_hers_not_the_asker_s(played: Pool) -> None:  # noqa: F811
    her, _ = heard_by(
        played,
        {"memory": [], "question": {"kind": "pick", "who": "betania", "match": 3, "team": None,
                                    "score": None}},
    )  # fmt: skip
    reply = ask(her, "ana", "bet, e o teu palpite pro jogo 3?")
    mine = [p for p in played.predictions_on(3) if p.handle == "betania"]
    assert len(mine) == 1 and str(mine[0].score) in reply and "ana" not in reply.split(":")[0]


def test_a_model_asked_two_players_picks_gets_both(played: Pool) -> None:  # noqa: F811
    her, _ = heard_by(
        played,
        {"memory": [], "question": {"kind": "pick", "who": "bia, caio", "match": 2, "team": None,
                                    "score": None}},
    )  # fmt: skip
    reply = ask(her, "ana", "bet o que a bia e o caio apostaram no jogo 2?")
    assert "bia" in reply and "1-1" in reply and "caio" in reply, reply


def test_a_model_asked_the_pool_s_rules_gets_them_from_the_records(played: Pool) -> None:  # noqa: F811
    her, _ = heard_by(
        played,
        {"memory": [], "question": {"kind": "rules", "who": None, "match": None, "team": None,
                                    "score": None}},
    )  # fmt: skip
    assert "10 points" in ask(her, "ana", "Betinha, placar cravado vale qto mesmo?")


def test_a_line_to_the_room_that_may_tell_is_read_by_the_model_and_answered_by_none(
    tournament_pool: Pool,
) -> None:
    model = ScriptedModel(
        hearing=lambda _call: json.dumps(
            {
                "memory": [
                    {"op": "add", "id": None, "text": "ana lives in Olinda", "private": False}
                ],
                "question": None,
            }
        )
    )
    her = her_in(tournament_pool, model, MemoryConfig(model_hears=True))
    tournament_pool.talk.chat("ana", "aqui em Olinda o sol tá rachando, moro a 2 quadras da praia")
    tournament_pool.talk.chat("ana", "que jogo horrível")  # no first person: not read
    her.catch_up()
    assert [f.text for f in current_of(tournament_pool, "ana")] == ["ana lives in Olinda"]
    assert model.tasks().count("hearing") == 1
    assert tournament_pool.events(kinds=("remark",)) == []


@pytest.mark.parametrize(
    ("line", "read"),
    [
        # a first person without its pronoun, where one is, how long it has lasted
        ("sigo firme na keto, 3 semanas sem pão 💪", True),
        ("levei a Bolacha na praia e ela tentou comer uma água-viva", True),
        ("aqui em bh sol de rachar. Bolinha e Tuca deitados no piso da cozinha", True),
        ("eheh o dragão nunca falha 🐉 sócio do FC Porto há 15 anos", True),
        ("big news folks, got the branch manager job here in glasgow 🎉", True),
        ("can't stay long tonight, gaelic class at 7. been learning for a year now", True),
        # news opened as such past a filler ("e ...", "ok so ...")
        ("e mudança de planos: o casamento passou para 20 de maio, a igreja não tinha data", True),
        ("e aí gente, bora que hoje tem jogo", False),
        # the match, another player, the room
        ("KANE OVER THE BAR 🤣", False),
        ("que jogo!! messi é outro nível", False),
        ("o fabio tá confiante demais hj", False),
    ],
)
def test_a_line_to_the_room_that_may_tell_something_of_its_author(line: str, read: bool) -> None:
    assert may_tell(line) is read


def test_an_answer_that_is_no_reading_leaves_the_line_to_the_rules(tournament_pool: Pool) -> None:
    model = ScriptedModel(hearing=lambda _call: "Sure! Ana lives in Campinas.")
    her = her_in(tournament_pool, model, MemoryConfig(model_hears=True))
    tournament_pool.talk.chat("ana", "betania moro em Campinas")
    her.catch_up()
    assert [f.text for f in current_of(tournament_pool, "ana")] == ["ana mora em Campinas"]


def test_a_take_back_of_a_short_word_and_a_secret_quoted_nowhere(played: Pool) -> None:  # noqa: F811
    her = pool_voice(played)
    ask(her, "bia", "betania btw my ex Callum got me into football")
    ask(her, "bia", "betania actually forget the thing about my ex")
    assert current_of(played, "bia") == []
    ask(her, "ana", "betania entre nós: tô procurando emprego")
    with played.engine.connect() as connection:
        quiet = retired(connection)
    assert quiet.masked("Good luck, ana: tá procurando emprego, I hear.", "(…)") is None


@pytest.mark.parametrize(
    ("fact", "line", "kept"),
    [
        # a capable model's own words: kept (a word-for-word test refused these)
        ("bruno plays drums in a rock band in BH called Servidor Caído",
         "toco bateria numa banda de rock aqui em BH, o nome é Servidor Caído lol", True),
        ("bruno is a Galo fan (\"Galo doente\"), no Cruzeiro talk",
         "sou Galo doente, nem vem com papo de cruzeirense aqui", True),
        ("ana moved to Nova Lima yesterday (05 Dec)", "a mudança pra Nova Lima foi ontem", True),
        # a day it dated gives no name nor number the line lacks ("Dec", "11")
        ("bruno left Croydon for a flat in Hackney on 06 Dec",
         "saí finalmente de croydon!! assinei ontem um flat em hackney", True),
        ("bruno has been 6 months without alcohol as of 11 Dec", "6 meses sem álcool hoje", True),
        # ... nor the year it adds to a date ("03 Dec 2022", "18 de março (2023)")
        ("elis has a baby, Maria Flor (8 months old as of 03 Dec 2022)",
         "6am here in Somerville and Maria Flor (8 months!) already wants to party", True),
        ("bruno marries Lara on 18 de março (2023)",
         "a Lara mandou o save the date: 18 de março nosso casamento", True),
        ("ana is training for the SP half marathon in abril (April 2023)",
         "meia maratona de SP em abril", True),
        ("ana moved to Porto in 2019", "moro no Porto", False),  # a year the line never gave
        ("ana has lived in Porto since May 2018", "moro no Porto desde 2019", False),
        ("ana got married on 12 June 2015", "casei em junho", False),
        # ... nor a weekday in its own language ("terças" as "Tuesdays")
        ("ana plays padel on Tuesdays and Saturdays", "jogo padel às terças e sábados", True),
        ("ana plays padel on Tuesdays", "jogo padel aos sábados", False),  # another day
        ("bruno moves to the morning shift from Monday", "a partir de segunda turno da manhã", True),
        # what the line never named: refused, true or not (the code cannot tell a
        # model's knowledge, "Galo" is Atlético Mineiro, from its invention)
        ("bruno is an Atlético Mineiro fan", "pra constar sou Galo doente", False),
        ("ana is a 16-year-old soccer player from Sydney", "I keep bees on my balcony", False),
        ("ana lives in Paris", "moro em Campinas", False),
        # a month in her language ("since September" of "desde setembro"), not another
        ("ana sees a psychologist since September", "ando numa psicóloga desde setembro", True),
        ("ana sees a psychologist since October", "ando numa psicóloga desde setembro", False),
        # an abbreviation of words the line said: "IVF" of "fertilização in vitro"
        ("ana is doing IVF", "estamos fazendo fertilização in vitro", True),
        ("ana is doing IVF", "estamos fazendo um tratamento", False),
    ],
)  # fmt: skip
def test_a_model_s_fact_may_use_its_own_words_but_not_names_the_line_never_gave(
    fact: str, line: str, kept: bool
) -> None:
    assert said_in(fact, line, ("ana", "bruno")) is kept


def test_a_model_s_replacement_is_stored_as_it_wrote_it(tournament_pool: Pool) -> None:
    pool = tournament_pool
    her, _ = heard_by(
        pool,
        {"memory": [{"op": "add", "id": None, "text": "ana has 4-year-old twins, Lia and Lua",
                     "private": False}], "question": None},
        # the names withdrawn, the twins kept: the 4 is the old fact's, not the line's
        {"memory": [{"op": "replace", "id": 1, "text": "ana has 4-year-old twins, finally sleeping",
                     "private": False}], "question": None},
    )  # fmt: skip
    pool.talk.chat("ana", "betania tenho gêmeas de 4 anos, Lia e Lua")
    her.catch_up()
    pool.talk.chat("ana", "betania esquece os nomes das gêmeas, só os nomes. finally sleeping tho")
    her.catch_up()
    assert [f.text for f in current_of(pool, "ana")] == [
        "ana has 4-year-old twins, finally sleeping"
    ]


def test_a_model_s_replacement_dated_by_a_span_of_days_is_no_score(
    tournament_pool: Pool,
) -> None:
    """The 66th fresh run's call 170: "10-11 Dec" was read as a score 10-11, the move
    refused, and the stale "based in Leeds" posted the next day."""
    pool = tournament_pool
    her, _ = heard_by(
        pool,
        {"memory": [{"op": "add", "id": None, "text": "ana is based in Leeds",
                     "private": False}], "question": None},
        {"memory": [{"op": "replace", "id": 1, "text": "ana is now in York (moved house the "
                     "weekend of 10-11 Dec, from Leeds)", "private": False}], "question": None},
    )  # fmt: skip
    pool.talk.chat("ana", "betania im based in Leeds btw")
    her.catch_up()
    pool.talk.chat("ana", "betania moved house 10-11 Dec, im in York now, not Leeds anymore")
    her.catch_up()
    assert [f.text for f in current_of(pool, "ana")] == [
        "ana is now in York (moved house the weekend of 10-11 Dec, from Leeds)"
    ]


def test_a_model_s_hush_keeps_the_fact_and_her_reply_does_not_repeat_it(
    tournament_pool: Pool,
) -> None:
    pool = tournament_pool
    her, _ = heard_by(
        pool,
        {"memory": [{"op": "add", "id": None, "text": "ana moved to Buritis", "private": False}],
         "question": None},
        {"memory": [{"op": "private", "id": 1, "text": None, "private": True}], "question": None},
    )  # fmt: skip
    pool.talk.chat("ana", "betania fyi moved to Buritis")
    her.catch_up()
    pool.talk.chat("ana", "betania o lance do Buritis fica só entre nós")
    her.catch_up()
    (fact,) = current_of(pool, "ana")
    assert fact.private
    reply = pool.events(kinds=("remark",))[-1].event.text
    assert "Buritis" not in reply and reply.startswith(("Noted, ana", "Got it, ana"))


def test_a_strong_model_s_readings_of_a_held_out_chat_pass_the_gate_but_two() -> None:
    """The readings a strong model (a helper session playing it) gave of the third
    held-out chat (tests/data/hearing_model_readings.jsonl, live run 3): the gate lets
    through every operation but two, both true facts it cannot check ("Galo" told as
    "Atlético Mineiro", "réveillon" as "New Year's"): a name the line never gave. It
    lets one wrong fact through: "ana works in the hospital's IT" read from a greeting to
    the team ("bom diaaa TI do hospital"), which names nothing the line did not."""
    players = {h: h for h in ("ana", "bruno", "carla", "diego", "elis", "fabio", "betania")}
    refused, applied, unread = [], 0, 0
    for raw in (TEST_DATA / "hearing_model_readings.jsonl").read_text("utf-8").splitlines():
        call = json.loads(raw)
        held = [
            facts.Fact(i, call["author"], text, date(2022, 12, 3), "log:1")
            for i, text in call["facts"]
        ]
        try:
            reading = parse_reading(call["answer"])
        except HearingRejected:
            unread += 1  # the helper's three empty answers: the rules read those lines
            continue
        checked = check(reading, call["author"], call["line"], held, players, "betania")
        applied += len(checked.ops)
        refused += checked.refused
    assert unread == 3
    assert applied == 32
    assert [r.split(":")[0] for r in refused] == [
        "add 'bruno is a die-hard Galo (Atlético Mineiro) supporter, not cruzeirense'",
        'add "bruno is going to Salvador for the réveillon (New Year\'s)"',
    ]


def test_a_secret_team_stays_secret_through_every_question_and_its_replacement(
    played: Pool,  # noqa: F811
) -> None:
    her = pool_voice(played)
    ask(her, "bia", "betania between us, I support Argentina")
    assert "Argentina" not in ask(her, "ana", "betania which team does bia support?")
    ask(her, "bia", "betania I support Brazil now")
    (now,) = current_of(played, "bia")
    assert now.private  # what replaces a secret is told in confidence too
    told = ask(her, "ana", "betania what do you know about bia?")
    assert "Argentina" not in told and "Brazil" not in told


@pytest.mark.parametrize(
    "line",
    [
        "betania quem lidera? não fala que sou eu",
        "betania don't tell me the score, who leads?",
        "betania é segredo quem vai ganhar a copa?",
    ],
)
def test_a_question_with_a_word_of_secrecy_is_a_question(line: str) -> None:
    said = read(line)
    assert isinstance(said, Question) and said.asks


def test_a_model_that_forgets_a_secret_is_private_does_not_make_it_public(
    tournament_pool: Pool,
) -> None:
    pool = tournament_pool
    her, _ = heard_by(
        pool,
        {"memory": [{"op": "add", "id": None, "text": "ana is pregnant", "private": False}],
         "question": None},
    )  # fmt: skip
    pool.talk.chat("ana", "betania between us: I'm pregnant")
    her.catch_up()
    (fact,) = current_of(pool, "ana")
    assert fact.private


def test_a_take_back_naming_two_things_or_part_of_one_withdraws_each(
    played: Pool,  # noqa: F811
) -> None:
    her = pool_voice(played)
    for line in (
        "betania tenho gêmeas de 4 anos, Lia e Lua",
        "betania toco violão num bar da Lapa",
        "betania canto no coral da igreja",
        "betania moro em Niterói",
    ):
        ask(her, "ana", line)
    ask(her, "ana", "oops betania esquece os nomes das gêmeas, não curto nome de criança aqui")
    ask(her, "ana", "betania apaga aquilo do violão e do coral")
    assert [f.text for f in current_of(played, "ana")] == ["ana mora em Niterói"]


@pytest.mark.parametrize(
    ("told", "taken_back", "left"),
    [
        # the take-back past the words opening its clause
        (
            ("betania I run half marathons", "betania I'm lactose intolerant"),
            "betania ok this is embarrassing but can u unremember what i said about lactose 🙈",
            ["ana runs half marathons"],
        ),
        # "deixa pra lá" names what the sentence before it said
        (
            ("betania sou de Recife", "betania tô fazendo mestrado em economia à noite"),
            "betania ei, o q eu falei do mestrado... deixa isso pra lá, nao guarda nao",
            ["ana é de Recife"],
        ),
        # what it names is read from the whole line when the words around it name none
        (
            ("betania sou benfiquista", "betania trabalho em remoto a partir de Braga"),
            "betania, não precisas de te lembrar de onde trabalho, tira isso",
            ["ana é benfiquista"],
        ),
        # "casamento" is no "casa": the wedding goes, not the home
        (
            ("betania tô noivo, caso em novembro 💍", "betania moro em Niterói"),
            "betania, sobre o casamento... esquece q eu falei, por favor. deu ruim",
            ["ana mora em Niterói"],
        ),
        # a divorce names a separation in other words
        (
            ("betania sou separada, moro só com a minha filha", "betania torço pro Grêmio"),
            "betania aquilo q te falei do divórcio... tira da memória, tá?",
            ["ana torce pro Grêmio"],
        ),
        # a short name is the start of a fact's; an everyday word ("não") names nothing
        (
            (
                "betania moro em Montevidéu e ainda não entendo os uruguaios",
                "betania eu e a Juliana estamos nos separando",
            ),
            "betania, scratch what I said about me and Ju, a gente tá tentando de novo",
            ["ana mora em Montevidéu e ainda não entende os uruguaios"],
        ),
        # a medicine named by what it is for
        (
            ("betania tô tomando antidepressivo desde setembro", "betania sou de Londrina"),
            "betania, aquilo que eu contei do remédio... pode esquecer, falei demais",
            ["ana é de Londrina"],
        ),
        # a take-back mid-line, after what it takes back
        (
            ("betania tô fazendo dieta low carb", "betania moro em Niterói"),
            "larguei a low carb, betania, pode tirar isso da sua memória",
            ["ana mora em Niterói"],
        ),
        (
            ("betania I'm doing IVF, moody this month sorry", "betania I live in Almada"),
            "betania can we pretend I never mentioned the IVF? 🙈",
            ["ana lives in Almada"],
        ),
        # a church named by its faith; a job by its trade
        (
            ("betania não bebo álcool, sou evangélica", "betania sou professora de inglês"),
            "betania tira isso da minha igreja da sua memória, não quero debate religioso",
            ["ana é professora de inglês"],
        ),
        # what it names is none of hers: nothing goes, not the fact beside it nor the
        # one its reason names
        (
            ("betania I have a bunny called Cenoura", "betania I work in HR"),
            "keto's over for me betania, just wipe that",
            ["ana has a bunny called Cenoura", "ana works in HR"],
        ),
        (
            ("betania I work in HR", "betania I live in Campinas"),
            "betania forget my religion pls, it's not a work-chat thing",
            ["ana lives in Campinas", "ana works in HR"],
        ),
        # a tag and a reason after it are no question; nor is the clause that named it
        (
            ("betania tive uma entrevista na TAP semana passada", "betania moro em Almada"),
            "betania aquilo que te contei da TAP... pode esquecer tá? não rolou e prefiro que "
            "não fique registrado em lugar nenhum",
            ["ana mora em Almada"],
        ),
        (
            ("betania tenho ansiedade, vou à psicóloga às quintas", "betania sou de Coimbra"),
            "betania, lembras-te do que te disse da ansiedade? preferia que apagasses isso",
            ["ana é de Coimbra"],
        ),
        # what she wants to forget herself is no take-back
        (
            ("betania sou atleticana", "betania sou vegetariana"),
            "betania quero esquecer essa derrota",
            ["ana é atleticana", "ana é vegetariana"],
        ),
        # someone else's take-back, asked about, takes nothing back
        (
            ("betania moro em Pinheiros", "betania corro maratona"),
            "betania, o bia pediu pra vc esquecer onde ele mora? ele comentou comigo",
            ["ana corre maratona", "ana mora em Pinheiros"],
        ),
        # an address by its shape ("2210, ap 34"), taken back as "meu endereço", and not
        # the home said beside it
        (
            ("betania moro em Curitiba", "betania tô na Brasílio Itiberê 2210, ap 34"),
            "bet, apaga meu endereço, aquele número da rua e do ap. mandei sem pensar",
            ["ana mora em Curitiba"],
        ),
        # "finge que nunca ouviu": pretend she never heard it
        (
            ("betania toco numa banda de forró", "betania moro em Contagem"),
            "bet, finge q vc nunca ouviu nada sobre a banda, tá? não deu em nada",
            ["ana mora em Contagem"],
        ),
        # "não precisas de guardar nada disso": what the sentence before it named
        (
            ("betania a Marta (sim, a minha namorada) vem cá ver o jogo", "betania moro em Recife"),
            "bet, a Marta já não faz parte da história. não precisas de guardar nada disso",
            ["ana mora em Recife"],
        ),
        # "faz de conta q nunca ouviste", "n quero rasto disso": the sentence before names it
        (
            ("betania tenho entrevista numa clínica no Porto", "betania moro em Aveiro"),
            "bet, lembras-te da cena do Porto? faz de conta q nunca ouviste. n quero rasto disso"
            " em lado nenhum",
            ["ana mora em Aveiro"],
        ),
        # "tudo que eu te falei dele": all of the one named before, and what names him is
        # no new fact
        (
            ("betania namoro o Rafa faz 2 anos", "betania moro em Contagem"),
            "gente terminei com o Rafa ontem. to bem, juro. bet apaga tudo que eu te falei"
            " dele, não quero nem ver o nome",
            ["ana mora em Contagem"],
        ),
        # another take-back of the same and why are no new fact: "esquece, tá? apaga tudo.
        # mudei de ideia"; a condition named in the other language ("o TDAH" of "ADHD")
        (
            (
                "@betania just between us: got diagnosed with ADHD last month",
                "betania moro em Recife",
            ),
            "betania, por favor, esquece o que eu te disse sobre o TDAH. prefiro não ter isso"
            " escrito",
            ["ana mora em Recife"],
        ),
        # ... and a habit ("aquilo de eu fumar" of "I smoke about 10 a day")
        (
            (
                "@betania gonna be honest with you, I smoke about 10 a day and I'm trying to"
                " quit with patches. day 3 today",
                "betania moro em Recife",
                "betania trabalho na cozinha central",
            ),
            "@betania pode apagar aquilo de eu fumar? minha chefe lê esse grupo kkk",
            ["ana mora em Recife", "ana trabalha na cozinha central"],
        ),
        # an organ for its condition ("o coração" of "uma arritmia")
        (
            (
                "betania, cá entre nós... fiz exames e detetaram-me uma arritmia",
                "betania moro em Gaia",
            ),
            "betania, o que te disse sobre o coração, esquece isso por favor. já falei com a"
            " família",
            ["ana mora em Gaia"],
        ),
        # "minha saúde" names a matter of health, whatever its words
        (
            ("betania sou diabética tipo 1 desde os 14", "betania moro em Gaia"),
            "bet, aquilo que eu contei sobre minha saúde… apaga aí. melhor não ter isso"
            " registrado em lugar nenhum",
            ["ana mora em Gaia"],
        ),
        # ... and a body part names it too ("as minhas costas" of "uma hérnia discal")
        (
            (
                "ando com uma hérnia discal e faço fisioterapia às terças e quintas. Betânia,"
                " isto fica cá entre nós",
                "betania moro em Gaia",
            ),
            "Betânia, podes apagar aquilo das minhas costas? já estou melhor e prefiro que não"
            " fique registado",
            ["ana mora em Gaia"],
        ),
        # "do remédio" names a matter of health too ("sertralina ... por causa da ansiedade")
        (
            (
                "bet, só entre nós duas: comecei sertralina em outubro por causa da ansiedade",
                "betania moro em Brasília",
            ),
            "bet, aquela coisa que eu te contei, do remédio... esquece por favor. apaga.",
            ["ana mora em Brasília"],
        ),
        # ... and so does the organ a condition is of ("the stomach thing" of "coeliac")
        (
            (
                "betania ps i'm coeliac so the watch party was basically bread and more bread",
                "betania moro em Salford",
            ),
            "@betania forget the stomach thing i mentioned pls, don't want it on record tbh",
            ["ana mora em Salford"],
        ),
        # a country names a fact of a city in it, not one of a word spelled like it (and
        # "betania só entre nós" is said to her, not of her)
        (
            (
                "betania só entre nós: tenho uma entrevista num restaurante em Lyon em janeiro",
                "betania sou do Porto, e a francesinha de lá é a melhor",
            ),
            "betania, esquece a história de França. desisti, fico por cá",
            ["ana é do Porto, e a francesinha de lá é a melhor"],
        ),
        # "o meu ex" names a break-up told in other words
        (
            ("betania terminei com o Rafa domingo, tô bem", "betania moro em Gaia"),
            "bet aquela historia do meu ex que eu te contei, apaga por favor 🙏",
            ["ana mora em Gaia"],
        ),
        # a filler after the verb ("apaga lá o que eu te disse sobre a minha saúde")
        (
            ("betania sou diabética tipo 1 desde os 12", "betania moro em Viseu"),
            "betania, apaga lá o que eu te disse sobre a minha saúde. pensei melhor",
            ["ana mora em Viseu"],
        ),
        # someone of theirs by name is who "my daughter's name" means, not the wife beside
        (
            (
                "betania a minha Matilde tem 4 anos e eu não durmo desde 2018",
                "betania my wife is a nurse",
            ),
            "betania forget my daughter's name please, my wife doesn't want it floating around"
            " online",
            ["ana's wife is a nurse"],
        ),
        # her name after a colon, opening the take-back
        (
            ("betania meu aniversário é dia 30", "betania moro em Caxias do Sul"),
            "bah, lembrei: betania esquece meu aniversário, não quero parabéns de robô kkkk",
            ["ana mora em Caxias do Sul"],
        ),
        # "esquece por enquanto": for now is no thing named
        (
            ("betania toco numa banda de forró", "betania moro em Contagem"),
            "bet sobre a banda... esquece por enquanto tá? quero contar eu mesma no natal",
            ["ana mora em Contagem"],
        ),
        # the words of the telling ("que eu mandei aquele dia") name nothing; why it goes,
        # with a word of betting in it ("botei"), asks nothing
        (
            ("betania meu endereço: Rua dos Navegantes 412, ap 1101", "betania moro em Recife"),
            "bet pode apagar meu endereço que eu mandei aquele dia? botei no impulso, não quero"
            " isso salvo",
            ["ana mora em Recife"],
        ),
    ],
)
def test_a_take_back_in_everyday_words_withdraws_the_one_fact_it_means(
    played: Pool,  # noqa: F811
    told: tuple[str, ...],
    taken_back: str,
    left: list[str],
) -> None:
    her = pool_voice(played, "pt")
    for line in told:
        ask(her, "ana", line)
    played.talk.chat("ana", taken_back)
    her.catch_up()
    assert sorted(f.text for f in current_of(played, "ana")) == sorted(left)


def test_a_take_back_then_a_new_fact_in_one_line_replaces_the_last_one(
    played: Pool,  # noqa: F811
) -> None:
    her = pool_voice(played)
    ask(her, "ana", "betania moro em Recife")
    ask(her, "ana", "betania esquece isso, moro em Campinas")
    assert [f.text for f in current_of(played, "ana")] == ["ana mora em Campinas"]


def test_what_she_remembers_of_a_player_who_changed_their_mind_fits_her_answer(
    played: Pool,  # noqa: F811
) -> None:
    """Long lines told her, and two changes of mind: the whole answer is posted (its list
    of what was held before took it past 280 characters, and nothing was posted)."""
    her = pool_voice(played)
    for line in (
        "betania I live in Cambuí, like 5 mins from the office. perks 😎",
        "betania fyi my favourite player is Saka, he's going to destroy Senegal today, mark my words",
        "betania we finally moved last weekend btw, we're in Sousas now. bigger garden, longer commute",
        "betania update: Bellingham is my favourite now, sorry Bukayo, that kid is something else",
    ):
        ask(her, "bia", line)
    told = ask(her, "bia", "betania what do you remember about me? curious")
    assert "Bellingham" in told and len(told) <= 280  # the newest first; "1 more besides"


def test_a_take_back_with_a_question_besides_gets_the_question_answered(
    played: Pool,  # noqa: F811
) -> None:
    her = pool_voice(played)
    ask(her, "ana", "betania toco numa banda de forró")
    told = ask(her, "ana", "betania apaga aquilo da banda. e quantos pontos eu tenho?")
    assert current_of(played, "ana") == [] and "10" in told, told


def test_a_take_back_names_what_the_sentence_before_it_said(played: Pool) -> None:  # noqa: F811
    her = pool_voice(played)
    ask(her, "bia", "betania btw I've been in therapy since the summer")
    ask(her, "bia", "betania I moved to Leeds")
    ask(her, "bia", "betania about what I told you on Tuesday, the therapy thing... forget it")
    assert [f.text for f in current_of(played, "bia")] == ["bia moved to Leeds"]


@pytest.mark.parametrize(
    ("told", "taken_back"),
    [
        (
            "betania comprei uma guitarra, vou aprender nas férias",
            "betania esquece isso da guitarra, desisti ao fim de duas aulas",
        ),
        (
            "betania btw I play futsal on Wednesday nights",
            "betania, scratch the futsal thing from your notes, I'm not going back there",
        ),
    ],
)
def test_why_a_fact_is_taken_back_is_no_new_fact(
    played: Pool,  # noqa: F811
    told: str,
    taken_back: str,
) -> None:
    her = pool_voice(played)
    ask(her, "bia", told)
    ask(her, "bia", taken_back)
    said = ask(her, "bia", "betania o que vc sabe de mim?")
    assert current_of(played, "bia") == [] and "guitar" not in said and "futsal" not in said, said


def test_a_move_replaces_the_home_it_names_not_a_newer_fact_sharing_a_no(
    played: Pool,  # noqa: F811
) -> None:
    her = pool_voice(played, "pt")
    ask(her, "bia", "betania moro na Polana Caniço, em Maputo")
    ask(her, "bia", "betania fica entre nós: o médico disse q tenho tensão alta, a malta nao sabe")
    ask(her, "bia", "betania txi, já nao estou na Polana, mudei-me pra Matola")
    now = [f.text for f in current_of(played, "bia")]
    assert any("tensão" in f for f in now) and not any("Polana Caniço" in f for f in now), now


@pytest.mark.parametrize(
    "taken_back",
    [
        "betania deleta aquilo q te contei em off, por favor. já tô melhor",  # the one secret
        "betania esquece o que te contei no domingo retrasado",  # the Sunday before last
    ],
)
def test_a_take_back_by_when_or_how_it_was_told(
    played: Pool,  # noqa: F811
    clock: FakeClock,
    taken_back: str,
) -> None:
    her = pool_voice(played, "pt")
    clock.now = datetime(2026, 6, 14, 12, 0, tzinfo=UTC)  # a Sunday
    ask(her, "bia", "betania entre nós, tô tratando ansiedade. não comenta c ngm")
    clock.now += timedelta(days=1)
    ask(her, "bia", "betania moro em Salvador")
    clock.now += timedelta(days=12)  # Saturday 27 Jun: "domingo retrasado" is 14 Jun
    ask(her, "bia", taken_back)
    assert [f.text for f in current_of(played, "bia")] == ["bia mora em Salvador"]


def test_a_take_back_of_what_was_told_at_night_looks_past_midnight(
    played: Pool,  # noqa: F811
    clock: FakeClock,
) -> None:
    """ "o que te contei na quarta à noite", told at 01:00 on Thursday: the one line of
    either day (of two, the night alone does not say which)."""
    her = pool_voice(played, "pt")
    clock.now = datetime(2026, 6, 8, 9, 0, tzinfo=UTC)  # a Monday
    ask(her, "bia", "betania moro em Salvador")
    clock.now = datetime(2026, 6, 11, 1, 0, tzinfo=UTC)  # Thursday, 01:00
    ask(her, "bia", "@betania só entre nós: ando numa psicóloga por causa da ansiedade")
    clock.now = datetime(2026, 6, 15, 9, 0, tzinfo=UTC)
    ask(her, "bia", "betania, lembras-te do que te contei na quarta à noite? apaga isso, por favor")
    assert [f.text for f in current_of(played, "bia")] == ["bia mora em Salvador"]


def test_a_take_back_with_a_question_asked_without_a_question_mark_gets_both(
    played: Pool,  # noqa: F811
) -> None:
    her = pool_voice(played)
    ask(her, "ana", "betania toco numa banda de forró")
    told = ask(
        her, "ana", "betania apaga aquilo da banda, por favor. e me diz quantos pontos eu tenho"
    )
    assert current_of(played, "ana") == [] and "10" in told, told


@pytest.mark.parametrize(
    ("line", "fact"),
    [
        ("heads up, on Thursdays I have Portuguese class at 7pm", "Portuguese class"),
        (
            "alguém indica restaurante sem glúten? sou intolerante e sair vira um drama",
            "intolerante",
        ),
        ("moro no Batel, pertinho do escritório", "mora no Batel"),
        ("todo fim de semana tô no rio atrás de tucunaré", "tucunaré"),
        ("No Natal vamos passar uma semana à Madeira", "Madeira"),
        # a today beside what lasts leaves it a fact
        ("moro em Montevidéu faz 3 anos e hj vão torcer até pra Austrália", "Montevidéu"),
        ("sou fotojornalista e hoje calhou-me um jogo de futsal", "fotojornalista"),
        ("and tuesdays I have Luxembourgish class at 8", "Luxembourgish class"),
        ("voltei a comer peixe desde que vim pra cá", "voltou a comer peixe"),
        # a side taken for the match goes, what lasts stays
        ("moro em Campinas mas hj sou argentino", "mora em Campinas"),
        # what one is, not a side for the match
        ("I live in Manchester but I'm Brazilian", "they are Brazilian"),
        # an age or a count is no hour of an appointment; what one has lived or had lasts
        ("I started running at 40", "started running at 40"),
        ("I have lived in Porto for 10 years", "has lived in Porto"),
        ("I had surgery on my knee last month", "had surgery"),
        ("larguei a keto, agora é só jejum intermitente 16/8", "16/8"),  # a diet, no score
        ("sou professora de inglês numa escola em Niterói", "professora de inglês"),
        # one's own pet or kin named as an aside; "for those who don't know" opens it
        ("o Pastel é o meu gato, para quem não sabe, 3 anos e manda lá em casa", "Pastel"),
        ("6h e o Nhonho (meu gato, pra quem não conhece a fera) miando na porta", "Nhonho"),
        ("vou ver o jogo em casa com a Leonor, a minha filha. tem 4 anos", "Leonor"),
        ("27 graus em POA. pra quem não sabe sou colorada desde criança", "colorada"),
        ("voltei a comer peixe, então tecnicamente agora sou pescetariana", "pescetariana"),
        ("larguei a cafeína. só chá agora. estou um zombie", "chá agora"),  # "só" is no "so"
        ("trabalho segunda a sexta no hospital, fim de semana é bola", "segunda a sexta"),
        ("amo vocês, tô grávida de 8 semanas 🥹", "grávida"),  # the room loved, a fact told
    ],
)
def test_a_fact_told_to_the_room_is_kept_without_an_answer(line: str, fact: str) -> None:
    said = read(line)
    assert isinstance(said, Remember) and said.overheard and said.told.kept is not None
    assert fact in said.told.kept.text, said.told.kept.text


@pytest.mark.parametrize(
    ("line", "fact"),
    [
        (
            "quick one, not for HR ears: my residence permit renewal is stuck at the IND",
            "residence permit",
        ),
        ("não comentem por favor, mas terminei o noivado mês passado", "noivado"),
        # a secret told to the room is kept: the room named is no feeling about it
        ("sei q é o grupo mas só vcs sabem: tô grávida de 8 semanas 🥹", "grávida"),
        # a health fact is private however it is told, and its opener is no part of it
        (
            "betania pode saber: sou hipertenso, tomo losartana todo dia",
            "é hipertenso, toma losartana",
        ),
        # a matter of health or family said plainly, to her or to the room
        ("betania tenho enxaqueca crônica", "tem enxaqueca crônica"),
        ("o meu pai está internado desde domingo", "o pai de ana está internado"),
        ("@betania I'm going through a divorce so don't mind me", "is going through a divorce"),
        ("bet for the record I'm coeliac, so count me out", "is coeliac"),
        ("a Marta (sim, a minha namorada) vem cá ver o jogo", "namorada"),
        # an allergy is a matter of health, even told for the team's dinner
        (
            "aviso para o jantar de natal: não posso comer marisco, sou alérgica a sério",
            "é alérgica",
        ),
        ("betania I'm allergic to shrimp, epipen and all", "is allergic to shrimp"),
    ],
)
def test_a_secret_or_a_health_fact_is_kept_private(line: str, fact: str) -> None:
    said = read(line)
    assert isinstance(said, Remember) and said.private and said.told.kept is not None
    kept = said.told.kept.text
    assert fact in kept and "HR" not in kept and "saber" not in kept, kept


def test_a_take_back_to_her_after_a_colon_is_to_her() -> None:
    """ "bah, lembrei: betania esquece ...": she answers it, not only hears it."""
    said = read("bah, lembrei: betania esquece meu aniversário, não quero parabéns de robô")
    assert isinstance(said, Forget) and said.line and said.what == "meu aniversário"

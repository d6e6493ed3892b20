import json
from datetime import date, timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DatabaseError

from bot.agent.gateway import remembering
from bot.agent.providers.base import ModelCall
from game.pool import Pool
from memory import facts, naming, spoken_dates
from memory.keeper import MemoryConfig, MemoryKeeper
from memory.person import second_person, third_person
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
    assert naming.others_named("ana cheats", "bia", players) == ["ana"]
    assert naming.others_named("I like Ana Paula's picks", "bia", players) == ["ana"]
    assert naming.others_named("@ana is away", "bia", players) == ["ana"]
    assert (
        naming.others_named("I read banana news and tease betania", "bia", players, "betania") == []
    )
    assert naming.others_named("I am bia, the one who supports Brazil", "bia", players) == []


@pytest.mark.parametrize(
    ("said", "until"),
    [
        ("until 2026-07-10", date(2026, 7, 10)),
        ("until July 3", date(2026, 7, 3)),
        ("until 9 jun", date(2026, 6, 9)),
    ],
)
def test_expiry_is_read_in_several_ways(said: str, until: date) -> None:
    assert spoken_dates.expiry_in(f"away {said}", date(2026, 6, 1)) == until


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
    found = spoken_dates.expiry_in(said, told_on, final)
    assert (found.isoformat() if found else None) == ends


def test_an_expired_fact_leaves_the_prompt_on_time(keeper: MemoryKeeper, clock: FakeClock) -> None:
    tell(keeper, "ana", "@betania remember that I am on holiday in Lisbon in early July")
    with keeper.pool.work.read() as connection:
        assert facts.for_prompt(connection, "ana", date(2026, 7, 10))
        assert not facts.for_prompt(connection, "ana", date(2026, 7, 11))


def test_unknown_names_get_suggestions_not_guesses() -> None:
    players = {"ana": "Ana", "bia": "Bia", "caio": "Caio"}
    assert naming.suggest("anna", players) == ["ana"]
    assert naming.suggest("zeca", players) == []


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


# -- the person a fact is told in ---------------------------------------------------

# Facts as players tell them in a WhatsApp group, in the first person, and how she keeps
# them (third person, for bruno) and says them back (second person). Before the rules
# for Portuguese verbs (eb941c2) 29 of these 76 were kept right, and 44 of the 49 English.
TOLD_PT = [
    ("me mudei para Recife", "bruno se mudou para Recife", "você se mudou para Recife"),
    ("moro em Porto Alegre", "bruno mora em Porto Alegre", "você mora em Porto Alegre"),
    ("eu moro em Recife faz 2 anos", "bruno mora em Recife faz 2 anos", None),
    ("sou gremista desde pequeno", "bruno é gremista desde pequeno", "você é gremista desde pequeno"),
    ("to em lisboa ate dia 20", "bruno tá em lisboa ate dia 20", "você tá em lisboa ate dia 20"),
    ("tenho 3 filhos", "bruno tem 3 filhos", "você tem 3 filhos"),
    ("torço pro Sport desde criança", "bruno torce pro Sport desde criança", None),
    ("trabalho no Itaú", "bruno trabalha no Itaú", "você trabalha no Itaú"),
    ("gosto muito de pagode", "bruno gosta muito de pagode", None),
    ("fui goleiro no time da escola", "bruno foi goleiro no time da escola", None),
    ("nasci em Belém do Pará", "bruno nasceu em Belém do Pará", "você nasceu em Belém do Pará"),
    ("morei 5 anos em Londres", "bruno morou 5 anos em Londres", "você morou 5 anos em Londres"),
    ("comecei a trabalhar na Embraer", "bruno começou a trabalhar na Embraer", None),
    ("ano passado me mudei pra BH", "ano passado bruno se mudou pra BH", None),
    ("agora torço pro Fortaleza", "bruno agora torce pro Fortaleza", "você agora torce pro Fortaleza"),
    ("não bebo cerveja", "bruno não bebe cerveja", "você não bebe cerveja"),
    ("cresci em Olinda mas moro em SP", "bruno cresceu em Olinda mas mora em SP", None),
    ("assisti a final de 2002 no estádio", "bruno assistiu a final de 2002 no estádio", None),
    ("fiquei noivo em maio", "bruno ficou noivo em maio", "você ficou noivo em maio"),
    ("cheguei ontem de Manaus", "bruno chegou ontem de Manaus", None),
    ("vou me mudar pra Curitiba em agosto", "bruno vai se mudar pra Curitiba em agosto", None),
    ("acabei de me formar em direito", "bruno acabou de se formar em direito", None),
    ("meu gato se chama Pelé", "o gato de bruno se chama Pelé", "seu gato se chama Pelé"),
    ("minha filha nasceu em junho", "a filha de bruno nasceu em junho", "sua filha nasceu em junho"),
    ("jogo futevôlei todo sábado com meu irmão", "bruno joga futevôlei todo sábado com seu irmão",
     "você joga futevôlei todo sábado com seu irmão"),
    ("estou de férias até dia 10", "bruno está de férias até dia 10", None),
    ("sou alergica a camarão", "bruno é alergica a camarão", "você é alergica a camarão"),
    ("odeio pênalti", "bruno odeia pênalti", None),
    ("perdi meu emprego em março", "bruno perdeu seu emprego em março", "você perdeu seu emprego em março"),
    ("desde 2019 trabalho de casa", "desde 2019 bruno trabalha de casa", None),
    ("fiz 40 anos ontem", "bruno fez 40 anos ontem", "você fez 40 anos ontem"),
    ("tive covid na copa passada", "bruno teve covid na copa passada", None),
    ("casei com a Carla em 2015", "bruno casou com a Carla em 2015", None),
    ("moro em Recife e trabalho no porto", "bruno mora em Recife e trabalha no porto", None),
    ("sempre assisto os jogos no bar do Zé", "bruno sempre assiste os jogos no bar do Zé", None),
    ("virei Flamengo depois de 2019", "bruno virou Flamengo depois de 2019", None),
    ("Eu prefiro ver o jogo em casa", "bruno prefere ver o jogo em casa", "você prefere ver o jogo em casa"),
    ("corro a maratona do Rio todo ano", "bruno corre a maratona do Rio todo ano", None),
    ("tô morando em Natal", "bruno tá morando em Natal", "você tá morando em Natal"),
    ("mudei-me para Fortaleza", "bruno mudou-se para Fortaleza", "você mudou-se para Fortaleza"),
    # Written after the rules, held out from them: 20 of these 25 came out right at first.
    ("sou de Campinas mas moro no Rio há 10 anos", "bruno é de Campinas mas mora no Rio há 10 anos",
     None),
    ("tenho um cachorro chamado Thor", "bruno tem um cachorro chamado Thor", None),
    ("Moro sozinho", "bruno mora sozinho", "você mora sozinho"),
    ("me aposentei ano passado", "bruno se aposentou ano passado", None),
    ("faço aniversario dia 12", "bruno faz aniversario dia 12", None),
    ("trabalho como enfermeira no HC", "bruno trabalha como enfermeira no HC", None),
    ("estudo engenharia na UFPE", "bruno estuda engenharia na UFPE", None),
    ("voltei a morar com meus pais", "bruno voltou a morar com seus pais",
     "você voltou a morar com seus pais"),
    ("torci pro Santos a vida toda", "bruno torceu pro Santos a vida toda", None),
    ("sou vegetariano", "bruno é vegetariano", None),
    ("nao como carne", "bruno nao come carne", "você nao come carne"),
    ("jogo no time de veteranos do bairro", "bruno joga no time de veteranos do bairro", None),
    ("minha esposa é corintiana e eu sou são paulino",
     "a esposa de bruno é corintiana e bruno é são paulino",
     "sua esposa é corintiana e você é são paulino"),
    ("durmo cedo em dia de jogo", "bruno dorme cedo em dia de jogo", None),
    ("passei a torcer pro Bahia", "bruno passou a torcer pro Bahia", None),
    ("me separei em 2022", "bruno se separou em 2022", "você se separou em 2022"),
    ("entrei na Natura mês passado", "bruno entrou na Natura mês passado", None),
    ("viajo muito a trabalho", "bruno viaja muito a trabalho", None),
    ("adoro churrasco", "bruno adora churrasco", "você adora churrasco"),
    ("ainda moro em Santos", "bruno ainda mora em Santos", None),
    ("fui demitido semana passada", "bruno foi demitido semana passada", None),
    ("tenho medo de avião", "bruno tem medo de avião", None),
    ("sei cozinhar moqueca", "bruno sabe cozinhar moqueca", None),
    ("aprendi a nadar com 30 anos", "bruno aprendeu a nadar com 30 anos", None),
    ("durmo tarde", "bruno dorme tarde", None),
    # A second batch held out: 20 of 20 right at first.
    ("Tenho 2 gatas, a Mel e a Nina", "bruno tem 2 gatas, a Mel e a Nina", None),
    ("to desempregado desde janeiro", "bruno tá desempregado desde janeiro", None),
    ("trabalhei 10 anos no BB", "bruno trabalhou 10 anos no BB", "você trabalhou 10 anos no BB"),
    ("moro com minha namorada em Niterói", "bruno mora com sua namorada em Niterói",
     "você mora com sua namorada em Niterói"),
    ("chorei no 7x1", "bruno chorou no 7x1", None),
    ("nunca perdi um jogo do Brasil em copa", "bruno nunca perdeu um jogo do Brasil em copa", None),
    ("conheci minha esposa num jogo do Grêmio", "bruno conheceu sua esposa num jogo do Grêmio",
     "você conheceu sua esposa num jogo do Grêmio"),
    ("tomo café sem açúcar", "bruno toma café sem açúcar", None),
    ("segui o Brasil em 3 copas", "bruno seguiu o Brasil em 3 copas", None),
    ("me chamo Bruno mas todo mundo me chama de Bruninho",
     "bruno se chama Bruno mas todo mundo lhe chama de Bruninho",
     "você se chama Bruno mas todo mundo te chama de Bruninho"),
    ("meu pai me levou no Maracanã em 1989", "o pai de bruno lhe levou no Maracanã em 1989",
     "seu pai te levou no Maracanã em 1989"),
]  # fmt: skip
TOLD_EN = [
    ("I moved to Recife", "ana moved to Recife", "you moved to Recife"),
    ("I support Corinthians since I was six", "ana supports Corinthians since they were six",
     "you support Corinthians since you were six"),
    ("I have two cats", "ana has two cats", "you have two cats"),
    ("I'm a nurse", "ana is a nurse", "you're a nurse"),
    ("I've been to every World Cup since 1998", "ana has been to every World Cup since 1998", None),
    ("I'd never bet against Brazil", "ana would never bet against Brazil", None),
    ("I'll be in Lisbon until 20 jun", "ana will be in Lisbon until 20 jun", None),
    ("i live in porto alegre", "ana lives in porto alegre", "you live in porto alegre"),
    ("I work at a bakery", "ana works at a bakery", "you work at a bakery"),
    ("I started at Nubank last week", "ana started at Nubank last week", None),
    ("now I support Palmeiras", "now ana supports Palmeiras", "now you support Palmeiras"),
    ("I go to the stadium every Sunday", "ana goes to the stadium every Sunday", None),
    ("I watch every match with my dad", "ana watches every match with their dad", None),
    ("my dog is called Biscuit", "ana's dog is called Biscuit", "your dog is called Biscuit"),
    ("I was born in Manaus", "ana was born in Manaus", "you were born in Manaus"),
    ("I don't drink beer", "ana doesn't drink beer", "you don't drink beer"),
    ("I never miss a Flamengo game", "ana never misses a Flamengo game", None),
    ("I hate penalties", "ana hates penalties", None),
    ("I teach maths at a school in Niterói", "ana teaches maths at a school in Niterói", None),
    ("I play the guitar in a samba band", "ana plays the guitar in a samba band", None),
    ("I study law at USP", "ana studies law at USP", None),
    ("I grew up in Salvador but I live in Rio", "ana grew up in Salvador but they live in Rio",
     "you grew up in Salvador but you live in Rio"),
    ("when I was a kid I lived in Lisbon", "when ana was a kid they lived in Lisbon", None),
    ("I really love Japan's kit", "ana really loves Japan's kit", None),
    ("I'm allergic to peanuts", "ana is allergic to peanuts", "you're allergic to peanuts"),
    ("I got a job at Petrobras", "ana got a job at Petrobras", None),
    ("I fix bikes on weekends", "ana fixes bikes on weekends", None),
    ("I do yoga every morning", "ana does yoga every morning", None),
    ("I have been a Vasco fan since I was ten", "ana has been a Vasco fan since they were ten",
     "you have been a Vasco fan since you were ten"),
    ("I usually watch from the pub", "ana usually watches from the pub", None),
    ("I can't stand VAR", "ana can't stand VAR", None),
    ("I relocated to Curitiba in May", "ana relocated to Curitiba in May", None),
    # Written after the rules, held out from them: 11 of these 12 came out right at first.
    ("I just moved to Floripa", "ana just moved to Floripa", None),
    ("im a huge Vasco fan", "ana is a huge Vasco fan", "you're a huge Vasco fan"),
    ("I've got a dog called Thor", "ana has got a dog called Thor", None),
    ("I used to live in Lisbon", "ana used to live in Lisbon", None),
    ("I was a goalkeeper when I was young", "ana was a goalkeeper when they were young",
     "you were a goalkeeper when you were young"),
    ("I'm off to Lisbon next week", "ana is off to Lisbon next week", None),
    ("I only watch the second half", "ana only watches the second half", None),
    ("I coach my son's team", "ana coaches their son's team", "you coach your son's team"),
    ("I'll miss the final, I'm working", "ana will miss the final, they are working", None),
    ("I am vegetarian", "ana is vegetarian", "you are vegetarian"),
    ("I try to guess every 0-0", "ana tries to guess every 0-0", None),
    ("ive got two kids", "ana has got two kids", "you've got two kids"),
    # A second batch held out: 13 of 15 right at first ("never bet", "the 9are games").
    ("I was at the Maracanã in 2014", "ana was at the Maracanã in 2014",
     "you were at the Maracanã in 2014"),
    ("I support Grêmio, my dad too", "ana supports Grêmio, their dad too",
     "you support Grêmio, your dad too"),
    ("I've lived in Recife all my life", "ana has lived in Recife all their life",
     "you've lived in Recife all your life"),
    ("I can't watch the 9am games", "ana can't watch the 9am games",
     "you can't watch the 9am games"),
    ("my wife thinks I'm crazy", "ana's wife thinks they are crazy", "your wife thinks you're crazy"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("handle", "told", "kept", "said_back"),
    [("bruno", *told) for told in TOLD_PT] + [("ana", *told) for told in TOLD_EN],
)
def test_a_fact_told_in_the_first_person_is_kept_in_the_third_and_said_back_in_the_second(
    handle: str, told: str, kept: str, said_back: str | None
) -> None:
    assert third_person(told, handle) == kept
    if said_back is not None:
        assert second_person(told) == said_back


# Lines with no first person in them: kept word for word (17 of these 20 were at first:
# "todo jogo do Brasil é sofrido" became "todo bruno joga do Brasil...").
NOT_ABOUT_THE_TELLER = [
    "o Brasil é penta", "a copa de 70 foi a melhor", "pagode é vida",
    "todo jogo do Brasil é sofrido", "domingo tem clássico", "VAR estraga o futebol",
    "ano que vem tem Copa", "hoje tem jogo", "segunda é dia de ressaca", "o churrasco é sábado",
    "cerveja quente não dá", "futebol raiz acabou", "jogo bom é jogo com gol",
    "amanhã tem Fla-Flu", "nada é melhor que um 1x0", "the Seleção plays in yellow",
    "penalties are a lottery", "Sunday is for football", "nobody beats Brazil at home",
    "football is life",
]  # fmt: skip


@pytest.mark.parametrize("said", NOT_ABOUT_THE_TELLER)
def test_a_line_with_no_first_person_is_kept_as_it_was_said(said: str) -> None:
    assert third_person(said, "bruno") == said


def test_words_that_are_no_first_person_verb_keep_their_form() -> None:
    # A club, a noun after "e", a participle: none is a verb to turn.
    assert third_person("Flamengo é o maior do Brasil", "bruno") == "Flamengo é o maior do Brasil"
    assert third_person("gosto de vinho e queijo", "bruno") == "bruno gosta de vinho e queijo"
    assert third_person("todo domingo jogo bola", "bruno") == "todo domingo bruno joga bola"
    assert third_person("no meat for me on Fridays", "ana") == "no meat for them on Fridays"
    # a long "-mento" opening a clause is a noun; "lamento" is a verb
    assert third_person("moro no Kilamba, apartamento maior", "diego") == (
        "diego mora no Kilamba, apartamento maior"
    )
    # nor is a gerund, nor "pronto"
    assert third_person("contando só pra vcs", "diego") == "contando só pra vcs"
    assert third_person("pronto, mudança feita", "diego") == "pronto, mudança feita"


def remembered(keeper: MemoryKeeper, clock: FakeClock, player: str, *lines: str) -> None:
    """Each line told on its own day, as a move is told weeks after the home it replaces."""
    for line in lines:
        tell(keeper, player, f"@betania {line}")
        clock.advance(days=3)


@pytest.mark.parametrize(
    ("before", "after", "subject", "now"),
    [
        ("lembra que eu moro em Porto Alegre", "lembra que me mudei para Recife", "home",
         "caio se mudou para Recife"),
        ("anota aí: moro em Porto Alegre", "guarda que ano passado me mudei pra BH", "home",
         "ano passado caio se mudou pra BH"),
        ("remember that I live in Porto Alegre", "remember I moved to Recife", "home",
         "caio moved to Recife"),
        ("remember I'm based in Lisbon", "remember that I relocated to Curitiba", "home",
         "caio relocated to Curitiba"),
        ("lembra que torço pro Ceará", "lembra que agora torço pro Fortaleza", "team",
         "caio agora torce pro Fortaleza"),
        ("remember I support Corinthians since I was six", "remember now I support Palmeiras",
         "team", "now caio supports Palmeiras"),
        ("lembra que trabalho no Itaú", "lembra que comecei a trabalhar na Embraer", "work",
         "caio começou a trabalhar na Embraer"),
        ("remember that I work at Itaú", "remember I started at Nubank", "work",
         "caio started at Nubank"),
        ("lembra que moro em Porto Alegre", "lembra que agora moro com minha namorada em Niterói",
         "home", "caio agora mora com sua namorada em Niterói"),
        ("lembra que trabalho na Vale", "lembra que consegui um emprego na Natura", "work",
         "caio conseguiu um emprego na Natura"),
        ("remember im a huge Vasco fan", "remember I'm a Sport fan now", "team",
         "caio is a Sport fan now"),
        ("lembra q trabalho no HC", "lembra que tô trabalhando na Natura", "work",
         "caio tá trabalhando na Natura"),
    ],
)  # fmt: skip
def test_a_move_a_new_team_a_new_job_replace_the_old_one_which_stays_in_the_log(
    keeper: MemoryKeeper, clock: FakeClock, before: str, after: str, subject: str, now: str
) -> None:
    first_day = clock.now.date()
    remembered(keeper, clock, "caio", before, after)
    (kept,) = current(keeper, "caio")
    assert kept.text == now
    old, new = stored(keeper)
    assert (old.superseded_by, old.replaced_on) == (new.id, first_day + timedelta(days=3))
    with keeper.pool.work.read() as connection:
        assert [f.text for f in facts.held(connection, "caio", subject, first_day)] == [old.text]
        assert facts.replaced(connection, new) == old


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("remember that I live in Porto Alegre", "remember that my brother lives in Recife"),
        ("lembra que moro em Porto Alegre", "lembra que meu irmão mora em Recife"),
        ("lembra que moro em Porto Alegre", "lembra que morei 5 anos em Londres"),
        ("remember I live in Porto Alegre", "remember that I lived in London as a kid"),
        ("remember that I support Flamengo", "remember my wife supports Vasco"),
        ("lembra que torço pro Flamengo", "lembra que minha esposa torce pro Vasco"),
        ("remember I play chess", "remember that I also play padel"),
        ("lembra que jogo futevôlei", "lembra que também jogo vôlei de praia"),
        ("remember I work at Itaú", "remember I worked at Vale before"),
        ("lembra que trabalho no Itaú", "lembra que trabalhei na Vale antes"),
        ("remember that I support Flamengo", "remember that I also support Vasco"),
        ("remember that I work at Itaú", "remember I joined a choir"),
        ("lembra que moro em Porto Alegre", "lembra que vou me mudar pra Curitiba em agosto"),
        ("remember I live in Porto Alegre", "remember I'm moving to Porto next month"),
        ("lembra que trabalho no Itaú", "lembra que entrei na academia"),
    ],
)
def test_someone_else_the_past_a_plan_or_a_second_hobby_replaces_nothing(
    keeper: MemoryKeeper, clock: FakeClock, before: str, after: str
) -> None:
    remembered(keeper, clock, "caio", before, after)
    assert len(current(keeper, "caio")) == 2


def test_where_someone_lives_now_is_the_move_they_told_last(
    tournament_pool: Pool, clock: FakeClock
) -> None:
    from tests.test_answers import ask, pool_voice

    voice = pool_voice(tournament_pool, "pt")
    assert "você mora em Porto Alegre" in ask(
        voice, "caio", "@betania lembra q eu moro em Porto Alegre"
    )
    clock.advance(days=20)
    moved = ask(voice, "caio", "@betania lembra que me mudei pra Recife")
    assert "você se mudou pra Recife" in moved and "mudei" not in moved
    where = ask(voice, "bia", "@betania onde o caio mora?")
    assert "Recife" in where and "Porto Alegre" not in where


def test_a_move_is_forgotten_as_it_was_told_and_a_thing_named_is_no_verb(
    keeper: MemoryKeeper, clock: FakeClock
) -> None:
    remembered(
        keeper, clock, "caio", "lembra que meu gato se chama Pelé", "anota: me mudei pra Recife"
    )
    tell(keeper, "caio", "@betania esquece que me mudei pra Recife")
    assert [f.text for f in current(keeper, "caio")] == ["o gato de caio se chama Pelé"]
    assert third_person("gato", "caio") == "gato"  # "esquece o gato": a cat, not "caio gata"


def test_the_address_posted_is_the_fact_with_a_street_among_those_of_home(
    keeper: MemoryKeeper, clock: FakeClock
) -> None:
    remembered(
        keeper,
        clock,
        "ana",
        "lembra que moro em Londres desde 2016",
        "remember I basically live in spreadsheets at work",
        "remember: mudei-me a semana passada, 27 Mare Street, flat 3, E8",
    )
    tell(keeper, "ana", "@betania please forget the address I posted here the other day")
    assert [f.text for f in current(keeper, "ana")] == [
        "ana mora em Londres desde 2016",
        "ana basically lives in spreadsheets at work",
    ]


def test_a_place_a_player_told_may_be_named_in_the_open_a_secret_one_may_not(
    tournament_pool: Pool,
) -> None:
    """ "Somewhere in Alvalade a living room just exploded": no call's context holds
    Alvalade, her notes on ana do; a home told as a secret stays no name of the pool's."""
    keeper, gateway = remembering(tournament_pool, ScriptedModel(), FEW)
    keeper.enable()
    tell(keeper, "ana", "@betania fyi I live in Alvalade, two streets from the stadium")
    tell(keeper, "bia", "@betania just between us: I'm moving to Benfica next month")
    contract = gateway.contract
    grounds = contract.grounds("", "")

    def refused(text: str) -> str | None:
        breach = contract.check(text, "remark", grounds)
        return None if breach is None else breach.rule

    assert refused("Somewhere in Alvalade a living room just exploded.") is None
    assert refused("Somewhere in Benfica a living room just exploded.") == "name"


def test_a_name_said_in_the_chat_may_be_said_back_a_secret_or_a_withdrawn_one_may_not(
    tournament_pool: Pool,
) -> None:
    """ "carla cheered Livaković all the way": a player named him in the chat; a name told
    in confidence, or of a fact taken back, is not hers to say."""
    keeper, gateway = remembering(tournament_pool, ScriptedModel(), FEW)
    keeper.enable()
    tournament_pool.talk.chat("ana", "penáltis!!! o Livaković é um monstro")
    tournament_pool.talk.chat("ana", "ja tô c a camisa de 2002, sem lavar desde entao")
    tournament_pool.talk.chat(
        "bia", "as gêmeas me deixaram dormir até 7h40, em janeiro vou pa Lisboa"
    )
    tournament_pool.talk.chat("bia", "entre nós: a Marisol vai ser mãe")
    tournament_pool.talk.chat("bia", "the whole depot's off to the pub on portswood rd after")
    tell(keeper, "ana", "@betania fyi I live in Alvalade, two streets from the stadium")
    tell(keeper, "ana", "@betania please forget where I live")
    contract = gateway.contract

    def refused(text: str) -> str | None:
        breach = contract.check(text, "remark", contract.grounds("", ""))
        return None if breach is None else breach.rule

    assert refused("ana cheered Livaković all the way.") is None
    assert refused("ana's 2002 shirt is working its magic.") is None
    assert refused("ana's 2010 shirt is working its magic.") == "year"
    # a time said in the chat, a place said back in her language
    assert refused("bia slept in till 7:40.") is None
    assert refused("bia slept in till 8:40.") == "number"
    assert refused("bia is off to Lisbon in January.") is None
    assert refused("bia is off to London in January.") == "name"
    assert refused("Somewhere Marisol is smiling.") == "name"
    assert refused("Somewhere in Alvalade a living room just exploded.") == "name"
    assert refused("ana cheered Kovačić all the way.") == "name"
    # a place typed in lowercase is a name said all the same; a common word is no name
    assert refused("I can hear a pub in Portswood warming up from here.") is None
    assert refused("I can hear a pub in Shirley warming up from here.") == "name"


def test_a_club_a_player_supports_may_tease_them(tournament_pool: Pool) -> None:
    """ "A Vitória fan at the bottom": a club she was told of is no team out of the cup."""
    keeper, gateway = remembering(tournament_pool, ScriptedModel(), FEW)
    keeper.enable()
    contract = gateway.contract
    line = "A Vitória fan at the bottom, suffering in style."
    before = contract.check(line, "remark", contract.grounds("", ""))
    tell(keeper, "ana", "@betania torço pro Vitória desde pequena")
    assert before is not None and before.rule == "team"
    assert contract.check(line, "remark", contract.grounds("", "")) is None


def test_a_diminutive_names_its_word(keeper: MemoryKeeper, clock: FakeClock) -> None:
    """ "aquilo dos docinhos" is the brigadeiros sold as "doces"; "o cafezinho" the café."""
    remembered(
        keeper,
        clock,
        "ana",
        "lembra que vendo brigadeiro pelo insta, @doces.da.ana",
        "lembra que tenho um gato chamado Pudim",
    )
    tell(keeper, "ana", "@betania aquilo dos docinhos que te falei... esquece por favor")
    assert [f.text for f in current(keeper, "ana")] == ["ana tem um gato chamado Pudim"]


def test_of_two_lines_told_that_day_a_secret_s_take_back_takes_the_secret(
    keeper: MemoryKeeper, clock: FakeClock
) -> None:
    """ "aquilo que eu te contei no domingo, vc sabe o que": of Sunday's two lines, the
    one told as a secret."""
    clock.now = clock.now.replace(month=6, day=7)  # a Sunday
    tell(keeper, "ana", "@betania off topic: sou dev num banco e odeio cada segundo")
    tell(keeper, "ana", "@betania isso é segredo tá? tô fazendo entrevistas pra mudar de emprego")
    clock.advance(days=3)
    tell(
        keeper,
        "ana",
        "@betania aquilo que eu te contei no domingo, vc sabe o que, pode esquecer",
    )
    assert [f.text for f in current(keeper, "ana")] == ["ana é dev num banco e odeia cada segundo"]


def test_a_word_of_one_verb_tells_and_an_ly_verb_agrees(keeper: MemoryKeeper) -> None:
    tell(keeper, "ana", "@betania casei!!", "@betania fyi I supply coffee to three cafes")
    assert [f.text for f in current(keeper, "ana")] == [
        "ana casou!!",
        "ana supplies coffee to three cafes",
    ]


def test_the_words_of_a_telling_take_no_word_of_a_fact(
    keeper: MemoryKeeper, clock: FakeClock
) -> None:
    """ "escrevi", "mandei" say how it was told; "escritora", "Mandarin" are facts."""
    remembered(keeper, clock, "ana", "lembra que sou escritora", "remember I speak Mandarin")
    tell(keeper, "ana", "@betania esquece que sou escritora")
    assert [f.text for f in current(keeper, "ana")] == ["ana speaks Mandarin"]


def test_the_day_a_fact_was_told_is_no_word_of_another_fact(
    keeper: MemoryKeeper, clock: FakeClock
) -> None:
    """ "esquece lá o que te contei no domingo" is Sunday's line, not the fact that says
    "todos os domingos"."""
    clock.now = clock.now.replace(month=6, day=7)  # a Sunday
    tell(keeper, "ana", "@betania sou do benfica, o meu pai levava-me à Luz todos os domingos")
    clock.advance(days=7)  # the next Sunday
    tell(keeper, "ana", "@betania isto fica entre nós: tenho entrevista na Critical na terça")
    clock.advance(days=3)
    tell(keeper, "ana", "@betania esquece lá o que te contei no domingo. já não interessa")
    assert [f.text for f in current(keeper, "ana")] == [
        "ana é do benfica, o seu pai levava-se à Luz todos os domingos"
    ]


def test_a_country_named_outranks_a_city_in_it(keeper: MemoryKeeper) -> None:
    """ "forget what I said about France": the fact naming France, not the one of Lyon;
    "França" names the Lyon fact when none names France ("vou ser franca" names none)."""
    tell(keeper, "ana", "@betania remember that I had an interview in Lyon")
    tell(keeper, "ana", "@betania remember that I back France to win the cup")
    tell(keeper, "ana", "@betania forget what I said about France")
    assert [f.text for f in current(keeper, "ana")] == ["ana had an interview in Lyon"]
    tell(keeper, "ana", "@betania esquece a história de França")
    assert current(keeper, "ana") == []

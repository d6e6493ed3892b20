"""A player's words about themselves, turned to the third person (stored) or the second (told back).

"I speak fluent Japanese" is stored as "ana speaks fluent Japanese" (the line
itself stays in the log as the fact's source) and acknowledged as "you speak
fluent Japanese": never echoed as "I'll remember that I speak fluent Japanese".

Rules, not a grammar: English and Brazilian Portuguese, the forms people use
when they tell a pool something about themselves. A sentence the rules do not
cover keeps its words; the meaning is never changed, only the person.
"""

from __future__ import annotations

import re

from prompts import sections

WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?|[^\w]+|\d+", re.UNICODE)
# The verb forms and pronouns the rules read, as text (prompts/person.txt).
TABLES = sections("person")


def _pairs(section: str) -> dict[str, str]:
    return dict(line.split(" ", 1) for line in TABLES[section])


EN_THIRD = _pairs("en.third")  # I am -> ana is, I have -> ana has, ...
EN_SECOND = _pairs("en.second")  # I'm -> you're, my -> your, ...
EN_THEY = _pairs("en.they")  # my -> their, me -> them, after the name is said once
EN_UNCHANGED = frozenset(" ".join(TABLES["en.unchanged"]).split())  # can, will, went, ...
EN_ADVERBS = frozenset(" ".join(TABLES["en.adverbs"]).split())  # never, always, once, ...
EN_UNTYPED = {"im": "i'm", "ive": "i've"}  # the apostrophe a phone's chat leaves out
EN_PLURAL = {"was": "were", "wasn't": "weren't", "am": "are"}  # after a singular "they"
PT_VERBS = _pairs("pt.verbs")  # sou -> é, tenho -> tem, torço -> torce, ...
PT_SECOND = _pairs("pt.second")  # meu -> seu, eu -> você, ...
PT_POSSESSIVE = _pairs("pt.possessive")  # meu -> o, minha -> a: "o gato de ana"
PT_MARKERS = frozenset(" ".join(TABLES["pt.markers"]).split())


def _table(text: str) -> dict[str, str]:
    return dict(line.split() for line in text.strip().splitlines())


# Portuguese first-person forms no rule below makes: "first third", as people write them.
PT_IRREGULAR = _table(
    """
    fui foi
    fiz fez
    tive teve
    estive esteve
    pude pôde
    quis quis
    disse disse
    trouxe trouxe
    vim veio
    vi viu
    dei deu
    soube soube
    pus pôs
    li leu
    saí saiu
    sai saiu
    caí caiu
    ri riu
    ponho põe
    saio sai
    caio cai
    creio crê
    meço mede
    consigo consegue
    visto veste
    minto mente
    sirvo serve
    subo sobe
    fujo foge
    cubro cobre
    descubro descobre
    divirto diverte
    sugiro sugere
    repito repete
    compito compete
    transfiro transfere
    construo constrói
    destruo destrói
    tusso tosse
    engulo engole
    passeio passeia
    chamo chama
    era era
    ia ia
    """
)
# The -er and -ir verbs people tell a pool about, by their infinitive: the class a
# first-person form does not show ("corro" and "moro" alike), so "nasci" is "nasceu" and
# "assisti" "assistiu". Every other verb is taken for an -ar one, by far the most.
PT_ER_IR = """
    aprender beber comer correr viver escrever nascer crescer conhecer morrer vender
    receber entender escolher atender defender responder sofrer torcer esquecer parecer
    merecer agradecer aparecer vencer convencer envelhecer emagrecer descer mexer meter
    bater prometer dever temer acontecer pertencer depender surpreender compreender
    resolver envolver devolver mover acender ofender ceder eleger proteger colher
    recolher render prender empreender esconder romper interromper sobreviver perder
    assistir partir decidir abrir dividir sentir seguir dormir desistir conseguir
    descobrir subir curtir sumir resistir insistir existir preferir servir vestir
    transferir permitir admitir discutir competir repetir agir fugir dirigir exigir
    corrigir garantir divertir mentir sugerir residir unir reunir cumprir imprimir
    produzir traduzir conduzir reduzir introduzir omitir proibir assumir consumir
    resumir nutrir cobrir tossir engolir concluir incluir possuir contribuir
    distribuir construir destruir investir desenvolver estabelecer abastecer
""".split()  # noqa: SIM905  # a word list reads better as text
# Words that open a sentence and end like a first-person verb but are none: "todo
# domingo jogo bola", "ano passado me mudei".
PT_NOT_VERBS = frozenset(
    """
    ano todo tudo domingo sábado sabado segundo primeiro terceiro mesmo logo cedo isso
    disso nisso isto disto aquilo quando como pelo no do o ao meio mês mes dinheiro todo
    pro pelo lei rei sei também tambem aqui ali lá ontem anteontem antigamente pronto
    """.split()  # noqa: SIM905  # a word list reads better as text
)
# Words that may come before the verb without being its subject: adverbs (the subject
# goes before them: "ana não gosta", "ana agora torce") and time phrases (it goes after
# them: "em 2019 ana se mudou", "ano passado ana começou").
PT_ADVERBS = frozenset(
    """
    não nao nunca sempre também tambem só so já ja ainda agora atualmente hoje
    finalmente recentemente enfim realmente até ate inclusive tipo
    """.split()  # noqa: SIM905  # a word list reads better as text
)
PT_TIME = frozenset(
    """
    ano anos passado passada semana mês mes em no na desde há ha faz de do da que
    março marco janeiro fevereiro abril maio junho julho agosto setembro outubro
    novembro dezembro ontem anteontem domingo sábado sabado esse este essa esta nesse
    neste nessa nesta último ultimo última ultima dia mesmo pouco tempo atrás atras
    todo toda todos todas fim fins segunda terça quarta quinta sexta manhã noite tarde
    """.split()  # noqa: SIM905  # a word list reads better as text
)
# After these a new clause may start with a verb: "moro em Recife e trabalho na Vale".
PT_CLAUSE = frozenset("e mas que porque pois quando onde enquanto então entao".split())  # noqa: SIM905


def _er_ir_forms() -> dict[str, str]:
    """First-person forms of ``PT_ER_IR`` (present and preterite) and their third person."""
    forms: dict[str, str] = {}
    for verb in PT_ER_IR:
        stem, ending = verb[:-2], verb[-2:]
        first = stem
        if stem.endswith("c"):
            first = stem[:-1] + "ç"  # conhecer: conheço
        elif stem.endswith("g"):
            first = stem[:-1] + "j"  # eleger: elejo
        elif stem.endswith("gu"):
            first = stem[:-1]  # seguir: sigo (the table has it)
        third = stem if stem.endswith("uz") else stem + ("i" if stem.endswith("u") else "e")
        if stem.endswith(("gu", "qu")):
            third = stem + "e"  # distinguir: distingue
        forms[first + "o"] = third
        # "possuí" after a vowel, "consegui" after "gu" (a letter, not a vowel)
        vowel = stem.endswith(("u", "a")) and not stem.endswith(("gu", "qu"))
        forms[stem + ("í" if vowel else "i")] = stem + ("eu" if ending == "er" else "iu")
    return forms


PT_ER_IR_FORMS = _er_ir_forms()
# Regular -ar endings, first person to third: "-ei" preterite ("comecei": "começou",
# "fiquei": "ficou", "cheguei": "chegou"). No future: "separei" is a preterite, and
# people say "vou morar", not "morarei".
PT_PRETERITE = (("cei", "çou"), ("quei", "cou"), ("guei", "gou"), ("ei", "ou"))


def _pt_third(word: str, opening: bool) -> str | None:
    """The third person of a first-person verb form, or None if ``word`` is none. A
    regular -ar present ("moro") is read only where a clause opens (``opening``): after
    "e", "queijo" is a cheese."""
    lower = word.lower()
    for table in (PT_IRREGULAR, PT_VERBS, PT_ER_IR_FORMS):
        if lower in table:
            return table[lower]
    if lower in PT_NOT_VERBS or len(lower) < 3:
        return None
    if lower.endswith("ei") and len(lower) > 3:
        for first, third in PT_PRETERITE:
            if lower.endswith(first):
                return lower[: -len(first)] + third
    # "-ano", "-ino", "-eiro" open a clause as adjectives and nouns, not verbs:
    # "corinthiano sofredor", "janeiro"; so does a long "-mento" ("apartamento maior",
    # "casamento"; "lamento" is a verb)
    nominal = ("ado", "ido", "ão", "ano", "ino", "eiro")
    long_noun = len(lower) >= 9 and lower.endswith("mento")
    # ... and a gerund is no first person ("contando só pra vcs"; "ando" is)
    long_noun = long_noun or (len(lower) > 5 and lower.endswith(("ando", "endo", "indo")))
    if opening and lower.endswith("o") and not lower.endswith(nominal) and not long_noun:
        return lower[:-1] + "a"
    if opening and lower.endswith(("ava", "ia")):
        return lower  # the imperfect: "jogava", "morava" are the same for everyone
    return None


# Short words of either language, to tell which one a fact is told in.
PT_WORDS = frozenset(
    """
    me mim se para pra pro em no na com um uma desde agora ano anos e os as nos nas ao
    aos meus minhas também não já é são
    """.split()  # noqa: SIM905  # a word list reads better as text
)
EN_WORDS = frozenset(
    """
    i my me i'm i've i'll i'd the to in of and is am for at on since have has was with
    from now just also it an
    """.split()  # noqa: SIM905  # a word list reads better as text
)


def language_of(text: str) -> str:
    """ "pt" when the words are Portuguese ones, "en" otherwise: more of its short words,
    or a first-person verb, are Portuguese ("me mudei para Recife"), and no "I" or "my"."""
    words = [w.lower() for w in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text)]
    if set(words) & {"i", "my", "i'm", "i've", "i'll", "i'd"}:
        return "en"
    pt = sum(w in PT_MARKERS or w in PT_WORDS for w in words)
    pt += sum(
        w in PT_IRREGULAR or w in PT_VERBS or w in PT_ER_IR_FORMS or w.endswith("ei")
        for w in words[:3]
    )
    en = sum(w in EN_WORDS for w in words)
    if len(words) > 1 and not en and len(words[0]) > 3 and words[0].endswith("o"):
        pt += 1  # "adoro churrasco": a regular first person and no English word ("gato": none)
    return "pt" if pt > en else "en"


def third_person(text: str, handle: str) -> str:
    """What a player said of themselves, as a fact about them."""
    if language_of(text) == "pt":
        return _pt(text, subject=handle, possessor=f"de {handle}", second=False)
    return _en(text, handle, second=False)


def second_person(text: str) -> str:
    """What a player said of themselves, told back to them."""
    if language_of(text) == "pt":
        return _pt(text, subject="você", possessor="", second=True)
    return _en(text, "you", second=True)


def _en(text: str, name: str, second: bool) -> str:
    tokens = WORD.findall(text)
    out: list[str] = []
    named = False  # the name replaces the first "I"; "they" the later ones
    conjugate = False  # the next verb follows a third-person subject
    plural = False  # the next verb follows a singular "they": "since they were six"
    for token in tokens:
        lower = EN_UNTYPED.get(token.lower(), token.lower())
        glued = bool(out) and out[-1][-1:].isdigit()  # "9am", "2nd": part of a number
        if not token.strip() or not token[0].isalpha() or glued:
            out.append(token)
            continue
        if second:
            if lower in EN_SECOND:
                out.append(EN_SECOND[lower])
            elif lower == "was" and "you" in _words(out):
                out.append("were")
            else:
                out.append(token)
            continue
        if lower in ("i", "i'm", "i've", "i'll", "i'd"):
            subject = name if not named else "they"
            named = True
            rest = {"i": "", "i'm": " is", "i've": " has", "i'll": " will", "i'd": " would"}[lower]
            if subject == "they":
                rest = {"i": "", "i'm": " are", "i've": " have", "i'll": " will", "i'd": " would"}[
                    lower
                ]
            out.append(subject + rest)
            conjugate = lower == "i" and subject == name
            plural = lower == "i" and subject == "they"
            continue
        if plural and lower not in EN_ADVERBS:
            out.append(EN_PLURAL.get(lower, token))
            plural = False
            continue
        if conjugate:
            if lower in EN_ADVERBS or (
                len(lower) > 4 and lower.endswith("ly") and lower not in LY_VERBS
            ):
                out.append(token)
                continue
            out.append(_third_singular(token))
            conjugate = False
            continue
        # (a Portuguese clitic in an English line is no object: "mudei-me" stays)
        if lower in EN_THEY and not (out and out[-1] == "-"):
            out.append(f"{name}'s" if lower in ("my", "mine") and not named else EN_THEY[lower])
            named = named or lower in ("my", "mine")
            continue
        out.append(token)
    return "".join(out)


# Verbs that end as an adverb does: "I supply coffee" is "supplies"
LY_VERBS = frozenset("apply reply supply multiply comply rally tally bully ally rely".split())  # noqa: SIM905


def _third_singular(verb: str) -> str:
    lower = verb.lower()
    if lower in EN_THIRD:
        return EN_THIRD[lower]
    if lower in EN_UNCHANGED or lower.endswith("ed") or "'" in lower:
        return verb
    if re.search(r"(s|sh|ch|x|z|o)$", lower):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lower):
        return verb[:-1] + "ies"
    return verb + "s"


def _pt(text: str, subject: str, possessor: str, second: bool) -> str:
    """Portuguese in the third person (``subject`` a name) or the second ("você"): the
    first-person verb agrees ("moro" -> "mora", "me mudei" -> "se mudou"), "eu" becomes the
    subject, and "meu gato" becomes "o gato de ana" before the name is said, "seu gato"
    after it (and always, told back)."""
    tokens = WORD.findall(text)
    out: list[str] = []
    pending_owner = False  # "meu gato" -> "o gato de ana": the owner follows the noun
    opening = True  # a clause may start with its verb: "torço pelo Vasco"
    verb_next = True  # a first-person verb may come: at a clause's start, after "eu", "me"
    said = False  # the subject is in the sentence; if not, it goes before the verb
    owned = False  # named as an owner only ("a esposa de ana"): a later "eu" is said

    adverbs_at: int | None = None  # "não", "agora" before the verb: the name goes before them

    def name() -> None:
        nonlocal said
        if not said:
            out.insert(len(out) if adverbs_at is None else adverbs_at, f"{subject} ")
            said = True

    for index, token in enumerate(tokens):
        lower = token.lower()
        if not token.strip():
            out.append(token)
            continue
        if not token[0].isalpha():
            out.append(token)
            if token.strip() in (",", ";"):
                opening = verb_next = said
            elif token.strip() != "-" and not token.strip().isdigit():
                opening = verb_next = False
            continue
        following = next((t for t in tokens[index + 1 :] if t.strip()), "")
        if lower == "eu":
            if said and not owned:  # "moro em Recife e eu trabalho": said once is enough
                if out and not out[-1].strip():
                    out.pop()
            else:
                out.append(subject)
                said, owned = True, False
            verb_next = opening = True
            continue
        if lower == "me" and (
            (out and out[-1] == "-")
            or _pt_third(following, True) is not None
            or re.fullmatch(r"[^\W\d_]+[aei]r", following.lower())
        ):
            name()
            out.append("se")  # reflexive: "me mudei" -> "se mudou", "vou me mudar"
            verb_next = out[-2] != "-"
            continue
        if lower == "me":  # another's verb: "todo mundo me chama de Bruninho"
            out.append("te" if second else "lhe")
            continue
        if lower in ("mim", "comigo"):
            out.append(("com " if lower == "comigo" else "") + (subject if not second else "você"))
            continue
        if verb_next and lower in PT_ADVERBS:
            if adverbs_at is None and not said:
                adverbs_at = len(out)
            out.append(token)
            continue
        # A capital is a name ("Flamengo é o maior"), or a verb the tables know ("Moro").
        capital = token[0].isupper()
        # A lone word is a thing named ("esquece o gato"), not a verb.
        regular = opening and not capital and bool(following)
        third = (
            _pt_third(token, regular) if verb_next and not _subject_noun(tokens, index) else None
        )
        if third is not None:
            named = not said
            name()
            out.append(third.capitalize() if capital and not named else third)
            verb_next = opening = False
            continue
        if verb_next and not said and lower in PT_TIME:
            out.append(token)  # "ano passado", "em março": the subject comes after
            continue
        if lower in PT_CLAUSE:
            out.append(token)
            verb_next, opening = True, opening and not said
            continue
        verb_next = opening = False
        if second and lower in PT_SECOND:
            out.append(PT_SECOND[lower])
            continue
        if not second and lower in PT_POSSESSIVE:
            if said:
                out.append(PT_SECOND[lower])  # "ana joga xadrez com seu avô"
                continue
            spoken = [t for t in out if t.strip()]
            if spoken and spoken[-1].lower() == PT_POSSESSIVE[lower]:
                # "o meu pai": its article is said already ("o pai de ana", not "o o pai")
                while out and not out[-1].strip():
                    out.pop()
            else:
                out.append(PT_POSSESSIVE[lower])
            pending_owner = True
            continue
        out.append(token)
        if pending_owner:
            out.append(f" {possessor}")
            pending_owner = False
            said = owned = True
    return "".join(out)


# Third-person verbs that show the word before them is a sentence's subject, not a verb:
# "jogo bom é jogo com gol", "todo jogo do Brasil é sofrido".
PT_COPULAS = frozenset("é foi era está tá tem vai fica".split())  # noqa: SIM905


def _subject_noun(tokens: list[str], index: int) -> bool:
    """Whether the word at ``index`` is a noun heading the sentence: a third-person verb
    follows within three words, and no "eu" or "me" came before it."""
    before = {t.lower() for t in tokens[:index]}
    if before & {"eu", "me"}:
        return False
    after = [t.lower() for t in tokens[index + 1 :] if t.strip()][:3]
    return bool(set(after) & PT_COPULAS)


def _words(tokens: list[str]) -> set[str]:
    return {t.lower() for t in tokens if t.strip() and t[0].isalpha()}

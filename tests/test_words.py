"""Every line a player reads, in the pool's language: the catalogs against the code, and
her words in prompts/ in one syntax, both languages alike."""

from __future__ import annotations

import ast
import re
from datetime import UTC, datetime
from pathlib import Path
from string import Template
from zoneinfo import ZoneInfo

import pytest

from frontends.limits import ConnectionLimits, Limits
from game.model import InvalidScore, MatchStatus, Result, Score
from game.words import DAYS, LANGUAGES, MONTHS, RESULT_MARKS, STAGES, Words, catalog
from prompts import sections

ROOT = Path(__file__).resolve().parent.parent
# Where the lines a player reads are written: the pool and its front ends.
SAYERS = (ROOT / "game", ROOT / "frontends")
# Errors a player can meet, raised with a template and its values.
PLAYER_ERRORS = {
    "RuleViolation",
    "PredictionLocked",
    "NotFound",
    "InvalidScore",
    "InvalidGoal",
    "CommandError",
    "LimitReached",
    "JokerRefused",
    "BonusClosed",
    "UnknownTeam",
    "UnknownScorer",
}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def templates_in(path: Path) -> set[str]:
    """The English templates a module hands to ``Words``, read from its syntax tree."""
    tree = ast.parse(path.read_text("utf-8"))
    constants = {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
        for target in node.targets
        if isinstance(target, ast.Name) and isinstance(node.value.value, str)
    }
    found: set[str] = set()

    def texts(node: ast.expr) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.Name) and node.id in assigned:
            return texts(assigned[node.id])
        if isinstance(node, ast.Name):
            return [constants[node.id]] if node.id in constants else []
        if isinstance(node, ast.IfExp):
            return texts(node.body) + texts(node.orelse)
        return []

    assigned = {  # a template chosen first, then said: ``template = "a" if ... else "b"``
        target.id: node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.IfExp)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = _name(node.func)
        if func == "words" or func in PLAYER_ERRORS:
            args = node.args[:1]
        elif func == "each" and isinstance(node.func, ast.Attribute):
            args = node.args
        elif func == "Spec":
            args = node.args[1:3]  # usage and summary
        else:
            continue
        found.update(t for arg in args for t in texts(arg))
    return found


def every_template() -> set[str]:
    found = set().union(*(templates_in(path) for top in SAYERS for path in top.rglob("*.py")))
    fixed = {DAYS, MONTHS, *STAGES, "Group {name}", "Matchday {name}", *RESULT_MARKS}
    fixed |= {status.value for status in MatchStatus}
    return {t for t in found | fixed if any(c.isalpha() for c in t)}


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_line_a_player_reads_has_its_translation(language: str) -> None:
    templates = every_template()
    assert len(templates) > 100  # the reader found the code's templates, not nothing
    missing = sorted(templates - catalog(language).keys())
    assert not missing, "\n".join(missing)
    stale = sorted(catalog(language).keys() - templates)
    assert not stale, "translations of nothing the code says:\n" + "\n".join(stale)


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_a_translation_keeps_every_placeholder(language: str) -> None:
    for english, translated in catalog(language).items():
        assert _fields(english) == _fields(translated), english


def _fields(template: str) -> set[str]:
    from string import Formatter

    return {name for _, name, _, _ in Formatter().parse(template) if name is not None}


def test_portuguese_dates_stages_and_results() -> None:
    pt = Words("pt")
    kickoff = datetime(2026, 6, 13, 21, 0, tzinfo=UTC)
    assert pt.when(kickoff, ZoneInfo("America/Sao_Paulo")) == "sáb 13 jun 18:00"
    assert Words().when(kickoff, ZoneInfo("America/Sao_Paulo")) == "Sat 13 Jun 18:00"
    assert pt.stage("Round of 16") == "Oitavas de final"
    assert pt.stage("Group C") == "Grupo C"
    assert pt.stage("Matchday 3") == "Rodada 3"
    result = Result(Score(1, 1), Score(2, 2), Score(4, 3))
    assert pt.result(result) == "1-1 (prorrogação 2-2) (pênaltis 4-3)"
    assert pt.result(str(result)) == pt.result(result)  # as the log keeps it
    assert Words().result(result) == "1-1 (aet 2-2) (pens 4-3)"


def test_errors_and_limits_are_said_in_the_pools_language() -> None:
    with pytest.raises(InvalidScore) as raised:
        Score.parse("dois a um")
    assert str(raised.value) == "not a score: 'dois a um' (write it like 2-1)"
    assert Words("pt").error(raised.value) == "placar inválido: 'dois a um' (escreva assim: 2-1)"
    refused = ConnectionLimits(Limits(line_length=10)).check_line("x" * 11)
    assert refused is not None
    assert Words("pt").error(refused) == "linha longa demais: no máximo 10 caracteres"


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        Words("xx")


# Her words: every template and voice line in prompts/, one placeholder syntax ($name,
# ${name} before a letter) and one plural form ([one|many]), filled by string.Template.
PROMPTS = Path(__file__).resolve().parent.parent / "prompts"
PLACEHOLDER = re.compile(
    r"\$(?:\{([_a-z][_a-z0-9]*)\}|([_a-z][_a-z0-9]*))", re.IGNORECASE | re.ASCII
)


def placeholders(lines: tuple[str, ...]) -> set[str]:
    return {a or b for line in lines for a, b in PLACEHOLDER.findall(line)}


def test_every_prompt_and_voice_line_speaks_one_placeholder_syntax() -> None:
    for path in PROMPTS.glob("*.txt"):
        text = "\n".join(
            line for line in path.read_text("utf-8").splitlines() if not line.startswith("#")
        )
        assert re.findall(r"(?<!\$)\{\w+\}", text) == [], path.name  # no str.format left
        # Every $ starts a placeholder Template can fill (a stray one would raise at run time).
        for line in text.splitlines():
            Template(line).substitute(dict.fromkeys(placeholders((line,)), "x"))


def test_her_voice_has_the_same_sections_and_placeholders_in_both_languages() -> None:
    english, portuguese = sections("voice_en"), sections("voice_pt")
    assert set(english) == set(portuguese)
    for section, lines in english.items():
        assert placeholders(lines) == placeholders(portuguese[section]), section


@pytest.mark.parametrize("language", ["en", "pt"])
def test_a_plural_form_is_one_choice_between_two(language: str) -> None:
    for section, lines in sections(f"voice_{language}").items():
        for line in lines:
            unpaired = re.sub(r"\[[^\[\]|]*\|[^\[\]|]*\]", "", line)
            assert "|" not in unpaired, (section, line)


def test_no_english_ordinal_is_pasted_onto_a_number() -> None:
    # "${after}th" said "3th" and "1th" of a climb to third or first place: an English
    # ordinal's suffix depends on the number, so a line says "place 3" instead.
    for path in PROMPTS.glob("*_en.txt"):
        pasted = re.findall(r"\$\{\w+\}(?:st|nd|rd|th)\b", path.read_text("utf-8"))
        assert pasted == [], path.name

"""One name, one class: no top-level class name is defined in two modules of the packages.

Two classes of one name (a match played in the history file and one played in
the demo cup, a remark she is asked for and one shown on the scoreboard) read
the same at a caller and in a traceback, and an import of the wrong one type-
checks as long as the fields happen to agree.
"""

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("game", "memory", "bot", "frontends", "prompts")


def defined_twice(sources: dict[str, str]) -> dict[str, list[str]]:
    """Every class name defined at the top of more than one module, with those modules."""
    where: dict[str, list[str]] = defaultdict(list)
    for module, source in sources.items():
        for node in ast.parse(source).body:
            if isinstance(node, ast.ClassDef):
                where[node.name].append(module)
    return {name: modules for name, modules in where.items() if len(modules) > 1}


def package_sources() -> dict[str, str]:
    return {
        str(path.relative_to(ROOT)): path.read_text("utf-8")
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def test_the_walk_tells_a_name_defined_twice() -> None:
    # Nested classes are the module's own business; two top-level ones are not.
    sources = {
        "a.py": "class Played:\n    class Inner: ...\nclass Only: ...\n",
        "b.py": "def f():\n    class Inner: ...\n@dataclass\nclass Played: ...\n",
    }
    assert defined_twice(sources) == {"Played": ["a.py", "b.py"]}


def test_the_walk_reads_every_package() -> None:
    modules = package_sources()
    assert {m.split("/")[0] for m in modules} == set(PACKAGES)
    assert "game/internationals.py" in modules and "frontends/ssh/session.py" in modules


def test_no_class_name_is_defined_in_two_modules() -> None:
    assert defined_twice(package_sources()) == {}

"""The house's floors, checked: imports go one way, and no module imports itself back.

game/ is the domain and its persistence: it knows neither memory/, bot/ nor the
front ends. memory/ knows game/ only; bot/agent/ knows memory/ and game/; the front
ends (frontends/) know game/ and nothing above it, and only the application
(bot/app/, which wires everything) imports them. Inside game/, the results feeds
sit above the pool, never below it.
"""

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("game", "memory", "bot", "frontends", "prompts")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports() -> dict[str, set[str]]:
    """Every project module and the project modules it imports (at run time or for types)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = module_name(path)
            graph[name]
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                elif isinstance(node, ast.Import):
                    targets = [a.name for a in node.names]
                else:
                    continue
                graph[name].update(t for t in targets if t.split(".")[0] in PACKAGES)
    modules = set(graph)
    return {m: {t for t in targets if t in modules and t != m} for m, targets in graph.items()}


def importers_of(graph: dict[str, set[str]], prefix: str) -> set[str]:
    return {m for m, targets in graph.items() if any(t.startswith(prefix) for t in targets)}


def test_the_floors_import_one_way() -> None:
    graph = imports()
    assert {m for m in importers_of(graph, "memory") if m.startswith("game")} == set()
    assert {m for m in importers_of(graph, "bot") if not m.startswith("bot")} == set()
    outside_wing = importers_of(graph, "frontends") - {
        m for m in graph if m.startswith(("frontends", "bot."))
    }
    assert outside_wing == set()  # the front ends are below nothing in game/
    assert {m for m in importers_of(graph, "game.feeds") if m.startswith("game.pool")} == set()


def test_no_module_imports_itself_back() -> None:
    graph = imports()
    cycles = []
    state: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = "open"
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    # A package importing its own modules (``__init__`` re-exporting them) is no circle.
    real = [c for c in cycles if not all(m.startswith(c[0] + ".") or m == c[0] for m in c[1:])]
    assert real == []


def test_memory_and_the_agent_open_no_connection_but_through_memorys_store() -> None:
    """Memory owns its transactions: a shelf or the agent that opened its own would pick
    its own isolation and commit point, and a write could be half-done beside the cursor."""
    opened = []
    for package in ("memory", "bot"):
        for path in (ROOT / package).rglob("*.py"):
            if path == ROOT / "memory" / "store.py" or "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr in ("connect", "begin", "read", "commit")
                    and isinstance(node.value, ast.Attribute)
                    and node.value.attr in ("engine", "work")
                ):
                    opened.append(
                        f"{path.relative_to(ROOT)}:{node.lineno} .{node.value.attr}.{node.attr}"
                    )
    assert opened == []

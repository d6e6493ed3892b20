"""The house measured: module and class sizes, names defined twice, the import graph's levels.

    python -m bench.house [--root DIR] [--top 10]

Reads the Python files of the packages (game, memory, bot, frontends, prompts: those
that exist under ``--root``, by default this checkout) without importing them, so it
runs on any revision's tree (``git worktree add --detach /tmp/old REV``). Prints:

- lines, modules and classes per top package;
- the largest modules (lines) and the largest classes (methods, and lines);
- the top-level class names defined in more than one module;
- the import graph's levels: a module on level 0 imports no project module, one on
  level n only modules on lower levels; modules that import each other round a
  circle share a level (a package's ``__init__`` re-exporting its own modules is
  such a circle). How many levels, each package's range and the circles;
- which package imports which: how many imports run from each row to each column, and
  the packages' own levels (their floors), by the same rule on that smaller graph.

An import counts whether it runs at start or only for the type checker, as in
``tests/test_layers.py``: both tie the two modules together for whoever changes them.
A package that holds nothing but subpackages (``bot``) counts as its subpackages
(``bot.agent``, ``bot.app``) in the per-package figures: they are its floors.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

PACKAGES = ("game", "memory", "bot", "frontends", "prompts")


@dataclass(frozen=True)
class ClassSize:
    name: str
    module: str
    methods: int
    lines: int


@dataclass
class Module:
    name: str
    path: str
    lines: int
    classes: list[ClassSize]
    top_classes: list[str]
    imports: set[str] = field(default_factory=set)


def module_name(relative: Path) -> str:
    parts = relative.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree: ast.Module, name: str, is_package: bool) -> set[str]:
    """Every dotted name an import statement of the module could mean (module or member)."""
    here = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            found.add(source)
            found.update(f"{source}.{alias.name}" for alias in node.names)
    return found


def class_sizes(tree: ast.Module, module: str) -> list[ClassSize]:
    sizes = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            methods = sum(
                isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) for item in node.body
            )
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            sizes.append(ClassSize(node.name, module, methods, lines))
    return sizes


def read_house(root: Path) -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root)
            source = path.read_text("utf-8")
            tree = ast.parse(source)
            name = module_name(relative)
            modules[name] = Module(
                name=name,
                path=str(relative),
                lines=len(source.splitlines()),
                classes=class_sizes(tree, str(relative)),
                top_classes=[n.name for n in tree.body if isinstance(n, ast.ClassDef)],
                imports=imported(tree, name, path.name == "__init__.py"),
            )
    for module in modules.values():
        module.imports = {t for t in module.imports if t in modules and t != module.name}
    return modules


def floors(modules: dict[str, Module]) -> dict[str, str]:
    """Each module's package for the per-package figures: its top package, or the
    subpackage it lies in when the top package holds nothing but subpackages."""
    only_folders = {
        top
        for top in PACKAGES
        if top in modules
        and all(
            m.path.endswith("__init__.py") or m.name.count(".") > 1
            for m in modules.values()
            if m.name.startswith(f"{top}.")
        )
    }
    result = {}
    for name in modules:
        parts = name.split(".")
        top = parts[0]
        result[name] = ".".join(parts[:2]) if top in only_folders and len(parts) > 1 else top
    return result


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components (Tarjan), each a circle or a single module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def levels(graph: dict[str, set[str]]) -> tuple[dict[str, int], list[list[str]]]:
    """Each module's level, and the circles (components of more than one module)."""
    found = components(graph)
    owner = {member: i for i, component in enumerate(found) for member in component}
    level: dict[int, int] = {}
    # Tarjan yields a component only after every component it reaches.
    for i, component in enumerate(found):
        below = {owner[t] for m in component for t in graph[m]} - {i}
        level[i] = 1 + max((level[j] for j in below), default=-1)
    return {m: level[owner[m]] for m in graph}, [c for c in found if len(c) > 1]


def longest_chain(graph: dict[str, set[str]], level: dict[str, int], start: str) -> list[str]:
    """From ``start`` down to level 0, each step to an import one level lower: what makes
    the levels as many as they are (a circle's members share a level: it is stepped over)."""
    chain = [start]
    while level[chain[-1]] > 0:
        below = sorted(t for t in graph[chain[-1]] if level[t] == level[chain[-1]] - 1)
        if not below:
            break
        chain.append(below[0])
    return chain


def table(rows: Iterable[Iterable[object]], header: Iterable[str]) -> list[str]:
    """Rows in columns: a column of counts to the right, one of names to the left."""
    cells = [[str(c) for c in header], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    counts = [len(cells) == 1 or cell.isdigit() or cell == "." for cell in cells[-1]]
    return [
        "  "
        + "  ".join(
            cell.rjust(width) if count else cell.ljust(width)
            for cell, width, count in zip(row, widths, counts, strict=True)
        ).rstrip()
        for row in cells
    ]


def revision(root: Path) -> str:
    """The commit measured, and whether the packages differ from it."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--", *PACKAGES],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"
    return f"commit {commit}" + (", with uncommitted changes" if changed else "")


def report(root: Path, top: int) -> list[str]:
    modules = read_house(root)
    package_of = floors(modules)
    names = sorted(set(package_of.values()), key=lambda p: (PACKAGES.index(p.split(".")[0]), p))
    out = [f"The house at {root} ({revision(root)})", ""]

    out.append("Lines per package")
    per_package = [
        (
            package,
            sum(package_of[m.name] == package for m in modules.values()),
            sum(len(m.classes) for m in modules.values() if package_of[m.name] == package),
            sum(m.lines for m in modules.values() if package_of[m.name] == package),
        )
        for package in names
    ]
    total = ("all", *(sum(int(row[i]) for row in per_package) for i in (1, 2, 3)))
    out += table([*per_package, total], ("package", "modules", "classes", "lines"))

    out += ["", f"Largest modules (lines), top {top}"]
    biggest = sorted(modules.values(), key=lambda m: (-m.lines, m.path))[:top]
    out += table(((m.lines, m.path) for m in biggest), ("lines", "module"))

    classes = [c for m in modules.values() for c in m.classes]
    for title, key in (
        ("methods", lambda c: (-c.methods, -c.lines, c.module, c.name)),
        ("lines", lambda c: (-c.lines, -c.methods, c.module, c.name)),
    ):
        out += ["", f"Largest classes by {title}, top {top}"]
        ranked = sorted(classes, key=key)[:top]
        out += table(
            ((c.methods, c.lines, f"{c.module}:{c.name}") for c in ranked),
            ("methods", "lines", "class"),
        )

    where: dict[str, list[str]] = defaultdict(list)
    for m in modules.values():
        for name in m.top_classes:
            where[name].append(m.path)
    twice = {name: paths for name, paths in sorted(where.items()) if len(paths) > 1}
    out += ["", f"Class names defined in more than one module: {len(twice)}"]
    out += [f"  {name}: {', '.join(paths)}" for name, paths in twice.items()]

    graph = {m.name: m.imports for m in modules.values()}
    level, circles = levels(graph)
    count = max(level.values()) + 1
    edges = sum(len(targets) for targets in graph.values())
    out += [
        "",
        f"Import graph: {len(graph)} modules, {edges} imports, {count} levels (0-{count - 1}),"
        f" {len(circles)} circles",
    ]
    out += table(
        (
            (
                package,
                min(level[m] for m in graph if package_of[m] == package),
                max(level[m] for m in graph if package_of[m] == package),
            )
            for package in names
        ),
        ("package", "lowest", "highest"),
    )
    out.append(
        "  modules per level: "
        + " ".join(str(sum(1 for n in level.values() if n == at)) for at in range(count))
    )
    top_modules = sorted(m for m in graph if level[m] == count - 1)
    out.append(f"  on the top level: {', '.join(top_modules)}")
    out.append(f"  a longest chain: {' -> '.join(longest_chain(graph, level, top_modules[0]))}")
    for circle in circles:
        out.append(f"  circle: {' <-> '.join(circle)}")

    out += ["", "Which package imports which (module imports, row -> column)"]
    matrix = {(a, b): 0 for a in names for b in names}
    for source, targets in graph.items():
        for target in targets:
            matrix[(package_of[source], package_of[target])] += 1
    # A package's own __init__ that imports nothing and is imported by nothing (``bot``)
    # would only add an empty row and column.
    linked = [a for a in names if any(matrix[(a, b)] or matrix[(b, a)] for b in names)]
    out += table(
        ([a, *(matrix[(a, b)] or "." for b in linked)] for a in linked),
        ("imports", *linked),
    )
    packages = {a: {b for b in names if b != a and matrix[(a, b)]} for a in names}
    floor, package_circles = levels(packages)
    out.append(
        "  floors (the packages' own levels): "
        + "; ".join(
            f"{n}: {', '.join(a for a in linked if floor[a] == n)}"
            for n in range(max(floor.values()) + 1)
        )
    )
    for circle in package_circles:
        out.append(f"  packages importing each other: {' <-> '.join(circle)}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--top", type=int, default=10, help="how many modules and classes")
    args = parser.parse_args()
    print("\n".join(report(args.root.resolve(), args.top)))


if __name__ == "__main__":
    main()

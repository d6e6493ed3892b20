"""Whether a database's schema is already at its newest migration, told without alembic.

Every console command opens the pool, and opening it migrates: alembic took about a
fifth of `betania standings` just to be imported, and its upgrade takes the writer's
lock to find there is nothing to do. A database at head, the usual case, is told so
here by one read; anything else (no version table, an older or unknown version, a
migration file this reading does not follow) is left to alembic, as before.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError

# The files alembic reads as revisions (``alembic.script.base``): every module but
# ``__init__`` in ``versions``.
REVISION_FILE = re.compile(r"(?!\.#|__init__)(.*\.py)$")


def heads(scripts: Path) -> frozenset[str] | None:
    """The revisions no other revision follows, as alembic finds them in ``scripts``;
    None when a file says its revision or its parent in a way read here only by running it."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (scripts / "versions").iterdir():
        if not REVISION_FILE.fullmatch(path.name):
            continue
        names = _literals(path)
        revision, parent = names.get("revision"), names.get("down_revision", ...)
        if not isinstance(revision, str) or parent is ...:
            return None
        if isinstance(parent, str):
            parents.add(parent)
        elif isinstance(parent, tuple | list) and all(isinstance(p, str) for p in parent):
            parents.update(parent)
        elif parent is not None:
            return None
        revisions.add(revision)
    found = frozenset(revisions - parents)
    return found or None


def _literals(path: Path) -> dict[str, object]:
    """The module-level names of ``path`` bound to a literal, by name."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (OSError, SyntaxError, ValueError):
        return {}
    names: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name):
            try:
                names[target.id] = ast.literal_eval(value)
            except ValueError:
                names[target.id] = ...  # bound, but to something only running it tells
    return names


def at_head(engine: Engine, scripts: Path, version_table: str) -> bool:
    """True when ``version_table`` holds exactly the heads of ``scripts``: nothing to migrate."""
    newest = heads(scripts)
    if newest is None:
        return False
    try:
        with engine.connect() as connection:
            stored = connection.execute(text(f"SELECT version_num FROM {version_table}"))
            versions = frozenset(row[0] for row in stored)
    except SQLAlchemyError:  # no table yet, or any other trouble: alembic will say
        return False
    return versions == newest

"""What a user can get wrong, as opposed to what the code got wrong.

Every error a player, an admin or an operator can cause derives from
``UserError``: its message is one line that says what to do, and front ends
print it as it is. Anything else is a bug, and is shown as one.

An error a player can meet is raised with a template and its values
(``NotFound("no match #{number}", number=7)``): ``str()`` gives the English
line, and a front end can say it in the pool's language (``game.words``).
"""

from __future__ import annotations


class UserError(Exception):
    """A mistake in what was asked or given (a command, a file, a setting); never a bug."""

    def __init__(self, template: str = "", /, **values: object) -> None:
        super().__init__(template.format(**values) if values else template)
        self.template = template
        self.values = values


class FileProblems(UserError, ValueError):
    """Problems found in a file, one per line of ``problems``; nothing was imported."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(problems[0] + more)

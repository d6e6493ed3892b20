"""What a user can get wrong, as opposed to what the code got wrong.

Every error a player, an admin or an operator can cause derives from
``UserError``: its message is one line that says what to do, and front ends
print it as it is. Anything else is a bug, and is shown as one.
"""


class UserError(Exception):
    """A mistake in what was asked or given (a command, a file, a setting); never a bug."""

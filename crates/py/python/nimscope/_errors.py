"""The exceptions nimscope raises, all under :class:`nimscope.Error`.

Each carries the command line's one-line message (the text after its ``error:``), so a script
and a terminal see the same words.
"""

__all__ = [
    "Error",
    "RulesetError",
    "PositionError",
    "BudgetError",
    "UnsupportedError",
    "RuleError",
    "SessionError",
    "FigureError",
]


class Error(Exception):
    """Anything nimscope refused or could not answer."""


class RulesetError(Error, ValueError):
    """A ruleset expression (or rule file) that does not parse."""


class PositionError(Error, ValueError):
    """A text or value that is not a position of the ruleset (or not a Cram board, or a heap
    past a quotient's bound)."""


class BudgetError(Error):
    """A computation refused because it would outgrow the memory budget (raise it with
    ``memory_budget=`` or :func:`nimscope.set_memory_budget`, or ask for less)."""


class UnsupportedError(Error):
    """A question the ruleset cannot answer as asked: the sequence of a two-heap game, a map
    without the slice a game on three heaps needs, a misère quotient of a game that is not
    octal, a value past what can be known."""


class RuleError(Error):
    """A typed rule that fails at a position (arithmetic below zero, a division by zero, too
    many options) or whose game is not finite (the message shows the cycle)."""


class SessionError(Error):
    """A session file that cannot be read, written or shown (the message names the file,
    line and column)."""


class FigureError(Error):
    """A figure that cannot be drawn or written as asked (too large, too narrow, a bad
    format)."""

"""nimscope: impartial combinatorial games in Python.

Sprague–Grundy values, octal games, Wythoff maps, misère quotients and Cram, computed by the
nimscope core in process (the same answers as the ``nimscope`` command line, under the same
memory budget, refused with the same one-line messages)::

    >>> import nimscope
    >>> nimscope.Ruleset("wythoff").value((3, 5))
    0
    >>> s = nimscope.Ruleset("sub(1,3,4)").seq(100)
    >>> s.period
    Period(preperiod=0, period=7)

* :class:`Ruleset` — ``value``, ``outcome``, ``answer``, ``moves``, ``seq`` (a numpy array, its
  certified period and the period's certificate), ``grid`` (a 2-D numpy array), ``figure``;
* :func:`cram`, :func:`push_cram` — Cram and Push Cram boards;
* :func:`quotient` — a misère quotient, reused for every collection;
* :func:`check` — the papers' statements against computation, rows as dicts;
* :class:`Session`, :class:`Figure` — the window's session files and figures (shown inline in
  Jupyter, saved as PNG or SVG).

Long calls release the GIL, stop on Ctrl+C (KeyboardInterrupt) within a fraction of a second,
and show progress with ``progress=True`` (tqdm when installed). Errors are :class:`Error` and
its subclasses. Nothing prints unless asked.
"""

from ._errors import (
    BudgetError,
    Error,
    FigureError,
    PositionError,
    RuleError,
    RulesetError,
    SessionError,
    UnsupportedError,
)
from ._nimscope import (
    CATALOG,
    VERSION,
    Answer,
    Certificate,
    CramResult,
    Figure,
    Move,
    Moves,
    Period,
    Quotient,
    Ruleset,
    Sequence,
    Session,
    __version__,
    check,
    cram,
    memory_budget,
    push_cram,
    quotient,
    rule_examples,
    rules_reference,
    set_memory_budget,
    set_threads,
)

__all__ = [
    "Answer",
    "BudgetError",
    "CATALOG",
    "Certificate",
    "CramResult",
    "Error",
    "Figure",
    "FigureError",
    "Move",
    "Moves",
    "Period",
    "PositionError",
    "Quotient",
    "RuleError",
    "Ruleset",
    "RulesetError",
    "Sequence",
    "Session",
    "SessionError",
    "UnsupportedError",
    "VERSION",
    "__version__",
    "check",
    "cram",
    "memory_budget",
    "push_cram",
    "quotient",
    "rule_examples",
    "rules_reference",
    "set_memory_budget",
    "set_threads",
]

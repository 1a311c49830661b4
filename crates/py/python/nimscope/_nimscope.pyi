"""Type stubs of nimscope's native module (crates/py/src); the docstrings are the module's own."""

import os
from typing import Any, Callable, Iterator, Optional, Sequence as _Seq, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str
VERSION: str
CATALOG: list[str]

Position = Union[int, str, _Seq[int]]
"""A position: an int (one heap), a sequence of ints (heaps) or the command line's text."""
Span = Union[int, Tuple[int, int], range]
"""Rows or columns: an int n (0..n), a pair (a, b) or a range(a, b)."""
Budget = Union[int, str]
"""A memory budget: bytes, or a size such as "512M" or "4G"."""
Progress = Union[None, bool, Callable[[int, int], Any]]
"""None/False (nothing shown), True (a tqdm bar or a line on stderr) or f(done, total)."""

class Answer:
    grundy: Optional[int]
    outcome: str
    method: str
    by: str
    def as_dict(self) -> dict[str, Any]: ...

class Move:
    term: str
    position: str
    heaps: Optional[Tuple[int, ...]]
    value: Optional[int]
    outcome: str
    winning: bool
    def as_dict(self) -> dict[str, Any]: ...

class Moves:
    total: int
    offset: int
    complete: bool
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...
    def __iter__(self) -> Iterator[Move]: ...

class Period:
    preperiod: int
    period: int
    def __iter__(self) -> Iterator[int]: ...

class Certificate:
    ruleset: str
    kind: str
    code: Optional[str]
    set: Optional[list[int]]
    preperiod: int
    period: int
    checked: int
    needed: int
    max_take: int
    parts: int
    unequal: bool
    theorem: str
    values_sha256: str
    def to_json(self) -> str: ...
    def as_dict(self) -> dict[str, Any]: ...

class Sequence:
    values: np.ma.MaskedArray
    outcomes: np.ma.MaskedArray
    period: Optional[Period]
    certificate: Optional[Certificate]
    method: str
    def __len__(self) -> int: ...
    def __getitem__(self, index: Any) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> npt.NDArray[np.uint32]: ...

class Ruleset:
    expression: str
    def __init__(self, expression: str, *, memory_budget: Optional[Budget] = None, threads: Optional[int] = None) -> None: ...
    @classmethod
    def from_file(cls, path: Union[str, os.PathLike[str]], *, memory_budget: Optional[Budget] = None,
                  threads: Optional[int] = None) -> "Ruleset": ...
    def value(self, pos: Position, *, progress: Progress = None) -> Optional[int]: ...
    def outcome(self, pos: Position, *, progress: Progress = None) -> str: ...
    def answer(self, pos: Position, *, progress: Progress = None) -> Answer: ...
    def moves(self, pos: Position, *, offset: int = 0, limit: Optional[int] = None, progress: Progress = None) -> Moves: ...
    def seq(self, n: int, *, progress: Progress = None) -> Sequence: ...
    def grid(self, rows: Span, cols: Span, slice: Optional[str] = None, outcome: bool = False, *,
             progress: Progress = None) -> np.ma.MaskedArray: ...
    def figure(self, rows: Optional[Span] = None, cols: Optional[Span] = None, *, n: Optional[int] = None,
               slice: Optional[str] = None, color: Optional[str] = None, width: Optional[int] = None,
               scale: Optional[float] = None, axes: bool = True, legend: bool = True, title: Optional[str] = None,
               transparent: bool = False, progress: Progress = None) -> "Figure": ...

class CramResult:
    board: str
    ruleset: str
    value: Optional[int]
    outcome: str
    moves: Optional[int]
    bluff: Optional[bool]
    after_push: Optional[int]
    options: Optional[list[Move]]
    mirrored: bool
    def as_dict(self) -> dict[str, Any]: ...
    def figure(self, *, width: Optional[int] = None, title: Optional[str] = None, transparent: bool = False,
               progress: Progress = None) -> "Figure": ...

def cram(board: str, *, push: bool = False, moves: bool = False, outcome_only: bool = False,
         memory_budget: Optional[Budget] = None, threads: Optional[int] = None, progress: Progress = None) -> CramResult: ...
def push_cram(board: str, *, moves: bool = False, outcome_only: bool = False, memory_budget: Optional[Budget] = None,
              threads: Optional[int] = None, progress: Progress = None) -> CramResult: ...

class Quotient:
    code: str
    heaps: int
    size: int
    tame: bool
    first_wild_heap: Optional[int]
    def outcome(self, heaps: _Seq[int]) -> str: ...
    def outcomes(self, collections: _Seq[_Seq[int]]) -> list[str]: ...
    def is_p(self, heaps: _Seq[int]) -> bool: ...
    def element(self, heaps: _Seq[int]) -> str: ...
    def table(self, rows: Span, cols: Span) -> np.ma.MaskedArray: ...
    def as_dict(self) -> dict[str, Any]: ...

def quotient(code: str, heaps: int, *, memory_budget: Optional[Budget] = None, threads: Optional[int] = None,
             progress: Progress = None) -> Quotient: ...

def check(upto: int = 200, *, memory_budget: Optional[Budget] = None, threads: Optional[int] = None,
          progress: Progress = None) -> list[dict[str, Any]]: ...
def rule_examples() -> list[dict[str, Any]]: ...
def rules_reference() -> str: ...
def set_memory_budget(budget: Budget) -> None: ...
def memory_budget() -> int: ...
def set_threads(threads: Optional[int]) -> None: ...

class Session:
    ruleset: str
    rows: Tuple[int, int]
    cols: Tuple[int, int]
    n: int
    slice: str
    color: str
    board: Optional[str]
    notes: str
    title: str
    width: int
    def __init__(self, ruleset: str = "wythoff", *, rows: Optional[Span] = None, cols: Optional[Span] = None,
                 n: Optional[int] = None, slice: Optional[str] = None, color: Optional[str] = None,
                 board: Optional[str] = None, push: bool = False, notes: Optional[str] = None) -> None: ...
    @classmethod
    def load(cls, path: Union[str, os.PathLike[str]]) -> "Session": ...
    @classmethod
    def from_ron(cls, text: str, name: str = "<string>") -> "Session": ...
    def save(self, path: Union[str, os.PathLike[str]]) -> None: ...
    def to_ron(self) -> str: ...
    def figure(self, *, width: Optional[int] = None, scale: Optional[float] = None, axes: bool = True,
               legend: bool = True, title: Optional[str] = None, transparent: bool = False,
               memory_budget: Optional[Budget] = None, threads: Optional[int] = None,
               progress: Progress = None) -> "Figure": ...

class Figure:
    width: int
    height: int
    metadata: dict[str, str]
    session: Session
    scale: Optional[float]
    def png(self) -> bytes: ...
    def svg(self) -> str: ...
    def to_array(self) -> npt.NDArray[np.uint8]: ...
    def save(self, path: Union[str, os.PathLike[str]], format: Optional[str] = None) -> None: ...
    def _repr_png_(self) -> bytes: ...
    def _repr_svg_(self) -> Optional[str]: ...

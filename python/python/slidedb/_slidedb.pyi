"""Type stubs of slidedb._slidedb, the Rust extension (re-exported by slidedb)."""

import os
import pathlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, Literal, Optional, Union

import numpy as np
import numpy.typing as npt

__version__: Final[str]
MAX_TABLE_CELLS: Final[int]
"""The most cells a full table covers (14: 2x7, built by ``slidedb-gen``)."""
MAX_IN_MEMORY_CELLS: Final[int]
"""The most cells ``generate`` builds a table for in memory (12: 3x4 and 2x6)."""

BoardLike = Union[str, Sequence[int], Sequence[Sequence[int]], npt.NDArray[np.integer[Any]]]
"""A board: a string in any syntax of the command line ("2 3 4 1 5 x 7 6 8",
"724506831", "1,2,3,4,5,6,7,8,0", "123/456/780"), a sequence of integers in
reading order (0 for the blank), or rows (nested lists, a 2-D array)."""

SizeLike = Union[str, tuple[int, int]]
"""A board size: "3x3" or (3, 3) (rows, columns)."""

DistanceLike = Union[int, Literal["max"]]
"""A number of moves, or "max" (the farthest boards)."""

PathLike = Union[str, "os.PathLike[str]"]

class TableError(OSError):
    """A table or pattern databases file that is missing, unreadable or
    damaged, or a data folder that cannot be used."""

class Solution:
    """An optimal solution (or the lack of one)."""

    @property
    def board(self) -> str:
        """The board asked about, cells in reading order."""
    @property
    def goal(self) -> str:
        """The goal it was solved toward."""
    @property
    def moves(self) -> Optional[str]:
        """The blank's moves (u d l r), "" for a solved board; None if the
        board cannot reach the goal."""
    @property
    def distance(self) -> Optional[int]:
        """The number of moves; None if unsolvable."""
    @property
    def solvable(self) -> bool:
        """Whether the board can reach the goal."""
    @property
    def metric(self) -> Literal["single", "multi"]:
        """The metric its moves are counted in: "single" (a move slides one
        tile) or "multi" (a run of one letter is one move)."""
    @property
    def slides(self) -> Optional[list[str]]:
        """In the multi-tile metric, the moves: the path's runs of one
        letter (["rrr", "d", "ll"]); None in the single-tile metric or if
        unsolvable."""
    def as_dict(self) -> dict[str, Any]:
        """The keys of the command line's `solve --json`: board, goal,
        solvable, distance, moves; in the multi-tile metric also metric and
        (when solvable) slides."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class MoveOutcome:
    """One legal move of a probe."""

    @property
    def move(self) -> str:
        """The blank's move: "u", "d", "l" or "r"; in the multi-tile metric
        a slide, the letter once a cell ("rr")."""
    @property
    def board(self) -> str:
        """The board it leads to."""
    @property
    def distance(self) -> int:
        """That board's distance."""
    @property
    def optimal(self) -> bool:
        """Whether it leads one move closer."""
    def as_dict(self) -> dict[str, Any]:
        """The keys of the command line's `probe --json` moves: move,
        board, distance, optimal."""

class Probe:
    """A board's distance and every legal move's outcome."""

    @property
    def board(self) -> str: ...
    @property
    def goal(self) -> str: ...
    @property
    def distance(self) -> Optional[int]:
        """The board's distance; None if it cannot reach the goal."""
    @property
    def solvable(self) -> bool: ...
    @property
    def metric(self) -> Literal["single", "multi"]:
        """The metric its distances are counted in."""
    @property
    def moves(self) -> list[MoveOutcome]:
        """Every legal move's outcome, in the order u, d, l, r (none for an
        unsolvable board)."""
    @property
    def optimal_moves(self) -> str:
        """The letters of the moves that lead one closer."""
    def as_dict(self) -> dict[str, Any]:
        """The keys of the command line's `probe --json` (and metric, in
        the multi-tile metric)."""

class Layer:
    """One finished layer of a generation (see `generate`'s progress)."""

    @property
    def depth(self) -> int: ...
    @property
    def states(self) -> int: ...
    @property
    def total(self) -> int: ...
    @property
    def elapsed(self) -> float:
        """Seconds since the generation began."""

class LayerIterator(Iterator[str]):
    """The boards of one layer, as strings (see `Database.layer`)."""

    def __iter__(self) -> LayerIterator: ...
    def __next__(self) -> str: ...
    def __length_hint__(self) -> int: ...

class Database:
    """The engine over a data folder: answers any board toward any goal,
    building and saving the tables of boards of up to 9 cells on first use.

    `data_dir` defaults to the command line's: $SLIDEDB_DATA, else the
    user's data directory (such as ~/.local/share/slidedb). Every method
    releases the GIL while it works."""

    def __init__(self, data_dir: Optional[PathLike] = None, metric: Optional[str] = None) -> None: ...
    @staticmethod
    def in_memory(metric: Optional[str] = None) -> Database:
        """A database with no data folder: small tables are built in memory."""
    def with_metric(self, metric: str) -> Database:
        """The same database answering in `metric`: "single" or "multi"
        (also "stm", "mtm" and the command line's other names)."""
    @property
    def metric(self) -> Literal["single", "multi"]:
        """The metric it answers in (default "single")."""
    @property
    def data_dir(self) -> Optional[pathlib.Path]:
        """The data folder, or None for a database in memory."""
    def solve(
        self, board: BoardLike, goal: Optional[BoardLike] = None, size: Optional[SizeLike] = None
    ) -> Solution:
        """An optimal solution of `board` toward `goal` (default: the tiles
        in order, blank last)."""
    def distance(
        self, board: BoardLike, goal: Optional[BoardLike] = None, size: Optional[SizeLike] = None
    ) -> Optional[int]:
        """The optimal number of moves; None if unsolvable."""
    def probe(
        self, board: BoardLike, goal: Optional[BoardLike] = None, size: Optional[SizeLike] = None
    ) -> Probe:
        """The board's distance and every legal move's outcome."""
    def count(
        self, board: BoardLike, goal: Optional[BoardLike] = None, size: Optional[SizeLike] = None
    ) -> Optional[int]:
        """The exact number of optimal solutions; None if unsolvable."""
    def random(
        self,
        size: Optional[SizeLike] = None,
        distance: Union[DistanceLike, tuple[DistanceLike, DistanceLike], None] = None,
        count: int = 1,
        seed: Optional[int] = None,
        goal: Optional[BoardLike] = None,
    ) -> list[str]:
        """`count` boards drawn uniformly: at `distance` (or within a
        (min, max) range), or among all solvable boards. `seed` is an
        integer from 0 to 2**64-1 (the same seed draws the CLI's boards)."""
    def layer(
        self, distance: DistanceLike, size: Optional[SizeLike] = None, goal: Optional[BoardLike] = None
    ) -> LayerIterator:
        """Every board exactly `distance` moves from the goal."""
    def stats(self, size: Optional[SizeLike] = None, goal: Optional[BoardLike] = None) -> dict[str, Any]:
        """The keys of the command line's `stats --json`: size, goal,
        states, max_distance, mean_distance, layers, hardest, generator."""
    def table(self, size: Optional[SizeLike] = None, goal: Optional[BoardLike] = None) -> Table:
        """The full table toward `goal`, for NumPy batches."""
    def sizes(self) -> list[dict[str, str]]:
        """Every size answered exactly, smallest first: dicts with the keys
        size, exact ("table", "patterns" or "search") and goal, as the
        command line's `sizes --json` and the server's /api/v1/sizes."""

class Table:
    """One full distance table, answering toward its goal."""

    @staticmethod
    def open(path: PathLike, verify: bool = True) -> Table:
        """Opens (memory-maps) and checks a table file, or a sharded
        table's directory (as ``slidedb-gen --workers`` writes it)."""
    @property
    def size(self) -> str: ...
    @property
    def goal(self) -> str: ...
    @property
    def states(self) -> int: ...
    @property
    def metric(self) -> Literal["single", "multi"]: ...
    @property
    def max_distance(self) -> int: ...
    @property
    def layers(self) -> list[int]: ...
    def stats(self) -> dict[str, Any]: ...
    def solve(self, board: BoardLike) -> Solution: ...
    def distance(self, board: BoardLike) -> Optional[int]: ...
    def probe(self, board: BoardLike) -> Probe: ...
    def count(self, board: BoardLike) -> Optional[int]: ...
    def distances(self, boards: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """The distance of each row of an (n, cells) integer array, as an
        (n,) int64 array, -1 for an unsolvable board. Every core, no GIL."""
    def solve_many(self, boards: npt.ArrayLike) -> list[Optional[str]]:
        """An optimal solution of each row, as move strings (None for an
        unsolvable board). Every core, no GIL."""
    def save(self, path: PathLike, overwrite: bool = False) -> None:
        """Writes the table to `path` atomically, as one table file (a
        sharded table merged: the bytes of ``slidedb-gen merge``)."""

def generate(
    size: Optional[SizeLike] = None,
    goal: Optional[BoardLike] = None,
    threads: Optional[int] = None,
    progress: Optional[Callable[[Layer], object]] = None,
) -> Table:
    """Builds the full table of `size` toward `goal` in memory, without the
    GIL, on `threads` threads (1 to 256, as ``slidedb-gen --threads``;
    default: every core)."""

def as_list(board: BoardLike, size: Optional[SizeLike] = None) -> list[int]:
    """The board's cells in reading order, 0 for the blank."""

def as_grid(board: BoardLike, size: Optional[SizeLike] = None) -> list[list[int]]:
    """The board's rows."""

def format_board(board: BoardLike, size: Optional[SizeLike] = None) -> str:
    """The board in the command line's format, such as "1 2 3 4 5 6 7 8 0"."""

"""slidedb: an exact lookup database for sliding-tile puzzles.

One breadth-first search from the goal stores every reachable board's
distance; any board is then solved optimally by stepping to a neighbour one
move closer, in microseconds. This is the Python package of the Rust
library (PyO3): the same engine, files and messages as the ``slidedb``
command line.

>>> import slidedb
>>> db = slidedb.Database()              # the command line's data folder
>>> db.solve("2 3 4 1 5 x 7 6 8")
Solution(moves='ullddrurdllurdruldr', distance=19, solvable=True)

- :class:`Database`: the engine over a data folder (``solve``,
  ``distance``, ``probe``, ``count``, ``random``, ``layer``, ``stats``,
  ``table``).
- :class:`Table`: one full table, from :func:`generate` or
  :meth:`Table.open`, with NumPy batches (``distances``, ``solve_many``).
- :class:`Solution`, :class:`Probe`, :class:`MoveOutcome`, :class:`Layer`:
  the answers.
- :exc:`TableError` (an ``OSError``): a missing, unreadable or damaged
  file; a bad board or size is a ``ValueError``, with the command line's
  message.
- :func:`as_list`, :func:`as_grid`, :func:`format_board`: boards from any
  syntax to lists, rows or the command line's text.
"""

from ._slidedb import (
    MAX_IN_MEMORY_CELLS,
    MAX_TABLE_CELLS,
    Database,
    Layer,
    LayerIterator,
    MoveOutcome,
    Probe,
    Solution,
    Table,
    TableError,
    __version__,
    as_grid,
    as_list,
    format_board,
    generate,
)

__all__ = [
    "MAX_IN_MEMORY_CELLS",
    "MAX_TABLE_CELLS",
    "Database",
    "Layer",
    "LayerIterator",
    "MoveOutcome",
    "Probe",
    "Solution",
    "Table",
    "TableError",
    "__version__",
    "as_grid",
    "as_list",
    "format_board",
    "generate",
]

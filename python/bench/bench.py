"""Benchmarks of the Python package, in one run:

1. Table.distances on 1,000,000 uniformly random solvable 3x3 boards (a
   NumPy array), in boards per second (best of --repeat runs).
2. One Database.solve call on a 31-move board (8 6 7 2 5 4 3 0 1) against
   a plain Python A* with Manhattan distance, of the kind course projects
   write (heapq, a dict of best costs, tuple states), per board.

    python python/bench/bench.py [--boards N] [--repeat R]
"""

import argparse
import heapq
import os
import tempfile
import time

import numpy as np

import slidedb

HARDEST = (8, 6, 7, 2, 5, 4, 3, 0, 1)
GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)


def solvable_boards(n, seed=2026):
    """n uniformly random solvable 3x3 boards: shuffles, with the first two
    tiles swapped on the other parity (a bijection between the halves)."""
    rng = np.random.default_rng(seed)
    b = rng.permuted(np.tile(np.arange(9, dtype=np.uint8), (n, 1)), axis=1)
    inversions = np.zeros(n, dtype=np.int64)
    for i in range(9):
        for j in range(i + 1, 9):
            inversions += (b[:, i] > b[:, j]) & (b[:, j] != 0)
    rows = np.nonzero(inversions % 2 == 1)[0]
    first = np.where(b[rows, 0] == 0, 1, 0)
    second = np.where((b[rows, 0] == 0) | (b[rows, 1] == 0), 2, 1)
    tmp = b[rows, first].copy()
    b[rows, first] = b[rows, second]
    b[rows, second] = tmp
    return b


def astar_manhattan(start, goal=GOAL, width=3):
    """A* with Manhattan distance, as a course project writes it: tuple
    states, a heap of (f, g, state, path), a dict of the best g seen."""
    where = {tile: divmod(i, width) for i, tile in enumerate(goal)}

    def h(state):
        total = 0
        for i, tile in enumerate(state):
            if tile:
                r, c = divmod(i, width)
                gr, gc = where[tile]
                total += abs(r - gr) + abs(c - gc)
        return total

    moves = {"u": -width, "d": width, "l": -1, "r": 1}
    frontier = [(h(start), 0, start, "")]
    best = {start: 0}
    while frontier:
        f, g, state, path = heapq.heappop(frontier)
        if state == goal:
            return path
        if g > best.get(state, 1 << 30):
            continue
        blank = state.index(0)
        row, col = divmod(blank, width)
        for letter, step in moves.items():
            if (letter == "u" and row == 0) or (letter == "d" and row == width - 1):
                continue
            if (letter == "l" and col == 0) or (letter == "r" and col == width - 1):
                continue
            target = blank + step
            cells = list(state)
            cells[blank], cells[target] = cells[target], cells[blank]
            nxt = tuple(cells)
            if g + 1 < best.get(nxt, 1 << 30):
                best[nxt] = g + 1
                heapq.heappush(frontier, (g + 1 + h(nxt), g + 1, nxt, path + letter))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"slidedb {slidedb.__version__}, {os.cpu_count()} cores, numpy {np.__version__}")

    with tempfile.TemporaryDirectory() as data:
        db = slidedb.Database(data)
        table = db.table("3x3")
        boards = solvable_boards(args.boards)
        distances = table.distances(boards)  # warm up
        assert (distances >= 0).all()
        best = min(_timed(lambda: table.distances(boards)) for _ in range(args.repeat))
        print(
            f"table.distances: {args.boards:,} random solvable 3x3 boards in {best * 1e3:.1f} ms"
            f" = {args.boards / best:,.0f} boards/s (mean distance {distances.mean():.2f})"
        )
        int64 = boards.astype(np.int64)
        best64 = min(_timed(lambda: table.distances(int64)) for _ in range(args.repeat))
        print(f"  the same as int64: {args.boards / best64:,.0f} boards/s")
        best_many = min(_timed(lambda: table.solve_many(boards)) for _ in range(2))
        print(f"table.solve_many: {args.boards / best_many:,.0f} boards/s (move strings)")

        board = " ".join(map(str, HARDEST))
        db.solve(board)  # the table is open
        n = 10_000
        start = time.perf_counter()
        for _ in range(n):
            found = db.solve(board)
        per_call = (time.perf_counter() - start) / n
        assert found.distance == 31

        start = time.perf_counter()
        path = astar_manhattan(HARDEST)
        astar = time.perf_counter() - start
        assert len(path) == 31
        print(f"Database.solve({board!r}): {per_call * 1e6:.1f} µs a call ({n:,} calls)")
        print(f"plain Python A* with Manhattan distance: {astar * 1e3:.0f} ms, 31 moves")
        print(f"ratio: {astar / per_call:,.0f}x faster per board")


def _timed(f):
    start = time.perf_counter()
    f()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()

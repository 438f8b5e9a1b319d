"""Checks a heuristic for admissibility (never more than the true distance)
against the exact distances of every solvable 3x3 board, and reports how
close it comes.

    python python/examples/check_heuristic.py

Replace `my_heuristic` with yours: it takes a board as a tuple of 9 cells
in reading order (0 for the blank) and returns its estimate of the moves
to the goal 1 2 3 4 5 6 7 8 0.
"""

import numpy as np

import slidedb

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)


def linear_conflict(board):
    """Manhattan distance, plus 2 for each pair of tiles in their goal row
    in the wrong order (linear conflict, rows only)."""
    total = 0
    for i, tile in enumerate(board):
        if tile:
            goal = tile - 1
            total += abs(i // 3 - goal // 3) + abs(i % 3 - goal % 3)
    for row in range(3):
        tiles = [t for t in board[3 * row : 3 * row + 3] if t and (t - 1) // 3 == row]
        total += 2 * sum(1 for a in range(len(tiles)) for b in range(a + 1, len(tiles)) if tiles[a] > tiles[b])
    return total


def my_heuristic(board):
    """The same, with a plausible mistake: one more move whenever the blank
    is not in its corner."""
    return linear_conflict(board) + (board[8] != 0)


def check(name, heuristic, boards, cells, exact):
    """Reports whether `heuristic` ever overestimates, and how close it is."""
    estimates = np.array([heuristic(tuple(row)) for row in cells.tolist()])
    over = np.nonzero(estimates > exact)[0]
    print(f"{name}:")
    if len(over):
        worst = over[np.argmax(estimates[over] - exact[over])]
        print(f"  NOT admissible: it overestimates {len(over):,} boards ({len(over) / len(boards):.2%})")
        print(f"  such as {boards[worst]}: estimate {estimates[worst]}, exact {exact[worst]}")
    else:
        print("  admissible: it never overestimates")
    away = exact > 0
    print(f"  mean estimate / exact distance {np.mean(estimates[away] / exact[away]):.3f}; exact on {np.mean(estimates == exact):.2%} of boards")


def main():
    db = slidedb.Database()
    stats = db.stats("3x3")
    # Every solvable board, layer by layer.
    boards = [b for d in range(stats["max_distance"] + 1) for b in db.layer(d)]
    cells = np.array([slidedb.as_list(b) for b in boards], dtype=np.uint8)
    exact = db.table("3x3").distances(cells)
    print(f"{len(boards):,} boards, every solvable 3x3 board, against their exact distances")
    check("Manhattan + linear conflict", linear_conflict, boards, cells, exact)
    check("my_heuristic", my_heuristic, boards, cells, exact)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The projection of docs/scale.md: the complete 3x5 and 4x4 searches of
the distributed build on K machines, from figures measured on this
project's machine (each named below with where it comes from).

    python3 benches/scale_model.py

Prints one table per board; docs/scale.md copies them.
"""

from math import factorial

# --- Measured (docs/scale.md says with which command) -------------------
# Moves a core expands per second in a search whose state is far larger
# than the caches: the 2x7 two-bit build, 43,589,145,600 boards x 2.7149
# moves in 1,398 s of search on 2 threads.
MOVES_PER_CORE = 43_589_145_600 * 2.7149 / 1398 / 2
# Parallel efficiency of the distributed code: 2 processes on 2 cores
# against 1 process on 1 (benches/cluster.sh, medians of 3 in two runs:
# 0.81 and 0.83 on 3x4, 0.88 and 0.92 on 2x6; the lowest, rounded down).
EFFICIENCY = 0.80
# Bytes on the wire per move sent to another process: timely's framing
# and progress messages over the 8-byte index (benches/cluster.sh: wire
# bytes of all processes over 8 x the moves that crossed: 1.011 to 1.014
# on 3x4 and 2x6 with 2 and 4 processes).
WIRE_PER_MOVE = 8 * 1.014
# Share of moves that cross machines, by owners (examples/crossing, 10^6
# random boards; the build's split by tile order, owners = machines).
CROSSING = {
    "3x5": {8: 0.0513, 32: 0.0784, 128: 0.1010},
    "4x4": {8: 0.0464, 32: 0.0703, 128: 0.0903},
}
# A layer's share of the whole search at its peak: about 5x the mean
# (4.2x, 4.4x, 4.9x for 3x3, 2x6 and 3x4 from their published layer
# counts in tests/data/distributions).
PEAK_OVER_MEAN = 5.0

# --- Assumed -------------------------------------------------------------
CORES = 32  # a node
LINK = 10e9 / 8  # bytes/s each way, 10 Gbit/s, a non-blocking switch
DISK = 1e9  # bytes/s a node writes (one NVMe drive)
CHECKPOINT_EVERY = 300  # s, the default

BOARDS = {
    # name: (rows, cols, layers = God's number + 1)
    "3x5": (3, 5, 85),
    "4x4": (4, 4, 81),
}


def moves_per_board(rows, cols):
    edges = rows * (cols - 1) + cols * (rows - 1)
    return 2 * edges / (rows * cols)


def gb(x):
    return f"{x / 1e9:,.1f} GB" if x < 1e12 else f"{x / 1e12:,.2f} TB"


def hours(s):
    if s >= 3600:
        return f"{s / 3600:.1f} h"
    return f"{s / 60:.0f} min" if s >= 120 else f"{s:.0f} s"


def main():
    print(f"node: {CORES} cores x {MOVES_PER_CORE / 1e6:.1f} M moves/s x {EFFICIENCY}; "
          f"link {LINK * 8 / 1e9:.0f} Gbit/s; disk {DISK / 1e9:.0f} GB/s\n")
    for name, (rows, cols, layers) in BOARDS.items():
        n = factorial(rows * cols) // 2
        moves = n * moves_per_board(rows, cols)
        print(f"{name}: {n:,} boards, {moves:.4g} moves, {layers} layers; "
              f"table {gb(n / 4)} at 2 bits a board")
        print("| K | memory / machine | disk / machine (peak) | crossing | "
              "exchanged, all machines | sent / machine | sent / machine, peak layer | "
              "compute | network | checkpoint each | wall (max .. sum) |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for k, share in CROSSING[name].items():
            memory = 3 * n / 8 / k
            disk = 8 * n / 8 / k  # two checkpoint slots (3+3 bits) + shards (2)
            sent = moves * share * WIRE_PER_MOVE / k
            peak = sent * PEAK_OVER_MEAN / layers
            compute = moves / (k * CORES * MOVES_PER_CORE * EFFICIENCY)
            network = sent / LINK
            checkpoint = memory / DISK
            low = max(compute, network)
            high = compute + network
            print(f"| {k} | {gb(memory)} | {gb(disk)} | {share:.1%} | {gb(sent * k)} | {gb(sent)} | "
                  f"{gb(peak)} | {hours(compute)} | {hours(network)} | "
                  f"{checkpoint:.0f} s | {hours(low)} .. {hours(high)} |")
        print()


if __name__ == "__main__":
    main()

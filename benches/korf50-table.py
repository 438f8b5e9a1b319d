#!/usr/bin/env python3
"""The table of Korf's cheapest 24-puzzles in docs/24-puzzle.md, from the
lines a resumable korf50 run keeps, beside the published counts.

    benches/korf50-table.py docs/korf50-results.tsv docs/korf50-doebbelin.txt

RESULTS holds `korf50 --results` lines (set, instance, moves, nodes
generated, nodes expanded, wall seconds, CPU seconds); PUBLISHED is
clausecker/24puzzle's list of the 50 (instance, optimal length, Korf and
Felner's nodes generated, Doebbelin et al.'s expanded under each set).

Prints on stdout a Markdown row for each instance solved (in the order
the run solved them): its length, Korf and Felner's nodes generated,
Doebbelin et al.'s nodes expanded under 6-6-6-6 and under their maximum of
several sets, and each set's nodes expanded and wall seconds (– where that
set has not solved it); then, over the instances every set solved, the
totals, each set against the first, and each set's nodes expanded a CPU
second. On stderr, each set's wall seconds per published
node over those instances, and what that rate makes of the 25 cheapest,
the median instance (#6) and the whole 50; and for each set that solved
all of the 25 cheapest, their nodes and wall seconds in all. Exits 1 if a
length differs from the published one.
"""

import sys


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: " + __doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    results, published = sys.argv[1], sys.argv[2]
    # instance -> (length, Korf generated, Doebbelin 6-6-6-6, Doebbelin max-of)
    pub = {}
    with open(published) as f:
        for line in f:
            cols = line.split()
            if not cols or not cols[0].isdigit():
                continue
            pub[int(cols[0])] = (int(cols[1]), int(cols[2]), int(cols[3]), int(cols[7]))
    sets, order, rows = [], [], {}
    with open(results) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            name, instance = cols[0], int(cols[1])
            if name not in sets:
                sets.append(name)
            if instance not in order:
                order.append(instance)
            rows[(name, instance)] = (
                int(cols[2]),
                int(cols[4]),
                float(cols[5]),
                float(cols[6]),
            )
    solved = [i for i in order if all((s, i) in rows for s in sets)]
    wrong = [(s, i) for (s, i), r in rows.items() if r[0] != pub[i][0]]
    for s, i in wrong:
        print(f"#{i} under {s}: {rows[(s, i)][0]} moves, published {pub[i][0]}", file=sys.stderr)

    total = {s: [0, 0.0, 0.0] for s in sets}
    korf = doebbelin = best = 0
    for i in order:
        length, k, d6, dmax = pub[i]
        cells = [
            f"{rows[(s, i)][1]:,} ({rows[(s, i)][2]:.1f})" if (s, i) in rows else "–" for s in sets
        ]
        print(f"| {i} | {length} | {k:,} | {d6:,} | {dmax:,} | " + " | ".join(cells) + " |")
    for i in solved:
        length, k, d6, dmax = pub[i]
        for s in sets:
            total[s][0] += rows[(s, i)][1]
            total[s][1] += rows[(s, i)][2]
            total[s][2] += rows[(s, i)][3]
        korf, doebbelin, best = korf + k, doebbelin + d6, best + dmax
    first = total[sets[0]]
    print(
        f"| all {len(solved)} | | {korf:,} | {doebbelin:,} | {best:,} | "
        + " | ".join(f"{t[0]:,} ({t[1]:.1f})" for t in total.values())
        + " |"
    )
    print(
        "| against the first | | | | | "
        + " | ".join(f"{t[0] / first[0]:.2f} ({t[1] / first[1]:.2f})" for t in total.values())
        + " |"
    )
    print(
        "| expanded a CPU second | | | | | "
        + " | ".join(f"{t[0] / t[2] / 1e6:.2f} M" for t in total.values())
        + " |"
    )

    cheapest = sorted(pub.values(), key=lambda p: p[1])[:25]
    nodes_25 = sum(p[1] for p in cheapest)
    nodes_50 = sum(p[1] for p in pub.values())
    print(f"published nodes over these {len(solved)}: {korf:,}", file=sys.stderr)
    for s, t in total.items():
        rate = t[1] / korf
        print(
            f"{s}: {rate:.3e} wall s per published node; the 25 cheapest "
            f"{nodes_25 * rate / 3600:.2f} h, #6 {pub[6][1] * rate / 60:.1f} min, "
            f"the 50 {nodes_50 * rate / 3600:.1f} h",
            file=sys.stderr,
        )
    # A set that has solved every one of the 25 cheapest: their time, measured.
    ids_25 = sorted(pub, key=lambda i: pub[i][1])[:25]
    for s in sets:
        if all((s, i) in rows for i in ids_25):
            expanded = sum(rows[(s, i)][1] for i in ids_25)
            wall = sum(rows[(s, i)][2] for i in ids_25)
            print(
                f"{s}: the 25 cheapest solved, {expanded:,} nodes expanded in "
                f"{wall:.1f} s wall ({wall / 3600:.2f} h)",
                file=sys.stderr,
            )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Prints, from the last `cargo bench -- algorithms/` run, each algorithm's
median time per board and its ratio to the table lookup of that board.

Usage: cargo bench --bench slidedb -- algorithms/ && scripts/ratios.py
"""
import json
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent / "target" / "criterion"
groups = sorted(root.glob("algorithms_*")) or sorted((root / "algorithms").glob("*"))
if not groups:
    sys.exit("no criterion results under target/criterion: run the bench first")


def median(path):
    est = json.loads((path / "new" / "estimates.json").read_text())
    return est["median"]["point_estimate"]  # nanoseconds


def show(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


for group in groups:
    runs = {p.name: median(p) for p in group.iterdir() if (p / "new" / "estimates.json").exists()}
    if "table" not in runs:
        continue
    print(group.name.replace("algorithms_", ""))
    table = runs["table"]
    for name, ns in sorted(runs.items(), key=lambda kv: kv[1]):
        print(f"  {name:<22} {show(ns):>10}   {ns / table:>12,.0f} x table")

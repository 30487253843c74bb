#!/usr/bin/env python3
"""Summarise `sokoban solve --csv` files: solved count, levels solved within 1 s and 10 s,
total and median time of the solved levels, and the levels left unsolved.

    bench/summary.py bench/out/fast-xsokoban.csv [more.csv ...]
"""
import csv
import statistics
import sys

for name in sys.argv[1:]:
    with open(name, newline="") as f:
        rows = [r for r in csv.DictReader(f) if (r.get("level") or "").isdigit()]
    solved = [float(r["ms"]) for r in rows if r["status"] == "solved"]
    unsolved = [r["level"] for r in rows if r["status"] != "solved"]
    med = statistics.median(solved) if solved else 0
    print(
        f"{name}: {len(solved)} of {len(rows)} solved "
        f"({sum(t <= 1000 for t in solved)} in 1 s, {sum(t <= 10000 for t in solved)} in 10 s), "
        f"total {sum(solved) / 1000:.1f} s, median {med:.0f} ms"
    )
    if unsolved:
        print("  unsolved: " + " ".join(unsolved))

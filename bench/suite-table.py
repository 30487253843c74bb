#!/usr/bin/env python3
"""One table for a run of bench/suite.sh: solved per collection, ours beside Festival's
(where ../shared/design has its per-level figures), and the levels only one of us solves.

    bench/suite-table.py RUN_DIR [--festival DESIGN_DIR] [--base OTHER_RUN_DIR]

With --base, a column for another run of ours and the levels won and lost against it.
"""
import argparse
import csv
import os
import statistics

COLLECTIONS = [
    ("xsokoban-90", "XSokoban", "festival-xsokoban-60s.csv"),
    ("sasquatch-1", "Sasquatch I", None),
    ("sasquatch-3", "Sasquatch III", "festival-sasquatch-3-30s.csv"),
    ("sasquatch-4", "Sasquatch IV", "festival-sasquatch-4-30s.csv"),
    ("sasquatch-5", "Sasquatch V", "festival-sasquatch-5-30s.csv"),
    ("sasquatch-6", "Sasquatch VI", "festival-sasquatch-6-30s.csv"),
    ("microban-1", "Microban I", None),
]


def solved(path):
    """Level numbers solved in a CSV of ours or Festival's (None if there is no file)."""
    if not path or not os.path.exists(path):
        return None, {}
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if (r.get("level") or "").isdigit()]
    ms = {int(r["level"]): float(r.get("ms") or 0) for r in rows if r["status"] == "solved"}
    return {int(r["level"]) for r in rows if r["status"] == "solved"}, ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("--festival")
    ap.add_argument("--base")
    a = ap.parse_args()
    opts = open(os.path.join(a.run, "options.txt")).read().strip() if os.path.exists(
        os.path.join(a.run, "options.txt")) else ""
    build = open(os.path.join(a.run, "build.txt")).read().strip() if os.path.exists(
        os.path.join(a.run, "build.txt")) else "?"
    print(f"# Suite run `{opts}` (build {build})\n")
    head = "| collection | levels | ours |" + (" base |" if a.base else "") + " Festival | median ms | only ours | only Festival |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    tot = [0, 0, 0, 0]
    notes = []
    for key, name, fest in COLLECTIONS:
        ours, ms = solved(os.path.join(a.run, key + ".csv"))
        if ours is None:
            continue
        with open(os.path.join(a.run, key + ".csv")) as f:
            n = sum(1 for line in f if line[:1].isdigit())
        f_set = solved(os.path.join(a.festival, fest))[0] if (a.festival and fest) else None
        base = solved(os.path.join(a.base, key + ".csv"))[0] if a.base else None
        med = statistics.median(ms.values()) if ms else 0
        only_ours = sorted(ours - f_set) if f_set is not None else []
        only_f = sorted(f_set - ours) if f_set is not None else []
        row = f"| {name} | {n} | {len(ours)} |"
        if a.base:
            row += f" {len(base) if base is not None else '–'} |"
        row += f" {len(f_set) if f_set is not None else '–'} | {med:.0f} |"
        row += f" {' '.join(map(str, only_ours)) or '–'} | {' '.join(map(str, only_f)) or '–'} |"
        print(row)
        tot[0] += n
        tot[1] += len(ours)
        tot[2] += len(base) if base else 0
        tot[3] += len(f_set) if f_set else 0
        if base is not None and (ours - base or base - ours):
            notes.append(f"{name}: won {sorted(ours - base)}, lost {sorted(base - ours)}")
    row = f"| all | {tot[0]} | {tot[1]} |" + (f" {tot[2]} |" if a.base else "")
    print(row + f" {tot[3]} (where measured) | | | |")
    for line in notes:
        print(f"\n{line}")


main()

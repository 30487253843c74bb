#!/usr/bin/env python3
"""Per-level table of fast-solver runs for bench/results.md: native, wasm (optional) and
Festival's per-level figures (optional), with the wasm/native time ratio on the levels
both solve.

    bench/fast-table.py NATIVE.csv [--wasm WASM.csv] [--festival festival-xsokoban-60s.csv]

NATIVE.csv and WASM.csv are `sokoban solve --csv` / `bench/wasm-solve.mjs` output;
the Festival file has `level,status,seconds_whole,moves,pushes`.
"""
import argparse
import csv
import statistics


def load(name):
    if not name:
        return {}
    with open(name, newline="") as f:
        return {int(r["level"]): r for r in csv.DictReader(f) if (r.get("level") or "").isdigit()}


ap = argparse.ArgumentParser()
ap.add_argument("native")
ap.add_argument("--wasm")
ap.add_argument("--festival")
a = ap.parse_args()
nat, wasm, fest = load(a.native), load(a.wasm), load(a.festival)

head = ["level", "status", "pushes", "moves", "native ms"]
if wasm:
    head.append("wasm ms")
if fest:
    head += ["Festival s", "Festival pushes"]
print("| " + " | ".join(head) + " |")
print("|" + "---|" * len(head))
ratios = []
for lv in sorted(nat):
    r = nat[lv]
    ok = r["status"] == "solved"
    row = [str(lv), r["status"], r["pushes"] or "–", r["moves"] or "–", f"{float(r['ms']):,.0f}"]
    if wasm:
        w = wasm.get(lv)
        if w and w["status"] == "solved":
            row.append(f"{float(w['ms']):,.0f}")
            if ok:
                ratios.append((float(r["ms"]), float(w["ms"]) / max(float(r["ms"]), 1.0)))
        else:
            row.append(w["status"] if w else "–")
    if fest:
        f = fest.get(lv)
        if f and f["status"] == "solved":
            row += [f["seconds_whole"], f["pushes"]]
        else:
            row += [f["status"] if f else "–", "–"]
    print("| " + " | ".join(row) + " |")
if ratios:
    slow = [q for t, q in ratios if t >= 100]
    print(
        f"\nwasm/native time ratio on the {len(ratios)} levels both solve: median "
        f"{statistics.median(q for _, q in ratios):.2f}"
        + (f"; on the {len(slow)} taking 100 ms or more natively: {statistics.median(slow):.2f}" if slow else "")
    )

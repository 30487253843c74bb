#!/usr/bin/env python3
"""Time two builds of the fast search against each other on the same work.

Each level runs under both builds at once, one on each of CPUs 0 and 1, the CPUs swapped
every round (so a slower core or a neighbour's load falls on both), with the same move
budget: where both make the same moves (a change meant to keep the search as it is), the
time ratio is the speed ratio. Prints per level the median seconds of each build, the
ratio B/A and both node counts (they must agree for the ratio to mean speed), then the
geometric mean of the ratios.

    bench/speed-pair.py BIN_A BIN_B [--nodes 300000] [--rounds 4] [--levels C:N ...]

Levels are `collection:number` of `../shared/levels/collection.xsb`; the default six run
to the budget in every part of the search (many boxes, the perimeter, the HF stage).
"""
import argparse
import math
import os
import statistics
import subprocess
import time

DEFAULT = ["sasquatch-3:25", "sasquatch-6:17", "xsokoban-90:89", "sasquatch-4:35",
           "sasquatch-1:5", "sasquatch-3:19"]


def command(binary, cpu, levels, coll, n, nodes):
    return ["taskset", "-c", str(cpu), binary, "solve", f"{levels}/{coll}.xsb", "--levels", n,
            "--mode", "fast", "--threads", "1", "--lanes", "1", "--jobs", "1", "--csv",
            "--nodes", str(nodes), "--memory", "1024"]


def nodes_of(out):
    lines = out.splitlines()
    return lines[1].split(",")[4] if len(lines) > 1 else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--nodes", type=int, default=300000)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--levels", nargs="*", default=DEFAULT)
    ap.add_argument("--dir", default=os.path.join(os.path.dirname(__file__), "../../shared/levels"))
    args = ap.parse_args()
    ratios = []
    for spec in args.levels:
        coll, n = spec.split(":")
        times = ([], [])
        counts = set()
        for r in range(args.rounds):
            cpus = (0, 1) if r % 2 == 0 else (1, 0)
            start = time.monotonic()
            procs = [subprocess.Popen(command(b, c, args.dir, coll, n, args.nodes),
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
                     for b, c in zip((args.a, args.b), cpus)]
            done = [None, None]
            while None in done:
                for k, p in enumerate(procs):
                    if done[k] is None and p.poll() is not None:
                        done[k] = time.monotonic() - start
                time.sleep(0.002)
            for k, p in enumerate(procs):
                times[k].append(done[k])
                counts.add((k, nodes_of(p.stdout.read())))
        ma, mb = statistics.median(times[0]), statistics.median(times[1])
        ratios.append(mb / ma)
        na = {c for k, c in counts if k == 0}
        nb = {c for k, c in counts if k == 1}
        flag = "" if na == nb else "  (different moves: not a speed ratio)"
        print(f"{coll} {n}: A {ma:.2f} s, B {mb:.2f} s, B/A {mb / ma:.3f}; "
              f"nodes {','.join(sorted(na))} / {','.join(sorted(nb))}{flag}", flush=True)
    print(f"geometric mean B/A {math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f}")


if __name__ == "__main__":
    main()

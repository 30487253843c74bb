#!/usr/bin/env python3
"""Festival's packing plan of levels, as our `--experiments order=...` (parking steps kept).

    bench/festival-plan.py FESTIVAL_V4 LEVELS.xsb 13,48 [--alg 0] [--out DIR]

FESTIVAL_V4 is Festival 3.1 built as ../shared/design/peers.md says with `verbose = 4` in
global.cpp (it then prints each strategy's packing plan: `k : row col from: .. until: ..`).
Each level runs alone (`-alg` strategy, default 0: the packing search then FESS, 10 s);
prints `LEVEL solved|unsolved order=STEPS`, a step `r:c` filling a goal, `r:c>r:c` parking
a box that moves on to the square of a later step (Festival's `until`).
"""
import argparse
import os
import re
import subprocess
import tempfile


def levels_of(path):
    """Level number -> board text, from `; N` titles (the development collections' form)."""
    parts = re.split(r'^; (\d+)\s*$', open(path).read(), flags=re.M)
    out = {}
    for i in range(1, len(parts), 2):
        rows = [l for l in parts[i + 1].split('\n') if l.strip() and not l.startswith(';')]
        out[int(parts[i])] = '\n'.join(rows)
    return out


def plan_of(stdout):
    """The first packing plan Festival printed, as order= steps."""
    entries = []
    for k, r, c, until in re.findall(
            r'^\s*(\d+) :\s+(\d+)\s+(\d+) from:\s+.*?until:\s*(.*?)\s*$', stdout, flags=re.M):
        if k == '0' and entries:
            break
        entries.append((r, c, None if until.strip() in ('-', '') else int(until)))
    steps = []
    for r, c, until in entries:
        steps.append(f'{r}:{c}' if until is None else f'{r}:{c}>{entries[until][0]}:{entries[until][1]}')
    return 'order=' + ';'.join(steps)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('festival')
    ap.add_argument('levels')
    ap.add_argument('numbers')
    ap.add_argument('--alg', default='0')
    ap.add_argument('--time', default='10')
    ap.add_argument('--out', default=None)
    a = ap.parse_args()
    boards = levels_of(a.levels)
    base = a.out or tempfile.mkdtemp(prefix='festival-plan-')
    for n in (int(x) for x in a.numbers.split(',')):
        d = os.path.join(base, f'{os.path.basename(a.levels)}-{n}')
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, 'level.sok'), 'w') as f:
            f.write(f'Level {n}\n\n{boards[n]}\n')
        out = subprocess.run(
            ['timeout', str(int(a.time) + 30), a.festival, os.path.join(d, 'level.sok'), '-cores', '1',
             '-time', a.time, '-alg', a.alg, '-out_dir', d],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, errors='replace').stdout
        with open(os.path.join(d, 'stdout.txt'), 'w') as f:
            f.write(out)
        print(n, 'solved' if 'SOLVED' in out else 'unsolved', plan_of(out), flush=True)


if __name__ == '__main__':
    main()

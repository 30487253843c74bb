#!/usr/bin/env python3
"""Level-by-level table of a bench/peer-pair.sh run: solved counts, strict counts, the levels only one solves.

    bench/peer-compare.py OUT_DIR [--limit 30]

Prints one markdown row per collection: Festival's count, ours, ours counted strictly at the limit (our time
includes the replay check and the limit is looked at between rounds), the levels only Festival solves (its
seconds), those only ours solves (ms), and the median solved time of each.
"""
import csv
import glob
import os
import statistics
import sys


def rows(path):
    return {int(r['level']): r for r in csv.DictReader(open(path))}


def main():
    out = sys.argv[1]
    limit_ms = 1000 * (int(sys.argv[sys.argv.index('--limit') + 1]) if '--limit' in sys.argv else 30)
    print('| collection | Festival | ours | ours ≤ limit | only Festival\'s (s) | only ours (ms) | median solved: Festival, ours |')
    print('|---|---|---|---|---|---|---|')
    tf = to = 0
    for fpath in sorted(glob.glob(os.path.join(out, 'festival-*.csv'))):
        name = os.path.basename(fpath)[len('festival-'):-4]
        opath = os.path.join(out, f'ours-{name}.csv')
        if not os.path.exists(opath):
            continue
        f, o = rows(fpath), rows(opath)
        fs = {n for n, r in f.items() if r['status'] == 'solved'}
        os_ = {n for n, r in o.items() if r['status'] == 'solved'}
        strict = {n for n in os_ if int(o[n]['ms']) <= limit_ms}
        only_f = ', '.join(f"{n} ({f[n]['seconds']})" for n in sorted(fs - os_))
        only_o = ', '.join(f"{n} ({int(o[n]['ms']):,})" for n in sorted(os_ - fs))
        mf = statistics.median(int(f[n]['seconds']) for n in fs) if fs else 0
        mo = statistics.median(int(o[n]['ms']) for n in os_) if os_ else 0
        tf += len(fs); to += len(os_)
        print(f'| {name} | {len(fs)} | {len(os_)} | {len(strict)} | {only_f or "–"} | {only_o or "–"} | {mf:g} s, {mo:,.0f} ms |')
    print(f'\ntotal: Festival {tf}, ours {to}')


if __name__ == '__main__':
    main()

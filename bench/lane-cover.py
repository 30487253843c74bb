#!/usr/bin/env python3
"""Choose the portfolio's lanes: from candidate schedules' runs, greedily the one that adds
the most solved levels to the lanes already chosen (a set cover, one lane at a time).

    bench/lane-cover.py LANE0.csv[,LANE1.csv...] CANDIDATE.csv ...

Each CSV is `collection,level,status,...` as `sokoban solve --csv` writes it with the
collection in front (or a bench/suite.sh run's per-collection CSVs joined so). The lanes
before the comma list are fixed; a candidate run may cover only the levels the fixed lanes
miss (what they solve adds nothing). Prints each round's gains, level by level, and the lane
chosen; ties go to the candidate named first.
"""
import csv
import sys


def solved(path):
    with open(path) as f:
        return {(r['collection'], r['level']) for r in csv.DictReader(f) if r['status'] == 'solved'}


def short(key):
    collection, level = key
    return f"{collection[0]}{collection[-1]}-{level}"


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    have = set()
    for path in argv[0].split(','):
        have |= solved(path)
    print(f"fixed lanes: {len(have)} solved")
    left = {path: solved(path) for path in argv[1:]}
    while left:
        gains = {path: s - have for path, s in left.items()}
        for path, g in sorted(gains.items(), key=lambda x: -len(x[1])):
            print(f"  +{len(g):<3d} {path}: {' '.join(sorted(map(short, g)))}")
        best = max(gains, key=lambda p: len(gains[p]))
        if not gains[best]:
            break
        have |= gains.pop(best)
        del left[best]
        print(f"next lane: {best} -> {len(have)} solved")


if __name__ == '__main__':
    main(sys.argv[1:])

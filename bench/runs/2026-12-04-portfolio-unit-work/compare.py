#!/usr/bin/env python3
"""Two `solve --csv` runs (level,status,pushes,moves,nodes,ms,lane,strategy): solved by each,
time of the second over the first where both solve (20 ms or more), changed solutions, and
the solving lanes."""
import csv, statistics as st, sys

a = {int(r['level']): r for r in csv.DictReader(open(sys.argv[1]))}
b = {int(r['level']): r for r in csv.DictReader(open(sys.argv[2]))}
sa = {n for n in a if a[n]['status'] == 'solved'}
sb = {n for n in b if b[n]['status'] == 'solved'}
print('solved', len(sa), len(sb), 'only first', sorted(sa - sb), 'only second', sorted(sb - sa))
both = sorted(sa & sb)
r = [float(b[n]['ms']) / float(a[n]['ms']) for n in both if float(a[n]['ms']) >= 20]
print('time second/first where both solve (>= 20 ms):', len(r), 'median', round(st.median(r), 3),
      'geometric', round(st.geometric_mean(r), 3),
      'total ms', round(sum(float(a[n]['ms']) for n in both)), round(sum(float(b[n]['ms']) for n in both)))
print('solution changed on', [n for n in both if (a[n]['pushes'], a[n]['moves']) != (b[n]['pushes'], b[n]['moves'])])
for name, rows, s in (('first', a, sa), ('second', b, sb)):
    print('solving lanes,', name, {l: sum(1 for n in s if rows[n]['lane'] == l) for l in '01'})

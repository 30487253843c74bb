#!/usr/bin/env python3
"""Two runs of the portfolio compared (`bench/runs/*/README.md` say which), each a
`solve --csv` output without the lurd column (level,status,pushes,moves,nodes,ms,lane,
strategy): solved by each, time of the second over the first where both solve (20 ms or
more) in all and by the lane that solved in the first, changed solutions, solving lanes."""
import csv, statistics as st, sys

a = {int(r['level']): r for r in csv.DictReader(open(sys.argv[1]))}
b = {int(r['level']): r for r in csv.DictReader(open(sys.argv[2]))}
sa = {n for n in a if a[n]['status'] == 'solved'}
sb = {n for n in b if b[n]['status'] == 'solved'}
print('solved', len(sa), len(sb), 'only first', sorted(sa - sb), 'only second', sorted(sb - sa))
both = sorted(sa & sb)
timed = [n for n in both if float(a[n]['ms']) >= 20]
ratio = {n: float(b[n]['ms']) / float(a[n]['ms']) for n in timed}
def show(label, ns):
    r = [ratio[n] for n in ns]
    if r:
        print(f'  {label}: {len(r)} levels, median {st.median(r):.3f}, geometric {st.geometric_mean(r):.3f}')
print('time second/first where both solve (>= 20 ms), total ms',
      round(sum(float(a[n]['ms']) for n in both)), round(sum(float(b[n]['ms']) for n in both)))
show('all', timed)
for lane in '01':
    show(f'lane {lane} solved in the first', [n for n in timed if a[n]['lane'] == lane])
print('solution changed on', [n for n in both if (a[n]['pushes'], a[n]['moves']) != (b[n]['pushes'], b[n]['moves'])])
for name, rows, s in (('first', a, sa), ('second', b, sb)):
    print('solving lanes,', name, {l: sum(1 for n in s if rows[n]['lane'] == l) for l in '01'})

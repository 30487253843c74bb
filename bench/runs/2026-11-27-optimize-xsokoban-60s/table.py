import csv, sys, statistics
opt = {r['level']: r for r in csv.DictReader(open(sys.argv[1])) if r['status'] == 'solved'}
fest = {r['level']: r for r in csv.DictReader(open(sys.argv[2] if len(sys.argv) > 2 else '../shared/design/festival-xsokoban-60s.csv')) if r['status'] == 'solved'}
def tot(keys, f): return sum(f(k) for k in keys)
L = sorted(opt, key=int)
print('levels', len(L))
mb = tot(L, lambda k: int(opt[k]['moves_before'])); pb = tot(L, lambda k: int(opt[k]['pushes_before']))
ma = tot(L, lambda k: int(opt[k]['moves'])); pa = tot(L, lambda k: int(opt[k]['pushes']))
print(f'fast input: moves {mb} pushes {pb}; optimized: moves {ma} ({(ma-mb)/mb*100:+.1f}%) pushes {pa} ({(pa-pb)/pb*100:+.1f}%)')
both = [k for k in L if k in fest]
fm = tot(both, lambda k: int(fest[k]['moves'])); fp = tot(both, lambda k: int(fest[k]['pushes']))
om = tot(both, lambda k: int(opt[k]['moves'])); op = tot(both, lambda k: int(opt[k]['pushes']))
im = tot(both, lambda k: int(opt[k]['moves_before'])); ip = tot(both, lambda k: int(opt[k]['pushes_before']))
print(f'both solve {len(both)}: Festival moves {fm} pushes {fp}; fast {im} {ip}; optimized {om} ({(om-fm)/fm*100:+.1f}% vs Festival) {op} ({(op-fp)/fp*100:+.1f}%)')
print('optimized fewer moves than Festival on', sum(int(opt[k]['moves']) < int(fest[k]['moves']) for k in both), 'more on', sum(int(opt[k]['moves']) > int(fest[k]['moves']) for k in both))
ms = [float(opt[k]['ms']) for k in L]
print('finished before 60 s:', sum(m < 59000 for m in ms), 'proved optimal:', sum(opt[k]['optimal'] == 'true' for k in L), 'median ms', statistics.median(ms))
lb = tot(L, lambda k: int(opt[k]['box_lines_before'])); la = tot(L, lambda k: int(opt[k]['box_lines']))
cb = tot(L, lambda k: int(opt[k]['box_changes_before'])); ca = tot(L, lambda k: int(opt[k]['box_changes']))
print(f'box lines {lb} -> {la}; box changes {cb} -> {ca}')

#!/usr/bin/env python3
"""Per kind of call of the fast search, its cost relative to a call (and a move) of the scored
strategy, from calls-by-kind.tsv (collection, level, lane, CALIB, kind, calls, ns, units); then how
well each count of work (turns, units, weighted units, weighted calls) tracks the time of the two
lanes on each level: r = (lane 1 time / work) / (lane 0 time / work), ideally 1."""
import collections, math, os, statistics
here = os.path.dirname(os.path.abspath(__file__))
rows=[l.rstrip('\n').split('\t') for l in open(os.path.join(here, 'calls-by-kind.tsv'))]
# c, lv, lane, 'CALIB', kind, calls, ns, units
data=collections.defaultdict(dict)
for c,lv,lane,_,kind,calls,ns,units in rows:
    data[(c,lv,int(lane))][kind]=(int(calls),int(ns),int(units))
ratios=collections.defaultdict(list)
percall=collections.defaultdict(list)
for key,d in data.items():
    sc=d.get('FESS scored')
    if not sc or sc[2]==0: continue
    base=sc[1]/sc[2]
    for k,(calls,ns,units) in d.items():
        if units>1000:
            ratios[(key[2],k)].append((ns/units)/base)
        percall[(key[2],k)].append((ns/calls)/(sc[1]/sc[0]))
for (lane,k),v in sorted(ratios.items()):
    q=statistics.quantiles(v,n=4) if len(v)>1 else [v[0]]*3
    print('lane %d %-45s n=%2d  ns/unit rel scored: median %.2f  [%.2f %.2f]   per call %.2f' % (lane,k,len(v),statistics.median(v),q[0],q[2], statistics.median(percall[(lane,k)])))

def w_unit(k):
    if k.startswith('Greedy'): return 0.13
    if k in ('pulling','perimeter'): return 0.3
    if k.startswith('FESS rules'): return 0.7
    return 1.0
def w_call(k):
    if k=='pulling': return 3.0
    if k=='perimeter': return 0.7
    if k.startswith('Greedy'): return 0.28
    if 'sprint' in k: return 1.4
    if 'no area joiner' in k or 'cluster' in k: return 0.07
    if k.startswith('FESS rules'): return 0.37
    if 'greedy removals' in k: return 1.7
    if k.startswith('HF'): return 1.1
    return 1.0
measures={
 'turns': lambda d: sum(v[0] for v in d.values()),
 'units': lambda d: sum(v[2] for v in d.values())+sum(v[0] for v in d.values()),
 'wunits': lambda d: sum(w_unit(k)*v[2] for k,v in d.items()),
 'wcalls': lambda d: sum(w_call(k)*v[0] for k,v in d.items()),
}
levels=sorted(set((c,lv) for c,lv,_ in data))
for name,f in measures.items():
    logs=[]
    for c,lv in levels:
        d0=data.get((c,lv,0)); d1=data.get((c,lv,1))
        if not d0 or not d1: continue
        T0=sum(v[1] for v in d0.values()); T1=sum(v[1] for v in d1.values())
        r=(T1/f(d1))/(T0/f(d0))
        logs.append(math.log(r))
    ab=[abs(x) for x in logs]
    print('%-7s n=%d  median r %.2f  mean |log r| %.3f  max r %.2f min r %.2f' % (name,len(logs),math.exp(statistics.median(logs)),statistics.mean(ab),math.exp(max(logs)),math.exp(min(logs))))
print()
f=measures['wcalls']; g=measures['turns']
for c,lv in levels:
    d0=data.get((c,lv,0)); d1=data.get((c,lv,1))
    if not d0 or not d1: continue
    T0=sum(v[1] for v in d0.values()); T1=sum(v[1] for v in d1.values())
    print('%-12s %3s  wcalls r %.2f  turns r %.2f   T0 %.0f ms T1 %.0f ms' % (c,lv,(T1/f(d1))/(T0/f(d0)),(T1/g(d1))/(T0/g(d0)),T0/1e6,T1/1e6))

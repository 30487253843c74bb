"""Fit the weights of the operation counters (time = sum of weight x count, least squares in
the relative error, no weight below zero) on lanes 0 and 1 alone, and say how well each count
of work tracks the two lanes' time on each level: r = lane 1 time per work over lane 0's.
Usage: python3 fit.py ops-by-lane.tsv (needs numpy and scipy)."""
import sys, math, statistics, numpy as np
from scipy.optimize import nnls
rows=[l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if 'OPS' in l]
names=['flood','rows','box','stuck','corral','assign','child','expand','prepare']
data={}
for r in rows:
    c,n,lane=r[0],r[1],int(r[2]); v=list(map(int,r[4:4+9])); ns,units,calls=map(int,r[13:16])
    data[(c,n,lane)]=(np.array(v,float),ns,units,calls)
keys=sorted(data)
levels=sorted(set((c,n) for c,n,_ in keys))
def fit(lvls):
    X=[];y=[]
    for (c,n,l),(v,ns,u,calls) in data.items():
        if (c,n) in lvls and ns>0:
            # relative error: weight each row by 1/ns
            X.append(v/ns); y.append(1.0)
    w,_=nnls(np.array(X),np.array(y))
    return w
def evaluate(w,lvls,label):
    logs=[]
    for c,n in lvls:
        if (c,n,0) not in data or (c,n,1) not in data: continue
        v0,t0,u0,k0=data[(c,n,0)]; v1,t1,u1,k1=data[(c,n,1)]
        if w is None: W0,W1=k0,k1
        elif isinstance(w,str): W0,W1=u0,u1
        else: W0,W1=v0@w,v1@w
        logs.append(math.log((t1/W1)/(t0/W0)))
    ab=[abs(x) for x in logs]
    print('%-22s n=%d median r %.2f mean|log r| %.3f max %.2f min %.2f' % (label,len(logs),math.exp(statistics.median(logs)),statistics.mean(ab),math.exp(max(logs)),math.exp(min(logs))))
w=fit(set(levels))
print('weights (ns):',' '.join('%s=%.1f'%(a,b) for a,b in zip(names,w)))
# per-row fit quality
errs=[]
for k,(v,ns,u,calls) in data.items():
    errs.append(abs(math.log((v@w)/ns)))
print('row |log pred/time| mean %.3f max %.3f'%(statistics.mean(errs),max(errs)))
evaluate(None,levels,'turns')
evaluate('u',levels,'units')
evaluate(w,levels,'ops (fit all)')
# 2-fold cross-validation
A=levels[0::2]; B=levels[1::2]
wa=fit(set(A)); wb=fit(set(B))
evaluate(wa,B,'ops fit A test B'); evaluate(wb,A,'ops fit B test A')
print('wa',' '.join('%.1f'%x for x in wa)); print('wb',' '.join('%.1f'%x for x in wb))

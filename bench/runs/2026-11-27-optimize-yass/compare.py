import csv, sys, re
# usage: compare.py LEVELS.xsb INPUT.csv YASS_OUT.sok OURS.csv OUT.csv
xsb, inp, ysok, ours, out = sys.argv[1:6]
boards=[]; cur=[]
for line in open(xsb, encoding='latin-1'):
    line=line.rstrip('\n').rstrip('\r')
    if line.strip() and '#' in line and re.fullmatch(r'[ #$.@*+_-]*', line): cur.append(line.rstrip())
    else:
        if cur: boards.append(cur); cur=[]
if cur: boards.append(cur)
D={'u':(-1,0),'d':(1,0),'l':(0,-1),'r':(0,1)}
def replay(b, s):
    walls=set(); boxes=set(); goals=set(); p=None
    for r,row in enumerate(b):
        for c,ch in enumerate(row):
            if ch=='#': walls.add((r,c))
            if ch in '$*': boxes.add((r,c))
            if ch in '.*+': goals.add((r,c))
            if ch in '@+': p=(r,c)
    for ch in s:
        dr,dc=D[ch.lower()]; n=(p[0]+dr,p[1]+dc)
        if n in walls: return False
        if n in boxes:
            if not ch.isupper(): return False
            m=(n[0]+dr,n[1]+dc)
            if m in walls or m in boxes: return False
            boxes.remove(n); boxes.add(m)
        elif ch.isupper(): return False
        p=n
    return boxes==goals
def mp(s): return len(s), sum(c.isupper() for c in s)
inrows={int(r['level']):r['lurd'] for r in csv.DictReader(open(inp)) if r['status']=='solved'}
y={}; title=None; sol=None
for line in open(ysok, encoding='latin-1'):
    line=line.rstrip('\n')
    m=re.fullmatch(r'Level (\d+)', line.strip())
    if m: title=int(m.group(1)); sol=None; continue
    if line.startswith('Solution'): sol=''; continue
    if sol is not None:
        if line.strip()=='' :
            if sol: y[title]=sol; sol=None
        else: sol+=line.strip()
if sol: y[title]=sol
o={int(r['level']):r for r in csv.DictReader(open(ours))}
w=csv.writer(open(out,'w'))
w.writerow(['level','moves_before','pushes_before','moves_yass','pushes_yass','moves_ours','pushes_ours','yass_improved','ours_status'])
T=[0]*6; yw=[]; ow=[]; ties=0
for lv in sorted(inrows):
    s0=inrows[lv]; m0,p0=mp(s0)
    ys=y.get(lv)
    if ys is not None:
        assert replay(boards[lv-1], ys), f"yass level {lv} invalid"
        my,py=mp(ys)
    else: my,py=m0,p0
    r=o.get(lv)
    if r and r['status']=='solved' and r['lurd']:
        assert replay(boards[lv-1], r['lurd']), f"ours level {lv} invalid"
        mo,po=mp(r['lurd'])
    else: mo,po=m0,p0
    w.writerow([lv,m0,p0,my,py,mo,po,int(ys is not None), r['status'] if r else 'missing'])
    for i,v in enumerate([m0,p0,my,py,mo,po]): T[i]+=v
    if (my,py)<(mo,po): yw.append((lv,mo-my,po-py))
    elif (mo,po)<(my,py): ow.append((lv,my-mo,py-po))
    else: ties+=1
n=len(inrows)
print(f"levels {n}: before moves {T[0]} pushes {T[1]} | YASS moves {T[2]} pushes {T[3]} | ours moves {T[4]} pushes {T[5]}")
print(f"YASS improvement moves {T[0]-T[2]} ({100*(T[0]-T[2])/T[0]:.1f}%), ours {T[0]-T[4]} ({100*(T[0]-T[4])/T[0]:.1f}%)")
print(f"YASS better on {len(yw)} levels, ours better on {len(ow)}, equal {ties}")
print("YASS better (level, moves ours-yass, pushes ours-yass):", sorted(yw,key=lambda x:-x[1]))
print("ours better (level, moves yass-ours, pushes yass-ours):", sorted(ow,key=lambda x:-x[1]))

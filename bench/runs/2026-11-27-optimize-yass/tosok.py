import csv, sys, re
xsb, sols, out = sys.argv[1:4]
boards=[]; cur=[]
for line in open(xsb, encoding='latin-1'):
    line=line.rstrip('\n').rstrip('\r')
    if line.strip() and '#' in line and re.fullmatch(r'[ #$.@*+_-]*', line):
        cur.append(line.rstrip())
    else:
        if cur: boards.append(cur); cur=[]
if cur: boards.append(cur)
rows={int(r['level']):r for r in csv.DictReader(open(sols)) if r.get('status')=='solved' and r.get('lurd')}
with open(out,'w') as f:
    for i,b in enumerate(boards,1):
        r=rows.get(i)
        w=max(map(len,b)); h=len(b)
        if not r:
            print(f"level {i}: no input solution", file=sys.stderr); continue
        p=sum(c.isupper() for c in r['lurd'])
        note=[]
        if w>50 or h>50: note.append(f"board {w}x{h} > 50x50")
        if p>1000: note.append(f"{p} pushes > 1000")
        if note: print(f"level {i}: "+'; '.join(note), file=sys.stderr)
        f.write(f"Level {i}\n\n"+"\n".join(b)+"\n\n")
        s=r['lurd']
        for k in range(0,len(s),70): f.write(s[k:k+70]+"\n")
        f.write("\n")
print(len(boards),"boards,",len(rows),"solutions", file=sys.stderr)

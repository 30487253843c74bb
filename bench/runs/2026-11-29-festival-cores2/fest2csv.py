import re,sys
# fest2csv.py TIMES.txt -> level,status,pushes,moves,seconds (Festival's columns, as ../shared/design/festival-*.csv)
print('level,status,pushes,moves,seconds')
for l in open(sys.argv[1]):
    m=re.match(r'\s+(\d+)\s+(\d+):(\d+):(\d+)\s+Festival 3.1\s+(OK|Time limit exceeded|\S.*?)\s{2,}(\d+)?\s*(\d+)?', l)
    if not m: continue
    n=int(m.group(1)); sec=int(m.group(2))*3600+int(m.group(3))*60+int(m.group(4))
    ok=m.group(5)=='OK'
    print(f"{n},{'solved' if ok else 'limit'},{m.group(7) or '' if ok else ''},{m.group(6) or '' if ok else ''},{sec}")

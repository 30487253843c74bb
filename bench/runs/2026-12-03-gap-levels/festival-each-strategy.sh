#!/bin/bash
# festival-each-strategy.sh COLL N... : each Festival strategy alone (-alg 0..7), 10 s, one core
# FESTIVAL: the binary (bench/festival-build.sh); LEVELS: the collections (../shared/levels)
FESTIVAL=${FESTIVAL:-festival}; LEVELS=${LEVELS:-../shared/levels}
c=$1; shift
for n in "$@"; do
  python3 - $LEVELS/sasquatch-$c.xsb $n > s$c-$n.sok <<'PY'
import re, sys
parts = re.split(r'^; (\d+)\s*$', open(sys.argv[1]).read(), flags=re.M)
d = {int(parts[i]): parts[i+1] for i in range(1, len(parts), 2)}
n = int(sys.argv[2])
rows = [l for l in d[n].split('\n') if l.strip() and not l.startswith(';')]
print(f'Level {n}\n\n' + '\n'.join(rows) + '\n')
PY
  for a in 0 1 2 3 4 5 6 7; do
    o=out-$c-$n-$a; mkdir -p $o
    s=$(date +%s.%N)
    timeout 60 "$FESTIVAL" ./s$c-$n.sok -cores 1 -time 10 -alg $a -out_dir $o < /dev/null > $o/stdout.txt 2>&1
    e=$(date +%s.%N)
    # ok=2: solved (its row says OK; the total line says "OK:" either way)
    r=$(grep -c "OK" $o/times.txt 2>/dev/null)
    echo "$c $n $a ok=$r wall=$(echo "$e - $s" | bc)" >> res.txt
  done
done

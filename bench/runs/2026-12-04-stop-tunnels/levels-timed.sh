#!/bin/bash
# levels-timed.sh BASE NEW THREADS OUT C:N... : each level with BASE then NEW, 30 s (XSokoban 60 s)
base=$1; new=$2; th=$3; out=$4; shift 4; L=${LEVELS:-../shared/levels}
echo "bin,collection,level,status,pushes,moves,nodes,ms,lane" > $out
for cn in "$@"; do c=${cn%:*}; n=${cn#*:}; s=30; [ $c = xsokoban-90 ] && s=60
  for b in base new; do bin=$base; [ $b = new ] && bin=$new
    $bin solve $L/$c.xsb --levels $n --mode fast --threads $th --jobs 1 --csv --timeout $s 2>/dev/null | tail -1 | cut -d, -f1-6,8 | sed "s/^/$b,$c,/" >> $out
  done
done

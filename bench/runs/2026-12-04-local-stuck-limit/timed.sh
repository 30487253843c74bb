#!/bin/bash
# timed.sh BIN LIST OUTPREFIX : two threads, 30 s (XSokoban 60 s), base then local300 per level
bin=$1; list=$2; out=$3; L=${LEVELS:-../shared/levels}
for v in base l300; do echo "collection,level,status,pushes,moves,nodes,ms" > $out-$v.csv; done
while read c n; do
  t=30; [ $c = xsokoban-90 ] && t=60
  for v in base l300; do
    e=""; [ $v = l300 ] && e="--experiments local300"
    r=$($bin solve $L/$c.xsb --levels $n --mode fast --threads 2 --jobs 1 --csv --timeout $t $e 2>/dev/null | tail -1 | cut -d, -f1-6)
    echo "$c,$r" >> $out-$v.csv
  done
done < $list

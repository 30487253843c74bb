#!/bin/bash
# usage: run.sh BIN OUT [LEVELS...]; levels as coll:n
BIN=$1; OUT=$2; shift 2; L=/work/shared/levels
LANE1="many0,manyaway,bicon,hffew,packingplan,packfestival,dfpure,nopullstops"
: > $OUT
for cn in "$@"; do
  c=${cn%:*}; n=${cn#*:}
  taskset -c 0 $BIN solve $L/$c.xsb --levels $n --mode fast --threads 1 --lanes 1 --jobs 1 --csv --nodes 300000 --memory 512 2>/tmp/w/calib/e0 >/dev/null &
  taskset -c 1 $BIN solve $L/$c.xsb --levels $n --mode fast --threads 1 --lanes 1 --jobs 1 --csv --nodes 300000 --memory 512 --experiments $LANE1 2>/tmp/w/calib/e1 >/dev/null
  wait
  echo -e "$c\t$n\t0\t$(grep ^OPS /tmp/w/calib/e0 | head -1)" >> $OUT
  echo -e "$c\t$n\t1\t$(grep ^OPS /tmp/w/calib/e1 | head -1)" >> $OUT
done

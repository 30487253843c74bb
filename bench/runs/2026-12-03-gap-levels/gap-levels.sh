#!/bin/bash
# gap-levels.sh BIN EXPERIMENTS OUT : the ten gap levels, one thread, 512 MiB, NODES moves and pulls
bin=$1; exp=$2; out=$3; L=${LEVELS:-../shared/levels}
: > $out
for cn in 3:19 3:25 3:36 3:43 4:16 4:17 5:28 5:31 6:19 6:37; do
  c=${cn%:*}; n=${cn#*:}
  r=$($bin solve $L/sasquatch-$c.xsb --levels $n --mode fast --threads 1 --lanes 1 --jobs 1 --csv --timeout 300 --memory 512 --nodes ${NODES:-1500000} ${exp:+--experiments $exp} 2>/dev/null | tail -1 | cut -d, -f1-6)
  echo "$c,$r" >> $out
done

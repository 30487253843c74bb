#!/bin/bash
# lane1-set43.sh BIN EXPERIMENTS OUT : the 42-level set of runs/2026-12-02-lanes-and-festival-plans and VI 17, one thread, 512 MiB, NODES (1,200,000 here)
bin=$1; exp=$2; out=$3; L=${LEVELS:-../shared/levels}
echo "collection,level,status,pushes,moves,nodes,ms" > $out
for cn in 6:17 1:5 1:18 1:30 1:34 1:35 1:39 1:40 3:6 3:13 3:15 3:18 3:19 3:23 3:24 3:25 3:31 3:36 3:37 3:43 3:47 3:50 4:15 4:16 4:17 4:30 4:32 4:35 4:36 4:42 4:43 4:45 5:28 5:31 5:39 6:19 6:28 6:31 6:34 6:35 6:37 6:41 6:43; do
  c=${cn%:*}; n=${cn#*:}
  $bin solve $L/sasquatch-$c.xsb --levels $n --mode fast --threads 1 --lanes 1 --jobs 1 --csv --timeout 300 --memory 512 --nodes ${NODES:-2000000} ${exp:+--experiments $exp} 2>/dev/null | tail -1 | cut -d, -f1-6 | sed "s/^/sasquatch-$c,/" >> $out
done

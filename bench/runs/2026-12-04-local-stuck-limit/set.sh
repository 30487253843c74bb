#!/bin/bash
# set.sh BIN EXP OUT CPU LISTFILE NODES TIMEOUT : listed levels ("collection n"), lane 0, one thread, 512 MiB
bin=$1; exp=$2; out=$3; cpu=$4; list=$5; nodes=$6; to=$7; L=${LEVELS:-../shared/levels}
echo "collection,level,status,pushes,moves,nodes,ms" > $out
while read c n; do
  r=$(taskset -c $cpu $bin solve $L/$c.xsb --levels $n --mode fast --threads 1 --lanes 1 --jobs 1 --csv --timeout $to --memory 512 --nodes $nodes ${exp:+--experiments $exp} 2>/dev/null | tail -1 | cut -d, -f1-6)
  echo "$c,$r" >> $out
done < $list

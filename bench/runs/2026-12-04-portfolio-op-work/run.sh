#!/bin/bash
B=/tmp/w/sok-ops2; L=/work/shared/levels
for c in sasquatch-5 microban-1 xsokoban-90 sasquatch-6 sasquatch-1 sasquatch-3 sasquatch-4; do
  $B solve $L/$c.xsb --mode fast --threads 2 --jobs 1 --timeout 10 --csv > /tmp/w/eval/$c-turns.csv 2>/dev/null
  $B solve $L/$c.xsb --mode fast --threads 2 --jobs 1 --timeout 10 --csv --experiments opwork > /tmp/w/eval/$c-opwork.csv 2>/dev/null
  echo "$c done $(date +%T)" >> /tmp/w/eval/log
done

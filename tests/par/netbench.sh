#!/bin/bash
# tests/par/netbench.sh - `ncsim netbench` under mpirun (doc/parallel.md, "Status"):
# one rank gives the sequential run's netbench.csv and links.csv byte for byte
# (but the wall-time columns); several ranks print the partition of whole groups
# (df-small: 9 groups of 4 routers x 2 nodes; a group's load is its 8 nodes plus
# the transit share 72 / 9 = 8, so 2 ranks get 5 and 4 groups, loads 80 and 64,
# imbalance 80 / 72 = 1.111) and refuse the run with exit status 2 until the
# packet model is partitionable.
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 2
nb="netbench --system df-small --duration 10us --seed 5 --no-progress --csv"
"$ncsim" $nb --routing par --out seq >seq.csv 2>seq.err || { cat seq.err; exit 1; }
ranks 1 "$ncsim" $nb --routing par --out np1 >np1.csv 2>np1.err
check "-np 1: exit status 0" test $? -eq 0
# The columns after `events` are wall time, events/s and RSS.
cut -d, -f1-13 seq.csv >a
cut -d, -f1-13 np1.csv >b
check "-np 1: the CSV line equals the sequential one" cmp -s a b
check "-np 1: links.csv equals the sequential one" cmp -s seq/links.csv np1/links.csv
check "the run counted messages" awk -F, 'NR == 2 && $5 > 0 { ok = 1 } END { exit !ok }' seq.csv
ranks 2 "$ncsim" $nb --out np2 >np2.csv 2>np2.err
rc=$?
check "-np 2: refused with exit status 2 ($rc)" test "$rc" -eq 2
check "-np 2: no output folder" test ! -e np2
# 5 x 4 pairs of groups across ranks, one global link each, two ends per link: 40 ends cross.
check "-np 2: the partition is printed" grep -q 'partition: 9 groups over 2 ranks, 40 global link ends cross ranks, load imbalance 1.111' np2.err
check "-np 2: rank 0 gets 5 groups of load 80" grep -q 'rank 0: 5 groups, load 80.0' np2.err
check "-np 2: the reason is given" grep -q 'does not run over several ranks yet' np2.err
exit $((failed > 0))

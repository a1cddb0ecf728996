#!/bin/bash
# tests/par/netbench.sh - `ncsim netbench` under mpirun (doc/parallel.md): the
# packet dragonfly split over 1 to 4 ranks gives the sequential run's
# netbench.csv and links.csv byte for byte (but the wall-time columns), on
# df-small (9 groups of 4 routers x 2 nodes) with minimal and PAR routing at a
# light and a saturating load, 4 KiB packets, and with 10,000-byte messages
# (a short last packet, so a shorter lookahead), and with all traffic inside one
# group (--pattern group). Rank 0 prints the partition
# (a group's load is its 8 nodes plus the transit share 72 / 9 = 8, so 2 ranks
# get 5 and 4 groups, loads 80 and 64, imbalance 80 / 72 = 1.111) and the
# window statistics.
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 2

# same NAME ARGS...: the sequential run, then -np 1..4, compared.
same() {
	local name=$1
	shift
	local nb="netbench --system df-small --duration 10us --no-progress --csv $*"
	"$ncsim" $nb --out "$name-seq" >"$name-seq.csv" 2>"$name-seq.err" || { cat "$name-seq.err"; failed=$((failed + 1)); return; }
	# The columns after `events` are wall time, events/s and RSS.
	cut -d, -f1-13 "$name-seq.csv" >"$name-seq.cut"
	check "$name: the run counted messages" awk -F, 'NR == 2 && $5 > 0 { ok = 1 } END { exit !ok }' "$name-seq.csv"
	for k in 1 2 3 4; do
		ranks "$k" "$ncsim" $nb --out "$name-np$k" >"$name-np$k.csv" 2>"$name-np$k.err"
		check "$name -np $k: exit status 0" test $? -eq 0
		cut -d, -f1-13 "$name-np$k.csv" >"$name-np$k.cut"
		check "$name -np $k: the CSV line equals the sequential one" cmp -s "$name-seq.cut" "$name-np$k.cut"
		check "$name -np $k: links.csv equals the sequential one" cmp -s "$name-seq/links.csv" "$name-np$k/links.csv"
	done
}

same min-light --routing minimal --load 0.3 --seed 5
same min-full --routing minimal --load 1.0 --seed 6
same par-light --routing par --load 0.3 --seed 5
same par-full --routing par --load 0.9 --seed 7
same par-10k --routing par --load 0.8 --size 10000 --seed 8
# All traffic inside group 0 (the unbalanced case): the partition weighs group 0's
# 8 nodes, so group 0 (load 8 + 8/9) gets a rank of its own.
same group --routing par --load 0.5 --pattern group --seed 3

# 5 x 4 pairs of groups across ranks, one global link each, two ends per link: 40 ends cross.
check "-np 2: the partition is printed" grep -q 'partition: 9 groups over 2 ranks, 40 global link ends cross ranks, load imbalance 1.111' par-full-np2.err
check "-np 2: rank 0 gets 5 groups of load 80" grep -q 'rank 0: 5 groups, load 80.0' par-full-np2.err
check "-np 2: the window statistics are printed" grep -q '^parallel: 2 ranks, [0-9]* windows' par-full-np2.err
check "-np 2: packets crossed ranks" grep -q ' [1-9][0-9]* remote events' par-full-np2.err
check "-np 1: no partition (the sequential kernel)" sh -c "! grep -q '^partition' par-full-np1.err"
check "group -np 2: group 0 alone on rank 0" grep -q 'rank 0: 1 groups, load 8.9, groups 0$' group-np2.err
# Paths inside group 0 never leave it, so rank 1 fires no event: the busiest rank has twice the mean.
check "group -np 2: the measured imbalance is 2" grep -q ', 0 remote events, busiest rank 2.000 of the mean' group-np2.err
# A run that fails leaves no output folder on any rank: --until before the end is fine, a refused option is not.
ranks 2 "$ncsim" netbench --system df-small --duration 10us --no-progress --load 20 --out bad >bad.out 2>bad.err
check "-np 2: a bad option ends every rank with status 2" test $? -eq 2
check "-np 2: no output folder after a failure" test ! -e bad
exit $((failed > 0))

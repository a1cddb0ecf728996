#!/bin/bash
# tests/calib/levels.sh - levels of detail (issue 14, acceptance 3): measurements
# made by the packet-level dragonfly (the built-in 9 x 4 x 2 shape, with its
# own terminal and global links), calibrated at each of the ideal, analytic and dragonfly
# levels with the same budget.
# The target is 5% RMSPE (about what repeated measurements of a real machine
# scatter by), and the cheapest level (fewest events per evaluation) that
# reaches it is chosen.
#  - Ping-pong between two nodes of two groups has no contention: the
#    analytic model fits it within the target (its LogGP curve misses the
#    packet pipeline's shape by about 4%) at 1/50 of the packet model's events,
#    so it is the level to pick although the packet model fits it better.
#  - Adding a group-to-group exchange (8 pairs through the one global link
#    between groups 0 and 1) needs the links: an analytic model cannot be
#    slow for 8 concurrent pairs and fast for one, so the dragonfly wins.
# The ideal network has no time at all: its RMSPE is 100%.
. "$(dirname "$0")/lib.sh"
cat > hidden.conf <<'CONF'
[network]
model = dragonfly
groups = 9
routers_per_group = 4
nodes_per_router = 2
global_links_per_router = 2
global_bandwidth = 8 GiB/s
terminal_bandwidth = 12 GiB/s
global_latency = 300 ns
[mpi]
call_overhead = 300 ns
CONF
printf '[network]\nmodel = dragonfly\ngroups = 9\nrouters_per_group = 4\nnodes_per_router = 2\nglobal_links_per_router = 2\n' > base.conf
cat > pp.ncptl <<'CONF'
for each msgsize in {1, 16, 256, 4K, 64K, 1M} {
  task 0 resets its counters then
  for 4 repetitions {
    task 0 sends a msgsize byte message to task 8 then
    task 8 sends a msgsize byte message to task 0
  } then
  task 0 logs msgsize as "Bytes" and elapsed_usecs/8 as "Latency (usecs)"
}
CONF
cat > g2g.ncptl <<'CONF'
for each msgsize in {4K, 16K, 64K, 256K, 1M} {
  all tasks synchronize then
  task 0 resets its counters then
  tasks t such that t < 8 send a msgsize byte message to task t + 8 then
  all tasks synchronize then
  task 0 logs msgsize as "Bytes" and elapsed_usecs as "Time (usecs)"
}
CONF
for p in pp g2g; do
	"$ncsim" run $p.ncptl -n 16 --system hidden.conf --out h-$p --no-progress 2>/dev/null || exit 1
	cp h-$p/logs/$p-0.log $p.log
done
params='[parameters]
network.latency = 50ns:5us log level=analytic
network.bandwidth = 500MB/s:50GB/s log level=analytic
network.injection_bandwidth = 500MB/s:50GB/s log level=analytic
network.terminal_bandwidth = 1GB/s:50GB/s log level=dragonfly
network.global_bandwidth = 1GB/s:50GB/s log level=dragonfly
network.global_latency = 10ns:2us log level=dragonfly
mpi.call_overhead = 10ns:2us log'
bench() { printf '[benchmark.%s]\nprogram = %s.ncptl\ntasks = 16\nmeasured = %s.log\n' "$1" "$1" "$1"; }
{ printf '[calibration]\nsystem = base.conf\nlevels = ideal, analytic, dragonfly\ntarget = 5\nbudget = 150\nrefine = sbplx\n'; bench pp; echo "$params"; } > pp.spec
{ printf '[calibration]\nsystem = base.conf\nlevels = ideal, analytic, dragonfly\ntarget = 5\nbudget = 150\nrefine = sbplx\n'; bench pp; bench g2g; echo "$params"; } > both.spec
for s in pp both; do
	"$ncsim" calibrate $s.spec -j 2 --no-progress --out out-$s >$s.txt 2>$s.err || { cat $s.err; exit 1; }
	echo "== $s"; head -4 $s.txt
done
chosen() { grep '"chosen_level"' "$1/calibration.json" | sed 's/.*: "\(.*\)".*/\1/'; }
check "ping-pong alone: analytic is chosen (got $(chosen out-pp))" [ "$(chosen out-pp)" = analytic ]
check "with group-to-group contention: dragonfly is chosen (got $(chosen out-both))" [ "$(chosen out-both)" = dragonfly ]
check "the ideal level's loss is 100% (no time at all)" grep -q '^ideal  *100 ' pp.txt
check "one system file per level" test -f out-both/calibrated-ideal.conf -a -f out-both/calibrated-analytic.conf -a -f out-both/calibrated-dragonfly.conf
check "calibrated.conf says how to run it" grep -q 'run it with --network dragonfly' out-both/calibrated.conf
# The chosen file runs as it says.
check "the calibrated system runs" "$ncsim" run g2g.ncptl -n 16 --system out-both/calibrated.conf --network dragonfly --out rerun --no-progress
[ "$failed" -eq 0 ]

#!/bin/bash
# tests/calib/regimes.sh - message regimes (issue 14): small messages depend on
# the latency and the per-call cost, large ones on the injection bandwidth. A
# sequential calibration fits the small regime's parameters against the
# points below 8 KiB, then the large regime's against the rest; the report
# gives the loss per regime, per benchmark and overall. The measurements
# have no noise, so each regime's fit lands within 2% RMSPE.
. "$(dirname "$0")/lib.sh"
printf '[network]\nmodel = analytic\nnodes = 2\nlatency = 2.5 us\nbandwidth = 6 GB/s\ninjection_bandwidth = 6 GB/s\n' > hidden.conf
printf '[network]\nmodel = analytic\nnodes = 2\nbandwidth = 100 GB/s\n' > base.conf
R="--reps 2 --skip 1 --reps-large 2 --skip-large 1 --maxbytes 1M --minbytes 1"
"$ncsim" run osu-latency -n 2 --system hidden.conf --out h --no-progress -- $R > lat.txt 2>/dev/null || exit 1
cat > spec.conf <<CONF
[calibration]
system = base.conf
regimes = sequential
budget = 200
optimizer = sbplx
[regime.small]
max = 8 KiB
[regime.large]
min = 8 KiB
[benchmark.latency]
program = osu-latency
args = $R
measured = lat.txt
[parameters]
network.latency = 100ns:10us log regime=small
network.injection_bandwidth = 1GB/s:50GB/s log regime=large
CONF
"$ncsim" calibrate spec.conf --no-progress --out out >out.txt 2>out.err || { cat out.err; exit 1; }
cat out.txt
small=$(awk '$1 == "regime" && $2 == "small" { print $4 }' out.txt)
large=$(awk '$1 == "regime" && $2 == "large" { print $4 }' out.txt)
check "the summary gives each regime's loss ($small, $large)" test -n "$small" -a -n "$large"
check "small regime within 2% rmspe" le "$small" 2
check "large regime within 2% rmspe" le "$large" 2
check "latency within 3% of 2.5 us" within "$(value out/calibrated.conf network.latency)" 2500000 0.03
check "injection bandwidth within 3% of 6 GB/s" within "$(value out/calibrated.conf network.injection_bandwidth)" 6e9 0.03
# The stages in history.csv: each search row names the regime it fitted, small first.
check "history.csv: the small regime's stage, then the large one's" \
	test "$(awk -F, '$2 == "search" { print $4 }' out/history.csv | uniq | tr '\n' ' ')" = "small large "
check "calibration.json: a loss per regime" test "$(grep -c '"name": "small"\|"name": "large"' out/calibration.json)" -ge 2
[ "$failed" -eq 0 ]

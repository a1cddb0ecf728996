#!/bin/bash
# tests/calib/predict.sh - a combined fit and a cross-validation (issue 14,
# acceptance 4 and the determinism of -j): OSU-format latency and bandwidth
# measurements of a hidden system (3 trials, 2% noise) fitted together from
# the command line, then `ncsim predict` of osu-bibw, which was not fitted,
# on the calibrated system. Bidirectional bandwidth depends on the same
# latency and bandwidths, so its error stays small, near the noise; on the
# uncalibrated base system it is far larger. The same calibration with
# -j 1 and -j 2 writes the same calibration.json and history.csv.
. "$(dirname "$0")/lib.sh"
cat > hidden.conf <<'CONF'
[network]
model = analytic
nodes = 4
latency = 1.8 us
bandwidth = 7 GB/s
injection_bandwidth = 7 GB/s
[mpi]
call_overhead = 150 ns
CONF
printf '[network]\nmodel = analytic\nnodes = 4\n' > base.conf
R="--reps 2 --skip 1 --reps-large 2 --skip-large 1 --maxbytes 1M"
measure lat hidden.conf 3 osu-latency 2 $R
measure bw hidden.conf 3 osu-bw 2 $R
measure bibw hidden.conf 3 osu-bibw 2 $R
fit() {
	"$ncsim" calibrate --system base.conf --no-progress --no-wall-time --budget 120 --optimizer sbplx "$@" \
		--bench osu-latency --bench-args "$R" --measured lat-1.txt --measured lat-2.txt --measured lat-3.txt \
		--bench osu-bw --bench-args "$R" --measured bw-1.txt --measured bw-2.txt --measured bw-3.txt \
		--fit network.latency=100ns:10us:log --fit network.bandwidth=1GB/s:50GB/s:log \
		--fit network.injection_bandwidth=1GB/s:50GB/s:log --fit mpi.call_overhead=10ns:1us:log
}
fit -j 1 --out cal >fit.txt 2>fit.err || { cat fit.err; exit 1; }
cat fit.txt
predict() {
	"$ncsim" predict --system "$1" --bench osu-bibw --bench-args "$R" \
		--measured bibw-1.txt --measured bibw-2.txt --measured bibw-3.txt
}
predict cal/calibrated.conf > predict.txt || exit 1
predict base.conf > base.txt || exit 1
tail -3 predict.txt
after=$(tail -1 predict.txt | awk '{ print $2 }')
before=$(tail -1 base.txt | awk '{ print $2 }')
echo "osu-bibw rmspe: $after calibrated, $before uncalibrated"
check "predict ends with the loss" grep -q '^rmspe [0-9.]*$' predict.txt
check "predict has a row per size" test "$(grep -c '%$' predict.txt)" -ge 15
check "the fitted benchmarks are within 3% rmspe" le "$(tail -1 fit.txt | awk '{ print $2 }')" 3
check "osu-bibw, not fitted, within 5% rmspe ($after)" le "$after" 5
check "calibration improves the prediction 4-fold ($before -> $after)" le "$(awk -v a="$after" 'BEGIN { print 4 * a }')" "$before"
fit -j 2 --out cal2 >/dev/null 2>&1 || exit 1
check "-j 2 writes the same calibration.json" cmp -s <(grep -v command_line cal/calibration.json) <(grep -v command_line cal2/calibration.json)
check "-j 2 writes the same history.csv" cmp -s cal/history.csv cal2/history.csv
[ "$failed" -eq 0 ]

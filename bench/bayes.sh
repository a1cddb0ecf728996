#!/bin/sh
# bayes.sh - the whole Bayesian calibration of the two-node experiment
# (tests/calib/twonode.sh: streaming throughput, 18 sizes from 256 B to
# 1 MiB, 100 trials with 3% noise, seven parameters): design runs, the
# global and local surrogates, 100,000 posterior samples, the report.
# Targets, with -j 2 on two cores: the whole inference in under 2 minutes;
# the held-out error of the surrogate the posterior uses below 2% at every
# point; R-hat below 1.05 for every parameter.
# Environment: NCSIM_BUILDDIR (the ncsim binary is $NCSIM_BUILDDIR/ncsim).
set -eu
. "$(dirname "$0")/lib/verdict.sh"
src=$(cd "$(dirname "$0")/.." && pwd)
ncsim=$(cd "${NCSIM_BUILDDIR:-.}" && pwd)/ncsim
work=$(mktemp -d /tmp/ncsim-bayesbench.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
export XDG_CACHE_HOME="$work/cache"
samples=100000
. "$src/tests/calib/twonode.sh"
noisy 1 > measured.csv
# The program is compiled here, so the timed run does not pay for the build.
"$ncsim" run "$src/tests/calib/throughput.ncptl" -n 2 --system base.conf --out warm --no-progress >/dev/null 2>&1
start=$(date +%s.%N)
"$ncsim" calibrate spec.conf -j 2 --no-progress --out cal > out.txt 2> err.txt || { cat err.txt; exit 1; }
end=$(date +%s.%N)
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
err=$(sed -n 's/^local surrogate.*error \([0-9.e+-]*\)% at the worst point$/\1/p' out.txt)
rhat=$(awk -F, 'NR > 1 && $12 > m { m = $12 } END { print m }' cal/summary.csv)
ess=$(awk -F, 'NR > 1 && (m == "" || $13 < m) { m = $13 } END { print m }' cal/summary.csv)
runs=$(sed -n 's/.*"simulations": \([0-9]*\).*/\1/p' cal/calibration.json)
echo "bayes: $runs simulations, 100,000 samples (smallest ESS $ess), $(grep -c . cal/posterior.csv) lines of posterior.csv"
bench_target "whole inference, -j 2" "$wall" "<" 120 s
bench_target "local surrogate's held-out error, worst point" "$err" "<" 2 %
bench_target "largest R-hat" "$rhat" "<" 1.05
bench_end bayes

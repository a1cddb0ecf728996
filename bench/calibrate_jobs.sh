#!/bin/sh
# calibrate_jobs.sh - parallel evaluation of `ncsim calibrate`: the same
# calibration with -j 1 and -j 2 (doc/calibration.md, "Parallel evaluation").
#
# The benchmark is a ping-pong over nine sizes with 4,000 round trips each on
# the built-in dragonfly, about 50 ms of simulation per evaluation. Its
# measurements are the simulated figures of the built-in system, so the
# calibration has a true answer; 48 evaluations of random search (batch 8)
# fit two parameters.
# Targets: -j 2 gives at least 1.8x the evaluations per second of -j 1 on a
# machine with two cores, and calibration.json and history.csv are identical
# apart from the command line (wall times are left out with --no-wall-time).
# Environment: NCSIM_BUILDDIR (the ncsim binary is $NCSIM_BUILDDIR/ncsim).
set -eu
. "$(dirname "$0")/lib/verdict.sh"
ncsim=$(cd "${NCSIM_BUILDDIR:-.}" && pwd)/ncsim
work=$(mktemp -d /tmp/ncsim-calbench.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > pp.ncptl <<'EOF'
reps is "Repetitions" and comes from "--reps" or "-r" with default 100.
for each msgsize in {1, 4, 16, 64, 256, 1024, 4096, 16384, 65536} {
  task 0 resets its counters then
  for reps repetitions {
    task 0 sends a msgsize byte message to task 1 then
    task 1 sends a msgsize byte message to task 0
  } then
  task 0 logs msgsize as "Bytes" and elapsed_usecs/(2*reps) as "Latency (usecs)"
}
EOF
export XDG_CACHE_HOME="$work/cache"
"$ncsim" run pp.ncptl -n 2 --out measured --no-progress -- --reps 4000 2>/dev/null
cp measured/logs/pp-0.log lat.log
# Compiled once here, so that neither timed run pays for the build.
cal() {
	start=$(date +%s.%N)
	"$ncsim" calibrate --bench pp.ncptl --bench-args "--reps 4000" --measured lat.log \
		--fit network.terminal_latency=10ns:1us:log --fit network.router_delay=10ns:1us:log \
		--optimizer random --budget 48 --batch 8 --no-wall-time --no-progress -j "$1" --out "j$1" >/dev/null 2>&1
	end=$(date +%s.%N)
	n=$(($(wc -l < "j$1/history.csv") - 1))
	awk -v s="$start" -v e="$end" -v n="$n" 'BEGIN { printf "%.2f", n / (e - s) }'
}
r1=$(cal 1)
r2=$(cal 2)
ratio=$(awk -v a="$r1" -v b="$r2" 'BEGIN { printf "%.2f", b / a }')
same=no
if diff <(grep -v command_line j1/calibration.json) <(grep -v command_line j2/calibration.json) >/dev/null 2>&1 &&
	cmp -s j1/history.csv j2/history.csv; then
	same=yes
fi
echo "calibrate_jobs: -j 1 $r1 evaluations/s, -j 2 $r2 evaluations/s ($(nproc) cores); identical outputs: $same"
bench_target "speed-up of -j 2" "$ratio" ">=" 1.8 x
bench_target "identical outputs (1 = yes)" "$([ "$same" = yes ] && echo 1 || echo 0)" "==" 1
bench_end calibrate_jobs

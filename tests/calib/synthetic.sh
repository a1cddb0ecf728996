#!/bin/bash
# tests/calib/synthetic.sh - calibration against measurements whose answer is
# known (issue 14, acceptance 1). ncsim measures a hidden system (analytic
# network, 16 nodes): OSU latency and bandwidth between two nodes, 1 B to
# 4 MiB, and a 16-rank all-to-all, each as 5 trials with 2% multiplicative
# noise. Calibration starts from a base system that knows none of the
# hidden values and fits 8 parameters:
#   7 that the data constrain: the network latency and injection bandwidth,
#     the MPI call overhead, header posting cost, pinning latency and cost
#     per page, and the memory bandwidth of the copies;
#   1 that they cannot: the link bandwidth, whose range (20-200 GB/s) lies
#     above the 9 GB/s injection bandwidth that limits every message.
# NLopt's sbplx, and TPE finished by sbplx (--refine), 600 evaluations each,
# must recover the 7 within 5% (mean relative error), report the link
# bandwidth as not constrained, and fit the curves as well as the hidden
# system itself does, give or take a factor 1.5 (the RMSPE of the true values
# against the noisy measurements). TPE alone is held to what it reaches.
. "$(dirname "$0")/lib.sh"
. "$src/tests/calib/problem.sh"
# The noise floor: the hidden system's own loss against the measurements.
floor=$("$ncsim" predict hidden.conf spec.conf -j 2 | tail -1 | awk '{ print $2 }')
echo "noise floor: rmspe $floor"
# fit NAME OPTIONS...: calibrates with the options; prints the mean relative error
# of the 7 constrained parameters into $mean and the final loss into $loss.
fit() {
	local name=$1
	shift
	"$ncsim" calibrate spec.conf "$@" -j 2 --no-progress --out "out-$name" >"$name.txt" 2>"$name.err" ||
		{ cat "$name.err"; failed=$((failed + 1)); return 1; }
	cat "$name.txt"
	local sum=0
	set -- $truth
	while [ $# -gt 0 ]; do
		v=$(value "out-$name/calibrated.conf" "$1")
		sum=$(awk -v s="$sum" -v v="$v" -v t="$2" 'BEGIN { d = (v - t) / t; print s + (d < 0 ? -d : d) }')
		check "$name: $1 is constrained" sh -c "! grep -q '^$1 .*not constrained' $name.txt"
		shift 2
	done
	mean=$(awk -v s="$sum" 'BEGIN { printf "%.4f", s / 7 }')
	loss=$(tail -1 "$name.txt" | awk '{ print $2 }')
	echo "$name: rmspe $loss, mean relative error of the 7 constrained parameters $mean"
	check "$name: the link bandwidth is reported as not constrained" grep -q '^network.bandwidth .*not constrained' "$name.txt"
}
# The targets: within 5%, and within 1.5x the noise floor.
strict() {
	check "$1: mean relative error $mean <= 0.05" le "$mean" 0.05
	check "$1: rmspe $loss <= 1.5 x the noise floor $floor" le "$loss" "$(awk -v f="$floor" 'BEGIN { print 1.5 * f }')"
}
# NLopt's subplex alone, and TPE finished by it (the last half of the budget).
fit sbplx --optimizer sbplx && strict sbplx
fit tpe-refined --optimizer tpe --refine sbplx && strict tpe-refined
# TPE alone gets close but crawls along the ridge of the MPI costs and memory
# bandwidth (1.2-1.5% RMSPE, 4-10% error over seeds 1-3): checked to stay there.
if fit tpe --optimizer tpe; then
	check "tpe: mean relative error $mean <= 0.15" le "$mean" 0.15
	check "tpe: rmspe $loss <= 2.5 x the noise floor $floor" le "$loss" "$(awk -v f="$floor" 'BEGIN { print 2.5 * f }')"
fi
[ "$failed" -eq 0 ]

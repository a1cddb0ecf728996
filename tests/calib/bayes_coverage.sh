#!/bin/sh
# tests/calib/bayes_coverage.sh - ncsim calibrate --bayes on synthetic data:
# do the 90% credible intervals contain the truth as often as they should?
#
# The experiment: two-node streaming throughput for 18 message sizes from
# 256 B to 1 MiB (tests/calib/throughput.ncptl), 100 trials per size with 3%
# multiplicative Gaussian noise, measured by ncsim on a hidden system; seven
# parameters (network latency and bandwidth, per-call overhead, header post,
# copy bandwidth, pinning latency and cost per page) with log-uniform priors
# spanning a factor of 4 to 20 around the truth. 20 seeds of noise.
#
# Expected: the four parameters the data constrain (latency, bandwidth,
# call overhead, copy bandwidth: the eager, medium and rendezvous plateaus)
# are covered by their 90% intervals in at least 85% of the 80 (seed,
# parameter) pairs; a calibrated 90% interval misses 10% of the time, so
# 8 misses are expected and 12 allowed; R-hat < 1.05 for every parameter
# and seed; the local surrogate's held-out error is below 2% at every point.
# The design runs are made once and reused (--design) by the other seeds.
. "$(dirname "$0")/lib.sh"

samples=40000
. "$src/tests/calib/twonode.sh"
check "18 sizes simulated" test "$(wc -l < truth.csv)" -eq 18
truth="network.latency 1500000 network.bandwidth 12e9 mpi.call_overhead 300000 mpi.memory_bandwidth 8e9"

pairs=0 inside=0 badrhat=0 baderr=0 runs=0
for seed in $(seq 1 20); do
	noisy "$seed" > measured.csv
	design=
	[ "$seed" -gt 1 ] && design="--design cal-1/design.csv"
	"$ncsim" calibrate spec.conf -j 2 --seed 1 --no-progress $design --out "cal-$seed" > "out-$seed.txt" 2> "err-$seed.txt" ||
		{ echo "FAIL: seed $seed: calibrate failed"; cat "err-$seed.txt"; exit 1; }
	set -- $truth
	while [ $# -gt 0 ]; do
		key=$1 value=$2
		shift 2
		row=$(awk -F, -v k="$key" '$1 == k' "cal-$seed/summary.csv")
		[ -n "$row" ] || { echo "FAIL: seed $seed: no $key in summary.csv"; exit 1; }
		# Identifiable: the data constrain it (summary.csv's last column).
		[ "$(echo "$row" | awk -F, '{ print $15 }')" = 1 ] || { echo "seed $seed: $key not constrained"; continue; }
		pairs=$((pairs + 1))
		if echo "$row" | awk -F, -v v="$value" '{ exit !($8 <= v && v <= $10) }'; then
			inside=$((inside + 1))
		else
			echo "seed $seed: $key = $value outside $(echo "$row" | awk -F, '{ print "[" $8 ", " $10 "]" }')"
		fi
	done
	badrhat=$((badrhat + $(awk -F, 'NR > 1 && !($12 < 1.05) { n++ } END { print n + 0 }' "cal-$seed/summary.csv")))
	err=$(sed -n 's/^local surrogate.*error \([0-9.e+-]*\)% at the worst point$/\1/p' "out-$seed.txt")
	le "$err" 2 || { echo "seed $seed: local surrogate error $err%"; baderr=$((baderr + 1)); }
done
echo "coverage: $inside of $pairs (seed, constrained parameter) pairs inside the 90% interval"
check "80 identifiable pairs (4 parameters x 20 seeds)" test "$pairs" -eq 80
check "at least 85% of the pairs covered" test $((100 * inside)) -ge $((85 * pairs))
check "R-hat < 1.05 for every parameter of every seed" test "$badrhat" -eq 0
check "local surrogate error < 2% at every point of every seed" test "$baderr" -eq 0
# The unconstrained parameters are reported as such (the throughput does not see them).
check "pin_latency reported as not constrained" \
	test "$(awk -F, '$1 == "mpi.pin_latency" { print $15 }' cal-1/summary.csv)" = 0
check "a 90% predictive band holds most measured points" \
	awk -F, 'NR > 1 { n++; k += $13 } END { exit !(k >= 0.8 * n) }' cal-1/predictive.csv
# The Sobol table of the first seed (global surrogate, over the prior ranges): the parameter
# with the largest total index per size. Eager sizes pay a call overhead per message; medium
# ones copy through a bounce buffer at memory bandwidth on both sides; rendezvous ones are
# zero-copy, so the link sets the pace, and pinning shows where its cost is near the wire time.
top() { awk -F, -v x="$1" '$2 == x && $6 > best { best = $6; p = $4 } END { print p }' cal-1/sobol.csv; }
for x in 256 418 681 1111; do check "Sobol: $x B (eager) led by the call overhead" test "$(top $x)" = mpi.call_overhead; done
for x in 12828 20925 34132 55674; do check "Sobol: $x B (medium) led by the copy bandwidth" test "$(top $x)" = mpi.memory_bandwidth; done
for x in 148127 241615 394109 1048576; do check "Sobol: $x B (rendezvous) led by the link bandwidth" test "$(top $x)" = network.bandwidth; done
check "Sobol: pinning matters at the first rendezvous size" \
	awk -F, '$2 == 90812 && $4 == "mpi.pin_latency" { exit !($6 > 0.05) }' cal-1/sobol.csv
check "Sobol: the regimes by size" test "$(awk -F, '$4 == "mpi.call_overhead" { printf "%s ", $3 }' cal-1/sobol.csv)" = \
	"eager eager eager eager eager eager medium medium medium medium medium medium rendezvous rendezvous rendezvous rendezvous rendezvous rendezvous "
for f in cal-*/summary.csv; do awk -F, -v f="$f" 'NR > 1 && !($12 < 1.05) { print f, $1, $12, $13 }' "$f"; done
exit $((failed > 0))

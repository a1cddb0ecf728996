#!/bin/bash
# calibrate_optimizers.sh - the optimizers of `ncsim calibrate` on one problem:
# the synthetic calibration of tests/calib/problem.sh (3 OSU benchmarks of a
# hidden analytic system, 5 trials with 2% noise, 8 parameters). For random
# search, TPE and two NLopt algorithms, each with 600 evaluations and seeds
# 1 to 5, it prints the best loss (RMSPE, %) after 50, 100, 200 and 600
# evaluations, median over the seeds (an optimizer that converged earlier
# keeps its best), and the noise floor (the hidden system's own loss against
# the measurements).
# Targets: the best optimizer's median at 600 evaluations is within 1.5x of
# the noise floor, and TPE's median at 600 is below random search's.
# Environment: NCSIM_BUILDDIR (the ncsim binary), NCSIM_SRCDIR, OPTIMIZERS
# (default "random tpe sbplx bobyqa"), SEEDS (default "1 2 3 4 5"), JOBS (2).
set -u
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
. "$srcdir/bench/lib/verdict.sh"
NCSIM=$(cd "${NCSIM_BUILDDIR:-.}" && pwd)/ncsim
export NCSIM NCSIM_SRCDIR=$srcdir
. "$srcdir/tests/calib/lib.sh"
. "$srcdir/tests/calib/problem.sh"
optimizers=${OPTIMIZERS:-random tpe sbplx bobyqa}
seeds=${SEEDS:-1 2 3 4 5}
floor=$("$ncsim" predict hidden.conf spec.conf -j "${JOBS:-2}" | tail -1 | awk '{ print $2 }')
# The best loss of history.csv's search rows up to each checkpoint.
# An optimizer that converged before a checkpoint keeps its best loss there.
best_at() {
	awk -F, 'NR == 1 { next } $2 == "search" { n++; if (best == "" || $5 + 0 < best) best = $5 + 0
		if (n == 50 || n == 100 || n == 200 || n == 600) printf "%s ", best }
		END { split("50 100 200 600", c, " "); for (i = 1; i <= 4; i++) if (n < c[i]) printf "%s ", best; print "" }' "$1"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-10s %10s %10s %10s %10s\n' optimizer 50 100 200 600
for o in $optimizers; do
	for s in $seeds; do
		sed "s/^\[calibration\]/[calibration]\nseed = $s\noptimizer = $o/" spec.conf > "spec-$o-$s.conf"
		"$ncsim" calibrate "spec-$o-$s.conf" -j "${JOBS:-2}" --no-progress --out "out-$o-$s" >/dev/null 2>&1
		best_at "out-$o-$s/history.csv" > "best-$o-$s.txt"
	done
	row=
	for c in 1 2 3 4; do
		m=$(for s in $seeds; do awk -v c="$c" '{ print $c }' "best-$o-$s.txt"; done | median)
		row="$row $m"
		eval "med_${o//-/_}_$c=$m"
	done
	printf '%-10s %10.4g %10.4g %10.4g %10.4g\n' "$o" $row
done
echo "noise floor (the hidden system's rmspe): $floor"
best=
for o in $optimizers; do
	v=$(eval echo "\$med_${o//-/_}_4")
	if [ -z "$best" ] || awk -v a="$v" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$v; fi
done
bench_target "best median rmspe at 600 / noise floor" "$(awk -v b="$best" -v f="$floor" 'BEGIN { printf "%.3f", b / f }')" "<=" 1.5
case " $optimizers " in *" tpe "*)
	case " $optimizers " in *" random "*)
		bench_target "TPE median at 600 / random's" \
			"$(awk -v t="$med_tpe_4" -v r="$med_random_4" 'BEGIN { printf "%.3f", t / r }')" "<" 1 ;;
	esac ;;
esac
bench_end calibrate_optimizers

#!/bin/bash
# bench/par_speedup.sh - the parallel kernel on the packet dragonfly
# (doc/parallel.md, issue 20): the simulation wall time of `ncsim netbench` sequential and
# under `mpirun -np 2`, medians of RUNS runs taken in the same sitting, the
# window statistics rank 0 prints, and whether the CSV line and links.csv
# are the sequential run's byte for byte. Cases:
#   df-1056   PAR, uniform, 30% load (the acceptance target: 2 ranks >= 1.6x)
#   df-16512  PAR, uniform, 30% load (the same target)
#   one group df-1056, all traffic inside group 0 (--pattern group): results
#             identical, the measured imbalance (busiest rank / mean) reported
#   workload  `ncsim run` of a DCNW program on df-16512 (16,512 tasks of
#             FB_KEY_VALUE traffic; WORKLOAD=0 leaves it out): one run each,
#             no target (its lookahead is an empty packet's credit, doc/parallel.md)
# Usage: bench/par_speedup.sh [BUILD_DIR] (default: .); RUNS=3, DUR_1056=200us,
# DUR_16512=20us and DUR_GROUP=200us override the defaults.
build=${1:-.}
ncsim=$build/ncsim
runs=${RUNS:-3}
target=1.6
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# A rank that waits for the other yields its core instead of spinning: on a
# machine shared with other jobs a spinning rank takes the core its partner
# needs (YIELD=0 spins, faster on an idle machine).
export OMPI_MCA_mpi_yield_when_idle=${YIELD:-1}
if ! grep -q '^#define NCSIM_HAVE_MPI 1' "$build/config.h" 2>/dev/null || ! command -v mpirun >/dev/null; then
	echo "par_speedup: needs an ncsim built with MPI and Open MPI's mpirun"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-parbench.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# run NAME K ARGS...: one run over K ranks (0: no mpirun) under /usr/bin/time; prints
# "simulation-wall process-cpu": the CSV's wall_s (nb_run: the simulation, without
# the process start and the model's construction) and user + system CPU seconds.
run() {
	local name=$1 k=$2
	shift 2
	local pre=()
	[ "$k" = 0 ] || pre=(mpirun --oversubscribe -np "$k")
	/usr/bin/time -f '%U %S' -o "$work/$name.time" "${pre[@]}" "$ncsim" netbench "$@" --no-progress --csv \
		--out "$work/$name" --force >"$work/$name.csv" 2>"$work/$name.err"
	local rc=$?
	[ $rc -eq 0 ] || { echo "par_speedup: $name failed (status $rc):" >&2; cat "$work/$name.err" >&2; exit 1; }
	echo "$(cut -d, -f14 "$work/$name.csv" | tail -1) $(awk '{ print $1 + $2 }' "$work/$name.time")"
}

# case_ NAME ARGS...: RUNS sequential and 2-rank runs, alternating; the report of one case.
case_() {
	local name=$1
	shift
	local s=() p=() c=() b
	for i in $(seq "$runs"); do
		s+=("$(run "$name-seq" 0 "$@")")
		p+=("$(run "$name-np2" 2 "$@")")
	done
	# The sequential run's CPU for the events alone: less that of a run that builds the machine and stops at once.
	b=$(run "$name-build" 0 "$@" --until 1ps | cut -d' ' -f2)
	local ms mp cs
	ms=$(printf '%s\n' "${s[@]}" | cut -d' ' -f1 | median)
	mp=$(printf '%s\n' "${p[@]}" | cut -d' ' -f1 | median)
	cs=$(printf '%s\n' "${s[@]}" | cut -d' ' -f2 | median)
	local same=identical
	cmp -s <(cut -d, -f1-13 "$work/$name-seq.csv") <(cut -d, -f1-13 "$work/$name-np2.csv") &&
		cmp -s "$work/$name-seq/links.csv" "$work/$name-np2/links.csv" || same=DIFFERENT
	local speed stats busy win proj
	speed=$(echo "$ms / $mp" | bc -l)
	stats=$(grep '^parallel:' "$work/$name-np2.err")
	busy=$(echo "$stats" | sed -n 's/.*, \([0-9.]*\) s CPU firing events.*/\1/p')
	win=$(echo "$stats" | sed -n 's/^parallel: [0-9]* ranks, \([0-9]*\) windows.*/\1/p')
	# Without contention a window's exchange costs about 5 us on shared memory (tests/par/par_phold).
	proj=$(echo "($cs - $b) / ($busy + $win * 0.000005)" | bc -l)
	printf '%s: %s\n' "$name" "$*"
	printf '  simulation wall: sequential %.3f s, 2 ranks %.3f s (medians of %d): speedup %.2fx; outputs %s\n' \
		"$ms" "$mp" "$runs" "$speed" "$same"
	printf '  CPU of the events: sequential %.3f s, busiest rank %.3f s; with 5 us per window: %.2fx on an idle machine\n' \
		"$(echo "$cs - $b" | bc -l)" "$busy" "$proj"
	printf '  events %s; load average %s\n' "$(cut -d, -f13 "$work/$name-seq.csv" | tail -1)" \
		"$(cut -d' ' -f1-3 /proc/loadavg)"
	grep -E '^(partition|  rank|lookahead)' "$work/$name-np2.err" | cut -c1-160 | sed 's/^/  /'
	grep '^parallel' "$work/$name-np2.err" | sed 's/^/  /'
	[ "$same" = identical ] || failed=1
	last_speed=$speed
}

failed=0
case_ df-1056 --system df-1056 --routing par --load 0.3 --duration "${DUR_1056:-200us}"
s1056=$last_speed
case_ df-16512 --system df-16512 --routing par --load 0.3 --duration "${DUR_16512:-20us}"
s16512=$last_speed
case_ one-group --system df-1056 --routing par --load 0.8 --pattern group --duration "${DUR_GROUP:-200us}"
# wrun NAME K ARGS...: `ncsim run` ARGS over K ranks (0: no mpirun); prints its simulation wall time.
wrun() {
	local name=$1 k=$2
	shift 2
	local pre=()
	[ "$k" = 0 ] || pre=(mpirun --oversubscribe -np "$k")
	"${pre[@]}" "$ncsim" run "$@" --no-progress --out "$work/$name" --force >"$work/$name.out" 2>"$work/$name.err" \
		</dev/null || { echo "par_speedup: $name failed:" >&2; tail -5 "$work/$name.err" >&2; exit 1; }
	sed -n 's/^  wall time: *\([0-9.]*\) s$/\1/p' "$work/$name.err"
}
if [ "${WORKLOAD:-1}" != 0 ]; then
	printf '%s\n' 'All tasks generate 1000000 messages of FB_KEY_VALUE traffic at 20 gbps.' >"$work/dcnw.ncptl"
	wargs=("$work/dcnw.ncptl" --system df-16512 -n 16512 --routing par)
	ws=$(wrun w-seq 0 "${wargs[@]}")
	wp=$(wrun w-np2 2 "${wargs[@]}")
	same=identical
	for f in tasks.csv links.csv; do cmp -s "$work/w-seq/$f" "$work/w-np2/$f" || same=DIFFERENT; done
	printf 'workload: ncsim run %s (DCNW, 16,512 tasks)\n' "${wargs[*]:1}"
	printf '  wall: sequential %.3f s, 2 ranks %.3f s: %.2fx; outputs %s\n' "$ws" "$wp" "$(echo "$ws / $wp" | bc -l)" "$same"
	grep -E '^(  lookahead|parallel)' "$work/w-np2.err" | sed 's/^/  /'
	[ "$same" = identical ] || failed=1
fi

echo
for c in "df-1056 $s1056" "df-16512 $s16512"; do
	set -- $c
	if [ "$(echo "$2 >= $target" | bc -l)" = 1 ]; then v=MET; else v=MISSED; fi
	printf 'speedup at 2 ranks on %s: %.2fx (target %.1fx) %s\n' "$1" "$2" "$target" "$v"
done
[ $failed = 0 ] && echo "outputs identical to the sequential run in every case: MET" || echo "outputs differ: MISSED"
exit $failed

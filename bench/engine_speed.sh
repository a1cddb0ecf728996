#!/bin/sh
# bench/engine_speed.sh - the direct engine against the compiled one
# (doc/engines.md):
#   - start-up: `ncsim run --engine direct` of a 100-line program stopped at
#     its first event (--until 1ps): front end, sema, the resolve pass, the
#     machine, the first event and the output folder, less the start of the
#     ncsim process itself (`ncsim run --help`: loading the binary and its
#     libraries). Medians of 11 runs. Target < 10 ms. The whole process time
#     and the compiled engine's cached run are printed beside it.
#   - speed: the simulation wall time (the run's own "wall time" line, which
#     leaves out loading and compiling) of the milc and nekbone skeletons
#     under both engines, median of 3 each, and the ratio direct/compiled.
#     Target <= 1.5.
# Prints one line per figure and MET or MISSED (bench/lib/verdict.sh).
. "$(dirname "$0")/lib/verdict.sh"
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${NCSIM_BUILDDIR:-.}
ncsim=${NCSIM:-$builddir/ncsim}
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-engspeed.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"
prog=$work/hundred.ncptl

# A 100-line program: a header, then blocks of point-to-point, collective and log statements.
{
	echo '# bench/engine_speed.sh: a 100-line program'
	echo 'reps is "Repetitions" and comes from "--reps" or "-r" with default 2.'
	echo 'Require language version "1.5".'
	b=0
	while [ "$b" -lt 7 ]; do
		b=$((b + 1))
		cat <<EOT
For each msgsize in {0}, {1, 2, 4, ..., 4K} {
  for reps repetitions plus 1 warmup repetition {
    task 0 resets its counters then
    task 0 sends a msgsize byte message to task 1 then
    task 1 sends a msgsize byte message to task 0 then
    task 0 logs the msgsize as "Bytes $b" and the median of elapsed_usecs/2 as "RTT $b"
  } then
  task 0 computes aggregates
}.
Let peer be num_tasks - 1 while {
  tasks t such that t < peer send a 64 byte message to task t + 1 then
  all tasks synchronize then
  all tasks reduce 4 doublewords
}.
EOT
	done
} >"$prog"
lines=$(wc -l <"$prog")

now_us() { echo $(($(date +%s%N) / 1000)); }
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

startup() { # startup ENGINE|help: median process time in ms of 11 runs stopped at the first event
	s_times=
	for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
		a=$(now_us)
		if [ "$1" = help ]; then
			"$ncsim" run --help >/dev/null 2>&1
		else
			"$ncsim" run "$prog" -n 2 --network ideal --engine "$1" --until 1ps --out "$work/s" --force \
				>/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
		fi
		b=$(now_us)
		[ "$i" -gt 0 ] && s_times="$s_times $((b - a))" # the first run fills the build cache
	done
	echo "$s_times" | median | awk '{ printf "%.1f", $1 / 1000 }'
}

wall() { # wall ENGINE PROGRAM N SYSTEM ARGS...: median simulation wall time (s) of 3 runs
	w_engine=$1 w_prog=$2 w_n=$3 w_sys=$4
	shift 4
	w_times=
	for i in 1 2 3; do
		"$ncsim" run "$w_prog" -n "$w_n" --system "$w_sys" --engine "$w_engine" --out "$work/w" --force -- "$@" \
			>/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
		w_times="$w_times $(sed -n 's/^ *wall time: *\([0-9.]*\) s.*/\1/p' "$work/err")"
	done
	echo "$w_times" | median
}

d_ms=$(startup direct)
c_ms=$(startup compiled)
h_ms=$(startup help)
s_ms=$(awk -v d="$d_ms" -v h="$h_ms" 'BEGIN { printf "%.1f", d - h }')
echo "engine_speed startup program_lines=$lines direct_ms=$s_ms (process $d_ms, ncsim start $h_ms) compiled_cached_process_ms=$c_ms"
bench_target "direct start-up (check + first event)" "$s_ms" "<" 10 ms

ratio() { # ratio NAME PROGRAM N SYSTEM ARGS...
	r_name=$1
	shift
	c=$(wall compiled "$@")
	d=$(wall direct "$@")
	r=$(awk -v c="$c" -v d="$d" 'BEGIN { if (c > 0) printf "%.2f", d / c; else print "none" }')
	echo "engine_speed $r_name compiled_s=$c direct_s=$d ratio=$r"
	bench_target "$r_name direct/compiled wall time" "$r" "<=" 1.5
}
ratio milc "$srcdir/stdlib/workloads/milc.ncptl" 32 df-tiny --iters 60 --msgsize 65536 --p0 2 --p1 2 --p2 2 --p3 4
ratio nekbone "$srcdir/stdlib/workloads/nekbone.ncptl" 32 df-tiny --rx 4 --ry 4 --rz 2 --cg 60 --elems 2 --pbegin 2
bench_end engine_speed

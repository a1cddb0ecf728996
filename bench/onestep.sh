#!/bin/sh
# bench/onestep.sh - the one-step path of `ncsim run` for a 100-line program:
# the cold time (front end + code generation + cc + dlopen + a tiny
# simulation, with an empty build cache) and the cached time (the same with
# the skeleton already in the cache). Targets: cold < 1 s, cached < 50 ms.
#
# Prints: onestep cold_ms=... cached_ms=... (the median of 5 cached runs),
# then MET or MISSED for each target.
. "$(dirname "$0")/lib/verdict.sh"
builddir=${NCSIM_BUILDDIR:-.}
ncsim=${NCSIM:-$builddir/ncsim}
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-onestep.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
prog=$work/onestep.ncptl

# A 100-line program touching most statement kinds: 5 blocks of 19 lines plus a header.
{
	echo '# bench/onestep.sh: a 100-line program'
	echo 'reps is "Repetitions" and comes from "--reps" or "-r" with default 2.'
	echo 'maxbytes is "Largest message" and comes from "--maxbytes" or "-m" with default 4K.'
	echo 'Require language version "1.5".'
	echo 'Assert that "two tasks at least" with num_tasks >= 2.'
	for b in 1 2 3 4 5; do
		cat <<EOT
For each msgsize in {0}, {1, 2, 4, ..., maxbytes} {
  for reps repetitions plus 1 warmup repetition and a synchronization {
    task 0 resets its counters then
    task 0 sends a msgsize byte message to task 1 then
    task 1 sends a msgsize byte message to task 0 then
    task 0 logs the msgsize as "Bytes $b" and
                the median of elapsed_usecs/2 as "1/2 RTT $b"
  } then
  task 0 computes aggregates
}.
Let peer be num_tasks - 1 while {
  tasks t such that t < peer asynchronously send a 64 byte message to task t + 1 then
  all tasks await completion then
  all tasks synchronize then
  task 0 multicasts a 128 byte message to all other tasks then
  all tasks reduce 4 doublewords then
  all tasks compute for 1 microsecond
}.
If num_tasks > 2 then task 0 outputs "block $b: " and num_tasks - 1 otherwise task 0 outputs "block $b".
EOT
	done
} >"$prog"
lines=$(wc -l <"$prog")

now_ms() { echo $(($(date +%s%N) / 1000000)); }
run() {
	XDG_CACHE_HOME=$work/cache "$ncsim" run "$prog" -n 2 --network ideal --out "$work/out$1" >/dev/null 2>"$work/err" ||
		{ cat "$work/err"; exit 1; }
}

t0=$(now_ms)
run 0
t1=$(now_ms)
cold=$((t1 - t0))
times=""
for i in 1 2 3 4 5; do
	a=$(now_ms)
	run "$i"
	b=$(now_ms)
	times="$times $((b - a))"
done
cached=$(echo $times | tr ' ' '\n' | sort -n | sed -n 3p)
echo "onestep program_lines=$lines cold_ms=$cold cached_ms=$cached"
bench_target "cold run" "$cold" "<" 1000 ms
bench_target "cached run" "$cached" "<" 50 ms
bench_end onestep

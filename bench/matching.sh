#!/bin/sh
# bench/matching.sh - MPI matching under bursts: 3 senders post bursts of B
# asynchronous 8-byte messages to one receiver, which posts its B receives
# per sender at once (100 bursts, 4 tasks on the analytic network, so that
# the MPI layer rather than the network model dominates). B = 250, 500,
# 1000, 2000, 4000. Receives and messages are matched through per-(source,
# tag) FIFOs (runtime/mpi/match.h), so the work per message must not grow
# with B.
#
# Targets: the simulation of B = 1000 under 3 s of wall time, and
# time(4000) / time(1000) < 6 (linear growth gives 4, a scan of the queues
# on every message 16).
#
# Prints one line per B: "matching B=... wall_s=... events=...".
. "$(dirname "$0")/lib/verdict.sh"
builddir=${NCSIM_BUILDDIR:-.}
ncsim=${NCSIM:-$builddir/ncsim}
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-matching.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
prog=$work/burst.ncptl

cat >"$prog" <<'EOT'
# bench/matching.sh: bursts of asynchronous messages from 3 senders into task 0
burst is "Messages in each burst" and comes from "--burst" or "-b" with default 1000.
reps is "Bursts" and comes from "--reps" or "-r" with default 100.
Require language version "1.5".
Assert that "one receiver and three senders" with num_tasks = 4.
For reps repetitions {
  tasks sender such that sender > 0 asynchronously send burst 8 byte messages to task 0 then
  all tasks await completion
}
EOT

# run B: simulates a burst of B; prints the wall time of the simulation from the
# summary (on stderr); the program is built once, before.
run() {
	XDG_CACHE_HOME=$work/cache "$ncsim" run "$prog" -n 4 --network analytic --no-progress --out "$work/out$1" \
		-- --burst "$1" >"$work/stdout$1" 2>&1 || { cat "$work/stdout$1" >&2; return 1; }
	sed -n 's/^ *wall time: *\([0-9.]*\) s.*/\1/p' "$work/stdout$1"
}

run 1 >/dev/null || exit 1 # builds the program into the cache
for b in 250 500 1000 2000 4000; do
	w=$(run $b) || exit 1
	ev=$(sed -n 's/^ *events: *\([0-9]*\).*/\1/p' "$work/stdout$b")
	echo "matching B=$b wall_s=$w events=$ev"
	eval "t$b=\$w"
done
ratio=$(awk -v a="$t4000" -v b="$t1000" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "none" }')
bench_target "wall time of B=1000" "$t1000" "<" 3 s
bench_target "time(4000) / time(1000)" "$ratio" "<" 6
bench_end matching

#!/bin/sh
# same_outputs.sh - two ncsim builds simulate the same runs: the check that
# goes with a speed change which must not change any result. Each case runs
# under both binaries; their exit status, stdout, stderr and every file of
# the output folder (summary.json, tasks.csv, links.csv, logs, ...) must be
# byte-identical once what differs between any two runs of one binary is
# removed (wall time, dates, the folder's path, the run's unique id and
# resource use in the logs, the binary's path and the path of the source
# tree that a build finds its bundled systems in).
#
# Cases:
#   every e2e program (tests/e2e/progs/NAME.expect: its tasks, args, options
#   and input) on tests/e2e/e2e-system.conf, and on df-tiny at the analytic,
#   flow, packet and hybrid levels (45 x 5; a program that fails on df-tiny
#   must fail the same way under both);
#   the Cosmoflow-like loop (examples/cosmoflow/cosmoflow_native.c), one
#   iteration, N = 300 on df-1056 with five allreduce algorithms at the
#   analytic, flow, packet and hybrid levels (5 x 4; --quick: ring and
#   recursive doubling at the analytic and flow levels).
#
# Usage: same_outputs.sh [--quick] REF_NCSIM NEW_NCSIM
# Exit status: 0 if every case agreed, 1 if one differed, 2 on bad usage.
quick=0
[ "$1" = --quick ] && { quick=1; shift; }
[ $# -eq 2 ] || { echo "usage: same_outputs.sh [--quick] REF_NCSIM NEW_NCSIM" >&2; exit 2; }
abspath() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
ref=$(abspath "$1") new=$(abspath "$2")
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
progs=$srcdir/tests/e2e/progs
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-same.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
failed=0 cases=0

# normalize FILE: the lines that differ between two runs of one binary, removed.
normalize() {
	sed -e "s|$work/out|OUT|g" -e 's|[^" ]*/stdlib/|STDLIB/|g' -e '/wall_s/d' -e '/wall time/d' -e '/^# Unique execution identifier:/d' \
		-e '/^# Log creation time:/d' -e '/^# Log completion time:/d' -e '/^# Elapsed time:/d' \
		-e '/^# Process CPU usage/d' -e '/^# Number of page faults/d' -e '/^# Peak memory allocation/d' \
		-e '/^# Executable name:/d' -e '/^# XDG_CACHE_HOME:/d' -e '/^# _:/d' "$1"
}

# run BIN LABEL DIR FILE ARGS...: one run in DIR; its outputs go to $work/LABEL.
run() {
	r_bin=$1 r_label=$2 r_dir=$3 r_file=$4
	shift 4
	rm -rf "$work/out"
	# Each binary has its own build cache: a compiled program must not cross builds.
	(cd "$r_dir" && XDG_CACHE_HOME=$work/cache-$r_label "$r_bin" run "$r_file" --out "$work/out" --no-wall-time \
		--no-progress "$@") >"$work/out.stdout" 2>"$work/out.stderr"
	echo $? >"$work/out.rc"
	rm -rf "$work/$r_label"
	mkdir -p "$work/$r_label"
	[ -d "$work/out" ] && mv "$work/out" "$work/$r_label/dir"
	mv "$work/out.stdout" "$work/out.stderr" "$work/out.rc" "$work/$r_label/"
}

# same NAME DIR FILE ARGS...: runs the case under both binaries and compares.
same() {
	s_name=$1
	shift
	run "$ref" ref "$@"
	run "$new" new "$@"
	cases=$((cases + 1))
	s_bad=
	: >"$work/diffs"
	for f in $( (cd "$work/ref" && find . -type f; cd "$work/new" && find . -type f) | sort -u); do
		if [ ! -f "$work/ref/$f" ] || [ ! -f "$work/new/$f" ]; then
			s_bad="$s_bad $f(missing)"
			continue
		fi
		normalize "$work/ref/$f" >"$work/a"
		normalize "$work/new/$f" >"$work/b"
		if ! cmp -s "$work/a" "$work/b"; then
			s_bad="$s_bad ${f#./}"
			diff "$work/a" "$work/b" | head -6 | sed "s|^|  ${f#./}: |" >>"$work/diffs"
		fi
	done
	if [ -n "$s_bad" ]; then
		echo "DIFFER: $s_name:$s_bad"
		cat "$work/diffs"
		failed=1
	fi
}

for e in "$progs"/*.expect; do
	name=$(basename "$e" .expect)
	tasks=$(sed -n 's/^tasks //p' "$e" | tail -1)
	args=$(sed -n 's/^args //p' "$e" | tail -1)
	input=$(sed -n 's/^input //p' "$e" | tail -1)
	opts=$(sed -n 's/^options //p' "$e" | tail -1)
	same "$name e2e" "$progs" "${input:-$name.ncptl}" -n "${tasks:-2}" --system "$srcdir/tests/e2e/e2e-system.conf" \
		$opts -- $args
	for net in analytic flow packet hybrid; do
		# --network last: it overrides an `options --network` of the .expect.
		same "$name df-tiny $net" "$progs" "${input:-$name.ncptl}" -n "${tasks:-2}" --system df-tiny $opts \
			--network "$net" -- $args
	done
done

if [ $quick = 1 ]; then
	algos="ring recursive_doubling" nets="analytic flow"
else
	algos="ring recursive_doubling rabenseifner segmented_ring reduce_bcast" nets="analytic flow packet hybrid"
fi
for a in $algos; do
	{ cat "$srcdir/stdlib/systems/df-1056.conf"; printf '\n[collectives]\nallreduce = %s\n' "$a"; } >"$work/$a.conf"
	for net in $nets; do
		same "cosmoflow N=300 $a $net" "$work" "$srcdir/examples/cosmoflow/cosmoflow_native.c" -n 300 \
			--system "$work/$a.conf" --network "$net" -- --iters 1
	done
done

echo "same_outputs: $cases cases, $([ $failed = 0 ] && echo 'all identical' || echo 'some DIFFER')"
exit $failed

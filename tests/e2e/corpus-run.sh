#!/bin/sh
# tests/e2e/corpus-run.sh - runs every program of the coNCePTuaL corpus
# (the folder named by NCPTL_CORPUS) with `ncsim run` on the built-in
# default system, with the small arguments of corpus-args.txt, and requires
# exit status 0. Prints one row per program: tasks, arguments, simulated
# time and wall time. Skipped (77) when NCPTL_CORPUS is not set.
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ncsim=${NCSIM:-./ncsim}
[ -n "$NCPTL_CORPUS" ] || { echo "NCPTL_CORPUS is not set: skipped"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-corpus.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
: "${XDG_CACHE_HOME:=$work/cache}"
export XDG_CACHE_HOME

args_file=$srcdir/tests/e2e/corpus-args.txt
[ -d "$NCPTL_CORPUS" ] || { echo "FAIL: NCPTL_CORPUS=$NCPTL_CORPUS is not a folder"; exit 1; }
grep -q '^[^#]' "$args_file" || { echo "FAIL: no program listed in $args_file"; exit 1; }
printf '%-16s %5s  %-60s %16s %9s\n' program tasks arguments "simulated (us)" "wall (s)"
grep -v '^#' "$args_file" | while read -r prog tasks args; do
	[ -n "$prog" ] || continue
	src=$NCPTL_CORPUS/$prog.ncptl
	if [ ! -f "$src" ]; then
		echo "$prog: not in $NCPTL_CORPUS"
		echo x >>"$work/failed"
		continue
	fi
	start=$(date +%s.%N)
	$ncsim run "$src" -n "$tasks" --out "$work/$prog" -- $args >"$work/$prog.stdout" 2>"$work/$prog.stderr"
	rc=$?
	end=$(date +%s.%N)
	sim=$(sed -n 's/^ *simulated time: *\([0-9.]*\) us/\1/p' "$work/$prog.stderr")
	wall=$(echo "$end $start" | awk '{ printf "%.3f", $1 - $2 }')
	printf '%-16s %5s  %-60s %16s %9s\n' "$prog" "$tasks" "$args" "${sim:--}" "$wall"
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: $prog exited with $rc"
		sed 's/^/  /' "$work/$prog.stderr" | head -8
		echo x >>"$work/failed"
	fi
done
[ ! -f "$work/failed" ]

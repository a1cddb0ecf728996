#!/bin/sh
# tests/e2e/run-e2e.sh - end-to-end tests: compile, build and simulate each
# tests/e2e/progs/NAME.ncptl on tests/e2e/e2e-system.conf with `ncsim run`,
# and compare the figures with NAME.expect, whose lines are:
#
#   # comment               why the values are what they are
#   tasks N                 number of tasks (default 2)
#   args ...                the program's own options (after --)
#   exit N                  expected exit status (default 0)
#   out LINE                LINE must be one of the lines on stdout (exact)
#   outsub TEXT             some line of stdout must contain TEXT
#   err TEXT                stderr must contain TEXT
#   log RANK LINE           LINE must be a line of task RANK's log file (exact)
#   input FILE              run FILE (e.g. a .vef trace) instead of NAME.ncptl
#   json TEXT               summary.json contains TEXT, blanks removed from both
#   same OTHER FILE         FILE of the output folder is byte-identical to the
#                           FILE of test OTHER's (run first if it was not)
#
# Usage: run-e2e.sh [NAME...]   (NCSIM names the binary; default ./ncsim)
# Exit status: 0 if every test passed, 1 otherwise.
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ncsim=${NCSIM:-./ncsim}
progs=$srcdir/tests/e2e/progs
system=$srcdir/tests/e2e/e2e-system.conf
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-e2e.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
: "${XDG_CACHE_HOME:=$work/cache}"
export XDG_CACHE_HOME

if [ $# -eq 0 ]; then
	set -- $(cd "$progs" && ls *.expect | sed 's/\.expect$//')
fi

# Runs test $1 once: its output folder is $work/$1, its status $work/$1.rc.
run_one() {
	[ -f "$work/$1.rc" ] && return 0
	r_expect=$progs/$1.expect
	r_tasks=$(sed -n 's/^tasks //p' "$r_expect" | tail -1)
	r_args=$(sed -n 's/^args //p' "$r_expect" | tail -1)
	r_input=$(sed -n 's/^input //p' "$r_expect" | tail -1)
	(cd "$progs" && $ncsim run "${r_input:-$1.ncptl}" -n "${r_tasks:-2}" --system "$system" --no-wall-time \
		--out "$work/$1" -- $r_args) >"$work/$1.stdout" 2>"$work/$1.stderr"
	echo $? >"$work/$1.rc"
}

failed=0
total=0
for name in "$@"; do
	total=$((total + 1))
	expect=$progs/$name.expect
	status=$(sed -n 's/^exit //p' "$expect" | tail -1)
	out=$work/$name
	run_one "$name"
	rc=$(cat "$out.rc")
	bad=""
	[ "$rc" -eq "${status:-0}" ] || bad="exit status $rc, expected ${status:-0}"
	while IFS= read -r line; do
		[ -n "$bad" ] && break
		case $line in
		"out "*)
			grep -qxF -- "${line#out }" "$out.stdout" || bad="stdout lacks the line: ${line#out }" ;;
		"outsub "*)
			grep -qF -- "${line#outsub }" "$out.stdout" || bad="stdout lacks: ${line#outsub }" ;;
		"err "*)
			grep -qF -- "${line#err }" "$out.stderr" || bad="stderr lacks: ${line#err }" ;;
		"json "*)
			want=$(printf '%s' "${line#json }" | tr -d ' \t')
			tr -d ' \t\n' <"$out/summary.json" 2>/dev/null | grep -qF -- "$want" ||
				bad="summary.json lacks: $want" ;;
		"same "*)
			rest=${line#same }
			other=${rest%% *}
			file=${rest#* }
			run_one "$other"
			cmp -s "$out/$file" "$work/$other/$file" || bad="$file differs from test $other's" ;;
		"log "*)
			rest=${line#log }
			rank=${rest%% *}
			want=${rest#* }
			log=$(ls "$out"/logs/*-"$rank".log 2>/dev/null | head -1)
			if [ -z "$log" ]; then
				bad="no log file of task $rank in $out/logs"
			else
				grep -qxF -- "$want" "$log" || bad="log of task $rank lacks the line: $want"
			fi ;;
		esac
	done <"$expect"
	if [ -n "$bad" ]; then
		failed=$((failed + 1))
		echo "FAIL: $name: $bad"
		sed 's/^/  stdout: /' "$out.stdout" | head -20
		sed 's/^/  stderr: /' "$out.stderr" | head -10
	else
		echo "PASS: $name"
	fi
done
echo "$((total - failed)) of $total end-to-end tests passed"
[ "$failed" -eq 0 ]

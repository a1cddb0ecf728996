#!/bin/sh
# tests/e2e/run-e2e.sh - end-to-end tests: compile, build and simulate each
# tests/e2e/progs/NAME.ncptl on tests/e2e/e2e-system.conf with `ncsim run`,
# and compare the figures with NAME.expect, whose lines are:
#
#   # comment               why the values are what they are
#   (blank line)            ignored
#   tasks N                 number of tasks (default 2)
#   args ...                the program's own options (after --)
#   options ...             options of `ncsim run` itself (e.g. --oversubscribe)
#   exit N                  expected exit status (default 0)
#   exact LINE              exact-output mode: stdout must be the `exact` lines,
#                           in this order, and nothing else (byte for byte; a
#                           bare `exact` stands for an empty line). Use it when
#                           the order of the lines follows from the simulated
#                           times (one task prints, or the times differ)
#   stdout-empty            stdout must be empty
#   out LINE                LINE must be one of the lines on stdout (exact); for
#                           lines whose order is not fixed (tasks printing at
#                           the same simulated time)
#   outsub TEXT             some line of stdout must contain TEXT
#   err TEXT                stderr must contain TEXT
#   log RANK LINE           LINE must be a line of task RANK's log file (exact)
#   input FILE              run FILE (e.g. a .vef trace) instead of NAME.ncptl
#   json TEXT               summary.json contains TEXT, blanks removed from both
#   same OTHER FILE         FILE of the output folder is byte-identical to the
#                           FILE of test OTHER's (run first if it was not)
#
# Any other line is an error (a misspelt directive must not drop its check),
# as are a directive without its argument and a test with no check besides
# its exit status.
#
# Usage: run-e2e.sh [NAME...]   (NCSIM names the binary; default ./ncsim)
# Exit status: 0 if every test passed, 1 otherwise.
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ncsim=${NCSIM:-$(pwd)/ncsim}
progs=$srcdir/tests/e2e/progs
system=$srcdir/tests/e2e/e2e-system.conf
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-e2e.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
: "${XDG_CACHE_HOME:=$work/cache}"
export XDG_CACHE_HOME

if [ $# -eq 0 ]; then
	set -- $(cd "$progs" && ls *.expect | sed 's/\.expect$//')
	[ $# -gt 0 ] || { echo "FAIL: no .expect file in $progs"; exit 1; }
fi

# Runs test $1 once: its output folder is $work/$1, its status $work/$1.rc.
run_one() {
	[ -f "$work/$1.rc" ] && return 0
	r_expect=$progs/$1.expect
	r_tasks=$(sed -n 's/^tasks //p' "$r_expect" | tail -1)
	r_args=$(sed -n 's/^args //p' "$r_expect" | tail -1)
	r_input=$(sed -n 's/^input //p' "$r_expect" | tail -1)
	r_opts=$(sed -n 's/^options //p' "$r_expect" | tail -1)
	(cd "$progs" && $ncsim run "${r_input:-$1.ncptl}" -n "${r_tasks:-2}" --system "$system" --no-wall-time \
		$r_opts --out "$work/$1" -- $r_args) >"$work/$1.stdout" 2>"$work/$1.stderr"
	echo $? >"$work/$1.rc"
}

# check_line LINE: checks one directive of $expect against test $name's
# output ($out); sets `bad` to the reason on a mismatch, counts `checks`.
check_line() {
	line=$1
	case $line in "#"*) return ;; esac
	[ -n "$(printf '%s' "$line" | tr -d ' \t')" ] || return
	d=${line%% *}
	arg=
	case $line in *" "*) arg=${line#* } ;; esac
	case $d in
	exact) checks=$((checks + 1)); return ;;  # compared as a whole after the loop
	stdout-empty)
		checks=$((checks + 1))
		if [ -n "$arg" ]; then bad="stdout-empty takes no argument: $line"
		elif [ -s "$out.stdout" ]; then bad="stdout is not empty"; fi
		return ;;
	tasks | args | options | exit | input | out | outsub | err | json | same | log)
		[ -n "$arg" ] || { bad="directive without its argument: $line"; return; } ;;
	*) bad="unknown directive: $line"; return ;;
	esac
	case $d in
	tasks | args | options | exit | input) return ;;  # read by run_one and the exit check
	out)
		grep -qxF -- "$arg" "$out.stdout" || bad="stdout lacks the line: $arg" ;;
	outsub)
		grep -qF -- "$arg" "$out.stdout" || bad="stdout lacks: $arg" ;;
	err)
		grep -qF -- "$arg" "$out.stderr" || bad="stderr lacks: $arg" ;;
	json)
		want=$(printf '%s' "$arg" | tr -d ' \t')
		if [ ! -f "$out/summary.json" ]; then
			bad="no summary.json in $out"
		elif ! tr -d ' \t\n' <"$out/summary.json" | grep -qF -- "$want"; then
			bad="summary.json lacks: $want"
		fi ;;
	same)
		other=${arg%% *}
		file=${arg#* }
		if [ ! -f "$progs/$other.expect" ] || [ "$file" = "$arg" ]; then
			bad="same needs OTHER FILE, OTHER a test: $line"
			return
		fi
		run_one "$other"
		if [ ! -f "$out/$file" ]; then
			bad="no $file in $out"
		elif ! cmp -s "$out/$file" "$work/$other/$file"; then
			bad="$file differs from test $other's"
		fi ;;
	log)
		rank=${arg%% *}
		want=${arg#* }
		log=$(ls "$out"/logs/*-"$rank".log 2>/dev/null | head -1)
		if [ -z "$log" ]; then
			bad="no log file of task $rank in $out/logs"
		else
			grep -qxF -- "$want" "$log" || bad="log of task $rank lacks the line: $want"
		fi ;;
	esac
	checks=$((checks + 1))
}

failed=0
total=0
for name in "$@"; do
	total=$((total + 1))
	expect=$progs/$name.expect
	out=$work/$name
	bad=""
	checks=0
	if [ ! -f "$expect" ]; then
		failed=$((failed + 1))
		echo "FAIL: $name: no file $expect"
		continue
	fi
	status=$(sed -n 's/^exit //p' "$expect" | tail -1)
	run_one "$name"
	rc=$(cat "$out.rc")
	[ "$rc" -eq "${status:-0}" ] || bad="exit status $rc, expected ${status:-0}"
	while [ -z "$bad" ] && { IFS= read -r line || [ -n "$line" ]; }; do
		check_line "$line"
	done <"$expect"
	[ -n "$bad" ] || [ "$checks" -gt 0 ] || bad="no check besides the exit status"
	if [ -z "$bad" ] && grep -qE '^exact( |$)' "$expect"; then
		sed -n 's/^exact //p; s/^exact$//p' "$expect" >"$out.exact"
		if ! cmp -s "$out.exact" "$out.stdout"; then
			bad="stdout is not exactly the exact lines:"
			diff -u "$out.exact" "$out.stdout" | sed '1,2d; s/^/  /' >"$out.diff"
		fi
	fi
	if [ -n "$bad" ]; then
		failed=$((failed + 1))
		echo "FAIL: $name: $bad"
		[ -f "$out.diff" ] && cat "$out.diff"
		sed 's/^/  stdout: /' "$out.stdout" | head -20
		sed 's/^/  stderr: /' "$out.stderr" | head -10
	else
		echo "PASS: $name"
	fi
done
echo "$((total - failed)) of $total end-to-end tests passed"
[ "$failed" -eq 0 ]

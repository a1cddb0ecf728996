#!/bin/bash
# tests/hostile/run-hostile.sh - the hostile-input suite: files a user might be handed
# (programs, workload, allocation and system files, CODES configs, VEF traces, CDF
# tables, C skeletons) and options that try to crash, hang, exhaust memory, act on the
# host or leave half an output. Each case file under cases/ is a bash fragment that
# calls `hcase NAME EXIT 'STDERR TEXT' -- COMMAND...` once per case:
#
#   hcase NAME EXIT TEXT -- CMD...   run CMD (in a fresh folder, with a time and memory
#                                    limit); it must exit with EXIT, its stderr must
#                                    contain TEXT (empty: no check), and no output folder
#                                    may be left behind unless the case says `keep`
#   hkeep                            the next case may leave its output folder
#   hafter 'SHELL TEST'              the next case must also satisfy this test, run in
#                                    its folder after the command (e.g. '[ ! -e pwned ]')
#
# Cases run with the fresh folder as the working directory and should name their
# output folder `--out out`; `$ncsim` is the binary, `$src` the source tree, and
# `$in` a folder where case files write the inputs they generate before calling hcase.
# A case fails on a wrong exit status, a missing message, a leftover output folder or
# temporary file, a timeout (LIMIT_S seconds, 20 by default), or a sanitizer report.
#
# Usage: run-hostile.sh [CASEFILE...]   Exit status: 0 if every case passed, 1 otherwise.
src=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ncsim=${NCSIM:-$src/ncsim}
limit_s=${LIMIT_S:-20}
limit_kb=${LIMIT_KB:-4194304}
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-hostile.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
: "${XDG_CACHE_HOME:=$work/cache}"
export XDG_CACHE_HOME
in=$work/in
mkdir -p "$in"
failed=0
total=0
keep_next=0
after=
cur=

hkeep() { keep_next=1; }
hafter() { after=$1; }

hcase() {
	local name=$1 want=$2 text=$3 rc bad=
	shift 3
	[ "$1" = -- ] && shift
	total=$((total + 1))
	cur=$work/case$total
	mkdir -p "$cur"
	(
		cd "$cur" || exit 2
		ulimit -v "$limit_kb" 2>/dev/null
		timeout -s KILL "$limit_s" "$@" >"$cur.stdout" 2>"$cur.stderr"
	)
	rc=$?
	if [ "$rc" -eq 137 ]; then
		bad="killed after ${limit_s}s (hang?) or by the memory limit"
	elif [ "$rc" -ne "$want" ]; then
		bad="exit status $rc, expected $want"
	elif [ -n "$text" ] && ! grep -qF -- "$text" "$cur.stderr"; then
		bad="stderr lacks: $text"
	elif grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$cur.stderr"; then
		bad="sanitizer report"
	elif [ "$keep_next" -eq 0 ] && [ -e "$cur/out" ]; then
		bad="an output folder was left behind"
	elif [ -n "$(find "$cur" -name '*.tmp' -o -name '.ncsim-tmp*' | head -1)" ]; then
		bad="a temporary file was left behind"
	elif [ -n "$after" ] && ! (cd "$cur" && eval "$after"); then
		bad="failed: $after"
	fi
	keep_next=0
	after=
	if [ -n "$bad" ]; then
		failed=$((failed + 1))
		echo "FAIL: $name: $bad"
		sed 's/^/  stderr: /' "$cur.stderr" | head -8
	else
		echo "PASS: $name"
	fi
}

[ $# -eq 0 ] && set -- "$src"/tests/hostile/cases/*.sh
for f in "$@"; do
	# shellcheck source=/dev/null
	. "$f"
done
echo "$((total - failed)) of $total hostile-input cases passed"
[ "$failed" -eq 0 ]

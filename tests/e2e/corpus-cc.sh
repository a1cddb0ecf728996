#!/bin/sh
# tests/e2e/corpus-cc.sh - generated C must compile with -Wall -Wextra -Werror:
# ncsim's own programs (tests/e2e/progs, stdlib/workloads, examples) always,
# and every program of the coNCePTuaL corpus when NCPTL_CORPUS names it.
# Also checks the #line directives: no line of generated C is numbered past
# the end of its .ncptl file (code between statements and statement code that
# would run past the end is numbered as lines of the generated file). Last,
# a hand-written C skeleton with a warning: `ncsim run` must show it.
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ncsim=${NCSIM:-./ncsim}
cc=${CC:-cc}
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-cc.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
n=0
for src in "$srcdir"/tests/e2e/progs/*.ncptl "$srcdir"/stdlib/workloads/*.ncptl "$srcdir"/examples/*.ncptl \
	${NCPTL_CORPUS:+"$NCPTL_CORPUS"/*.ncptl}; do
	[ -f "$src" ] || continue
	name=$(basename "$src" .ncptl)
	n=$((n + 1))
	if ! $ncsim compile "$src" -o "$work/$name.c" 2>"$work/$name.err"; then
		# programs that must not compile are the e2e tests of diagnostics
		grep -q "^exit 1" "${src%.ncptl}.expect" 2>/dev/null && { n=$((n - 1)); continue; }
		echo "FAIL: ncsim compile $name"
		sed 's/^/  /' "$work/$name.err" | head -5
		failed=$((failed + 1))
	elif ! $cc -std=gnu99 -Wall -Wextra -Werror -c -I"$srcdir/include" "$work/$name.c" -o "$work/$name.o" \
		2>"$work/$name.err"; then
		echo "FAIL: cc $name.c"
		sed 's/^/  /' "$work/$name.err" | head -10
		failed=$((failed + 1))
	else
		lines=$(awk 'END { print NR }' "$src")
		bad=$(awk -v n="$lines" '/^#line [0-9]+ ".*\.ncptl"$/ { src = 1; at = $2; next }
			/^#line / { src = 0; next }
			src && at > n { print NR ": numbered " at; exit }
			src { at++ }' "$work/$name.c")
		if [ -n "$bad" ]; then
			echo "FAIL: $name.c line $bad, past the end of $name.ncptl ($lines lines)"
			failed=$((failed + 1))
		fi
	fi
done
echo "$((n - failed)) of $n programs compile to warning-free C"

# User C is built with warnings on, and `ncsim run` shows them.
cat >"$work/warn.c" <<'EOF'
#include <ncsim/rt.h>
static void body(rt_task *t)
{
	int never_used;
	rt_barrier(t, rt_world(t));
}
static const rt_program program = { .abi = NCSIM_RT_ABI, .name = "warn", .entry = body };
NCSIM_SKELETON(program)
EOF
if ! XDG_CACHE_HOME="$work/cache" $ncsim run "$work/warn.c" -n 2 --no-progress --out "$work/o-warn" \
	>/dev/null 2>"$work/warn.err"; then
	echo "FAIL: the skeleton with a warning does not run"
	sed 's/^/  /' "$work/warn.err" | head -5
	failed=$((failed + 1))
elif ! grep -q "warn.c:4:.*never_used" "$work/warn.err"; then
	echo "FAIL: the C compiler's warning about warn.c:4 is not shown"
	failed=$((failed + 1))
fi
[ "$failed" -eq 0 ]

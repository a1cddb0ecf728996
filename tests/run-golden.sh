#!/bin/sh
# run-golden.sh - golden tests of the front end.
#
#   tests/golden/ast/NAME.ncptl     `ncsim check --syntax-only --ast` must exit 0 and print NAME.ast
#   tests/golden/errors/NAME.ncptl  `ncsim check --syntax-only` must print NAME.err on stderr and exit
#                                   1 if NAME.err holds an `error:` line, else 0
#
# These are tests of the front end (scanner, parser, AST), so semantic checks
# are off: the programs use variables freely.  Any mismatch prints a diff and makes the script fail.  Environment:
# NCSIM_SRCDIR (source tree), NCSIM (the ncsim binary), NCSIM_CHECK (the check
# command, default "$NCSIM check"), GOLDEN_DIR (default $NCSIM_SRCDIR/tests/golden).
# The coNCePTuaL corpus has its own test, tests/run-corpus.sh.
# Run with UPDATE=1 to rewrite the expected files instead (then review the diff).
set -u
srcdir=${NCSIM_SRCDIR:-.}
golden=${GOLDEN_DIR:-$srcdir/tests/golden}
check=${NCSIM_CHECK:-${NCSIM:-./ncsim} check}
tmp=${TMPDIR:-/tmp}/ncsim-golden.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

for src in "$golden"/ast/*.ncptl; do
	[ -e "$src" ] || continue
	name=$(basename "$src" .ncptl)
	n=$((n + 1))
	(cd "$golden/ast" && $check --syntax-only --ast "$name.ncptl") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "${UPDATE:-0}" = 1 ]; then cp "$tmp/out" "$golden/ast/$name.ast"; fi
	if [ $rc -ne 0 ]; then
		echo "FAIL ast/$name: exit status $rc, expected 0"; cat "$tmp/err"; fail=1
	elif ! diff -u "$golden/ast/$name.ast" "$tmp/out" >"$tmp/diff"; then
		echo "FAIL ast/$name: AST differs"; cat "$tmp/diff"; fail=1
	fi
done

for src in "$golden"/errors/*.ncptl; do
	[ -e "$src" ] || continue
	name=$(basename "$src" .ncptl)
	n=$((n + 1))
	(cd "$golden/errors" && $check --syntax-only "$name.ncptl") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "${UPDATE:-0}" = 1 ]; then cp "$tmp/err" "$golden/errors/$name.err"; fi
	want=0
	grep -q ': error: ' "$golden/errors/$name.err" 2>/dev/null && want=1
	if [ $rc -ne $want ]; then
		echo "FAIL errors/$name: exit status $rc, expected $want"; cat "$tmp/err"; fail=1
	elif ! diff -u "$golden/errors/$name.err" "$tmp/err" >"$tmp/diff"; then
		echo "FAIL errors/$name: diagnostics differ"; cat "$tmp/diff"; fail=1
	elif [ -s "$tmp/out" ]; then
		echo "FAIL errors/$name: unexpected output on stdout"; fail=1
	fi
done

# An empty or misplaced folder must not pass as "nothing differs".
for d in ast errors; do
	ls "$golden/$d"/*.ncptl >/dev/null 2>&1 || { echo "FAIL: no program in $golden/$d"; fail=1; }
done
echo "golden: $n programs checked"
exit $fail

#!/bin/sh
# run-golden-sema.sh - golden tests of semantic analysis (lang/sema.h).
#
#   tests/golden/sema/NAME.ncptl   `ncsim check NAME.ncptl`, run in that folder,
#                                  must print exactly NAME.err on stderr (empty
#                                  or missing: nothing), nothing on stdout, and
#                                  exit 1 if NAME.err holds an `error:` line,
#                                  else 0.  Programs named ok_* must have no error.
#   $NCPTL_CORPUS/*.ncptl          (optional) must pass with exit status 0.
#
# Environment: NCSIM_SRCDIR, NCSIM (the binary).  UPDATE=1 rewrites the
# expected files (review the diff before committing).
set -u
srcdir=${NCSIM_SRCDIR:-.}
dir=$srcdir/tests/golden/sema
ncsim=${NCSIM:-./ncsim}
tmp=${TMPDIR:-/tmp}/ncsim-sema.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0 nerr=0
: >"$tmp/empty"

for src in "$dir"/*.ncptl; do
	[ -e "$src" ] || continue
	name=$(basename "$src" .ncptl)
	n=$((n + 1))
	(cd "$dir" && "$ncsim" check "$name.ncptl") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "${UPDATE:-0}" = 1 ]; then
		if [ -s "$tmp/err" ]; then cp "$tmp/err" "$dir/$name.err"; else rm -f "$dir/$name.err"; fi
	fi
	exp="$dir/$name.err"
	[ -e "$exp" ] || exp=$tmp/empty
	want=0
	grep -q ': error: ' "$exp" && want=1
	case $name in ok_*) if [ $want = 1 ]; then echo "FAIL $name: an ok_ program expects errors"; fail=1; fi ;; esac
	[ $want = 1 ] && nerr=$((nerr + 1))
	if [ $rc -ne $want ]; then
		echo "FAIL $name: exit status $rc, expected $want"; cat "$tmp/err"; fail=1
	elif ! diff -u "$exp" "$tmp/err" >"$tmp/diff"; then
		echo "FAIL $name: diagnostics differ"; cat "$tmp/diff"; fail=1
	elif [ -s "$tmp/out" ]; then
		echo "FAIL $name: unexpected output on stdout"; fail=1
	fi
done
[ $n -gt 0 ] || { echo "no program in $dir"; exit 1; }

if [ -n "${NCPTL_CORPUS:-}" ]; then
	for src in "$NCPTL_CORPUS"/*.ncptl; do
		[ -e "$src" ] || continue
		n=$((n + 1))
		if ! "$ncsim" check "$src" >"$tmp/out" 2>"$tmp/err"; then
			echo "FAIL corpus $(basename "$src")"; cat "$tmp/err"; fail=1
		fi
	done
fi
echo "sema golden: $n programs checked ($nerr with errors)"
exit $fail
